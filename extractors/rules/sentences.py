"""Sentences of an abstract and the masking of its math, as pure functions over strings."""

import re

#: A sentence end: its punctuation mark, then the gap to the next sentence.
_SENTENCE_END = re.compile(r"[.!?][\"”')\]]*\s+(?=[\"“(\[]*[A-Z0-9$\\*])")
_NO_SPLIT_BEFORE = (
    "e.g.",
    "i.e.",
    "et al.",
    "etc.",
    "vs.",
    "cf.",
    "Fig.",
    "Eq.",
    "Sec.",
    "resp.",
    "approx.",
    "Dr.",
    "No.",
    "i.i.d.",
)


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) character spans of the sentences of ``text``: a split after . ! or ?
    and whitespace before a capital, digit or markup, not after abbreviations (e.g., et al.).

    >>> t = "We use GRPO, e.g. Dr. GRPO. It works! See Fig. 2 for more."
    >>> [t[a:b] for a, b in sentence_bounds(t)]
    ['We use GRPO, e.g. Dr. GRPO.', 'It works!', 'See Fig. 2 for more.']
    """
    bounds, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        end = m.start() + 1
        if text[max(0, end - 8) : end].endswith(_NO_SPLIT_BEFORE) or _single_initial(text, end):
            continue
        bounds.append((start, end))
        start = m.end()
    if start < len(text) or not bounds:
        bounds.append((start, len(text.rstrip()) if text.strip() else len(text)))
    return bounds


def _single_initial(text, end):
    """A period after one capital letter ("A. Smith"), not a sentence end."""
    return (
        end >= 2
        and text[end - 1] == "."
        and text[end - 2].isupper()
        and (end == 2 or not text[end - 3].isalnum())
    )


_MATH = re.compile(r"\$[^$]*\$")


def mask_math(sentence: str) -> str:
    """The sentence with LaTeX math ($...$) blanked out, offsets unchanged.

    >>> mask_math("a $x_T$ b")
    'a       b'
    """
    if "$" not in sentence:
        return sentence
    return _MATH.sub(lambda m: " " * len(m.group(0)), sentence)


def sentence_start(text: str, start: int) -> bool:
    """Whether ``start`` begins a sentence (or a clause after a colon)."""
    before = text[max(0, start - 4) : start].rstrip(" *_")
    return not before or before[-1] in ".:!?"
