"""Regexes for large sets of literal words, shaped as tries so that ``re`` scans them fast.

``re`` tries the alternatives of ``a|b|c`` one after another at every position of the text;
a trie-shaped pattern tries only the branches that share the characters read so far.
"""

import re
from collections.abc import Iterable, Iterator
from typing import Any

_END = ""


def trie_regex(words: Iterable[str], *, not_after: str | None = None) -> str:
    """A regex (string) matching any of ``words``, the longest word first where several
    match at one position (as ``"|".join(sorted(words, key=len, reverse=True))`` would).

    ``not_after`` is a one-character class (``r"[\\w\\-]"``) that must not precede the word;
    the check is placed after the first character, so that ``re`` can skip straight to
    the positions holding a possible first character.

    >>> trie_regex(["BERT", "BART", "BERTa"])
    'B(?:ART|ERT(?:a)?)'
    >>> re.findall(trie_regex(["GPT", "GPT-4"], not_after=r"\\w"), "GPT-4 xGPT GPT")
    ['GPT-4', 'GPT']
    """
    root: dict[str, Any] = {}
    for word in words:
        if not word:
            raise ValueError("trie_regex: words must not be empty")
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[_END] = {}
    guard = f"(?<!{not_after}.)" if not_after else ""
    return _alternatives(root, guard)


def _alternatives(node: dict[str, Any], guard: str = "") -> str:
    """The pattern for the continuations below ``node`` ("" at a leaf). A word ending at
    ``node`` makes them optional, after the longer words: greedy ``?`` tries them first."""
    branches = [
        re.escape(ch) + guard + _alternatives(child)
        for ch, child in sorted(node.items())
        if ch != _END
    ]
    if not branches:
        return ""
    if _END in node:
        return "(?:" + "|".join(branches) + ")?"
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


#: The characters ``re.IGNORECASE`` matches to an ASCII letter besides its two cases.
_CASE_EQUIVALENTS = {"i": "İı", "s": "ſ", "k": "K"}


def word_start_ignorecase(branches: dict[str, str]) -> str:
    """A regex for case-insensitive phrases that start a word, as ``\\b(?i:...)`` would
    match them; ``branches`` maps each first letter to the (case-insensitive) pattern of
    the rest. The word-start check follows the first letter, so that ``re`` can skip
    straight to the positions holding one.

    >>> re.findall(word_start_ignorecase({"w": "e", "o": "ur"}), "We, our, tour, OUR")
    ['We', 'our', 'OUR']
    """
    alternatives = []
    for first, rest in branches.items():
        for ch in first.lower() + first.upper() + _CASE_EQUIVALENTS.get(first.lower(), ""):
            alternatives.append(re.escape(ch) + r"(?<!\w.)" + (f"(?i:{rest})" if rest else ""))
    return "(?:" + "|".join(alternatives) + ")"


def word_start_regexes(
    pattern: str, not_after: str = r"\w"
) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Two regexes for ``(?<![not_after])(pattern)``, which ``re`` scans slowly as it tries the
    look-behind at every position: one for a match at the start of a text, one for a match
    after a character of ``[^not_after]``, which ``re`` jumps to. Group 1 is the pattern in
    both; ``word_start_matches`` runs them. ``pattern`` must start and end in ``not_after``
    characters, so that no two matches can touch.

    >>> first, after = word_start_regexes("ab|c")
    >>> [m.span(1) for m in word_start_matches(first, after, "ab c,cab ab")]
    [(0, 2), (3, 4), (5, 6), (9, 11)]
    """
    return re.compile(f"({pattern})"), re.compile(f"[^{not_after}]({pattern})")


def word_start_matches(
    first: re.Pattern[str],
    after: re.Pattern[str],
    text: str,
    pos: int = 0,
    endpos: int | None = None,
) -> Iterator[re.Match[str]]:
    """The matches of a pair of ``word_start_regexes`` in ``text[pos:endpos]`` (a match at
    ``pos`` counts only at the text's start or after a character of ``[^not_after]``)."""
    endpos = len(text) if endpos is None else endpos
    if pos == 0:
        m = first.match(text, 0, endpos)
        if m:
            yield m
        pos = 1
    yield from after.finditer(text, pos - 1, endpos)


def lowered_in_place(text: str) -> str:
    """``text`` in lower case, one character for one (offsets unchanged: "İ" is "i").

    >>> lowered_in_place("İS"), len("İS".lower())
    ('is', 3)
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower()[:1] for c in text)


#: The characters ``re.IGNORECASE`` matches to an ASCII letter but ``str.lower`` does not
#: make it ("ı" matches "i", "ſ" matches "s"; "İ" and the Kelvin sign lower to theirs).
_UNLOWERED_EQUIVALENTS = ("ı", "ſ")


def matches_led_by(
    pattern: re.Pattern[str], text: str, literals: Iterable[str]
) -> list[re.Match[str]]:
    """The matches of ``pattern.finditer(text)``, for a pattern whose every match starts with
    one of ``literals`` (lowercase ASCII) in any case: tried only where one starts in the
    lowercased text, which ``str.find`` finds far faster than a regex scan. A text holding a
    character that ``re.IGNORECASE`` matches to an ASCII letter other than its lowercase
    (``_UNLOWERED_EQUIVALENTS``) is scanned as ``finditer`` does.

    >>> pattern = re.compile(r"(?<!\\w)(?i:ab|c)\\b")
    >>> [m.group() for m in matches_led_by(pattern, "AB cab c,ab", ("ab", "c"))]
    ['AB', 'c', 'ab']
    """
    if any(c in text for c in _UNLOWERED_EQUIVALENTS):
        return list(pattern.finditer(text))
    lowered = lowered_in_place(text)
    starts = set()
    for literal in literals:
        at = lowered.find(literal)
        while at >= 0:
            starts.add(at)
            at = lowered.find(literal, at + 1)
    found: list[re.Match[str]] = []
    end = 0
    for at in sorted(starts):
        if at >= end and (m := pattern.match(text, at)):
            found.append(m)
            end = m.end()
    return found
