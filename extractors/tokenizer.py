"""The pipeline's tokenizer: spaCy's blank English tokenizer, cached per space-separated chunk.

spaCy cuts a text at whitespace and tokenises each chunk on its own, so on text whose only
whitespace is single spaces the Doc can be built from each chunk's tokens, kept as lexeme
ids: the same tokens for about a third of the cost (``Doc(words=ids)`` skips hashing the
strings). An abstract's new chunks go to spaCy's tokenizer together, in one call; text
with other whitespace goes to it as it is.
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
        """Tokenise new chunks in one call and cache the lexeme ids of each (read as one
        array: a Token object per token would cost more than the tokenising)."""
        table = self.tokenizer(" ".join(chunks)).to_array([ORTH, SPACY])
        orths = table[:, 0].tolist()
        ends = (numpy.flatnonzero(table[:, 1]) + 1).tolist() + [len(orths)]
        start = 0
        for chunk, end in zip(chunks, ends):
            self._orths[chunk] = tuple(orths[start:end])
            start = end
