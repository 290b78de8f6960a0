"""A paper's candidate mentions: every span the lexicon or a rule proposes, typed.

The abbreviation detector, the model-name pattern, the gazetteer hits and the context
rules (:mod:`kg.extractors.rules`) each propose spans; :mod:`kg.extractors.kinds` types
the unknown ones. The order of the candidates is part of the result: where two overlap
with the same priority and length, the earlier one wins (:func:`kg.extractors.choose.choose`).
No candidate overlaps noise (:mod:`kg.extractors.noise`): the rules read the text with its
markup blanked out, and a candidate that overlaps a noise span is dropped.
"""

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence

from kg.extractors.abbreviations import find_abbreviations
from kg.extractors.choose import (
    ABBREVIATION,
    ABBREVIATION_LEXICON,
    ACRONYM_USE,
    COINED_NAME,
    CORPUS_TERM,
    DEFINITION,
    HEADED_NAME,
    LEXICON,
    MEASURED_VALUE,
    METRIC_PHRASE,
    MODEL_VERSION,
    OPENING_SUBJECT,
    PARADIGMS,
    PROPOSAL,
    SHARED_HEAD,
    SHORT_FORM,
    TASK_GERUND,
    TASK_NOUN,
    TASK_PHRASE,
    TITLE_CASE,
    Candidate,
)
from kg.extractors.compounds import compound_start, head_end
from kg.extractors.kinds import (
    coined_type,
    long_form_type,
    named_phrase_type,
    own_type,
    proposed_name_type,
    spells,
)
from kg.extractors.lexicon import Lexicon
from kg.extractors.names import name_key, singular_short, task_canonical
from kg.extractors.noise import blank, classified_noise, glued_stops, merge_spans, overlaps
from kg.extractors.placed import (
    means_a_method,
    method_sense_candidate,
    one_sense_per_abstract,
    placed_name_candidates,
    released_candidate,
)
from kg.extractors.records import IGNORE, METHOD, METRIC, TASK
from kg.extractors.rules.metrics import cut_off_end, measured_value_spans, metric_spans
from kg.extractors.rules.names import (
    coined_name_spans,
    headed_name_spans,
    is_acronym_marked,
    is_name_shaped,
    proper_head_end,
    release_end,
    slash_parts,
    title_case_spans,
)
from kg.extractors.rules.proposals import definition_spans, proposal_spans, proposal_triggers
from kg.extractors.rules.senses import other_use
from kg.extractors.rules.sentences import mask_math
from kg.extractors.rules.subjects import opening_subject_span
from kg.extractors.rules.tasks import (
    dimension_start,
    gerund_task_spans,
    shared_head_phrases,
    task_spans,
)
from kg.extractors.term_inventory import find_terms, load_inventory, use_type
from kg.extractors.trie import trie_regex
from kg.extractors.words import word_list

#: Sentences at the start of an abstract whose subject may name its task, and where an
#: apposition may introduce a name without a trigger.
OPENING_SENTENCES = 2
#: What follows a model family's name in a versioned or sized name (Llama-3-8B, ViT-B/16).
_VERSION_SUFFIX = (
    r"(?:[-\s]?(?:v?\d+(?:\.\d+)*[A-Za-z]{0,2}(?:x\d+)?|[A-Z]/\d+)"
    r"|-(?:Instruct|Chat|Base|Turbo|mini|Mini|Large|large|Small|small|"
    r"base|Tiny|tiny|XL|XXL|Pro|Ultra|Flash|Nano|Coder|Math|Vision|VL|Omni|"
    r"Preview|Distill|Sonnet|Opus|Haiku|[SBLMHG]|it|hf|Plus|Max|Lite)\b"
    # a tier written after a space ("Gemini 1.5 Pro", "Claude 3 Opus", "GPT-4 Turbo")
    r"| (?:Pro|Ultra|Flash|Nano|Turbo|Sonnet|Opus|Haiku|Instruct)\b)+"
)


def model_version_pattern(lexicon: Lexicon) -> re.Pattern[str]:
    """The pattern of versioned and sized names of the lexicon's model families; group 1
    is the family's name."""
    families = {n for e in lexicon.entries.values() if e.family for n in e.names if " " not in n}
    return re.compile(
        "(" + trie_regex(families, not_after=r"[\w\-]") + ")" + _VERSION_SUFFIX + r"(?![\w\-])"
    )


def find_candidates(
    text: str,
    hits: Iterable[tuple[int, int, str]],
    lexicon: Lexicon,
    model_version: re.Pattern[str],
    sent_starts: Sequence[int],
    sent_ends: Sequence[int],
) -> list[Candidate]:
    """Every candidate of one abstract: ``hits`` are the gazetteer's (start, end, entry
    canonical) matches, the sentences are given by their starts and ends. None overlaps
    a noise span (:func:`kg.extractors.noise.noise_spans`)."""
    masked = mask_math(text)
    markup, other = classified_noise(text)
    noise = merge_spans(markup + other)
    # The rules read the markup outside math blanked out ("{\\em subspace clustering}").
    markup = [span for span in markup if masked[span[0]] != " "]
    masked = blank(masked, markup)
    candidates: list[Candidate] = []
    defined = _abbreviation_candidates(blank(text, markup), lexicon, candidates, noise)
    candidates.extend(_model_version_candidates(text, lexicon, model_version))
    candidates.extend(_gazetteer_candidates(text, hits, lexicon, defined))
    candidates.extend(_sentence_candidates(masked, lexicon, defined, sent_starts, sent_ends))
    candidates.extend(_local_rule_candidates(masked, lexicon, defined))
    candidates.extend(placed_name_candidates(masked, lexicon, defined))
    candidates.extend(_term_candidates(masked, lexicon))
    for short, cand in defined.items():
        for start, end in _occurrences(text, short):
            candidates.append(
                Candidate(
                    start, end, cand.type, cand.canonical, ACRONYM_USE, cand.long_form, cand.entry
                )
            )
    candidates = one_sense_per_abstract(text, candidates, lexicon)
    for c in candidates:  # "NDCG@20": the measure with its cut-off; "3D object detection"
        c.end = cut_off_end(text, c.end) if c.type == METRIC and c.rule == LEXICON else c.end
        if c.type == TASK and (at := dimension_start(text, c.start)) is not None:
            c.start, c.canonical, c.entry = at, f"{text[at : c.start]}{c.canonical}", None
    if noise:
        candidates = [c for c in candidates if not overlaps(noise, c.start, c.end)]
    glued = glued_stops(text)  # where a PDF lost the space after a full stop
    if glued:
        candidates = [c for c in candidates if not any(c.start + 2 <= g < c.end - 1 for g in glued)]
    return candidates


def _abbreviation_candidates(
    text: str, lexicon: Lexicon, candidates: list[Candidate], noise: Sequence[tuple[int, int]]
) -> dict[str, Candidate]:
    """Adds the candidates of the "long form (SHORT)" pairs to ``candidates``; the
    defined short forms (and their singulars) with their candidate. A long form with noise
    in it ("e\\ectromyogl'aphic (EMG)") defines nothing; its short form, if the lexicon
    knows it, names nothing either (the paper means something else by it: "el(cid:173)
    ementary motion detectors (EMDs)")."""
    defined = {}
    for abbr in find_abbreviations(text):
        short_form = Candidate(abbr.short_start, abbr.short_end, IGNORE, abbr.short, SHORT_FORM)
        if noise and overlaps(noise, abbr.long_start, abbr.long_end):
            if lexicon.lookup(abbr.short) is not None:
                candidates.append(short_form)
            continue
        cand = _abbreviation_candidate(abbr, text, lexicon)
        candidates.append(short_form)
        if cand is not None:
            candidates.append(cand)
            defined[abbr.short] = cand
            singular = singular_short(abbr.short, abbr.long)
            if singular != abbr.short:
                defined[singular] = cand
    return defined


def _model_version_candidates(
    text: str, lexicon: Lexicon, model_version: re.Pattern[str]
) -> list[Candidate]:
    """Versioned and sized names of known model families (Llama-3-8B)."""
    found = []
    for m in model_version.finditer(text):
        entry = lexicon.lookup(m.group(1))
        assert entry is not None, "group 1 is the name of a model family of the lexicon"
        prefix = (
            entry.canonical if name_key(entry.canonical) == name_key(m.group(1)) else m.group(1)
        )
        name = prefix + text[m.end(1) : m.end()].replace(" ", "-")
        known = lexicon.lookup(m.group(0))
        found.append(
            Candidate(
                m.start(),
                m.end(),
                (known or entry).type,
                known.canonical if known else name,
                MODEL_VERSION,
                entry=known,
            )
        )
    return found


def _gazetteer_candidates(
    text: str,
    hits: Iterable[tuple[int, int, str]],
    lexicon: Lexicon,
    defined: Mapping[str, Candidate],
) -> list[Candidate]:
    """The gazetteer's matches, but for those inside a larger name or compound word. A short
    form the abstract defines is never read by its sentence ("fitted with EM" is not the EM
    algorithm where EM is defined as entity matching)."""
    found = []
    for start, end, key in hits:
        if _embedded(text, start, end):
            continue
        entry = lexicon.entries[key]
        if (
            "-" in text[start:end]
            and entry.type == METHOD
            and not any("-" in n for n in entry.names)
        ):
            continue
        if other_use(text, start, end, entry.type):
            continue
        if means_a_method(text, start, end, entry, defined):
            found.append(method_sense_candidate(text, start, end, lexicon))
            continue
        opening = compound_start(text, start, entry.canonical) if entry.type == METHOD else None
        if opening is not None:  # a variant the corpus names ("latent SVM")
            found.append(Candidate(opening, end, METHOD, text[opening:end], LEXICON, entry=entry))
            continue
        modifier = paradigm_modifier(text, start) if entry.canonical in PARADIGMS else None
        if modifier is not None and not text.startswith(" (", end):
            found.append(_modified_paradigm(text, modifier, start, end, entry, lexicon))
            continue
        released = released_candidate(text, start, end, entry, lexicon)
        if released is not None:
            found.append(released)
            continue
        end = head_end(text, start, end) if entry.type == METHOD else end
        found.append(Candidate(start, end, entry.type, entry.canonical, LEXICON, entry=entry))
    return found


#: Modifiers that are part of a learning paradigm's name ("model-free deep RL").
PARADIGM_MODIFIERS = word_list("paradigm_modifiers")
_PARADIGM_MODIFIER = re.compile(
    r"(?<![\w-])(?:" + "|".join(map(re.escape, PARADIGM_MODIFIERS)) + r") $", re.IGNORECASE
)


def _modified_paradigm(text, modifier, start, end, entry, lexicon):
    """The candidate of a paradigm with its modifier ("model-free deep RL"): the lexicon's
    entry for the whole if it has one ("multi-agent RL" is MARL)."""
    prefix = text[modifier:start].lower()
    for name in (text[modifier:end], prefix + entry.canonical):
        known = lexicon.lookup(name)
        if known is not None and known.type == METHOD:
            return Candidate(modifier, end, METHOD, known.canonical, LEXICON, entry=known)
    return Candidate(modifier, end, entry.type, prefix + entry.canonical, LEXICON, entry=entry)


def paradigm_modifier(text: str, start: int) -> int | None:
    """Where a modifier of ``paradigm_modifiers`` starts that stands right before the
    paradigm at ``start`` ("model-free deep RL"), or None.

    >>> s = "We train model-free deep RL agents and Model-Based RL ones."
    >>> paradigm_modifier(s, s.index("deep")), paradigm_modifier(s, s.index("RL ones"))
    (9, 39)
    >>> paradigm_modifier("a freemodel-free RL", 17) is None
    True
    """
    m = _PARADIGM_MODIFIER.search(text, max(0, start - 40), start)
    return m.start() if m is not None and m.end() == start else None


def _sentence_candidates(
    masked: str,
    lexicon: Lexicon,
    defined: dict[str, Candidate],
    sent_starts: Sequence[int],
    sent_ends: Sequence[int],
) -> list[Candidate]:
    """Candidates of the rules that read a whole sentence: proposals, definitions and the
    subjects of the opening sentences."""
    found = []
    triggers: dict[int, list[tuple[int, int, bool]]] = {}  # by sentence, offsets into it
    for start, end, naming in proposal_triggers(masked):
        i = bisect.bisect_right(sent_starts, start) - 1
        triggers.setdefault(i, []).append((start - sent_starts[i], end - sent_starts[i], naming))
    for i, s_start in enumerate(sent_starts):
        sentence = masked[s_start : sent_ends[i]]
        if i not in triggers and i >= OPENING_SENTENCES and ", a" not in sentence[:80]:
            continue
        for a, b in proposal_spans(sentence, triggers.get(i, [])):
            name = sentence[a:b]
            if lexicon.lookup(name) is None:
                kind = proposed_name_type(sentence, a, b, lexicon)
                canonical = defined[name].canonical if name in defined else name  # "LLMs"
                found.append(Candidate(s_start + a, s_start + b, kind, canonical, PROPOSAL))
        for a, b, kind in definition_spans(sentence):
            phrase = sentence[a:b]
            if lexicon.lookup(phrase) is None:
                found.append(Candidate(s_start + a, s_start + b, kind, phrase, DEFINITION))
        if i < OPENING_SENTENCES:
            span = opening_subject_span(sentence)
            if span and lexicon.lookup(sentence[span[0] : span[1]]) is None:
                found.append(
                    Candidate(
                        s_start + span[0],
                        s_start + span[1],
                        TASK,
                        task_canonical(sentence[span[0] : span[1]]),
                        OPENING_SUBJECT,
                    )
                )
    return found


def _occurrences(text, word):
    """(start, end) of each use of ``word`` standing alone in ``text`` (not inside a longer
    name), its plural included when it ends in a capital ("CIs" for "CI").

    >>> _occurrences("CI and CIs, not CIFAR or CI-based", "CI")
    [(0, 2), (7, 10)]
    """
    found, at = [], text.find(word)
    plural = word[-1:].isupper()
    while at >= 0:
        end = at + len(word)
        if plural and text[end : end + 1] == "s":
            end += 1
        if (at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "-")) and (
            end == len(text) or not (text[end].isalnum() or text[end] == "-")
        ):
            found.append((at, end))
        at = text.find(word, end)
    return found


def _local_rule_candidates(text, lexicon, defined):
    """Candidates of the rules that need only a few words of context, run once over the
    whole (math-masked) abstract: typed names, capitalised phrases, coined names, measures
    and task phrases."""
    found = []
    for a, b, kind in headed_name_spans(text):
        if lexicon.lookup(text[a:b]) is None:
            b = proper_head_end(text, a, b)
            found.append(Candidate(a, b, kind, text[a:b], HEADED_NAME))
    long_forms = {name_key(c.long_form): c for c in defined.values() if c.long_form}
    for a, b in title_case_spans(text):
        defined_as = long_forms.get(name_key(text[a:b]))
        if defined_as is not None:  # the long form of an acronym defined in the abstract
            found.append(
                Candidate(
                    a,
                    b,
                    defined_as.type,
                    defined_as.canonical,
                    ACRONYM_USE,
                    defined_as.long_form,
                    defined_as.entry,
                )
            )
        elif lexicon.lookup(text[a:b]) is None:
            found.append(Candidate(a, b, named_phrase_type(text[a:b]), text[a:b], TITLE_CASE))
    for a, b in coined_name_spans(text):
        name = text[a:b]
        entry = lexicon.lookup(name)
        if entry is None and "/" in name:
            found.extend(_slash_part_candidates(text, a, name, lexicon, defined))
        elif entry is not None and means_a_method(text, a, b, entry, defined):
            found.append(method_sense_candidate(text, a, b, lexicon))
        elif entry is not None:
            found.append(Candidate(a, b, entry.type, entry.canonical, LEXICON, entry=entry))
        elif name not in defined and not is_acronym_marked(name):
            b = release_end(text, b)
            found.append(Candidate(a, b, coined_type(text, a, b, lexicon), text[a:b], COINED_NAME))
    for a, b in measured_value_spans(text):
        if lexicon.lookup(text[a:b]) is None:
            found.append(Candidate(a, b, METRIC, text[a:b].lower(), MEASURED_VALUE))
    for a, b in metric_spans(text):
        if lexicon.lookup(text[a:b]) is None:
            found.append(Candidate(a, b, METRIC, text[a:b].lower(), METRIC_PHRASE))
    for a, b, named in task_spans(text):
        entry = lexicon.lookup(text[a:b])
        if entry is None or (named and entry.type not in (METHOD, IGNORE)):
            # "a textual entailment task": the lexicon's Task (natural language inference)
            known = entry if entry is not None and entry.type == TASK else None
            canonical = known.canonical if known else task_canonical(text[a:b])
            rule = TASK_NOUN if named else TASK_PHRASE
            found.append(Candidate(a, b, TASK, canonical, rule, entry=known))
    for a, b, phrases in shared_head_phrases(text):
        entry = next(filter(None, map(lexicon.lookup, phrases)), None)
        if entry is not None and entry.type in (TASK, METHOD):
            found.append(Candidate(a, b, entry.type, entry.canonical, SHARED_HEAD, entry=entry))
    for a, b, name in gerund_task_spans(text):
        entry = lexicon.lookup(name)
        if entry is None:
            found.append(Candidate(a, b, TASK, name, TASK_GERUND))
        elif entry.type == TASK:
            found.append(Candidate(a, b, TASK, entry.canonical, TASK_GERUND, entry=entry))
    return found


def _term_candidates(text: str, lexicon: Lexicon) -> list[Candidate]:
    """The uses of the shipped corpus terms (:mod:`kg.extractors.term_inventory`) that the
    lexicon does not hold, typed as the corpus types them; none inside a hyphenated word."""
    return [
        Candidate(a, b, kind, term.form, CORPUS_TERM)
        for a, b, term in find_terms(text, load_inventory())
        if text[a - 1 : a] != "-" and text[b : b + 1] != "-" and lexicon.lookup(text[a:b]) is None
        if (kind := use_type(text, a, b, term.type)) is not None
    ]


def _slash_part_candidates(text, start, word, lexicon, defined):
    """Candidates for the names of a slash-joined word ("SAG/SAGA", "CIFAR-10/100"), each
    known to the lexicon as written or coined ("LLaMA2-13B" after "LLaMA2-7B/" is a Method
    as Llama is); a word with a part that is neither ("OK/BAD", "English/German") names
    nothing."""
    found: list[Candidate] = []
    parts = slash_parts(word)
    known = [lexicon.lookup_as_written(name) for _, _, name in parts]
    if not all(
        entry is not None or is_name_shaped(name)
        for entry, (_, _, name) in zip(known, parts, strict=True)
    ):
        return found
    for (i, j, name), entry in zip(parts, known, strict=True):
        a, b = start + i, start + j
        if entry is not None:
            found.append(Candidate(a, b, entry.type, entry.canonical, LEXICON, entry=entry))
        elif name not in defined:
            stem = lexicon.lookup_as_written(name[: len(name) - (j - i)].rstrip("-"))
            kind = stem.type if stem is not None else coined_type(text, a, b, lexicon)
            found.append(Candidate(a, b, kind, name, COINED_NAME))
    return found


def _embedded(text, start, end):
    """A match inside a larger hyphenated name (MIA in RL-MIA, CFG in DDPM-CFG); a
    lowercase suffix ("BERT-based") does not count."""
    if start > 1 and text[start - 1] in "-/" and text[start - 2].isalnum():
        return True
    return (
        end + 1 < len(text)
        and text[end] in "-/"
        and (text[end + 1].isupper() or text[end + 1].isdigit())
    )


def _abbreviation_candidate(abbr, text, lexicon):
    """The candidate for a "long form (SHORT)" pair, typed by the lexicon or the long form;
    a lexicon name that ends where the long form ends and is longer replaces it."""
    short = abbr.short
    entry = lexicon.lookup(abbr.long)
    if entry is None:
        entry = lexicon.lookup(short)
        if (
            entry is not None
            and not spells(entry, abbr.long)
            and (
                entry.type == IGNORE
                and not any(" " in name for name in entry.names)
                or entry.type != IGNORE
                and entry.type != own_type(abbr.long, lexicon)
            )
        ):
            entry = None
    if entry is not None:
        if entry.type == IGNORE:
            return None
        start = abbr.long_start
        for name in entry.names:
            if len(name) > abbr.long_end - start and text[: abbr.long_end].lower().endswith(
                name.lower()
            ):
                start = abbr.long_end - len(name)
        return Candidate(
            start,
            abbr.long_end,
            entry.type,
            entry.canonical,
            ABBREVIATION_LEXICON,
            text[start : abbr.long_end],
            entry,
        )
    return Candidate(
        abbr.long_start,
        abbr.long_end,
        long_form_type(text, abbr, lexicon),
        singular_short(short, abbr.long),
        ABBREVIATION,
        abbr.long,
    )
