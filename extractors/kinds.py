"""What kind of entity a phrase is: every typing decision of extraction in one place.

The rules find spans; this module says whether a span is a Method, Dataset, Benchmark,
Task, Metric or Concept (or an ``IGNORE`` event name), from its head word, the words
around it, the lexicon's entries for its parts, and the list it stands in.
"""

import re

from kg.extractors.abbreviations import Abbreviation
from kg.extractors.lexicon import Entry, Lexicon
from kg.extractors.names import stem_key, without_s
from kg.extractors.records import (
    BENCHMARK,
    CONCEPT,
    DATASET,
    IGNORE,
    METHOD,
    METRIC,
    TASK,
)
from kg.extractors.rules.lists import list_head_word
from kg.extractors.rules.proposals import NAMING_WORDS, introduced_here, is_proposal_context
from kg.extractors.rules.tasks import (
    LONG_FORM_TASK_HEADS,
    named_as_task,
    named_problem,
    opens_as_task,
)
from kg.extractors.words import word_list, word_set

#: Words that say a name before or after them is a dataset or a benchmark.
DATASET_HEADS = word_set("dataset_heads")
BENCHMARK_HEADS = word_set("benchmark_heads")
METRIC_HEADS = word_set("metric_heads")
#: Heads of named ideas that are not entities of the graph's typed kinds.
CONCEPT_HEADS = word_set("concept_heads")
#: Heads that make a phrase a method rather than a task.
METHOD_HEADS = word_set("method_heads")
_COLLECTION_WORD = re.compile(
    r"\b(benchmarks?|datasets?|data sets?|corpus|corpora)\b", re.IGNORECASE
)


#: The rest of a list up to the plural head that names its items ("MNIST and SVHN
#: benchmarks", "X, Y, and Z datasets").
_ITEM = r"(?:[A-Z0-9][\w\-.'’+/]*|[a-z]+-?[A-Z][\w\-]*)(?: [A-Z0-9][\w\-.'’+/]*){0,2}"
_LIST_TO_HEAD = re.compile(
    rf"(?:(?:,? (?:and|or) |, )(?:the )?{_ITEM}){{1,8}} "
    r"(?i:(benchmarks|datasets|data sets|corpora))\b"
)


def collection_type(sentence: str, start: int, end: int, default: str) -> str:
    """Dataset or Benchmark as the sentence calls the name at [start, end): the word right
    after it ("MNIST dataset") or after the list it starts ("the MNIST and SVHN
    benchmarks"), else the nearest such word up to 80 characters before it ("benchmarks
    such as MNIST and CIFAR-10"); otherwise ``default``.

    >>> s = "We use vision benchmarks such as MNIST and CIFAR-10."
    >>> collection_type(s, s.index("MNIST"), s.index("MNIST") + 5, "Dataset")
    'Benchmark'
    >>> s = "On CIFAR-10 and the FooQA benchmark."
    >>> collection_type(s, 3, 11, "Dataset")
    'Dataset'
    >>> s = "On the MNIST, Foo and Bar Baz benchmarks."
    >>> collection_type(s, 7, 12, "Dataset")
    'Benchmark'
    """
    after = _COLLECTION_WORD.match(sentence, end + 1) if sentence[end : end + 1] == " " else None
    if after is None:
        after = _LIST_TO_HEAD.match(sentence, end)
    if after:
        return _collection_kind(after.group(1))
    window = sentence[max(0, start - 80) : start]
    found = [m for m in _COLLECTION_WORD.finditer(window) if ";" not in window[m.end() :]]
    return _collection_kind(found[-1].group(1)) if found else default


def _collection_kind(word):
    return BENCHMARK if word.lower().startswith("bench") else DATASET


def head_words(phrase: str) -> list[str]:
    """The words of a named phrase up to its head: what comes before a lowercase "for",
    "via" or "using", or before "of"/"with" after a method head ("Network of Experts").
    "Mixture of Experts" and "One For All" are heads as a whole.

    >>> head_words("dynamic agent for multi-view clustering")
    ['dynamic', 'agent']
    >>> head_words("Mixture of Experts"), head_words("One For All")
    (['Mixture', 'of', 'Experts'], ['One', 'For', 'All'])
    """
    words = phrase.replace("–", "-").split()
    for k, word in enumerate(words[1:], 1):
        if (
            word in ("for", "via", "using")
            or word.lower() in ("of", "with")
            and words[k - 1].lower().rstrip("s") in METHOD_HEADS
        ):
            return words[:k]
    return words


def phrase_type(phrase: str) -> str:
    """Type of an unknown named phrase (an acronym's long form) from its head word.

    >>> phrase_type("Margin-aware Predictive Uncertainty"), phrase_type("off-policy evaluation")
    ('Method', 'Task')
    >>> phrase_type("The Inherent Disagreement - 8 dataset"), phrase_type("Attack Success Rate")
    ('Dataset', 'Metric')
    >>> phrase_type("Traveling Salesman Problem"), phrase_type("crowd data collection")
    ('Task', 'Concept')
    """
    words = head_words(phrase)
    head = words[-1].lower().strip(".,*_") if words else ""
    if head in CONCEPT_HEADS:
        return CONCEPT
    if head in DATASET_HEADS or head in ("survey", "census"):
        # "Dynamic Adversarial Data Collection" is a way of collecting, not a collection
        activity = head == "collection" and [w.lower() for w in words[-2:-1]] == ["data"]
        return CONCEPT if activity else DATASET
    if head in BENCHMARK_HEADS:
        return BENCHMARK
    if head in METRIC_HEADS and head not in ("loss",):
        return METRIC
    titled = sum(w[:1].isupper() for w in words) >= max(2, len(words) - 1)
    one = without_s(head)
    if head in LONG_FORM_TASK_HEADS and not titled or named_problem(phrase):
        return TASK
    if head in METHOD_HEADS or one in METHOD_HEADS or titled or head.endswith("training"):
        return METHOD
    if head in LONG_FORM_TASK_HEADS or one in LONG_FORM_TASK_HEADS:
        return TASK
    return CONCEPT


#: Words before and after a learning paradigm that say it is used as a technique.
TECHNIQUE_BEFORE = word_set("technique_before")
TECHNIQUE_AFTER = word_set("technique_after")
#: After a paradigm: the next word, past a coordinated paradigm ("multi-task learning and
#: transfer learning methods").
_AFTER_PARADIGM = re.compile(r"(?:,? (?:and|or) (?:[\w-]+ ){0,2}learning)? ([a-z]+)")


def used_as_technique(text: str, start: int, end: int) -> bool:
    """Whether the learning paradigm at [start, end) names a technique the paper uses (a
    Method) rather than the problem it addresses (a Task): a word of ``technique_before``
    right before it, or of ``technique_after`` right after it or after a paradigm
    coordinated with it.

    >>> s = "We adopt multi-task learning and transfer learning methods."
    >>> used_as_technique(s, 9, 28), used_as_technique(s, 33, 50)
    (True, True)
    >>> s = "Multi-task learning is hard; methods for multi-task learning differ."
    >>> used_as_technique(s, 0, 19), used_as_technique(s, 41, 60)
    (False, False)
    """
    before = text[max(0, start - 20) : start].split()
    if before and before[-1].lower() in TECHNIQUE_BEFORE:
        return True
    after = _AFTER_PARADIGM.match(text, end)
    return after is not None and after.group(1) in TECHNIQUE_AFTER


def method_word_after(text: str, end: int) -> bool:
    """Whether a method word follows a bracketed acronym: "Tree-of-Question (ToQ) method"."""
    m = _HEAD_AFTER.match(text, end)
    return m is not None and m.group(1) in _METHOD_CUES


def spells(entry: Entry, long_form: str) -> bool:
    """Whether a long form is one of the entry's names but for a plural "s" ("Mixture of
    expert" for mixture of experts)."""
    key = stem_key(long_form)
    return any(stem_key(name) == key for name in entry.names)


def suffix_type(phrase: str, lexicon: Lexicon) -> str | None:
    """Type of the longest known Method/Task that ends the head of an unknown phrase
    ("Agentic reinforcement learning" is a Method because reinforcement learning is; "an
    agent for multi-view clustering" is not a Task)."""
    words = head_words(phrase)
    for n in range(min(3, len(words) - 1), 0, -1):
        entry = lexicon.lookup(" ".join(words[-n:]))
        if entry is not None and entry.type in (METHOD, TASK):
            return entry.type
    return None


def ends_in_known_method(name: str, lexicon: Lexicon) -> bool:
    """Whether a several-word name ends in a known method ("Dudley GAN", "Cascading DQN")."""
    head = name.rsplit(" ", 1)
    entry = lexicon.lookup_as_written(head[1]) if len(head) == 2 else None
    return entry is not None and entry.type == METHOD


def named_phrase_type(phrase: str) -> str:
    """A capitalised phrase is a Method unless its head says Dataset/Benchmark/Metric, or
    says it is an event (IGNORE: "Shared Tasks", "Workshop")."""
    if phrase.rsplit(" ", 1)[-1].lower() in _EVENT_HEADS:
        return IGNORE  # "TextGraphs 2020 Shared Tasks", "ICML Workshop"
    kind = phrase_type(phrase)
    if kind in (DATASET, BENCHMARK, METRIC):
        return kind
    words = phrase.lower().split()
    if words[-1] in _TITLE_TASK_HEADS and not any(w in _TITLE_METHOD_WORDS for w in words):
        return TASK  # "Speech Act Classification"; not "Connectionist Temporal Classification"
    return METHOD


_TITLE_TASK_HEADS = word_set("title_task_heads")
_TITLE_METHOD_WORDS = word_set("title_method_modifiers")


_EVENT_HEADS = word_set("event_heads")
_METHOD_CUES = word_set("method_cues")
_METRIC_CUES = {"metric", "metrics", "measure", "measures", "score", "criterion", "index"}
_TASK_CUES = {"task", "tasks", "problem"}
_EVALUATED_ON = re.compile(
    r"(?<!based )(?<!built )(?<!relies )(?<!rely )(?<!focus )"
    r"(?<!depends )(?<!depend )\b(?:on|across)(?: the)? $"
)


#: "a subset of MinWikiSplit": what a part of data is taken from is data.
_PART_OF_DATA = re.compile(r"\b(?:subset|split)s? of (?:the )?$")
_DATA_BEFORE = re.compile(
    r"\b(?:images|data|videos|scans|records|texts|documents|recordings|"
    r"notes|reports|sentences|tweets|posts) \($"
)


def coined_type(text: str, start: int, end: int, lexicon: Lexicon) -> str:
    """A coined name's type from its context: the words around it (as for proposals), else
    Dataset right after "evaluated on"-style prepositions ("results on WSJ45") or in
    brackets after data ("fundus images (FairGenMed)"), else a known measure or collection
    its last part names ("ES-FID" is a Metric as FID is, "CodeBERTScore" as a score),
    else Method."""
    kind = proposal_type(text, start, end)
    if kind != METHOD:
        return kind
    if text[start:end].endswith("Score") and end - start > 5:
        return METRIC
    head = without_s(list_head_word(text, end) or "")
    if head == "subtask":
        return TASK  # "results on AOOE and AOPE subtasks" (a suite's "tasks" may be data)
    if (
        head not in _METHOD_CUES  # "experiments on the Torch7 and Theano frameworks"
        and _EVALUATED_ON.search(text, max(0, start - 20), start)
        or _DATA_BEFORE.search(text, max(0, start - 12), start)
        and text[end : end + 1] == ")"
        or _PART_OF_DATA.search(text, max(0, start - 16), start)
    ):
        return DATASET
    last = text[start:end].rsplit("-", 1)[-1]
    entry = lexicon.lookup_as_written(last) if last != text[start:end] else None
    return entry.type if entry is not None and entry.type in (METRIC, DATASET, BENCHMARK) else kind


_LOWER_WORDS = re.compile(r"[a-z\-]+")
_ARTICLES = {"a", "an", "the"}
#: Words after a name that start another phrase ("X on the Y benchmark").
_PHRASE_STOPS = word_set("phrase_stops")
#: Words that qualify a name's head without saying what it is ("the first manually curated
#: benchmark"): skipped on the way to the head.
_FILLERS = word_set("head_fillers")
#: Nouns in -ly ("anomaly", "family"), which are no adverbs.
_LY_NOUNS = word_set("ly_nouns")


def _words_of_its_phrase(after):
    """Up to four lowercase words after a name, articles, adverbs and fillers ("first",
    "new") aside, up to a preposition or to "and a(n) ...", which start another phrase ("X
    on the Y benchmark", "X and a framework"; not "X and the Y datasets").

    >>> _words_of_its_phrase(", a large-scale media interview dataset of talks")
    ['media', 'interview', 'dataset']
    >>> _words_of_its_phrase(", the first manually curated evaluation benchmark for MT")
    ['curated', 'evaluation', 'benchmark']
    >>> _words_of_its_phrase(", a new model family")
    ['model', 'family']
    >>> _words_of_its_phrase(" and a dialogue framework"), _words_of_its_phrase(" and Y datasets")
    ([], ['and', 'y', 'datasets'])
    """
    words: list[str] = []
    for w in _LOWER_WORDS.findall(after.lower()):
        if w in _PHRASE_STOPS or len(words) == 4:
            break
        if w in _ARTICLES:
            if words and words[-1] in ("and", "or") and w != "the":
                words.pop()
                break
            continue
        if w in _FILLERS or w.endswith("ly") and len(w) > 4 and w not in _LY_NOUNS:
            continue
        words.append(w)
    return words


def proposal_type(sentence: str, start: int, end: int) -> str:
    """Dataset/Benchmark/Metric when the words around a proposed name say so (four words
    after it: "X, a program synthesis benchmark"; five before it: "a new metric, X"), unless
    a method word comes first ("X, a method for dataset distillation"); Task for "a task
    called X", Concept for "X Conjecture"; Benchmark for a name ending in "bench"; else
    Method."""
    if sentence[start:end].lower().endswith("bench"):
        return BENCHMARK  # SPIN-Bench, SWE-bench
    after = _words_of_its_phrase(sentence[end : end + 70])
    before = _LOWER_WORDS.findall(sentence[max(0, start - 50) : start].lower())[-5:]
    if after and after[0] in CONCEPT_HEADS and sentence[end : end + 1] == " ":
        return CONCEPT
    if before[-2:-1] and before[-2] in _TASK_CUES and before[-1] in NAMING_WORDS:
        return TASK
    return _cue_type(after + before[::-1]) or METHOD


def _cue_type(words):
    """The type the first cue word among ``words`` says ("benchmark", "metric"), or None."""
    for w in words:
        if w in _METHOD_CUES:
            return METHOD
        if w in BENCHMARK_HEADS:
            return BENCHMARK
        if w in DATASET_HEADS:
            return DATASET
        if w in _METRIC_CUES:
            return METRIC
    return None


_APPOSITION_AFTER = re.compile(r"\)?\s*,\s*(?:a|an)\s+")
_HEAD_AFTER = re.compile(r"\)? ([a-z]+)")


def apposition_type(text: str, end: int) -> str | None:
    """The type an apposition or a head word right after a name (or its bracketed acronym)
    gives it: "UniAPL (...), a novel framework" is a Method and "Pointer Value Retrieval
    (PVR) benchmark" a Benchmark, whatever their long forms end in; or None.

    >>> apposition_type("Foo Learning (FL), a new benchmark suite.", 16)
    'Benchmark'
    >>> apposition_type("the Foo Learning (FL) dataset", 20)
    'Dataset'
    """
    m = _APPOSITION_AFTER.match(text, end)
    if m:
        return _cue_type(_LOWER_WORDS.findall(text[m.end() : m.end() + 60].lower())[:4])
    m = _HEAD_AFTER.match(text, end)
    return _cue_type([m.group(1)]) if m and m.group(1) not in _METHOD_CUES else None


def own_type(phrase: str, lexicon: Lexicon) -> str:
    """The type a phrase has by its own words: that of the known Method/Task ending its
    head, else its head word's (:func:`phrase_type`)."""
    return suffix_type(phrase, lexicon) or phrase_type(phrase)


def by_capitals_alone(phrase: str, lexicon: Lexicon) -> bool:
    """Whether a phrase is a Method only because its words are capitalised: no known
    Method or Task ends it, its head is no acronym ("Conditional VAEs") and, lowered, its
    head word types nothing.

    >>> lexicon = Lexicon()
    >>> by_capitals_alone("Stop, Question, and Frisk", lexicon)
    True
    >>> by_capitals_alone("Multi-Dimensional Recurrent NNs", lexicon)
    False
    """
    head = head_words(phrase)[-1]
    return (
        suffix_type(phrase, lexicon) is None
        and sum(c.isupper() for c in head) < 2
        and phrase_type(phrase.lower()) == CONCEPT
    )


#: "X (Y) is a ...", "X (Y), a ...": a definition after an acronym's pair.
_DEFINED_AS = re.compile(r"\)?\s*(?:,\s*|\s+is\s+)(?:a|an|the)\s+")


def _proposed_here(text: str, abbr: Abbreviation) -> bool:
    """Whether the sentence of an acronym's pair proposes it ("We propose X (Y) ...")."""
    stop = text.rfind(". ", 0, abbr.long_start)
    opening = stop + 2 if stop >= 0 else 0
    return is_proposal_context(text[opening:], min(abbr.long_start, abbr.short_start) - opening)


def said_to_be_a_method(text: str, abbr: Abbreviation) -> bool:
    """Whether the text says an acronym's pair names a method: its sentence proposes it, a
    method word follows the pair ("(VR) techniques") or a definition calls it one
    ("(CFR) is a popular, iterative algorithm").

    >>> from kg.extractors.abbreviations import find_abbreviations
    >>> s = "We study Stop, Question, and Frisk (SQF). Counterfactual Regret Minimization (CFR)"
    >>> s += " is a popular, iterative algorithm. Our BFBP (Batch Fit to Best Paths) algorithm."
    >>> [(a.short, said_to_be_a_method(s, a)) for a in find_abbreviations(s)]
    [('BFBP', True), ('SQF', False), ('CFR', True)]
    """
    if _proposed_here(text, abbr):
        return True
    end = max(abbr.short_end, abbr.long_end)
    after = _HEAD_AFTER.match(text, end)
    if after and without_s(after.group(1)) in _METHOD_CUES:
        return True
    defined = _DEFINED_AS.match(text, end)
    if defined is None:
        return False
    words = _LOWER_WORDS.findall(text[defined.end() : defined.end() + 60].lower())[:4]
    return _cue_type(words) == METHOD


def long_form_type(text: str, abbr: Abbreviation, lexicon: Lexicon) -> str:
    """The type of an acronym the lexicon does not know, from its definition: what an
    apposition or head word after it says, else a Task where the words around call it one,
    else its long form's own type; a Concept introduced right there or followed by a method
    word is a Method ("We propose agent skill induction (ASI)"; not "... Hypothesis (BRH)")."""
    kind = apposition_type(text, abbr.short_end)
    if kind is not None:
        return kind
    if named_as_task(text, abbr) or opens_as_task(text, abbr):
        return TASK
    kind = own_type(abbr.long, lexicon)
    if kind == TASK and method_word_after(text, abbr.short_end) and _proposed_here(text, abbr):
        return METHOD  # "we propose an Answer-driven Question Generation (ADDQG) model"
    if (
        kind == METHOD
        and by_capitals_alone(abbr.long, lexicon)
        and not said_to_be_a_method(text, abbr)
    ):
        kind = CONCEPT  # a Method by its capitals alone ("Stop, Question, and Frisk")
    if (
        kind == CONCEPT
        and head_words(abbr.long)[-1].lower() not in CONCEPT_HEADS
        and (introduced_here(text, abbr.long_start) or method_word_after(text, abbr.short_end))
    ):
        kind = METHOD
    return kind


def proposed_name_type(sentence: str, start: int, end: int, lexicon: Lexicon) -> str:
    """The type of a name a sentence proposes: a Method when it ends in a known method
    ("Dudley GAN"), else what the words around it say (:func:`proposal_type`)."""
    if ends_in_known_method(sentence[start:end], lexicon):
        return METHOD
    return proposal_type(sentence, start, end)


_METHOD_SENSE_AFTER = re.compile(r"[ -](" + "|".join(word_list("method_sense_after")) + r")\b")
_METHOD_SENSE_BEFORE = re.compile(r"\b(?i:" + "|".join(word_list("method_sense_before")) + r") $")
#: The heads under which the lexicon may hold a method named by an acronym ("EM algorithm").
_SENSE_HEADS = ("algorithm", "estimation", "inference")


#: What keeps a short name a measure whatever stands before it: "score" or another measure
#: right after it ("EM and F1", "EM/F1"), or a figure right before it ("80.1 EM").
_MEASURE_AFTER = re.compile(
    r"\s*(?:scores?\b|(?:,|/|&|\s+and)\s*(?:F1|F-1|F-score|accuracy|BLEU|ROUGE)\b)", re.I
)
_FIGURE_BEFORE = re.compile(r"\d%?\s*$")


def measure_context(text: str, start: int, end: int) -> bool:
    """Whether a short name stands where only a measure can: a figure right before it or
    "score" or another measure right after it ("80.1 EM", "EM and F1")."""
    return bool(
        _MEASURE_AFTER.match(text, end) or _FIGURE_BEFORE.search(text, max(0, start - 8), start)
    )


def method_sense(text: str, start: int, end: int) -> bool:
    """Whether a short name the lexicon knows as a measure means a method where it stands:
    a method word after it ("the EM algorithm", "MAP inference") or a verb of use before
    it ("fitted with variational EM", "using EM", "trained by EM"), unless a measure's
    context says otherwise ("results with EM and F1", "80.1 EM").

    >>> s = "We report EM and fit the model using EM, then run MAP inference."
    >>> [method_sense(s, m.start(), m.end()) for m in re.finditer("EM|MAP", s)]
    [False, True, True]
    >>> s = "Trained by EM, it reaches gains with EM and F1 and by 2 EM."
    >>> [method_sense(s, m.start(), m.end()) for m in re.finditer("EM", s)]
    [True, False, False]
    """
    if measure_context(text, start, end):
        return False
    return (
        _METHOD_SENSE_AFTER.match(text, end) is not None
        or _METHOD_SENSE_BEFORE.search(text, max(0, start - 20), start) is not None
    )


def method_sense_entry(name: str, lexicon: Lexicon) -> Entry | None:
    """The lexicon's method named by a measure's short name with a method head ("EM
    algorithm" for EM), or None."""
    for head in _SENSE_HEADS:
        entry = lexicon.lookup(f"{name} {head}")
        if entry is not None and entry.type == METHOD:
            return entry
    return None
