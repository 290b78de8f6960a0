"""Rules for task phrases: a task head and its modifiers ("multi-view clustering"), "the X
task", a task verb and its object, and two modifiers sharing a head."""

import re

from kg.extractors.abbreviations import Abbreviation
from kg.extractors.names import singular, without_s
from kg.extractors.rules.context import (
    TASK_HEADS,
    WORD_BEFORE,
    is_modifier,
    modifiers_start,
    outermost,
    word_window,
    words_before,
)
from kg.extractors.trie import trie_regex, word_start_matches, word_start_regexes
from kg.extractors.words import word_set

_ADJECTIVES = word_set("evaluative_adjectives")
#: The verbs of comparison_cues.txt ("outperform", "surpasses"), which precede what is beaten.
_COMPARED = frozenset(
    w for w in word_set("comparison_cues") if w.startswith(("outperform", "surpass", "beat"))
)
_TASK_MODIFIER_STOP = word_set("modifier_stops")
#: Words before "task(s)"/"problem(s)" that say what kind of tasks, not which one
#: ("natural language tasks", "downstream data tasks").
_NOT_TASK_NAMES = word_set("not_task_names")
#: Nouns in -ary, a task's name ("reverse dictionary task") where an adjective in -ary
#: ("auxiliary tasks") says only which kind of task.
_ARY_NOUNS = frozenset(("dictionary", "summary", "vocabulary", "boundary", "library", "glossary"))
_LOWER_WORD = re.compile(r"[a-z][a-z\-]*")
_TASK_NOUNS = {"task", "tasks", "problem", "problems"}
#: Collection nouns before "tasks": "X benchmark tasks" are the tasks of benchmark X.
_COLLECTION_WORDS = frozenset(("benchmark", "benchmarks", "suite", "suites"))
#: A verb of trouble before "the X problem": a problem suffered, not a task solved
#: ("mitigate the error propagation problem").
ISSUE_BEFORE = re.compile(
    r"\b(?:" + "|".join(word_set("issue_verbs")) + r")(?: from)? (?:the |this |that |a )?$"
)


def _modifies_next(sentence, end):
    """Whether the word after ``end`` is a noun the phrase modifies ("clustering methods")."""
    m = _LOWER_WORD.match(sentence.lower(), end + 1) if sentence[end : end + 1] == " " else None
    return m is not None and m.group(0) in _HEAD_OF_COMPOUND


#: Task verbs whose gerund names a task by its object ("detecting gender bias" is gender
#: bias detection), with the noun the task takes its name from.
GERUND_TASK_NOUNS = {
    "detecting": "detection",
    "estimating": "estimation",
    "classifying": "classification",
    "predicting": "prediction",
    "generating": "generation",
    "recognizing": "recognition",
    "recognising": "recognition",
    "segmenting": "segmentation",
    "filtering": "filtering",
    "retrieving": "retrieval",
    "translating": "translation",
    "summarizing": "summarization",
    "summarising": "summarization",
    "localizing": "localization",
    "forecasting": "forecasting",
    "identifying": "identification",
    "quantifying": "quantification",
    "evaluating": "evaluation",
    "verifying": "verification",
    "reconstructing": "reconstruction",
    "tracking": "tracking",
    "completing": "completion",
    "compressing": "compression",
    "denoising": "denoising",
    "attributing": "attribution",
    "explaining": "explanation",
    "editing": "editing",
    "inferring": "inference",
    "optimizing": "optimization",
    "optimising": "optimization",
}


#: A word ending in "ing", found by its ending (a literal the regex engine finds quickly).
_ING_WORD = re.compile(r"ing\b")
#: The object after a task verb: one to three words, then a clause boundary.
_GERUND_OBJECT = re.compile(
    r"((?: [A-Za-z][\w\-]*){1,3}?)"
    r"(?= (?:is|are|has|have|remains|from|with|in|for|by|via|using|under|and|or|that|which|"
    r"as|to|at|on|of|without|across)\b|[,.;:)]|$)"
)


#: What comes right before a task verb that names a task: a preposition or a sentence end.
_GERUND_LEFT = re.compile(r"(?:\b(?:for|of|in|on|at|to)|[.!?]) $")


def gerund_task_spans(text: str) -> list[tuple[int, int, str]]:
    """Tasks named by a task verb and its object, at a sentence start or after a
    preposition, as (start, end, task name): "Detecting AI-generated images" is
    AI-generated image detection.

    >>> s = "We focus on estimating treatment effects, not on estimating the sparse or on "
    >>> s += "detecting instances of bias. Predicting sepsis is hard."
    >>> [(s[a:b], name) for a, b, name in gerund_task_spans(s)]  # doctest: +NORMALIZE_WHITESPACE
    [('estimating treatment effects', 'treatment effect estimation'),
     ('Predicting sepsis', 'sepsis prediction')]
    """
    found = []
    for m in _ING_WORD.finditer(text):
        start = m.start()
        while start and text[start - 1].isalpha():
            start -= 1
        verb = text[start : m.end()].lower()
        if (
            verb not in GERUND_TASK_NOUNS
            or start
            and (text[start - 1] == "-" or not _GERUND_LEFT.search(text, max(0, start - 5), start))
        ):
            continue
        obj = _GERUND_OBJECT.match(text, m.end())
        if obj is None:
            continue
        low = obj.group(1).lower().split()
        if (
            any(w in _TASK_MODIFIER_STOP or w in _ADJECTIVES for w in low)
            or low[-1].endswith(("al", "ive", "ic", "ous", "ble", "ing", "ly", "ed"))
            or text.startswith(" of ", obj.end())
        ):
            continue
        noun = GERUND_TASK_NOUNS[verb]
        found.append((start, obj.end(), " ".join(low[:-1] + [singular(low[-1]), noun])))
    return found


#: The word before " and "/" or ": a modifier that may share the head after the joiner.
_MODIFIER_BEFORE = re.compile(r"(?<![\w\-/.])([A-Za-z][\w\-]*)$")
#: A joiner, then the second modifier and one or two words of the shared head.
_JOINED_MODIFIER = re.compile(r" (?:and|or) ([A-Za-z][\w\-]*) ([a-z][\w\-]*)(?: ([a-z][\w\-]*))?")


def shared_head_phrases(text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """The first of two modifiers that share a head, as (start, end, phrases): "math and
    scientific reasoning" names math reasoning at "math". ``phrases`` are the modifier
    with the first two words after the second modifier, then with the first one, for the
    caller to look up (the words after the head may start another phrase).

    >>> s = "on math and scientific reasoning tasks"
    >>> [(s[a:b], phrases) for a, b, phrases in shared_head_phrases(s)]
    [('math', ('math reasoning tasks', 'math reasoning'))]
    """
    found = []
    for joiner in (" and ", " or "):  # found by str.find: faster than any regex scan
        at = text.find(joiner)
        while at >= 0:
            m = _JOINED_MODIFIER.match(text, at)
            if m and is_modifier(m.group(1)):
                before = _MODIFIER_BEFORE.search(text, word_window(text, at + 1, 41), at)
                if before and _modifier_pair(text, before.group(1), before.start(), m.group(1)):
                    head = [w for w in m.groups()[1:] if w]
                    found.append(
                        (
                            before.start(1),
                            at,
                            tuple(
                                " ".join([before.group(1)] + head[:n])
                                for n in range(len(head), 0, -1)
                            ),
                        )
                    )
            at = text.find(joiner, at + 1)
    return sorted(found)


_ADJECTIVAL_ENDINGS = ("al", "ive", "ic", "ar", "ary", "ous", "ed", "-shot", "-line", "-level")


def _modifier_pair(text, first, start, second):
    """Whether ``first`` (at ``start``) and ``second``, a modifier, around a joiner are two
    modifiers of one head: the first a modifier too, not the second again, and opening its
    phrase (after a function word or none, or itself or the word before it an adjective),
    not ending one before ("lexicon feature and multi-task learning" does not name feature
    learning)."""
    if not is_modifier(first) or first.lower() == second.lower():
        return False
    previous = WORD_BEFORE.search(text, word_window(text, start, 40), start)
    return (
        previous is None
        or previous.group(1).lower() in _TASK_MODIFIER_STOP
        or first.lower().endswith(_ADJECTIVAL_ENDINGS)
        or previous.group(1).lower().endswith(_ADJECTIVAL_ENDINGS)
    )


def task_spans(sentence: str) -> list[tuple[int, int, bool]]:
    """Task phrases: up to three modifiers before a task head ("multi-view clustering"),
    and "the X task/problem" (third item True for these; "X benchmark tasks" names X).

    >>> s = "We study out-of-distribution detection and the delayed serial recall task."
    >>> [(s[a:b], named) for a, b, named in task_spans(s)]
    [('out-of-distribution detection', False), ('delayed serial recall', True)]
    >>> s = "It wins on continuous control benchmark tasks."
    >>> [(s[a:b], named) for a, b, named in task_spans(s)]
    [('continuous control', True)]
    """
    found = []
    lowered = sentence.lower()
    for start, end, word in _task_words(lowered):
        if lowered[start - 1 : start] == "-" and _in_hyphenated_word(lowered, start):
            continue
        named = word in _TASK_NOUNS
        words = words_before(sentence, start if named else end, 5)
        if not words or (named and sentence[words[-1][2] : start] != " "):
            continue
        head = len(words) - 1
        if named and head > 0 and words[head][0].lower() in _COLLECTION_WORDS:
            head -= 1  # "continuous control benchmark tasks": the tasks of a benchmark
        first = modifiers_start(sentence, words, head, lead=named)
        if _beaten(words, first):
            continue
        if named and first < head and words[first][0].lower().endswith("ing"):
            first += 1  # "modeling math problems": a verb and its object, not a task name
        if named:
            head_word = words[head][0].lower()
            if (
                (
                    head_word.endswith(("ive", "al", "ic", "ed"))
                    or head_word.endswith("ary")
                    and head_word not in _ARY_NOUNS
                )
                and head_word not in TASK_HEADS
                or head_word in _NOT_TASK_NAMES
                or first <= head
                and word.startswith("problem")
                and ISSUE_BEFORE.search(lowered, 0, words[first][1])
            ):
                continue
            if first < head or (
                first == head
                and words[head][0].lower() in TASK_HEADS
                and words[head][0].lower() not in _BARE_GENERIC_HEADS
            ):
                found.append((words[first][1], words[head][2], True))
        elif (
            first < head
            and not _modifies_next(sentence, end)
            and not an_extension(sentence, words[first][1], end)
        ):
            found.append((words[first][1], end, False))
    return outermost(found)


#: "a natural generalization", "X generalization of Y": the word's other sense, an
#: extension of something, not the learning problem.
_INDEFINITE_BEFORE = re.compile(r"\b[Aa]n? $")


def an_extension(text: str, start: int, end: int) -> bool:
    """Whether the phrase at [start, end), headed by "generalization", means an extension
    ("a natural generalization of PCA", "nonlinear generalization of ICA").

    >>> s = "A nonlinear generalization of PCA and compositional generalization"
    >>> an_extension(s, 2, 26), an_extension(s, 38, 66)
    (True, False)
    """
    return text[start:end].lower().endswith("generalization") and (
        text[end : end + 4].lower() == " of "
        or _INDEFINITE_BEFORE.search(text, max(0, start - 4), start) is not None
    )


#: Task heads that alone, as in "generation tasks", name no task one could share with
#: another paper ("classification", "translation" and "reasoning tasks" still do).
_BARE_GENERIC_HEADS = word_set("bare_generic_task_heads")
#: The task heads and nouns as words of their own (a maximal run of letters and hyphens,
#: leading hyphens aside), as ``_LOWER_WORD`` finds them in lowercased text.
_TASK_WORD = word_start_regexes(trie_regex(TASK_HEADS | _TASK_NOUNS) + r"(?![a-z\-])", "a-z")


def _beaten(words, first):
    """Whether the phrase from ``words[first]`` is what a result beats ("outperform random
    selection"; the verb before it or, kept as a modifier, its first word): no task."""
    before = words[first - 1][0].lower() if 0 < first <= len(words) else ""
    opening = words[first][0].lower() if first < len(words) else ""
    return before in _COMPARED or opening.startswith(("outperform", "surpass"))


def _task_words(lowered):
    """(start, end, word) of each task head or noun standing as a word of its own.

    >>> list(_task_words("detection, redetection and multi-task"))
    [(0, 9, 'detection'), (33, 37, 'task')]
    """
    return [(m.start(1), m.end(1), m.group(1)) for m in word_start_matches(*_TASK_WORD, lowered)]


def _in_hyphenated_word(lowered, start):
    """Whether the hyphens before ``start`` join it to a preceding word ("x-detection"),
    rather than lead a word of their own ("3-detection")."""
    before = lowered[:start].rstrip("-")
    return bool(before) and "a" <= before[-1] <= "z"


#: Nouns that, right after a task phrase, show it modifies them ("clustering methods").
_HEAD_OF_COMPOUND = word_set("compound_heads")


#: "the task of X (Y)", "X (Y) tasks", "X (Y) is a related task": the pair names a task,
#: whatever its capitals say.
_TASK_OF_BEFORE = re.compile(r"\btasks? of (?:the )?$", re.IGNORECASE)
#: After an acronym's pair: more pairs of one list ("Term Extraction (ATE), Sentiment
#: Classification(ATSC) and Pair Extraction (ASPE) subtasks"), then "is a ... task" or "tasks".
_TASK_AFTER = re.compile(
    r"\)?(?:,? (?:and |or )?(?:[A-Z][\w-]* ?){1,6}\([A-Z][\w-]*\))*"
    r" (?:(?:is|was) (?:a|an|the)(?: [a-z][\w-]*){0,2}? )?(?:sub-?)?tasks?\b"
)


def named_as_task(text: str, abbr: Abbreviation) -> bool:
    """Whether the words around an acronym's pair, or those after a later use of its short
    form ("the CVG task"), call it a task.

    >>> from kg.extractors.abbreviations import find_abbreviations
    >>> s = "We propose the task of Simple Definition Generation (SDG). Success in Textual"
    >>> s += " Matching (TM) tasks is unclear. Our Graph Ranking (GR) model wins. Ordinal"
    >>> s += " Quantification (OQ) is a related task. Court View Writing (CVW) matters; we"
    >>> s += " study the CVW task. We win on Term Extraction (TE) and Pair Extraction (PE)"
    >>> s += " subtasks."
    >>> [(a.short, named_as_task(s, a)) for a in find_abbreviations(s)][-3:]
    [('CVW', True), ('TE', True), ('PE', True)]
    """
    first = min(abbr.long_start, abbr.short_start)
    end = max(abbr.short_end, abbr.long_end)
    if _TASK_OF_BEFORE.search(text, max(0, first - 20), first) or _TASK_AFTER.match(text, end):
        return True
    use = f"{abbr.short} task"
    at = text.find(use, end)
    while at >= 0:
        if not (text[at - 1 : at].isalnum() or text[at - 1 : at] == "-"):
            after = text[at + len(use) : at + len(use) + 1]
            if not after.isalnum() or after == "s":
                return True
        at = text.find(use, at + 1)
    return False


#: Heads of the long forms of task acronyms ("off-policy evaluation (OPE)").
LONG_FORM_TASK_HEADS = TASK_HEADS | word_set("long_form_task_heads")
#: Words that call what a sentence opens on a method ("... is a greedy algorithm", "... was
#: proposed for").
_METHOD_WORDS = word_set("method_cues") | {
    "function",
    "estimator",
    "procedure",
    "proposed",
    "introduced",
}
_WORD = re.compile(r"[A-Za-z]+")


def opens_as_task(text: str, abbr: Abbreviation) -> bool:
    """Whether an acronym's pair opens the abstract with a long form headed by a task word
    ("Chinese Grammatical Error Diagnosis (CGED) suffers from ..."), its sentence calling it
    no method ("Generalized Binary Search (GBS) is a greedy algorithm"): what a paper opens
    on is the problem it addresses, whatever the capitals of its words.

    >>> from kg.extractors.abbreviations import find_abbreviations
    >>> s = "Grammatical Error Diagnosis (GED) is hard. We use Target Selection (TS) here."
    >>> [(a.short, opens_as_task(s, a)) for a in find_abbreviations(s)]
    [('GED', True), ('TS', False)]
    >>> s = "Binary Search (BS) is a well known greedy algorithm."
    >>> [opens_as_task(s, a) for a in find_abbreviations(s)]
    [False]
    """
    if text[: min(abbr.long_start, abbr.short_start)].strip():
        return False
    words = abbr.long.lower().split()
    end = max(abbr.short_end, abbr.long_end)
    stop = text.find(". ", end)
    said = _WORD.findall(text[end : stop if stop >= 0 else None].lower())
    return (
        bool(words)
        and (words[-1] in LONG_FORM_TASK_HEADS or named_problem(abbr.long))
        and _METHOD_WORDS.isdisjoint(said)
    )


def named_problem(phrase: str) -> bool:
    """Whether a phrase names a problem, a task: "Traveling Salesman Problem" (not "7
    problems", nor Markov decision problems, a formalism)."""
    words = phrase.split()
    return (
        len(words) > 1
        and without_s(words[-1].lower()) == "problem"
        and not words[0][:1].isdigit()
        and "markov decision" not in phrase.lower()
    )


#: A dimension written right before a task's name ("3D object detection", "6-D pose").
_DIMENSION_BEFORE = re.compile(r"(?<![\w-])[1-6]-?[Dd] $")


def dimension_start(text: str, start: int) -> int | None:
    """Where a dimension that is part of the task named at ``start`` begins, or None: "3D
    object detection" is a task of its own, not object detection.

    >>> s = "We study 3D object detection and 2-D tracking, not 13D data."
    >>> dimension_start(s, s.index("object")), dimension_start(s, s.index("tracking"))
    (9, 33)
    """
    m = _DIMENSION_BEFORE.search(text, max(0, start - 4), start)
    return m.start() if m else None
