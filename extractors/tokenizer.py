"""The pipeline's tokenizer: spaCy's blank English tokenizer, cached per space-separated chunk.

spaCy cuts a text at whitespace and tokenises each chunk on its own (but for its special
cases made of marks, see ``_EMOTICON_START``), so on text whose only whitespace is single
spaces the Doc can be built from each chunk's tokens, kept as lexeme ids: the same tokens
for about a third of the cost (``Doc(words=ids)`` skips hashing the strings). An abstract's
new chunks go to spaCy's tokenizer together, in one call, but for plain words
(``plain_word_tokens``), whose tokens are known without it: spaCy costs about 15 us for each
new chunk. Text with other whitespace goes to it as it is.
"""

import re
from collections.abc import Mapping
from itertools import chain
from typing import cast

import numpy
from spacy.attrs import ORTH, SPACY
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

#: ``doc.user_data`` key of the input text (``Doc.text`` rebuilds it token by token).
TEXT_KEY = "text"
#: Chunks remembered before the cache starts again (about 100 MB).
MAX_CACHED_CHUNKS = 500_000


def single_spaced(text: str) -> bool:
    """Whether the only whitespace of a non-empty text is single spaces between chunks.

    >>> single_spaced("We use BERT."), single_spaced("two  spaces"), single_spaced("a\\nb")
    (True, False, False)
    """
    # Printable text holds no whitespace but " " (tabs, newlines, NBSP are not printable).
    return text.isprintable() and "  " not in text and text[:1] not in ("", " ") and text[-1] != " "


#: What spaCy's English tokenizer always splits off a plain word: an opening bracket or
#: quote before it, a comma, semicolon, colon or closing bracket after it.
_OPENINGS = frozenset('(["')
_CLOSINGS = frozenset(",;:)")


def plain_word_tokens(chunk: str, special_cases: Mapping[str, object]) -> list[str] | None:
    """The tokens of a chunk that is an ASCII word, or words joined by hyphens, with at most
    an opening bracket or quote before it or one punctuation mark after it (a full stop only
    after a lowercase letter), as spaCy's English tokenizer makes them; None for any other
    chunk, and for one whose parts are ``special_cases`` of the tokenizer ("cannot", "Dr.").

    >>> rules = {"cannot": None}
    >>> plain_word_tokens("(word", rules), plain_word_tokens("multi-view.", rules)
    (['(', 'word'], ['multi', '-', 'view', '.'])
    >>> plain_word_tokens("RotatE.", rules), plain_word_tokens("cannot", rules)
    (None, None)
    """
    start = 1 if chunk[:1] in _OPENINGS else 0
    end = len(chunk)
    if not start and (chunk[-1:] in _CLOSINGS or chunk[-1:] == "." and "a" <= chunk[-2:-1] <= "z"):
        end -= 1
    word = chunk[start:end]
    if chunk in special_cases or word in special_cases:
        return None
    if word.isascii() and word.isalpha():
        words = [word]
    else:  # hyphenated: "multi-view" is "multi", "-", "view"
        parts = word.split("-")
        if (
            len(parts) == 1
            or chunk[:start] + parts[0] in special_cases
            or parts[-1] + chunk[end:] in special_cases
            or not all(p.isascii() and p.isalpha() and p not in special_cases for p in parts)
        ):
            return None
        words = list(chain.from_iterable((p, "-") for p in parts))[:-1]
    return ([chunk[:start]] if start else []) + words + ([chunk[end:]] if end < len(chunk) else [])


#: An ASCII word or a number (digits, maybe with inner commas or full stops: "42,987",
#: "0.5") with an opening or a closing bracket or both, maybe with a comma, semicolon or
#: full stop (after a lowercase letter, two capitals, a digit or the bracket) at its end
#: ("(GRPO),", "accuracy),", "BERT.", "(0.5)."; not "RotatE.", and not a colon: "):" is
#: one of spaCy's special cases).
_BRACKETED_WORD = re.compile(
    r"\(?([A-Za-z]+|\d+(?:[.,]\d+)*)\)?(?:[,;]|(?:(?<=[a-z0-9)])|(?<=[A-Z][A-Z]))\.)?"
)


def bracketed_word_tokens(chunk: str, special_cases: Mapping[str, object]) -> list[str] | None:
    """The tokens of a chunk that is an ASCII word or a number with brackets or a mark
    (``_BRACKETED_WORD``), as spaCy's English tokenizer makes them; None for any other
    chunk, and for one where a string spaCy may look up on the way (the chunk less some of
    its marks) is one of its ``special_cases``.

    >>> bracketed_word_tokens("(GRPO),", {}), bracketed_word_tokens("(x-y)", {})
    (['(', 'GRPO', ')', ','], None)
    >>> bracketed_word_tokens("(SGD.", {}), bracketed_word_tokens("(RotatE.", {})
    (['(', 'SGD', '.'], None)
    >>> bracketed_word_tokens("42,987.", {}), bracketed_word_tokens("8)", {"8)": None})
    (['42,987', '.'], None)
    """
    m = _BRACKETED_WORD.fullmatch(chunk)
    if m is None or any(
        chunk[i:j] in special_cases
        for i in (0, m.start(1))
        for j in range(m.end(1), len(chunk) + 1)
    ):
        return None
    return [*chunk[: m.start(1)], m.group(1), *chunk[m.end(1) :]]


#: spaCy's special cases of marks ("''", ":)", ";-)") may take a neighbouring chunk's marks
#: along: a chunk holding a quote mark or an emoticon's start is tokenised alone, and a text
#: holding "''" as a whole ("'' ''x" is not "''" and "''x" read apart).
_EMOTICON_START = re.compile(r"[:;=][()\[\]\-|*^]")


class SpaceFlags(dict[int, bytes]):
    """Trailing-space flags of a chunk's ``n`` tokens, one byte each: only its last token has
    one. A Doc reads them as bools, faster from bytes than from a list of bools.

    >>> SpaceFlags()[3]
    b'\\x00\\x00\\x01'
    """

    def __missing__(self, n: int) -> bytes:
        self[n] = flags = bytes(n - 1) + b"\x01"
        return flags


_SPACE_FLAGS = SpaceFlags()


class ChunkCachingTokenizer:
    """spaCy's tokenizer with a per-chunk cache; keeps the input text in ``doc.user_data``.

    The cache holds lexeme ids, so it must not outlive their lexemes: no ``memory_zone``.
    """

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self.vocab = tokenizer.vocab
        self._orths: dict[str, tuple[int, ...]] = {}
        self._special_cases = tokenizer.rules or {}

    def __call__(self, text: str) -> Doc:
        if not single_spaced(text) or "''" in text:  # see _EMOTICON_START
            doc = self.tokenizer(text)
            doc.user_data[TEXT_KEY] = text
            return doc
        if len(self._orths) > MAX_CACHED_CHUNKS:
            self._orths.clear()
        chunks = text.split(" ")
        found = list(map(self._orths.get, chunks))
        if None in found:
            self._learn(
                list(dict.fromkeys(c for c, p in zip(chunks, found, strict=True) if p is None))
            )
            pieces = list(map(self._orths.__getitem__, chunks))
        else:
            pieces = cast(list[tuple[int, ...]], found)
        spaces = bytearray().join(map(_SPACE_FLAGS.__getitem__, map(len, pieces)))
        spaces[-1] = 0
        return Doc(
            self.vocab,
            words=list(chain.from_iterable(pieces)),  # type: ignore[arg-type]  # lexeme ids
            spaces=spaces,  # type: ignore[arg-type]  # bools as bytes
            user_data={TEXT_KEY: text},
        )

    def _learn(self, chunks):
        """Cache the lexeme ids of new chunks: of plain words directly, of the others from
        spaCy's tokens, in one call (read as one array: a Token object per token would cost
        more than the tokenising). A chunk with a quote mark or an emoticon's start gets a
        call of its own: spaCy's special cases made of these ("''", ":)") may join marks of
        chunks it reads together."""
        add, hard = self.vocab.strings.add, []
        for chunk in chunks:
            pieces = plain_word_tokens(chunk, self._special_cases)
            if pieces is None:
                pieces = bracketed_word_tokens(chunk, self._special_cases)
            if pieces is not None:
                self._orths[chunk] = tuple(map(add, pieces))
            elif "'" in chunk or _EMOTICON_START.search(chunk):
                self._learn_from_spacy([chunk])
            else:
                hard.append(chunk)
        if hard:
            self._learn_from_spacy(hard)

    def _learn_from_spacy(self, chunks):
        table = self.tokenizer(" ".join(chunks)).to_array([ORTH, SPACY])
        orths = table[:, 0].tolist()
        ends = (numpy.flatnonzero(table[:, 1]) + 1).tolist() + [len(orths)]
        start = 0
        for chunk, end in zip(chunks, ends, strict=False):
            self._orths[chunk] = tuple(orths[start:end])
            start = end
