"""Multiword terms a corpus reveals: each abstract's candidate phrases and the context cues
around them, corpus statistics over them that merge associatively (document frequency,
cue counts), termhood (C-value) and a type for each term.

The steps follow the corpus-wide pattern: :func:`summarise` one paper into a
:class:`TermStats`, :meth:`TermStats.merge` any two, :func:`decide` the terms of the whole.
A candidate is a run of two to :data:`MAX_WORDS` lower-case words between boundaries
(:data:`STOP_WORDS`: stop words, function words, verbs, evaluative adjectives) whose first
word may open a noun phrase and whose last word may head one.
"""

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kg.extractors.names import singular
from kg.extractors.records import CONCEPT, METHOD, METRIC, TASK
from kg.extractors.term_cues import (
    CUE_TYPES,
    FOR_CUE,
    PROBLEM_CUE,
    TROUBLE_CUE,
    cues_at,
)
from kg.extractors.words import word_set

#: The longest term, in words.
MAX_WORDS = 4
#: A term is one that at least this many different abstracts use.
MIN_DF = 3
#: The least C-value (document frequency, nested uses discounted, by log2 of the length).
MIN_CVALUE = 3.0
#: A term stands as a whole run of words (not inside a longer one) in this many papers,
#: and in this share of the papers using it.
MIN_WHOLE = 2
WHOLE_SHARE = 0.25
#: A term is a fragment of a longer name when one neighbouring word stands beside it in
#: this share of the papers using it ("vector machine" after "support").
FRAGMENT_SHARE = 0.5
#: Cue counts (papers) a type needs from cues alone, the share of all cues and the share
#: of the papers using the term it needs.
MIN_CUES = 2
CUE_SHARE = 0.6
CUE_DF_SHARE = 0.15

_TASK_HEADS = word_set("task_heads")
_METHOD_HEADS = word_set("method_heads")
_METRIC_HEADS = word_set("metric_heads")
_CONCEPT_HEADS = word_set("concept_heads")
_GENERIC_HEADS = word_set("term_generic_heads")
STOP_WORDS = (
    word_set("modifier_stops")
    | word_set("evaluative_adjectives")
    | word_set("leading_function_words")
    | word_set("verb_signals")
    | word_set("phrase_stops")
    | word_set("subject_verbs")
    | word_set("term_stops")
    | word_set("term_function_words")
)
_ING_NOUNS = word_set("ing_nouns") | {w for w in _TASK_HEADS | _METHOD_HEADS if w[-3:] == "ing"}
_ED_ADJECTIVES = word_set("ed_adjectives")
_HEAD_WORDS = word_set("term_head_words") | _TASK_HEADS | _METHOD_HEADS | _METRIC_HEADS
#: Endings of hyphenated modifiers that never head a term ("network-based").
_MODIFIERS = ("-based", "-like", "-style", "-aware", "-free", "-specific", "-driven", "-level")
_ADJECTIVE_ENDINGS = ("al", "ive", "ic", "ous", "ble", "ful", "ary", "ant", "ent", "less")

#: A word: letters, then letters, digits and inner hyphens.
_WORD = re.compile(r"[A-Za-z](?:[A-Za-z0-9]|-(?=[A-Za-z0-9]))*")
#: A capitalised word (only its first letter upper case), lowered where it opens a
#: sentence or stands in a title.
_CAPITALISED = re.compile(r"[A-Z][a-z]+(?:-[a-z0-9]+)*")

#: Heads of a collection (the dataset and benchmark head words): a term so headed
#: ("continuous control benchmark") is no task.
_COLLECTION_HEADS = word_set("dataset_heads") | word_set("benchmark_heads")

# ---------------------------------------------------------------- candidate phrases


def _word_class(word: str) -> int:
    """0: a boundary; 1: may stand inside a term; 2: may also open one; 3: may also head
    one (or 4: head only; 5: open only)."""
    if (
        word in STOP_WORDS
        or singular(word) in STOP_WORDS
        or len(word) < 2
        or word.endswith("ly")
        and len(word) > 4
    ):
        return 0
    opens = heads = True
    if word.endswith("ing") and word not in _ING_NOUNS:
        opens = False
    if word.endswith("ed") and word not in _ED_ADJECTIVES and not word.endswith("-based"):
        opens = heads = False
    if word.endswith(_ADJECTIVE_ENDINGS) and word not in _HEAD_WORDS or word.endswith(_MODIFIERS):
        heads = False
    if word.endswith(("ize", "izes", "ise", "ises", "ate", "ates")) and word not in _HEAD_WORDS:
        heads = False
    return {(True, True): 3, (False, True): 4, (True, False): 5, (False, False): 1}[(opens, heads)]


_CLASS_CACHE: dict[str, int] = {}


def word_class(word: str) -> int:
    """:func:`_word_class`, cached."""
    found = _CLASS_CACHE.get(word)
    if found is None:
        found = _CLASS_CACHE[word] = _word_class(word)
    return found


def opens(cls: int) -> bool:
    return cls in (3, 5)


def heads(cls: int) -> bool:
    return cls in (3, 4)


#: A run of words: (lowered word, start, end) each.
Run = list[tuple[str, int, int]]


def phrase_runs(text: str, *, title: bool = False) -> list[Run]:
    """The maximal runs of term words of ``text`` joined by single spaces. Words with a
    capital other than a sentence-opening (or, in a ``title``, any) capitalised word end a run.

    >>> [[w for w, _, _ in r] for r in phrase_runs("We tackle slot filling, a hard task.")]
    [['slot', 'filling']]
    """
    runs: list[Run] = []
    run: Run = []
    last_end = -2
    for m in _WORD.finditer(text):
        word, start, end = m.group(), m.start(), m.end()
        if not word.islower():
            if _CAPITALISED.fullmatch(word) and (title or _opens_sentence(text, start)):
                word = word.lower()
            else:
                word = ""
        if not word or word_class(word) == 0:
            if len(run) > 1:
                runs.append(run)
            run, last_end = [], -2
            continue
        if start != last_end + 1 or text[last_end] != " ":
            if len(run) > 1:
                runs.append(run)
            run = []
        run.append((word, start, end))
        last_end = end
    if len(run) > 1:
        runs.append(run)
    return runs


def _opens_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in ".!?:"


def term_key(words: Iterable[str]) -> str:
    """The key of a term: its lowered words, the last one singular.

    >>> term_key(["graph", "neural", "networks"])
    'graph neural network'
    """
    words = list(words)
    return " ".join(words[:-1] + [singular(words[-1])])


def run_ngrams(run: Run) -> Iterator[tuple[int, int]]:
    """(i, j) of each candidate ``run[i:j]``: 2 to MAX_WORDS words, the first able to
    open a term and the last to head one."""
    classes = [word_class(w) for w, _, _ in run]
    for i, cls in enumerate(classes):
        if not opens(cls):
            continue
        for j in range(i + 2, min(i + MAX_WORDS, len(run)) + 1):
            if heads(classes[j - 1]):
                yield i, j


# ---------------------------------------------------------------- statistics


@dataclass
class TermStats:
    """Corpus statistics of candidate terms: ``df`` the papers each key occurs in,
    ``whole`` those where it stands as a whole run of words, ``cues`` the papers where a
    cue of each type stands beside it, ``forms`` its surface forms (by papers). Merging two
    adds them, so any split of a corpus gives the same whole."""

    df: Counter[str] = field(default_factory=Counter)
    whole: Counter[str] = field(default_factory=Counter)
    cues: dict[str, Counter[str]] = field(default_factory=dict)
    forms: dict[str, Counter[str]] = field(default_factory=dict)

    def merge(self, other: "TermStats") -> "TermStats":
        """Add ``other`` into this one; return it."""
        self.df.update(other.df)
        self.whole.update(other.whole)
        for table, more in ((self.cues, other.cues), (self.forms, other.forms)):
            for key, counts in more.items():
                table.setdefault(key, Counter()).update(counts)
        return self


#: One paper's candidates: {key: (first surface form, cues, stands as a whole run)}; the
#: cues are the types of the cues beside any of its uses and its neighbouring words
#: (``<word`` before it, ``>word`` after it; function words aside).
PaperTerms = dict[str, tuple[str, frozenset[str], bool]]


def paper_terms(text: str, title: str | None = None) -> PaperTerms:
    """The candidate terms of one paper (its abstract and title), each with its first
    surface form, its cues (:data:`PaperTerms`) and whether it stands as a whole run.

    >>> sorted(paper_terms("We tackle slot filling. Slot filling is hard.", "Slot Filling"))
    ['slot filling']
    """
    found: dict[str, tuple[str, set[str], list[bool]]] = {}
    for source, is_title in ((text, False), (title or "", True)):
        for run in phrase_runs(source, title=is_title):
            words = [w for w, _, _ in run]
            for i, j in run_ngrams(run):
                key = term_key(words[i:j])
                start, end = run[i][1], run[j - 1][2]
                cues = cues_at(source, start, end) | _neighbours(source, start, end)
                whole = i == 0 and j == len(run)
                if key in found:
                    found[key][1].update(cues)
                    found[key][2][0] |= whole
                else:
                    found[key] = (source[start:end].lower(), set(cues), [whole])
    return {key: (form, frozenset(cues), whole[0]) for key, (form, cues, whole) in found.items()}


_WORD_BEFORE = re.compile(r"([a-z][a-z\-]*) $")
_WORD_AFTER = re.compile(r" ([a-z][a-z\-]*)")


def _neighbours(text: str, start: int, end: int) -> set[str]:
    """``<word`` and ``>word`` for the lower-case words right before and after a span that
    could continue a term (no boundary word: "we use X", "X task" say nothing of a name).

    >>> sorted(_neighbours("the relevance vector machine task", 14, 28))
    ['<relevance']
    """
    found = set()
    before = _WORD_BEFORE.search(text, max(0, start - 30), start)
    if before and word_class(before.group(1)):
        found.add("<" + singular(before.group(1)))
    after = _WORD_AFTER.match(text, end)
    if after and word_class(after.group(1)):
        found.add(">" + singular(after.group(1)))
    return found


def is_fragment(cues: Counter[str], df: int) -> bool:
    """Whether one neighbouring word stands beside a term in FRAGMENT_SHARE of its papers.

    >>> is_fragment(Counter({"<support": 6, ">for": 1}), 10), is_fragment(Counter(), 10)
    (True, False)
    """
    top = max((n for cue, n in cues.items() if cue[0] in "<>"), default=0)
    return top >= FRAGMENT_SHARE * df


def summarise(terms: PaperTerms) -> TermStats:
    """One paper's candidates as statistics."""
    stats = TermStats()
    for key, (form, cues, whole) in terms.items():
        stats.df[key] += 1
        if whole:
            stats.whole[key] += 1
        stats.forms[key] = Counter({form: 1})
        if cues:
            stats.cues[key] = Counter(cues)
    return stats


def cvalues(df: Counter[str], *, min_df: int = MIN_DF) -> dict[str, float]:
    """C-value of each key used by ``min_df`` papers or more: log2 of its length in words
    times its document frequency less the mean frequency of the longer terms holding it.

    >>> df = Counter({"ridge regression": 10, "kernel ridge regression": 10,
    ...               "logistic regression": 8})
    >>> cvalues(df)
    {'kernel ridge regression': 15.85, 'logistic regression': 8.0, 'ridge regression': 0.0}
    """
    kept = {key: n for key, n in df.items() if n >= min_df}
    holders: dict[str, list[int]] = {}
    for key, n in kept.items():
        words = key.split()
        for i in range(len(words)):
            for j in range(i + 2, len(words) + 1):
                if j - i < len(words):
                    holders.setdefault(term_key(words[i:j]), []).append(n)
    values = {}
    for key in sorted(kept):
        longer = holders.get(key)
        nested = sum(longer) / len(longer) if longer else 0.0
        values[key] = round(math.log2(len(key.split())) * (kept[key] - nested), 2)
    return values


def head_types(key: str) -> list[str]:
    """The types the last word of a term names, in order: Task, Metric, Method, Concept."""
    head = key.rsplit(" ", 1)[-1]
    found = [
        kind
        for kind, words in (
            (TASK, _TASK_HEADS),
            (METRIC, _METRIC_HEADS),
            (METHOD, _METHOD_HEADS),
            (CONCEPT, _CONCEPT_HEADS),
        )
        if head in words or singular(head) in words
    ]
    return found


def term_type(key: str, cues: Counter[str], df: int = 0) -> str:
    """A term's type: the one its head names (a generic head such as "model" only where the
    corpus's cues agree, a Metric head only beside a Metric cue), else the one the cues
    counted across the corpus favour clearly (in ``CUE_DF_SHARE`` of its ``df`` papers or
    more); Concept otherwise.

    >>> term_type("slot filling", Counter({"Task": 3}), 10)
    'Task'
    >>> term_type("kernel ridge regression", Counter({"Method": 2, "for ": 1}), 8)
    'Method'
    >>> term_type("baseline model", Counter(), 150), term_type("weather data", Counter(), 9)
    ('Concept', 'Concept')
    >>> term_type("error propagation", Counter({"problem": 5, "trouble": 6, "Task": 1}), 38)
    'Concept'
    >>> term_type("continuous control benchmark", Counter({"Task": 4}), 10)
    'Concept'
    """
    by_head = head_types(key)
    scores = {kind: float(cues.get(kind, 0)) for kind in CUE_TYPES}
    scores[TASK] += cues.get(PROBLEM_CUE, 0) * bool(by_head)
    scores[TASK] += 0.5 * cues.get(FOR_CUE, 0) * (TASK in by_head)
    total = sum(scores.values())
    best = max(CUE_TYPES, key=lambda kind: (scores[kind], -CUE_TYPES.index(kind)))
    clear = scores[best] >= max(MIN_CUES, CUE_DF_SHARE * df) and scores[best] >= CUE_SHARE * total
    if best == TASK and cues.get(TROUBLE_CUE, 0) >= max(MIN_CUES, scores[TASK]):
        return CONCEPT  # suffered or avoided as often as tackled: a difficulty
    if not by_head:  # cues alone type Tasks and Metrics ("using X" says little)
        collection = singular(key.rsplit(" ", 1)[-1]) in _COLLECTION_HEADS
        return best if clear and best != METHOD and not collection else CONCEPT
    typed = [kind for kind in by_head if kind in CUE_TYPES]
    if not typed:
        return by_head[0]
    if len(typed) > 1 and scores[best] > 0 and best in typed:
        return best
    kind = typed[0]
    head = key.rsplit(" ", 1)[-1]
    generic = head in _GENERIC_HEADS or singular(head) in _GENERIC_HEADS
    if generic or kind == METRIC:
        return (
            kind
            if clear and best == kind or kind == METRIC and scores[METRIC] >= 1 and not generic
            else CONCEPT
        )
    if clear and best != kind and scores[best] > 2 * scores[kind]:
        return best
    return kind


@dataclass(frozen=True)
class Term:
    """A term of the corpus: its key, type, display form, document frequency, C-value and
    cue counts (papers) by type."""

    key: str
    type: str
    form: str
    df: int
    cvalue: float
    cues: tuple[tuple[str, int], ...] = ()


def _display(forms: Counter[str] | None, key: str) -> str:
    """The surface form most papers use (ties: the first in order), singular like the key."""
    if not forms:
        return key
    form = min(forms, key=lambda f: (-forms[f], f))
    words = form.split()
    return " ".join(words[:-1] + [singular(words[-1])]) if words else key


def decide(
    stats: TermStats,
    *,
    min_df: int = MIN_DF,
    min_cvalue: float = MIN_CVALUE,
    min_whole: int = MIN_WHOLE,
) -> dict[str, Term]:
    """The terms of a corpus: keys used by ``min_df`` papers or more, as a whole run of
    words by ``min_whole`` or more, with a C-value of ``min_cvalue`` or more, typed by
    :func:`term_type`."""
    terms = {}
    for key, value in cvalues(stats.df, min_df=min_df).items():
        if value < min_cvalue or stats.whole[key] < max(min_whole, WHOLE_SHARE * stats.df[key]):
            continue
        cues = stats.cues.get(key, Counter())
        if is_fragment(cues, stats.df[key]):
            continue
        terms[key] = Term(
            key,
            term_type(key, cues, stats.df[key]),
            _display(stats.forms.get(key), key),
            stats.df[key],
            value,
            tuple(sorted((cue, n) for cue, n in cues.items() if cue[0] not in "<>")),
        )
    return terms
