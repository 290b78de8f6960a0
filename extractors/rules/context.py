"""The words around an offset, and which of them may modify a head word (shared by the rules)."""

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from kg.extractors.rules.sentences import sentence_start
from kg.extractors.words import word_set

#: Head nouns of task phrases ("out-of-distribution detection"), read by several rules.
TASK_HEADS = word_set("task_heads")
_TASK_MODIFIER_STOP = word_set("modifier_stops")
WORD_BEFORE = re.compile(r"(?<![\w\-/.])([A-Za-z][\w\-+./]*) $")
_WORD_TOKEN = re.compile(r"[A-Za-z][A-Za-z\-]*[A-Za-z]|[A-Za-z]")


def word_window(text: str, end: int, width: int) -> int:
    """Where to search for "word " ending at ``end`` within ``width`` characters: from the
    space before that word, as no such word reaches past it (searching a window of
    ``width`` characters tries a look-behind pattern at every one of them).

    >>> word_window("the big dog ", 12, 40)
    8
    """
    return max(end - width, text.rfind(" ", 0, max(0, end - 1)) + 1)


def words_before(sentence: str, end: int, limit: int = 4) -> list[tuple[str, int, int]]:
    """(word, start, end) of up to ``limit`` words that end at or before ``end`` (read from
    90 characters before it). A 50-character window is tried first: past its first word,
    which may be cut short, its words are those of the longer window."""
    for width in (50, 90):
        window = max(0, end - width)
        words = [(m[0], m.start(), m.end()) for m in _WORD_TOKEN.finditer(sentence, window, end)]
        if len(words) > limit or window == 0:
            break
    return words[-limit:]


_ING_NOUNS = word_set("ing_nouns")
_ED_ADJECTIVES = word_set("ed_adjectives")
_ADJECTIVES = word_set("evaluative_adjectives")
#: Nouns in -ly ("anomaly detection"), which other -ly words (adverbs) are not.
_LY_NOUNS = word_set("ly_nouns")
_NAMING_ADVERBS = word_set("naming_adverbs")
#: Adverbs whose next word stays in a phrase: those naming ("weakly supervised") and those
#: pointing at the phrase ("namely X").
_KEPT_ADVERBS = _NAMING_ADVERBS | word_set("focus_adverbs")


#: Words of size before "scale" or "dimensional".
_SIZES = frozenset(
    ("large", "small", "high", "low", "full", "higher", "lower", "larger", "huge", "massive")
)


@lru_cache(maxsize=1 << 16)
def is_modifier(word: str, previous: str = "") -> bool:
    """Whether a word can modify a task head (not a verb, adverb or evaluative adjective);
    a participle ("delayed") only right after an article."""
    low = word.lower()
    if len(low) < 2 or low in _TASK_MODIFIER_STOP or low in _ADJECTIVES:
        return False
    if low in ("scale", "dimensional") and previous.lower() in _SIZES:
        return False  # "large scale", "high dimensional" describe the problem's size
    if low in _NAMING_ADVERBS:
        return True
    if (
        is_adverb(low)
        or low.endswith(("ful", "ous"))
        and low not in ("continuous", "heterogeneous", "autonomous", "simultaneous", "homogeneous")
    ):
        return False
    if low.endswith("ing") and low not in _ING_NOUNS:
        return False
    if low.endswith("ed") and low not in _ED_ADJECTIVES and not low.endswith("-based"):
        return previous.lower() in ("the", "a", "an")
    last = low.rsplit("-", 1)[-1]
    if (
        last.endswith("s")
        and not last.endswith(("ss", "us", "is", "as", "ics", "ys"))
        and len(last) > 3
    ):
        return False
    if low.endswith(("ize", "izes")) and len(low) > 5:
        return False
    if (
        low.endswith("est")
        and len(low) > 5
        and low not in ("interest", "forest", "request", "nearest", "shortest")
    ):
        return False
    return True


#: Words after which the next word is a verb ("we factorize ...", "to assess ...").
_VERB_SIGNALS = word_set("verb_signals")


def is_adverb(word: str) -> bool:
    """Whether a word is an adverb in -ly ("computationally"), not a noun ("anomaly").

    >>> is_adverb("highly"), is_adverb("Anomaly")
    (True, False)
    """
    low = word.lower()
    return low.endswith("ly") and low.rsplit("-", 1)[-1] not in _LY_NOUNS


def modifiers_start(
    sentence: str, words: list[tuple[str, int, int]], head: int, *, lead: bool = False
) -> int:
    """Index of the first word of the phrase ending at ``head`` (at most 3 modifiers, all
    joined by single spaces, none a stop word, verb or evaluative adjective; not an
    adjective an adverb qualifies)."""
    first = head
    if lead and not is_modifier(words[head][0]) and words[head][0].lower() not in TASK_HEADS:
        return head + 1
    j = head - 1
    lowest = 1 if len(words) > 4 else 0
    while j >= lowest and head - j <= 3:
        word = words[j][0]
        gap = sentence[words[j][2] : words[j + 1][1]]
        previous = words[j - 1][0] if j else ""
        if gap != " " or not is_modifier(word, previous) or previous.lower() in _VERB_SIGNALS:
            break
        if word[0].isupper() and not sentence_start(sentence, words[j][1]):
            break
        first = j
        j -= 1
    if (
        first < head
        and first
        and is_adverb(words[first - 1][0])
        and words[first - 1][0].lower() not in _KEPT_ADVERBS
        and sentence[words[first - 1][2] : words[first][1]] == " "
    ):
        first += 1  # "computationally intensive": the adverb's adjective describes, not names
    return first


def outermost[S: tuple[Any, ...]](spans: Iterable[S]) -> list[S]:
    """The spans not inside another (by their first two fields, start and end)."""
    spans = sorted(set(spans), key=lambda s: (s[0], -s[1], s[2:]))
    kept: list[S] = []
    for s in spans:
        if kept and s[0] < kept[-1][1]:
            continue
        kept.append(s)
    return kept
