"""Rules for names typed by where they stand: in an evaluation list ("experiments on X, Y
and Z"), before a head shared by a list ("the X and Y datasets"), among baselines
("compared with X and Y"), as the subject of a result ("X outperforms ..."), after "our"
or "the proposed", or before a method head ("the Viterbi algorithm").

Each rule returns spans and what their place says; :mod:`kg.extractors.candidates` decides
with the lexicon which of them become candidates (an evaluation or baseline list must hold
a name the lexicon knows as such)."""

import re

from kg.extractors.records import BENCHMARK, DATASET, METHOD
from kg.extractors.rules.names import is_name_shaped
from kg.extractors.rules.sentences import sentence_start
from kg.extractors.trie import lowered_in_place, trie_regex
from kg.extractors.words import word_list, word_set

_NON_NAMES = word_set("non_names")
_LEADING_FUNCTION_WORDS = word_set("leading_function_words")
#: Capitalised words that name no entity of their own before a method head ("Markov model").
_PLAIN_CAPITALISED = word_set("plain_capitalised")
#: Lowercase words that may follow a name that ends a list ("... and Blizzard show").
_NAME_END_WORDS = word_set("name_end_words")
_TASK_HEADS = word_set("task_heads")
_PREPOSITIONS = frozenset(("on", "in", "for", "with", "from", "to", "at", "by", "of"))
#: Endings of words that describe rather than name ("Bayesian", "Lexical").
_ADJECTIVE_SUFFIXES = ("ian", "al", "ic", "ive", "ous", "ed", "ing", "ean", "ese", "ish")

#: One item of a list: up to three capitalised words, or a word with an inner capital
#: ("iNat", "mini-ImageNet").
_WORD = r"(?:[A-Z][\w\-.'’]*[\w’]|[A-Z]|[a-z]+-?[A-Z][\w\-]*)"
_ITEM = rf"{_WORD}(?: [A-Z][\w\-.'’]*[\w’]){{0,2}}"
_SEPARATOR = r"(?:,? and |,? or |,? & |, )(?:the )?"
#: An item may carry its short form in brackets ("Counterfactual Data Augmentation (CDA)").
_BRACKETED = r"(?: \([^()]{1,20}\))?"
_LIST = rf"{_ITEM}{_BRACKETED}(?:{_SEPARATOR}{_ITEM}{_BRACKETED})*"
_ITEM_RE = re.compile(_ITEM)
_COLLECTION = r"(?:data ?sets?|corpora|corpus|benchmarks?|suites?)"


def _positions(lowered: str, needles: tuple[str, ...]) -> list[int]:
    """Sorted offsets of each needle in ``lowered``, found with ``str.find`` (far faster
    than a regex scan of the whole text), each where a word starts."""
    found = []
    for needle in needles:
        at = lowered.find(needle)
        while at >= 0:
            if at == 0 or needle[0] == " " or not lowered[at - 1].isalnum():
                found.append(at)
            at = lowered.find(needle, at + 1)
    return sorted(found)


#: "the X, Y and Z datasets": a list before a collection head (found head first).
_COLLECTION_HEAD = re.compile(
    " ("
    + trie_regex(
        ["datasets", "dataset", "data sets", "data set", "corpora", "corpus"]
        + ["benchmarks", "benchmark", "suites", "suite"]
    )
    + r")\b"
)
_LIST_BEFORE = re.compile(rf"(?<![\w\-])({_LIST})\Z")
#: "benchmarks such as X, Y and Z", "two datasets: X and Y" (found cue first).
_CUES: tuple[str, ...] = ("dataset", "data set", "corpora", "benchmark", "suite", "model")
_CUES += ("method", "baseline", "algorithm", "architecture", "framework", "approach")
_CUES += ("technique", "optimizer", "llm")
_CUED_LIST = re.compile(
    r"(?i:(data ?sets|corpora|benchmarks|suites|models|methods|baselines|algorithms|"
    r"architectures|frameworks|approaches|techniques|optimizers|LLMs))"
    r"(?:,? (?:such as|including|like|namely|e\.g\.,?|i\.e\.,?)|:| \((?:e\.g\.,? )?)"
    rf" (?:the )?({_LIST})"
)
#: "experiments on X and Y", "results across X, Y and Z" (found list first).
_LIST_AFTER = re.compile(rf"(?:on|across) (?:the )?({_LIST})")
_EVALUATION_BEFORE = re.compile(
    r"(?<![\w\-])(?i:experiments?|evaluat\w*|results?|tested|tests?|performance|accuracy|"
    r"improvements?|state-of-the-art|gains?|benchmarked|validated?)(?: [\w\-]+){0,3}? \Z"
)
#: "compared with X and Y", "outperforms X, Y and Z", "baselines X and Y" (found cue first).
_BASELINE_CUES = ("compar", "baseline", "outperform", "surpass")
_BASELINE_LIST = re.compile(
    r"(?i:compared? (?:with|to|against)|comparisons? (?:with|to|against)|baselines?|"
    r"outperform(?:s|ing|ed)?|surpass(?:es|ing|ed)?)"
    r" (?:(?:the|strong|existing|previous|prior|state-of-the-art|competitive|several|"
    rf"other|popular|such as|including|like) )*({_LIST})"
)
#: The verbs of a result ("X outperforms ...", "we show that X achieves ...").
_RESULT_VERB = re.compile(" (?:" + "|".join(word_list("result_verbs")) + r")\b")
_SUBJECT_BEFORE = re.compile(
    r"(?<![\w\-])([A-Z][a-z]+[A-Za-z]*(?:-[a-z]+-[A-Z][a-z]+)?)"
    r"(?: also| further| consistently| significantly| substantially| clearly| even)?\Z"
)
#: "our X", "the proposed X", "our method, X" (found "our"/"proposed" first).
_OUR_NAME = re.compile(
    r"(?:[Oo]ur (?:proposed )?|[Tt]he proposed )(?P<head>(?:method|model|framework|approach|"
    r"algorithm|system|architecture|network|agent|pipeline)s?,? )?"
    r"(?P<name>[A-Z][a-z][\w\-]*(?: [A-Z][\w\-]*){0,2}\+?)"
)
#: "the Viterbi algorithm", "a Hopfield network" (found head first).
_METHOD_HEAD = re.compile(
    " ("
    + trie_regex(["algorithm", "model", "network", "filter", "sampler", "estimator", "process"])
    + r")(?:s|es)?\b"
)
_ARTICLE_NAME_BEFORE = re.compile(r"(?<![\w\-])(?:[Tt]he|an?) ([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\Z")


def _is_plain_name(word: str) -> bool:
    """A capitalised word that may name something: not a function word, a non-name
    (languages, generic acronyms), a plain capitalised word or an adjective."""
    if word in _NON_NAMES or word.lower() in _LEADING_FUNCTION_WORDS:
        return False
    if word in _PLAIN_CAPITALISED:
        return False
    return is_name_shaped(word) or not word.lower().endswith(_ADJECTIVE_SUFFIXES)


_FOLLOWER = re.compile(r" ([a-z]+)")


def ends_name(text: str, end: int) -> bool:
    """Whether a name may end at ``end``: punctuation or a function word or verb follows,
    not a noun that continues it ("Highway networks", "our Caffe code", "Li et al.").

    >>> s = "Highway networks and Hydra, or Hydra outperforms Li et al."
    >>> [ends_name(s, s.index(w) + len(w)) for w in ("Highway", "Hydra,", "or Hydra", "Li")]
    [False, True, True, False]
    """
    m = _FOLLOWER.match(text, end)
    if m is None:
        return text[end : end + 1] != " " or not text[end + 1 : end + 2].isalnum()
    return m.group(1) in _NAME_END_WORDS


#: "in"/"of" and a capitalised word after a name of several words: the name goes on
#: ("Common Objects in Context", "Labeled Faces in the Wild").
_NAME_GOES_ON = re.compile(r" (?:in|of)(?: the)? [A-Z]")


def _items(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The names of a list at [start, end): each item, its leading non-names aside
    ("English Penn Treebank" names Penn Treebank). Dropped: single words that are no
    names, items of plain capitalised words only ("Large Language Models"), possessives,
    task names ("Event Classification"), a part of a longer name ("Common Objects" of
    Common Objects in Context) and a last item that a noun continues.

    >>> s = "Tests on three data sets: Plover, Heron Bay, and Common Objects in Context."
    >>> [[s[a:b] for a, b in items] for items, _, _ in list_spans(s)]
    [['Plover', 'Heron Bay']]
    """
    found = []
    for m in _ITEM_RE.finditer(text, start, end):
        words = m.group(0).split(" ")
        at = m.start()
        while len(words) > 1 and (
            words[0] in _NON_NAMES or words[0].lower() in _LEADING_FUNCTION_WORDS | _PREPOSITIONS
        ):
            at += len(words.pop(0)) + 1
        name = " ".join(words)
        if (
            len(words) == 1
            and (len(name) < 2 or not _is_plain_name(name))
            or all(w in _PLAIN_CAPITALISED or w in _NON_NAMES for w in words)
            or "'s" in name
            or "’s" in name
            or words[-1].lower() in _TASK_HEADS
            or len(words) > 1
            and _NAME_GOES_ON.match(text, at + len(name))
        ):
            continue
        found.append((at, at + len(name)))
    if found and found[-1][1] == end and not ends_name(text, end):
        return []  # "Document, Paragraph, and Sentence level"
    return found


def _kind(word: str) -> str:
    return BENCHMARK if word.lower().startswith(("bench", "suite")) else DATASET


ListSpans = tuple[list[tuple[int, int]], str, str]


def list_spans(text: str) -> list[ListSpans]:
    """(items, type, cue) of each list whose place types its names: cue ``headed`` ("the X
    and Y datasets") and ``cued`` ("benchmarks such as X and Y", "models like X") type them
    by that word; ``evaluation`` ("experiments on X and Y") as Dataset and ``baseline``
    ("compared with X and Y") as Method, if the lexicon knows one of them as such.

    >>> s = "Results on the Foo-1 and Bar Baz datasets beat models such as Qux."
    >>> for items, kind, cue in list_spans(s):
    ...     print([s[a:b] for a, b in items], kind, cue)
    ['Foo-1', 'Bar Baz'] Dataset headed
    ['Qux'] Method cued
    ['Foo-1', 'Bar Baz'] Dataset evaluation
    """
    found: list[ListSpans] = []
    for head in _COLLECTION_HEAD.finditer(text):
        word = text[text.rfind(" ", 0, head.start()) + 1 : head.start()]
        if word == word.lower():
            continue  # "two datasets", "benchmark suites": no name before the head
        m = _LIST_BEFORE.search(text, max(0, head.start() - 160), head.start())
        items = _items(text, *m.span(1)) if m else []
        if len(items) > 1:  # one name before its head is the headed-name rule's
            found.append((items, _kind(head.group(1)), "headed"))
    lowered = lowered_in_place(text)
    for at in _positions(lowered, _CUES):
        m = _CUED_LIST.match(text, at)
        if m:
            cue = m.group(1)
            kind = _kind(cue) if re.fullmatch(_COLLECTION, cue.lower()) else METHOD
            found.append((_items(text, *m.span(2)), kind, "cued"))
    for at in _positions(lowered, (" on ", " across ")):
        m = _LIST_AFTER.match(text, at + 1)
        if m and _EVALUATION_BEFORE.search(text, max(0, at - 60), at + 1):
            items = _items(text, *m.span(1))
            if len(items) > 1:
                found.append((items, DATASET, "evaluation"))
    for at in _positions(lowered, _BASELINE_CUES):
        m = _BASELINE_LIST.match(text, at)
        if m:
            items = _items(text, *m.span(1))
            if len(items) > 1:
                found.append((items, METHOD, "baseline"))
    return [f for f in found if f[0]]


def result_subject_spans(text: str) -> list[tuple[int, int]]:
    """A capitalised word that is the subject of a result verb: "Hydra outperforms ...",
    "we show that Quill achieves ..." (not "It achieves", "Bayesian ... yields").

    >>> s = "Hydra outperforms both. It achieves more, and Empirical results improve."
    >>> [s[a:b] for a, b in result_subject_spans(s)]
    ['Hydra']
    """
    found = []
    for verb in _RESULT_VERB.finditer(text):
        m = _SUBJECT_BEFORE.search(text, max(0, verb.start() - 60), verb.start())
        if m is None:
            continue
        word = m.group(1)
        if not _is_plain_name(word) or is_name_shaped(word):
            continue  # a coined name is the coined-name rule's
        before = text[max(0, m.start() - 6) : m.start()]
        if sentence_start(text, m.start()) or before.endswith(("that ", "which ", "and ")):
            found.append(m.span(1))
    return found


def _followed_by_verb(text, end):
    """Whether a verb (a word of ``name_end_words`` that is no function word) follows."""
    m = _FOLLOWER.match(text, end)
    return m is not None and m.group(1) in _NAME_END_WORDS - _FUNCTION_FOLLOWERS


_FUNCTION_FOLLOWERS = _PREPOSITIONS | {"and", "or", "as", "than", "over", "under", "via"}


def own_name_spans(text: str) -> list[tuple[int, int]]:
    """The capitalised name after "our" or "the proposed": "the proposed Sparrow", "our
    method, Gull Net" (not "our English model").

    >>> s = "We show that the proposed Sparrow works and our English parser fails."
    >>> [s[a:b] for a, b in own_name_spans(s)]
    ['Sparrow']
    """
    found = []
    for at in _positions(lowered_in_place(text), ("our ", "the proposed ")):
        m = _OUR_NAME.match(text, at)
        if m is None:
            continue
        words = m.group("name").split(" ")
        if not all(_is_plain_name(w) for w in words):
            continue
        if (
            m.group("head")
            or len(words) > 1
            or "-" in words[0]
            or is_name_shaped(words[0])
            or _followed_by_verb(text, m.end("name"))
        ):
            found.append(m.span("name"))
    return found


def method_headed_spans(text: str) -> list[tuple[int, int]]:
    """A capitalised name with the method head after it, head included: "the Viterbi
    algorithm", "a Hopfield network", "a Hawkes process" (not "the Bayesian model", "the
    Markov model").

    >>> s = "We run the Viterbi algorithm on a Markov model and the Bayesian network."
    >>> [s[a:b] for a, b in method_headed_spans(s)]
    ['Viterbi algorithm']
    >>> s = "Arrivals follow a Hawkes process; the Pitman-Yor processes differ."
    >>> [s[a:b] for a, b in method_headed_spans(s)]
    ['Hawkes process', 'Pitman-Yor process']
    """
    found = []
    for head in _METHOD_HEAD.finditer(text):
        m = _ARTICLE_NAME_BEFORE.search(text, max(0, head.start() - 40), head.start())
        if m is None:
            continue
        word = m.group(1)
        if all(_is_plain_name(w) for w in word.split("-")) and not is_name_shaped(word):
            found.append((m.start(1), head.end(1)))
    return found


_NAME_BEFORE_SCORE = re.compile(r"(?<![\w\-])([A-Za-z][\w\-]*[A-Z][\w\-]*)\Z")


def metric_headed_spans(text: str) -> list[tuple[int, int]]:
    """A name with "score" after it, head included: a measure whatever the name is
    elsewhere ("the FEVER score", "SBERT score", "ViCLIP Score"; not "high score").

    >>> s = "We report the QuuxQA score and a high score on it, and the Bar Score."
    >>> [s[a:b] for a, b in metric_headed_spans(s)]
    ['QuuxQA score']
    """
    found = []
    for at in _positions(text, (" score", " Score")):
        end = at + len(" score")
        if end < len(text) and (text[end].isalnum() or text[end] == "-"):
            continue  # "scored", "score-based"
        m = _NAME_BEFORE_SCORE.search(text, max(0, at - 40), at)
        if m is None:
            continue
        word = m.group(1)
        if word in _NON_NAMES or not (is_name_shaped(word) or word.isupper() and len(word) > 1):
            continue
        found.append((m.start(1), end))
    return found


#: The rest of a list after a name (", AOPE, AOSTE, and ACOSQE"), then its head word.
_LIST_REST_AND_HEAD = re.compile(r"(?:,? (?:and |or )?(?:the )?[A-Z0-9][\w\-.]*)* ([a-z]+)\b")


def list_head_word(text: str, end: int) -> str | None:
    """The lowercase word after a name at ``end`` and the names listed with it, the head
    the list shares ("on AOOE, AOPE and AOSTE subtasks"); None when none follows.

    >>> s = "on AOOE, AOPE, and ACOSQE subtasks; on the Torch7 and Theano frameworks."
    >>> list_head_word(s, 7), list_head_word(s, s.index(" and Theano"))
    ('subtasks', 'frameworks')
    """
    m = _LIST_REST_AND_HEAD.match(text, end)
    return m.group(1) if m else None
