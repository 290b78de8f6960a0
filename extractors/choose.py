"""The rule table, and the choice among a paper's candidates: which overlapping candidate
wins, which retyping follows, and the assembly of the chosen ones into Mentions.

Every rule is one row of :data:`RULES`: its name (stored in each saved mention), the
confidence of its mentions and its priority where candidates overlap (lower first).
"""

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from kg.extractors.kinds import collection_type, used_as_technique
from kg.extractors.lexicon import Entry
from kg.extractors.names import plain_key
from kg.extractors.records import (
    COLLECTION_TYPES,
    CONCEPT,
    IGNORE,
    METHOD,
    TASK,
    Mention,
    mention_from_fields,
)
from kg.extractors.rules.proposals import is_proposal_context
from kg.extractors.variants import version_name
from kg.extractors.words import word_set

# ---------------------------------------------------------------- the rules

ABBREVIATION_LEXICON = "abbreviation+lexicon"
ABBREVIATION = "abbreviation"
SHORT_FORM = "short-form"
MODEL_VERSION = "model-version"
TASK_NOUN = "task-noun"
LEXICON = "lexicon"
HEADED_NAME = "headed-name"
PROPOSAL = "proposal"
DEFINITION = "definition"
SHARED_HEAD = "shared-head"
ACRONYM_USE = "acronym-use"
MEASURED_VALUE = "measured-value"
TITLE_CASE = "title-case"
COINED_NAME = "coined-name"
OPENING_SUBJECT = "opening-subject"
METRIC_PHRASE = "metric-phrase"
TASK_PHRASE = "task-phrase"
TASK_GERUND = "task-gerund"
SENSE_BY_CONTEXT = "sense-by-context"
LIST_NAME = "list-name"
RESULT_SUBJECT = "result-subject"
OWN_NAME = "own-name"
METHOD_HEADED = "method-headed"
METRIC_HEADED = "metric-headed"
CORPUS_TERM = "corpus-term"


@dataclass(frozen=True)
class Rule:
    """One rule: its ``name``, the ``score`` of its mentions and its ``priority`` where
    candidates overlap (lower wins)."""

    name: str
    score: float
    priority: int


#: Every rule, by priority.
RULES = (
    Rule(ABBREVIATION_LEXICON, 0.95, 0),
    Rule(ABBREVIATION, 0.85, 0),
    Rule(SHORT_FORM, 0.0, 0),
    Rule(MODEL_VERSION, 0.9, 1),
    Rule(METRIC_HEADED, 0.75, 1),
    Rule(TASK_NOUN, 0.7, 1),
    Rule(LEXICON, 0.9, 2),
    Rule(SENSE_BY_CONTEXT, 0.8, 2),
    Rule(HEADED_NAME, 0.8, 3),
    Rule(PROPOSAL, 0.8, 3),
    Rule(DEFINITION, 0.75, 3),
    Rule(SHARED_HEAD, 0.8, 3),
    Rule(METHOD_HEADED, 0.7, 3),
    Rule(OWN_NAME, 0.7, 4),
    Rule(LIST_NAME, 0.65, 4),
    Rule(RESULT_SUBJECT, 0.6, 4),
    Rule(ACRONYM_USE, 0.85, 4),
    Rule(MEASURED_VALUE, 0.65, 4),
    Rule(TITLE_CASE, 0.6, 5),
    Rule(COINED_NAME, 0.5, 6),
    Rule(OPENING_SUBJECT, 0.6, 6),
    Rule(METRIC_PHRASE, 0.55, 7),
    Rule(TASK_PHRASE, 0.55, 7),
    Rule(TASK_GERUND, 0.5, 7),
    Rule(CORPUS_TERM, 0.5, 8),
)
RULE_NAMES = tuple(r.name for r in RULES)
#: Confidence of each rule's mentions.
RULE_SCORES = {r.name: r.score for r in RULES}
#: Order in which overlapping candidates win (lower first).
_PRIORITY = {r.name: r.priority for r in RULES}
#: Rules whose mentions the lexicon named.
LEXICON_RULES = (LEXICON, ABBREVIATION_LEXICON, MODEL_VERSION)
#: The rules of task phrases found by their words alone (capped by MAX_TASK_PHRASES).
_TASK_PHRASE_RULES = (TASK_PHRASE, TASK_GERUND)

MAX_TASK_PHRASES = 3
#: Learning paradigms that name a field after "in"/"of" rather than a method used.
PARADIGMS = word_set("paradigms")


class Candidate:
    """A span some rule or the lexicon proposes, with its type and canonical name."""

    __slots__ = ("start", "end", "type", "canonical", "rule", "long_form", "entry")

    def __init__(
        self,
        start: int,
        end: int,
        type: str,
        canonical: str,
        rule: str,
        long_form: str | None = None,
        entry: Entry | None = None,
    ) -> None:
        self.start, self.end, self.type, self.canonical = start, end, type, canonical
        self.rule, self.long_form, self.entry = rule, long_form, entry


# ---------------------------------------------------------------- choice


def choose(text: str, candidates: list[Candidate]) -> list[Candidate]:
    """The candidates that become mentions, in text order: known methods inside longer
    names dropped, overlaps settled, list neighbours typed alike, late task phrases capped."""
    return _cap_task_phrases(
        typed_like_list_neighbours(
            text, _select(_without_named_suffixes(text, _techniques_typed(text, candidates)))
        )
    )


def _techniques_typed(text, candidates):
    """Learning paradigms and other task names that also name a technique, typed Task
    ("multi-task learning", "quantile regression"), become Methods where the sentence uses
    them as a technique ("via multi-task learning", "metric learning methods", "using
    quantile regression"): :func:`kg.extractors.kinds.used_as_technique`."""
    for c in candidates:
        if (
            c.type == TASK
            and _names_a_technique((c.long_form or c.canonical).lower())
            and used_as_technique(text, c.start, c.end)
        ):
            c.type = METHOD
    return candidates


#: Heads of task names that also name a technique (data/words/technique_task_heads.txt).
_TECHNIQUE_TASK_HEADS = word_set("technique_task_heads")


def _names_a_technique(name: str) -> bool:
    """Whether a task's name can name a technique too: a learning paradigm ("multi-task
    learning") or a name with a head of technique_task_heads.txt ("quantile regression").

    >>> _names_a_technique("compressed sensing"), _names_a_technique("image classification")
    (True, False)
    """
    return name.endswith("learning") or name.rsplit(" ", 1)[-1] in _TECHNIQUE_TASK_HEADS


def _without_named_suffixes(text, candidates):
    """The candidates without the known Methods that end a longer capitalised or proposed
    name, right after a capitalised word of it: the longer name is a method of its own
    ("Multivariate Group Orthogonal Matching Pursuit" is not orthogonal matching pursuit;
    "Schema Networks with A3C" still names A3C)."""
    starts: dict[int, set[int]] = {}
    for c in candidates:
        if c.rule in (TITLE_CASE, PROPOSAL):
            starts.setdefault(c.end, set()).add(c.start)
    if not starts:
        return candidates
    return [
        c
        for c in candidates
        if not (
            c.rule == LEXICON
            and c.type == METHOD
            and any(
                start < c.start and text[start : c.start].split()[-1][:1].isupper()
                for start in starts.get(c.end, ())
            )
        )
    ]


def _select(candidates):
    """Non-overlapping candidates: higher-priority rules first, then longer spans."""
    ordered = sorted(candidates, key=lambda c: (_PRIORITY[c.rule], c.start - c.end, c.start))
    taken: list[tuple[int, int]] = []
    chosen: list[Candidate] = []
    for c in ordered:
        if c.type == IGNORE and c.rule not in (LEXICON, SHORT_FORM):
            continue
        i = bisect.bisect_left(taken, (c.start, c.end))
        if i > 0 and taken[i - 1][1] > c.start or i < len(taken) and taken[i][0] < c.end:
            if not _refines_task(c, chosen):
                continue
        taken.insert(i, (c.start, c.end))
        chosen.append(c)
    return sorted(chosen, key=lambda c: c.start)


def _refines_task(c, chosen):
    """A task phrase that strictly contains only Task mentions ("rectangular matrix
    denoising" around "matrix denoising") is kept beside them."""
    if c.type != TASK:
        return False
    overlapping = [o for o in chosen if o.start < c.end and c.start < o.end]
    return all(
        o.type == TASK
        and c.start <= o.start
        and o.end <= c.end
        and (o.end - o.start) < (c.end - c.start)
        for o in overlapping
    )


def _cap_task_phrases(chosen):
    """The first MAX_TASK_PHRASES distinct task phrases of an abstract stay Tasks (the
    problem an abstract addresses comes early); later ones become keyphrase Concepts."""
    kept: list[Candidate] = []
    seen: set[str] = set()
    for c in chosen:
        if c.rule in _TASK_PHRASE_RULES:
            if c.canonical not in seen and len(seen) >= MAX_TASK_PHRASES:
                c.type = CONCEPT
            else:
                seen.add(c.canonical)
        kept.append(c)
    return kept


_LIST_GAP = re.compile(r",? (?:and |or |& )?|, ")


def typed_like_list_neighbours(text: str, chosen: list[Candidate]) -> list[Candidate]:
    """Coined names typed Method for want of a cue become Datasets/Benchmarks when they
    stand in a list of them ("VUA-18, VUA-20, MOH-X, and TroFi"), unless a name the rules
    know as a method is in the list too ("CART, ID3, C4, MARS")."""
    run = chosen[:1]
    following: list[Candidate | None] = [*chosen[1:], None]
    for c in following:
        if (
            c is not None
            and c.start - run[-1].end <= 6
            and _LIST_GAP.fullmatch(text, run[-1].end, c.start)
        ):
            run.append(c)
            continue
        kinds = [m.type for m in run if m.type in COLLECTION_TYPES]
        if kinds and not any(m.type == METHOD and m.rule != COINED_NAME for m in run):
            for m in run:
                if m.type == METHOD:
                    m.type = kinds[0]
        run = [c] if c is not None else []
    return chosen


def _is_field_use(text, c):
    """A paradigm named as a field ("a task in reinforcement learning"), not as a method."""
    if c.entry is None or c.entry.canonical not in PARADIGMS:
        return False
    before = text[max(0, c.start - 4) : c.start].lower()
    return before.endswith(("in ", "of "))


# ---------------------------------------------------------------- assembly


def mentions(
    text: str, chosen: list[Candidate], sent_starts: Sequence[int], sent_ends: Sequence[int]
) -> list[Mention]:
    """One Mention per (type, canonical), at its first occurrence, with all its surface forms.

    A version or size of a lexicon's model family is named as such ("Llama 3" is no more
    one of Llama's spellings: :func:`kg.extractors.variants.version_name`)."""
    for c in chosen:
        if c.entry is not None and c.entry.family and c.type == METHOD:
            c.canonical = version_name(text[c.start : c.end], c.entry) or c.canonical
    first: dict[tuple[str, str], Candidate] = {}
    forms: dict[tuple[str, str], list[str]] = {}
    best_type: dict[str, str] = {}
    # The "(SHORT)" placeholder types its name only where no rule of its rank names it:
    # "SCRIT (Self-evolving CRITic)" stays a Method though its acronym comes first.
    for c in sorted(chosen, key=lambda c: (_PRIORITY[c.rule], c.rule == SHORT_FORM)):
        best_type.setdefault(plain_key(c.canonical), c.type)
    for c in chosen:
        if _is_field_use(text, c):
            continue
        if c.type == IGNORE or best_type[plain_key(c.canonical)] != c.type:
            continue
        key = (c.type, c.canonical.lower())
        written = forms.setdefault(key, [])
        if c.rule != SHARED_HEAD:  # "word" of "word and sentence embeddings" is no form
            written.append(text[c.start : c.end])
        if key not in first:
            first[key] = c
    mentions = []
    for key, c in first.items():
        i = bisect.bisect_right(sent_starts, c.start) - 1
        sentence = text[sent_starts[i] : sent_ends[i]]
        if c.type in COLLECTION_TYPES:
            c.type = collection_type(
                sentence, c.start - sent_starts[i], c.end - sent_starts[i], c.type
            )
        surface = text[c.start : c.end]
        aliases = sorted(
            {f for f in forms[key] if f != c.canonical}
            | ({c.long_form} if c.long_form and c.long_form != c.canonical else set())
        )
        role = "proposed" if _is_proposed(c, sentence, c.start - sent_starts[i]) else "used"
        mentions.append(
            mention_from_fields(
                {
                    "type": c.type,
                    "text": surface,
                    "canonical": c.canonical,
                    "start": c.start,
                    "end": c.end,
                    "sentence": sentence,
                    "rule": c.rule,
                    "score": RULE_SCORES[c.rule],
                    "role": role,
                    "long_form": c.long_form,
                    "aliases": tuple(aliases),
                    "part_of": c.entry.part_of if c.entry is not None else (),
                }
            )
        )
    return mentions


def _is_proposed(c, sentence, offset):
    """Proposed: a name the lexicon does not know, introduced by "we propose ..."."""
    if c.type == TASK or c.rule in (*LEXICON_RULES, SHARED_HEAD):
        return False
    return c.rule in (PROPOSAL, DEFINITION, OWN_NAME) or is_proposal_context(sentence, offset)
