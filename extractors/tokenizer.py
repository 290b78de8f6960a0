"""The pipeline's tokenizer: spaCy's blank English tokenizer, cached per space-separated chunk.

spaCy cuts a text at whitespace and tokenises each chunk on its own, so on text whose only
whitespace is single spaces the Doc can be built from each chunk's tokens, kept as lexeme
ids: the same tokens for about a third of the cost (``Doc(words=ids)`` skips hashing the
strings). An abstract's new chunks go to spaCy's tokenizer together, in one call, but for
plain words (``plain_word_tokens``), whose tokens are known without it: spaCy costs about
15 us for each new chunk. Text with other whitespace goes to it as it is.
"""

from functools import lru_cache
from itertools import chain

import numpy
from spacy.attrs import ORTH, SPACY
from spacy.tokens import Doc

#: ``doc.user_data`` key of the input text (``Doc.text`` rebuilds it token by token).
TEXT_KEY = "text"
#: Chunks remembered before the cache starts again (about 100 MB).
MAX_CACHED_CHUNKS = 500_000


def single_spaced(text):
    """Whether the only whitespace of a non-empty text is single spaces between chunks.

    >>> single_spaced("We use BERT."), single_spaced("two  spaces"), single_spaced("a\\nb")
    (True, False, False)
    """
    # Printable text holds no whitespace but " " (tabs, newlines, NBSP are not printable).
    return (text.isprintable() and "  " not in text and text[:1] not in ("", " ")
            and text[-1] != " ")


#: What spaCy's English tokenizer always splits off a plain word: an opening bracket or
#: quote before it, a comma, semicolon, colon or closing bracket after it.
_OPENINGS = frozenset('(["')
_CLOSINGS = frozenset(",;:)")


def plain_word_tokens(chunk, special_cases):
    """The tokens of a chunk that is an ASCII word with at most an opening bracket or quote
    before it or one punctuation mark after it (a full stop only after a lowercase letter),
    as spaCy's English tokenizer makes them; None for any other chunk, and for one whose
    parts are ``special_cases`` of the tokenizer ("cannot", "Dr.").

    >>> rules = {"cannot": None}
    >>> plain_word_tokens("(word", rules), plain_word_tokens("data.", rules)
    (['(', 'word'], ['data', '.'])
    >>> plain_word_tokens("RotatE.", rules), plain_word_tokens("cannot", rules)
    (None, None)
    """
    start = 1 if chunk[:1] in _OPENINGS else 0
    end = len(chunk)
    if not start and (chunk[-1:] in _CLOSINGS or chunk[-1:] == "." and
                      "a" <= chunk[-2:-1] <= "z"):
        end -= 1
    word = chunk[start:end]
    if not (word.isascii() and word.isalpha()) or chunk in special_cases or \
            word in special_cases:
        return None
    return [piece for piece in (chunk[:start], word, chunk[end:]) if piece]


@lru_cache(maxsize=256)
def space_flags(n):
    """Trailing-space flags of a chunk's ``n`` tokens: only its last token has one.

    >>> space_flags(3)
    (False, False, True)
    """
    return (False,) * (n - 1) + (True,)


class ChunkCachingTokenizer:
    """spaCy's tokenizer with a per-chunk cache; keeps the input text in ``doc.user_data``.

    The cache holds lexeme ids, so it must not outlive their lexemes: no ``memory_zone``.
    """

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self.vocab = tokenizer.vocab
        self._orths = {}
        self._special_cases = tokenizer.rules or {}

    def __call__(self, text):
        if not single_spaced(text):
            doc = self.tokenizer(text)
            doc.user_data[TEXT_KEY] = text
            return doc
        if len(self._orths) > MAX_CACHED_CHUNKS:
            self._orths.clear()
        chunks = text.split(" ")
        pieces = list(map(self._orths.get, chunks))
        if None in pieces:
            self._learn(list(dict.fromkeys(c for c, p in zip(chunks, pieces) if p is None)))
            pieces = list(map(self._orths.__getitem__, chunks))
        spaces = list(chain.from_iterable(map(space_flags, map(len, pieces))))
        spaces[-1] = False
        return Doc(self.vocab, words=list(chain.from_iterable(pieces)), spaces=spaces,
                   user_data={TEXT_KEY: text})

    def _learn(self, chunks):
        """Cache the lexeme ids of new chunks: of plain words directly, of the others from
        spaCy's tokens, in one call (read as one array: a Token object per token would cost
        more than the tokenising)."""
        add, hard = self.vocab.strings.add, []
        for chunk in chunks:
            pieces = plain_word_tokens(chunk, self._special_cases)
            if pieces is None:
                hard.append(chunk)
            else:
                self._orths[chunk] = tuple(map(add, pieces))
        if hard:
            self._learn_from_spacy(hard)

    def _learn_from_spacy(self, chunks):
        table = self.tokenizer(" ".join(chunks)).to_array([ORTH, SPACY])
        orths = table[:, 0].tolist()
        ends = (numpy.flatnonzero(table[:, 1]) + 1).tolist() + [len(orths)]
        start = 0
        for chunk, end in zip(chunks, ends):
            self._orths[chunk] = tuple(orths[start:end])
            start = end
