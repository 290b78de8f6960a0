"""The rule for what an opening sentence is about ("Multi-view clustering is ...")."""

import re
from itertools import islice

from kg.extractors.words import word_set

_ADJECTIVES = word_set("evaluative_adjectives")
_TASK_MODIFIER_STOP = word_set("modifier_stops")
_SUBJECT_VERBS = word_set("subject_verbs")
_GENERIC_SUBJECT_HEADS = word_set("generic_subject_heads")
_PLAIN_PHRASE = re.compile(r"[\w\-]+(?: [\w\-]+)*")
_PLAIN_WORD = re.compile(r"[\w\-]+")


def opening_subject_span(sentence: str) -> tuple[int, int] | None:
    """The short noun phrase an opening sentence is about ("Annotator disagreement is ...",
    "Detecting AI-generated images remains ..."): at most five words before the verb.

    >>> s = "Multi-view clustering is a key problem."
    >>> opening_subject_span(s)
    (0, 21)
    >>> opening_subject_span("Recent advances have been made.") is None
    True
    >>> opening_subject_span("Word embeddings are a standard tool.") is None  # things
    True
    >>> opening_subject_span("Discovering splice sites is hard.")  # a gerund and its object
    (0, 24)
    >>> opening_subject_span("Skip connection is a widely-used technique.") is None
    True
    """
    words = [
        (m.group(0), m.start(), m.end()) for m in islice(_PLAIN_WORD.finditer(sentence, 0, 120), 7)
    ]
    i = next((k for k, (word, _, _) in enumerate(words) if word.lower() in _SUBJECT_VERBS), None)
    if i is None:
        return None
    if not 2 <= i <= 5 or not _PLAIN_PHRASE.fullmatch(sentence[words[0][1] : words[i - 1][2]]):
        return None
    phrase = words[:i]
    head = phrase[-1][0].lower()
    if (
        not phrase[0][0][:1].isupper()
        or head in _GENERIC_SUBJECT_HEADS
        or _plural(head)
        and not phrase[0][0].lower().endswith("ing")  # "Discovering splice sites"
    ):
        return None
    for k, (word, _, _) in enumerate(phrase):
        low = word.lower()
        if low in _TASK_MODIFIER_STOP or low in _ADJECTIVES or low.endswith("ly"):
            return None
        if (
            k
            and word[0].isupper()
            and not word.isupper()
            and not any(c.isupper() for c in word[1:])
        ):
            return None
    if _NOT_A_PROBLEM.match(sentence, words[i][2]):
        return None  # "Skip connection is a widely-used technique": a method, not a task
    return phrase[0][1], phrase[-1][2]


#: What a predicate says of a technique rather than a problem: "is a (popular) technique",
#: "are widely used by", within five words of the verb.
_NOT_A_PROBLEM = re.compile(
    r"(?:\s+[\w\-]+){0,5}?\s+(?:technique|method|algorithm|architecture|tool|component|"
    r"mechanism|module|used|utili[sz]ed|employed|adopted)s?\b",
    re.IGNORECASE,
)


def _plural(word: str) -> bool:
    """Whether a head word is a plural noun other than of an action ("assessments"): a
    subject in the plural names things (word embeddings, knowledge graphs, text
    classifiers), a task is named in the singular or by its actions."""
    return (
        word.endswith("s")
        and not word.endswith(("ss", "us", "is", "ics"))
        and not word.endswith(("ments", "tions", "sions", "ances", "ences"))
        and len(word) > 3
    )
