"""The extraction pipeline: spaCy (blank English + our components) from abstracts to Mentions.

``build_nlp()`` makes the pipeline: spaCy's tokenizer cached per chunk
(:mod:`kg.extractors.tokenizer`), two gazetteers over the lexicon (spaCy's ``span_ruler``,
case-sensitive for all-capital names, lowercase for the rest) and the ``paper_mentions``
component, which splits the abstract into sentences (``rules.sentence_bounds``, a string
pass: spaCy's sentencizer cost more than the tokenizer) and combines the gazetteer hits with
the abbreviation detector and the context rules into :class:`Mention` objects on
``doc._.mentions``.
``extract_mentions()`` streams records through it, on one process or a pool.
"""

import bisect
import re
from functools import lru_cache
from itertools import islice

import spacy
from spacy.attrs import IS_SPACE, LOWER, NORM
from spacy.language import Language
from spacy.pipeline import SpanRuler
from spacy.tokens import Doc, Span

from kg.extractors import rules
from kg.extractors.abbreviations import find_abbreviations
from kg.extractors.lexicon import IGNORE, load_lexicon, name_key, phrase_patterns
from kg.extractors.records import mention_from_fields
from kg.extractors.tokenizer import TEXT_KEY, ChunkCachingTokenizer
from kg.extractors.trie import trie_regex
from kg.extractors.workers import BATCH_SIZE, WorkerPool, failures_reported

SPANS_KEY = "gazetteer"
#: The lexical attributes a word of the vocabulary gets when first seen: the ones the
#: gazetteers match on. The other twenty (shape, stop word, like_num, ...) are never read,
#: and computing them for each new word cost a third of tokenising a new abstract.
LEXICAL_ATTRIBUTES_READ = (LOWER, NORM, IS_SPACE)
MAX_TASK_PHRASES = 3
OPENING_SENTENCES = 2
#: Learning paradigms that name a field after "in"/"of" rather than a method used.
PARADIGMS = {
    "RL",
    "deep RL",
    "MARL",
    "offline RL",
    "meta-learning",
    "self-supervised learning",
    "imitation learning",
    "transfer learning",
    "active learning",
    "contrastive learning",
    "inverse reinforcement learning",
    "curriculum learning",
}

#: Confidence of each rule's mentions.
RULE_SCORES = {
    "abbreviation+lexicon": 0.95,
    "abbreviation": 0.85,
    "lexicon": 0.9,
    "model-version": 0.9,
    "proposal": 0.8,
    "headed-name": 0.8,
    "task-phrase": 0.55,
    "acronym-use": 0.85,
    "short-form": 0.0,
    "title-case": 0.6,
    "coined-name": 0.5,
    "metric-phrase": 0.55,
    "task-gerund": 0.5,
    "opening-subject": 0.6,
    "task-noun": 0.7,
    "definition": 0.75,
    "measured-value": 0.65,
    "shared-head": 0.8,
}
#: Order in which overlapping candidates win (lower first).
_PRIORITY = {
    "abbreviation+lexicon": 0,
    "abbreviation": 0,
    "short-form": 0,
    "model-version": 1,
    "lexicon": 2,
    "headed-name": 3,
    "proposal": 3,
    "acronym-use": 4,
    "title-case": 5,
    "coined-name": 6,
    "metric-phrase": 7,
    "task-phrase": 7,
    "task-gerund": 7,
    "opening-subject": 6,
    "task-noun": 1,
    "definition": 3,
    "measured-value": 4,
    "shared-head": 3,
}
_VERSION_SUFFIX = (
    r"(?:[-\s]?(?:v?\d+(?:\.\d+)*[A-Za-z]{0,2}(?:x\d+)?|[A-Z]/\d+)"
    r"|-(?:Instruct|Chat|Base|Turbo|mini|Mini|Large|large|Small|small|"
    r"base|Tiny|tiny|XL|XXL|Pro|Ultra|Flash|Nano|Coder|Math|Vision|VL|Omni|"
    r"Preview|Distill|Sonnet|Opus|Haiku|[SBLMHG]|it|hf|Plus|Max|Lite)\b)+"
)


if not Doc.has_extension("mentions"):
    Doc.set_extension("mentions", default=None)
if not Doc.has_extension("extraction_error"):
    Doc.set_extension("extraction_error", default=None)


@Language.factory("paper_mentions", default_config={})
def make_paper_mentions(nlp, name):
    return PaperMentions(load_lexicon_cached())


@lru_cache(maxsize=1)
def load_lexicon_cached():
    return load_lexicon()


def build_nlp():
    """The spaCy pipeline: blank English, gazetteers, mention finder."""
    lexicon = load_lexicon_cached()
    nlp = spacy.blank("en")
    getters = nlp.vocab.lex_attr_getters
    nlp.vocab.lex_attr_getters = {attr: getters[attr] for attr in LEXICAL_ATTRIBUTES_READ}
    cased, lower = phrase_patterns(lexicon)
    ruler = nlp.add_pipe(
        "gazetteer",
        name="gazetteer_cased",
        config={"spans_key": SPANS_KEY, "phrase_matcher_attr": "ORTH"},
    )
    ruler.add_patterns(cased)
    ruler = nlp.add_pipe(
        "gazetteer",
        name="gazetteer_lower",
        config={"spans_key": SPANS_KEY, "phrase_matcher_attr": "LOWER"},
    )
    # A ruler tokenises its patterns through the pipes before it; keep the first out.
    with nlp.select_pipes(disable=["gazetteer_cased"]):
        ruler.add_patterns(lower)
    nlp.add_pipe("paper_mentions")
    nlp.tokenizer = ChunkCachingTokenizer(nlp.tokenizer)
    return nlp


@Language.factory(
    "gazetteer",
    assigns=["doc.spans"],
    default_config={"spans_key": SPANS_KEY, "phrase_matcher_attr": None},
)
def make_gazetteer(nlp, name, spans_key, phrase_matcher_attr):
    return Gazetteer(nlp, name, spans_key=spans_key, phrase_matcher_attr=phrase_matcher_attr)


class Gazetteer(SpanRuler):
    """spaCy's ``span_ruler``, adding its matches to ``doc.spans`` as that does
    (``overwrite=False``), with a lean path for phrase patterns: the span ruler's
    warning filter and double matching cost five times the PhraseMatcher itself."""

    def match(self, doc):
        if len(self.matcher):  # token patterns: the span ruler's own way
            return super().match(doc)
        labels = self._match_label_id_map
        return sorted(
            {
                Span(doc, start, end, label=labels[key]["label"], span_id=labels[key]["id"])
                for key, start, end in self.phrase_matcher(doc)
            }
        )


class PaperMentions:
    """spaCy component: finds the entity mentions of one abstract (``doc._.mentions``)."""

    def __init__(self, lexicon):
        self.lexicon = lexicon
        families = {
            n for e in lexicon.entries.values() if e.family for n in e.names if " " not in n
        }
        self.model_version = re.compile(
            "(" + trie_regex(families, not_after=r"[\w\-]") + ")" + _VERSION_SUFFIX + r"(?![\w\-])"
        )

    def __call__(self, doc):
        try:
            doc._.mentions = find_mentions(doc, self.lexicon, self.model_version)
        except Exception as error:  # a bug on one abstract must not sink the whole build
            doc._.mentions = []
            doc._.extraction_error = f"{type(error).__name__}: {error}"
        return doc


class _Candidate:
    __slots__ = ("start", "end", "type", "canonical", "rule", "long_form", "entry")

    def __init__(self, start, end, type, canonical, rule, long_form=None, entry=None):
        self.start, self.end, self.type, self.canonical = start, end, type, canonical
        self.rule, self.long_form, self.entry = rule, long_form, entry


def find_mentions(doc, lexicon, model_version):
    """The deduplicated mentions of one abstract, in text order (one per type+canonical)."""
    text = doc.user_data.get(TEXT_KEY)
    if text is None:
        text = doc.text
    sents = rules.sentence_bounds(text)
    sent_starts = [a for a, _ in sents]
    sent_ends = [b for _, b in sents]
    candidates = []
    defined = {}
    for abbr in find_abbreviations(text):
        cand = _abbreviation_candidate(abbr, text, lexicon)
        candidates.append(
            _Candidate(abbr.short_start, abbr.short_end, IGNORE, abbr.short, "short-form")
        )
        if cand is not None:
            candidates.append(cand)
            defined[abbr.short] = cand
            singular = _singular_short(abbr.short, abbr.long)
            if singular != abbr.short:
                defined[singular] = cand
    for m in model_version.finditer(text):
        entry = lexicon.lookup(m.group(1))
        prefix = (
            entry.canonical if name_key(entry.canonical) == name_key(m.group(1)) else m.group(1)
        )
        name = prefix + text[m.end(1) : m.end()].replace(" ", "-")
        known = lexicon.lookup(m.group(0))
        candidates.append(
            _Candidate(
                m.start(),
                m.end(),
                (known or entry).type,
                known.canonical if known else name,
                "model-version",
                entry=known,
            )
        )
    for span in doc.spans[SPANS_KEY]:
        start, end = span.start_char, span.end_char  # spaCy computes these on each read
        if _embedded(text, start, end):
            continue
        entry = lexicon.entries[span.id_]
        if (
            "-" in text[start:end]
            and entry.type == "Method"
            and not any("-" in n for n in entry.names)
        ):
            continue
        if entry.type in ("Metric", "Task") and _compound_modifier(text, end):
            continue
        candidates.append(
            _Candidate(start, end, entry.type, entry.canonical, "lexicon", entry=entry)
        )
    masked = rules.mask_math(text)
    triggers = {}  # by sentence, with offsets into it
    for start, end, naming in rules.proposal_triggers(masked):
        i = bisect.bisect_right(sent_starts, start) - 1
        triggers.setdefault(i, []).append((start - sent_starts[i], end - sent_starts[i], naming))
    for i, s_start in enumerate(sent_starts):
        sentence = masked[s_start : sent_ends[i]]
        if i not in triggers and i >= OPENING_SENTENCES and ", a" not in sentence[:80]:
            continue
        for a, b in rules.proposal_spans(sentence, triggers.get(i, [])):
            name = sentence[a:b]
            if lexicon.lookup(name) is None:
                kind = (
                    "Method"
                    if _ends_in_known_method(name, lexicon)
                    else _proposal_type(sentence, a, b)
                )
                canonical = defined[name].canonical if name in defined else name  # "LLMs"
                candidates.append(_Candidate(s_start + a, s_start + b, kind, canonical, "proposal"))
        for a, b, kind in rules.definition_spans(sentence):
            phrase = sentence[a:b]
            if lexicon.lookup(phrase) is None:
                candidates.append(_Candidate(s_start + a, s_start + b, kind, phrase, "definition"))
        if i < OPENING_SENTENCES:
            span = rules.opening_subject_span(sentence)
            if span and lexicon.lookup(sentence[span[0] : span[1]]) is None:
                candidates.append(
                    _Candidate(
                        s_start + span[0],
                        s_start + span[1],
                        "Task",
                        task_canonical(sentence[span[0] : span[1]]),
                        "opening-subject",
                    )
                )
    candidates.extend(_local_rule_candidates(masked, lexicon, defined))
    for short, cand in defined.items():
        for start, end in _occurrences(text, short):
            candidates.append(
                _Candidate(
                    start, end, cand.type, cand.canonical, "acronym-use", cand.long_form, cand.entry
                )
            )
    chosen = _cap_task_phrases(
        _typed_like_list_neighbours(text, _select(_without_named_suffixes(text, candidates)))
    )
    return _mentions(text, chosen, sent_starts, sent_ends)


_LIST_GAP = re.compile(r",? (?:and |or |& )?|, ")
_COLLECTIONS = ("Dataset", "Benchmark")


def _typed_like_list_neighbours(text, chosen):
    """Coined names typed Method for want of a cue become Datasets/Benchmarks when they
    stand in a list of them ("VUA-18, VUA-20, MOH-X, and TroFi"), unless a name the rules
    know as a method is in the list too ("CART, ID3, C4, MARS")."""
    run = chosen[:1]
    for c in chosen[1:] + [None]:
        if (
            c is not None
            and c.start - run[-1].end <= 6
            and _LIST_GAP.fullmatch(text, run[-1].end, c.start)
        ):
            run.append(c)
            continue
        kinds = [m.type for m in run if m.type in _COLLECTIONS]
        if kinds and not any(m.type == "Method" and m.rule != "coined-name" for m in run):
            for m in run:
                if m.type == "Method":
                    m.type = kinds[0]
        run = [c]
    return chosen


def _without_named_suffixes(text, candidates):
    """The candidates without the known Methods that end a longer capitalised or proposed
    name, right after a capitalised word of it: the longer name is a method of its own
    ("Multivariate Group Orthogonal Matching Pursuit" is not orthogonal matching pursuit;
    "Schema Networks with A3C" still names A3C)."""
    starts = {}
    for c in candidates:
        if c.rule in ("title-case", "proposal"):
            starts.setdefault(c.end, set()).add(c.start)
    if not starts:
        return candidates
    return [
        c
        for c in candidates
        if not (
            c.rule == "lexicon"
            and c.type == "Method"
            and any(
                start < c.start and text[start : c.start].split()[-1][:1].isupper()
                for start in starts.get(c.end, ())
            )
        )
    ]


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
    for a, b, kind in rules.headed_name_spans(text):
        if lexicon.lookup(text[a:b]) is None:
            found.append(_Candidate(a, b, kind, text[a:b], "headed-name"))
    long_forms = {name_key(c.long_form): c for c in defined.values() if c.long_form}
    for a, b in rules.title_case_spans(text):
        defined_as = long_forms.get(name_key(text[a:b]))
        if defined_as is not None:  # the long form of an acronym defined in the abstract
            found.append(
                _Candidate(
                    a,
                    b,
                    defined_as.type,
                    defined_as.canonical,
                    "acronym-use",
                    defined_as.long_form,
                    defined_as.entry,
                )
            )
        elif lexicon.lookup(text[a:b]) is None:
            found.append(_Candidate(a, b, _named_phrase_type(text[a:b]), text[a:b], "title-case"))
    for a, b in rules.coined_name_spans(text):
        name = text[a:b]
        entry = lexicon.lookup(name)
        if entry is None and "/" in name:
            found.extend(_slash_part_candidates(text, a, name, lexicon, defined))
        elif entry is not None:
            found.append(_Candidate(a, b, entry.type, entry.canonical, "lexicon", entry=entry))
        elif name not in defined and not rules.is_acronym_marked(name):
            found.append(_Candidate(a, b, _coined_type(text, a, b, lexicon), name, "coined-name"))
    for a, b in rules.measured_value_spans(text):
        if lexicon.lookup(text[a:b]) is None:
            found.append(_Candidate(a, b, "Metric", text[a:b].lower(), "measured-value"))
    for a, b in rules.metric_spans(text):
        if lexicon.lookup(text[a:b]) is None:
            found.append(_Candidate(a, b, "Metric", text[a:b].lower(), "metric-phrase"))
    for a, b, named in rules.task_spans(text):
        entry = lexicon.lookup(text[a:b])
        if entry is None or (named and entry.type not in ("Method", IGNORE)):
            found.append(
                _Candidate(
                    a, b, "Task", task_canonical(text[a:b]), "task-noun" if named else "task-phrase"
                )
            )
    for a, b, phrases in rules.shared_head_phrases(text):
        entry = next(filter(None, map(lexicon.lookup, phrases)), None)
        if entry is not None and entry.type in ("Task", "Method"):
            found.append(_Candidate(a, b, entry.type, entry.canonical, "shared-head", entry=entry))
    for a, b, name in rules.gerund_task_spans(text):
        entry = lexicon.lookup(name)
        if entry is None:
            found.append(_Candidate(a, b, "Task", name, "task-gerund"))
        elif entry.type == "Task":
            found.append(_Candidate(a, b, "Task", entry.canonical, "task-gerund", entry=entry))
    return found


def _slash_part_candidates(text, start, word, lexicon, defined):
    """Candidates for the names of a slash-joined word ("SAG/SAGA", "CIFAR-10/100"), each
    known to the lexicon as written or coined ("LLaMA2-13B" after "LLaMA2-7B/" is a Method
    as Llama is); a word with a part that is neither ("OK/BAD", "English/German") names
    nothing."""
    found, parts = [], rules.slash_parts(word)
    known = [lexicon.lookup_as_written(name) for _, _, name in parts]
    if not all(
        entry is not None or rules.is_name_shaped(name) for entry, (_, _, name) in zip(known, parts)
    ):
        return found
    for (i, j, name), entry in zip(parts, known):
        a, b = start + i, start + j
        if entry is not None:
            found.append(_Candidate(a, b, entry.type, entry.canonical, "lexicon", entry=entry))
        elif name not in defined:
            stem = lexicon.lookup_as_written(name[: len(name) - (j - i)].rstrip("-"))
            kind = stem.type if stem is not None else _coined_type(text, a, b, lexicon)
            found.append(_Candidate(a, b, kind, name, "coined-name"))
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


def _compound_modifier(text, end):
    """A name followed by "-style", "–robustness": the first part of a compound word."""
    return end + 1 < len(text) and text[end] in "-–" and text[end + 1].isalpha()


def _abbreviation_candidate(abbr, text, lexicon):
    """The candidate for a "long form (SHORT)" pair, typed by the lexicon or the long form;
    a lexicon name that ends where the long form ends and is longer replaces it."""
    short = abbr.short
    entry = lexicon.lookup(abbr.long)
    if entry is None:
        entry = lexicon.lookup(short)
        if (
            entry is not None
            and not _spells(entry, abbr.long)
            and (
                entry.type == IGNORE
                and not any(" " in name for name in entry.names)
                or entry.type != IGNORE
                and entry.type != (_suffix_type(abbr.long, lexicon) or rules.phrase_type(abbr.long))
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
        return _Candidate(
            start,
            abbr.long_end,
            entry.type,
            entry.canonical,
            "abbreviation+lexicon",
            text[start : abbr.long_end],
            entry,
        )
    kind = (
        _apposition_type(text, abbr.short_end)
        or _suffix_type(abbr.long, lexicon)
        or rules.phrase_type(abbr.long)
    )
    if (
        kind == "Concept"
        and rules.head_words(abbr.long)[-1].lower() not in rules.CONCEPT_HEADS
        and (
            rules.introduced_here(text, abbr.long_start) or _method_word_after(text, abbr.short_end)
        )
    ):
        kind = "Method"  # "We propose agent skill induction (ASI)"; not "... Hypothesis (BRH)"
    return _Candidate(
        abbr.long_start,
        abbr.long_end,
        kind,
        _singular_short(short, abbr.long),
        "abbreviation",
        abbr.long,
    )


def _singular_short(short, long_form):
    """A plural short form without its "s": "LLMs", and "iBMIs" for "implantable
    brain-machine interfaces"; "RoBERTa" or "GaAs" stay as they are.

    >>> _singular_short("LLMs", "large language models"), _singular_short("iBMIs", "interfaces")
    ('LLM', 'iBMI')
    >>> _singular_short("GaAs", "gallium arsenide")
    'GaAs'
    """
    if (
        short.endswith("s")
        and len(short) > 2
        and (short[:-1].isupper() or short[-2].isupper() and long_form.endswith("s"))
    ):
        return short[:-1]
    return short


def _method_word_after(text, end):
    """Whether a method word follows a bracketed acronym: "Tree-of-Question (ToQ) method"."""
    m = _HEAD_AFTER.match(text, end)
    return m is not None and m.group(1) in _METHOD_CUES


def _spells(entry, long_form):
    """Whether a long form is one of the entry's names but for a plural "s" ("Mixture of
    expert" for mixture of experts)."""
    key = name_key(long_form).rstrip("s")
    return any(name_key(name).rstrip("s") == key for name in entry.names)


def _suffix_type(phrase, lexicon):
    """Type of the longest known Method/Task that ends the head of an unknown phrase
    ("Agentic reinforcement learning" is a Method because reinforcement learning is; "an
    agent for multi-view clustering" is not a Task)."""
    words = rules.head_words(phrase)
    for n in range(min(3, len(words) - 1), 0, -1):
        entry = lexicon.lookup(" ".join(words[-n:]))
        if entry is not None and entry.type in ("Method", "Task"):
            return entry.type
    return None


def _ends_in_known_method(name, lexicon):
    """Whether a several-word name ends in a known method ("Dudley GAN", "Cascading DQN")."""
    head = name.rsplit(" ", 1)
    entry = lexicon.lookup_as_written(head[1]) if len(head) == 2 else None
    return entry is not None and entry.type == "Method"


def _named_phrase_type(phrase):
    """A capitalised phrase is a Method unless its head says Dataset/Benchmark/Metric, or
    says it is an event (IGNORE: "Shared Tasks", "Workshop")."""
    if phrase.rsplit(" ", 1)[-1].lower() in _EVENT_HEADS:
        return IGNORE  # "TextGraphs 2020 Shared Tasks", "ICML Workshop"
    kind = rules.phrase_type(phrase)
    return kind if kind in ("Dataset", "Benchmark", "Metric") else "Method"


_EVENT_HEADS = {
    "task",
    "tasks",
    "workshop",
    "workshops",
    "conference",
    "track",
    "symposium",
    "proceedings",
    "session",
    "meeting",
}


_METHOD_CUES = {
    "method",
    "methods",
    "framework",
    "approach",
    "algorithm",
    "model",
    "models",
    "technique",
    "architecture",
    "system",
    "pipeline",
    "strategy",
    "agent",
    "paradigm",
    "training",
    "recipe",
    "loss",
    "objective",
    "module",
    "mechanism",
    "network",
    "scheme",
    "methodology",
}
_METRIC_CUES = {"metric", "metrics", "measure", "measures", "score", "criterion", "index"}
_TASK_CUES = {"task", "tasks", "problem"}


_EVALUATED_ON = re.compile(
    r"(?<!based )(?<!built )(?<!relies )(?<!rely )(?<!focus )"
    r"(?<!depends )(?<!depend )\b(?:on|across)(?: the)? $"
)


_DATA_BEFORE = re.compile(
    r"\b(?:images|data|videos|scans|records|texts|documents|recordings|"
    r"notes|reports|sentences|tweets|posts) \($"
)


def _coined_type(text, start, end, lexicon):
    """A coined name's type from its context: the words around it (as for proposals), else
    Dataset right after "evaluated on"-style prepositions ("results on WSJ45") or in
    brackets after data ("fundus images (FairGenMed)"), else a known measure or collection
    its last part names ("ES-FID" is a Metric as FID is), else Method."""
    kind = _proposal_type(text, start, end)
    if kind != "Method":
        return kind
    if (
        _EVALUATED_ON.search(text, max(0, start - 20), start)
        or _DATA_BEFORE.search(text, max(0, start - 12), start)
        and text[end : end + 1] == ")"
    ):
        return "Dataset"
    last = text[start:end].rsplit("-", 1)[-1]
    entry = lexicon.lookup_as_written(last) if last != text[start:end] else None
    return (
        entry.type
        if entry is not None and entry.type in ("Metric", "Dataset", "Benchmark")
        else kind
    )


_LOWER_WORDS = re.compile(r"[a-z\-]+")
_ARTICLES = {"a", "an", "the"}
#: Words after a name that start another phrase ("X on the Y benchmark").
_PHRASE_STOPS = {
    "on",
    "in",
    "with",
    "for",
    "from",
    "by",
    "of",
    "than",
    "over",
    "against",
    "across",
    "at",
    "via",
    "using",
}


def _words_of_its_phrase(after):
    """Up to four lowercase words after a name, articles aside, up to a preposition or to
    "and a(n) ...", which start another phrase ("X on the Y benchmark", "X and a framework";
    not "X and the Y datasets").

    >>> _words_of_its_phrase(", a large-scale media interview dataset of talks")
    ['large-scale', 'media', 'interview', 'dataset']
    >>> _words_of_its_phrase(" and a dialogue framework"), _words_of_its_phrase(" and Y datasets")
    ([], ['and', 'y', 'datasets'])
    """
    words = []
    for w in _LOWER_WORDS.findall(after.lower()):
        if w in _PHRASE_STOPS or len(words) == 4:
            break
        if w in _ARTICLES:
            if words and words[-1] in ("and", "or") and w != "the":
                words.pop()
                break
            continue
        words.append(w)
    return words


def _proposal_type(sentence, start, end):
    """Dataset/Benchmark/Metric when the words around a proposed name say so (four words
    after it: "X, a program synthesis benchmark"; five before it: "a new metric, X"), unless
    a method word comes first ("X, a method for dataset distillation"); Task for "a task
    called X", Concept for "X Conjecture"; Benchmark for a name ending in "bench"; else
    Method."""
    if sentence[start:end].lower().endswith("bench"):
        return "Benchmark"  # SPIN-Bench, SWE-bench
    after = _words_of_its_phrase(sentence[end : end + 70])
    before = _LOWER_WORDS.findall(sentence[max(0, start - 50) : start].lower())[-5:]
    if after and after[0] in rules.CONCEPT_HEADS and sentence[end : end + 1] == " ":
        return "Concept"
    if before[-2:-1] and before[-2] in _TASK_CUES and before[-1] in rules.NAMING_WORDS:
        return "Task"
    return _cue_type(after + before[::-1]) or "Method"


def _cue_type(words):
    """The type the first cue word among ``words`` says ("benchmark", "metric"), or None."""
    for w in words:
        if w in _METHOD_CUES:
            return "Method"
        if w in rules.BENCHMARK_HEADS:
            return "Benchmark"
        if w in rules.DATASET_HEADS:
            return "Dataset"
        if w in _METRIC_CUES:
            return "Metric"
    return None


_APPOSITION_AFTER = re.compile(r"\)?\s*,\s*(?:a|an)\s+")
_HEAD_AFTER = re.compile(r"\)? ([a-z]+)")


def _apposition_type(text, end):
    """The type an apposition or a head word right after a name (or its bracketed acronym)
    gives it: "UniAPL (...), a novel framework" is a Method and "Pointer Value Retrieval
    (PVR) benchmark" a Benchmark, whatever their long forms end in; or None.

    >>> _apposition_type("Foo Learning (FL), a new benchmark suite.", 16)
    'Benchmark'
    >>> _apposition_type("the Foo Learning (FL) dataset", 20)
    'Dataset'
    """
    m = _APPOSITION_AFTER.match(text, end)
    if m:
        return _cue_type(_LOWER_WORDS.findall(text[m.end() : m.end() + 60].lower())[:4])
    m = _HEAD_AFTER.match(text, end)
    return _cue_type([m.group(1)]) if m and m.group(1) not in _METHOD_CUES else None


def task_canonical(phrase):
    """A task phrase as a node name: lowercase unless an acronym, plural heads singular.

    >>> task_canonical("Multi-view clustering"), task_canonical("regression tasks")
    ('multi-view clustering', 'regression')
    >>> task_canonical("Hawkes processes"), task_canonical("Gaussian affinities")
    ('hawkes process', 'gaussian affinity')
    """
    words = phrase.split()
    if words and words[-1].lower() in ("task", "tasks", "problem", "problems"):
        words = words[:-1] or words
    words = [w.lower() if not any(c.isupper() for c in w[1:]) else w for w in words]
    words[-1] = rules.singular(words[-1])
    return " ".join(words)


def _select(candidates):
    """Non-overlapping candidates: higher-priority rules first, then longer spans."""
    ordered = sorted(candidates, key=lambda c: (_PRIORITY[c.rule], c.start - c.end, c.start))
    taken, chosen = [], []
    for c in ordered:
        if c.type == IGNORE and c.rule not in ("lexicon", "short-form"):
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
    if c.type != "Task":
        return False
    overlapping = [o for o in chosen if o.start < c.end and c.start < o.end]
    return all(
        o.type == "Task"
        and c.start <= o.start
        and o.end <= c.end
        and (o.end - o.start) < (c.end - c.start)
        for o in overlapping
    )


def _cap_task_phrases(chosen):
    """The first MAX_TASK_PHRASES distinct task phrases of an abstract stay Tasks (the
    problem an abstract addresses comes early); later ones become keyphrase Concepts."""
    kept, seen = [], set()
    for c in chosen:
        if c.rule in ("task-phrase", "task-gerund"):
            if c.canonical not in seen and len(seen) >= MAX_TASK_PHRASES:
                c.type = "Concept"
            else:
                seen.add(c.canonical)
        kept.append(c)
    return kept


@lru_cache(maxsize=1 << 16)
def _plain_key(name):
    """Case- and plural-insensitive key of a name (MAFEs and MAFE are one)."""
    key = name_key(name)
    return key[:-1] if len(key) > 3 and key.endswith("s") else key


def _is_field_use(text, c):
    """A paradigm named as a field ("a task in reinforcement learning"), not as a method."""
    if c.entry is None or c.entry.canonical not in PARADIGMS:
        return False
    before = text[max(0, c.start - 4) : c.start].lower()
    return before.endswith(("in ", "of "))


def _mentions(text, chosen, sent_starts, sent_ends):
    """One Mention per (type, canonical), at its first occurrence, with all its surface forms."""
    first, forms, best_type = {}, {}, {}
    # The "(SHORT)" placeholder types its name only where no rule of its rank names it:
    # "SCRIT (Self-evolving CRITic)" stays a Method though its acronym comes first.
    for c in sorted(chosen, key=lambda c: (_PRIORITY[c.rule], c.rule == "short-form")):
        best_type.setdefault(_plain_key(c.canonical), c.type)
    for c in chosen:
        if _is_field_use(text, c):
            continue
        if c.type == IGNORE or best_type[_plain_key(c.canonical)] != c.type:
            continue
        key = (c.type, c.canonical.lower())
        forms.setdefault(key, []).append(text[c.start : c.end])
        if key not in first:
            first[key] = c
    mentions = []
    for key, c in first.items():
        i = bisect.bisect_right(sent_starts, c.start) - 1
        sentence = text[sent_starts[i] : sent_ends[i]]
        if c.type in ("Dataset", "Benchmark"):
            c.type = rules.collection_type(
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
    if c.type == "Task" or c.rule in (
        "lexicon",
        "abbreviation+lexicon",
        "model-version",
        "shared-head",
    ):
        return False
    return c.rule in ("proposal", "definition") or rules.is_proposal_context(sentence, offset)


# ---------------------------------------------------------------- streaming


def mentions_of_texts(nlp, texts):
    """``(mentions, error)`` for each text, in order: ``error`` says why the extraction
    failed on that text (its mentions are then empty), else it is None."""
    return [
        (doc._.mentions, doc._.extraction_error) for doc in nlp.pipe(texts, batch_size=BATCH_SIZE)
    ]


def extract_mentions(records, *, workers=1, nlp=None, problems=None):
    """Yield ``(record, [Mention, ...])`` for each record, in input order, streaming.

    With ``workers > 1`` a :class:`WorkerPool` does the work: each worker builds the
    pipeline once and sends back only the compact mentions. A record the extractors fail
    on yields no mentions, and ``problems`` (a list) receives a Problem naming it.
    """
    if workers > 1:
        with WorkerPool(workers) as pool:
            yield from pool.extract(records, problems)
    else:
        records, nlp = iter(records), nlp or build_nlp()
        while batch := list(islice(records, BATCH_SIZE)):
            found = mentions_of_texts(nlp, [r.abstract for r in batch])
            yield from failures_reported(zip(batch, found), problems)
