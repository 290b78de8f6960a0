"""Whether two long forms of one short form spell one thing ("Deep Convolutional Neural
Networks" and "deep convolution neural network"), word by word: the comparisons the
acronym senses (:mod:`kg.graph.senses`) group long forms by."""

import re

from kg.extractors.names import long_key, name_key, spelled_out, without_s
from kg.extractors.words import word_set

_SPLIT = re.compile(r"[\s\-/]+")
#: A word broken at a line end by the PDF it came from ("sup- port vector machine").
_BROKEN = re.compile(r"(\w)- (\w)")


def sense_words(long_form: str) -> tuple[str, ...]:
    """The words of a long form that tell senses apart (lowercase, function words dropped).

    >>> sense_words("Learning-to-Rank for Graphs")
    ('learning', 'rank', 'graphs')
    """
    stops = word_set("long_form_function_words")
    text = _BROKEN.sub(r"\1\2", long_form.casefold())
    words = (w.strip(".,;:'\"()[]") for w in _SPLIT.split(text))
    return tuple(w for w in words if w and w not in stops)


def spells_word(a: str, b: str) -> bool:
    """Spellings of one word (see :func:`_spells_word`), either one plural."""
    return _spells_word(without_s(a), without_s(b))


#: Endings that replace a word's final "e" ("code": "coding", "coded", "coder").
_E_SUFFIXES = frozenset(("ing", "ed", "er", "ion"))


#: What may follow a word of three letters that another word starts with ("net",
#: "networks"), besides a vowel ("max", "maximum").
_SHORT_PREFIX_ENDINGS = frozenset(("s", "es", "work", "works"))


def _spells_word(a: str, b: str) -> bool:
    """Spellings of one word: equal, one a prefix of the other (four letters or more, or
    three cut before a vowel or a plain ending: "max", "maximum"; "net", "networks"; not
    "key", "keyphrase", two words), or five letters in common at the start ("privacy",
    "private")."""
    if a == b:
        return True
    a, b = sorted((a, b), key=len)
    rest = b[len(a) :]
    if (
        len(a) >= 3
        and b.startswith(a)
        and (len(a) >= 4 or rest[:1] in "aeiouy" or rest in _SHORT_PREFIX_ENDINGS)
    ):
        return True
    if len(a) >= 4 and a[-1] == "e" and b[len(a) - 1 :] in _E_SUFFIXES and b.startswith(a[:-1]):
        return True  # "code", "coding"
    return len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5]


def same_sense(a: str, b: str) -> bool:
    """Whether two long forms of one short form name one thing: the first words are
    spellings of one word and the other words of the shorter come, in order, in the longer.

    >>> same_sense("Deep Convolutional Neural Networks", "deep convolution neural network")
    True
    >>> same_sense("chain-of-thought", "chain-of-thought prompting")
    True
    >>> same_sense("spiking neural network", "Siamese neural network")
    False
    >>> same_sense("Indian Buffet Process", "interval bound propagation")
    False
    >>> same_sense("kernel CCA", "kernel canonical correlation analysis")
    True
    >>> same_sense("multi-modal NER", "multimodal named entity recognition")
    True
    >>> same_sense("multi-resolution analysis", "Multimodal Review Analysis")
    False
    >>> same_sense("Key Point Generation", "Keyphrase Generation")
    False
    """
    if _joined(a) == _joined(b):
        return True
    wa, wb = sense_words(a), sense_words(b)
    if not wa or not wb:
        return long_key(a) == long_key(b)
    return _same_words(wa, wb) or _same_words(_joined_as(a, wb), _joined_as(b, wa))


#: A word with hyphens inside ("multi-modal").
_HYPHENATED = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")


def _joined_as(long_form: str, other: tuple[str, ...]) -> tuple[str, ...]:
    """The sense words of ``long_form`` with each hyphenated word joined where ``other``
    writes it as one word ("multi-modal" as "multimodal")."""
    words = set(other)

    def join(m: re.Match[str]) -> str:
        joined = m.group(0).replace("-", "")
        return joined if joined.casefold() in words else m.group(0)

    return sense_words(_HYPHENATED.sub(join, long_form))


def _same_words(wa: tuple[str, ...], wb: tuple[str, ...]) -> bool:
    """:func:`same_sense` on the sense words of two long forms."""
    if len(wa) > len(wb):
        wa, wb = wb, wa
    if not wa or not spells_word(wa[0], wb[0]):
        return False
    if len(wa) >= 3 and sorted(map(without_s, wa)) == sorted(map(without_s, wb)):
        return True  # the same words in another order
    matched, at = 1, 1
    while matched < len(wa) and at < len(wb):
        same = spells_word(wa[matched], wb[at]) or _one_typo(wa[matched], wb[at])
        spelled = 1 if same else spelled_out(wa[matched], wb, at)
        matched, at = matched + (spelled > 0), at + max(spelled, 1)
    return matched == len(wa)


def _one_typo(a: str, b: str) -> bool:
    """Whether two words of six letters or more differ by one letter added, dropped or
    changed ("decent", "descent"): a misspelling, past a long form's first word.

    >>> _one_typo("decent", "descent"), _one_typo("linear", "lineal"), _one_typo("sparse", "spare")
    (True, True, False)
    """
    if min(len(a), len(b)) < 6 or abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i + (len(a) == len(b)) :] == b[i + 1 :]


def _joined(long_form: str) -> str:
    """A long form's letters alone, without a final "s" ("pre-trained" is "pretrained")."""
    return name_key(_BROKEN.sub(r"\1\2", long_form)).rstrip("s")
