"""The word lists the rules read (head words, cue words, stop words, ...), loaded once.

Each list is a file ``data/words/<name>.txt``: one entry per line, ``#`` starts a comment
line, and the first comment says what the list is for.
"""

from functools import cache
from importlib.resources import files

WORDS_DIR = files("kg.extractors") / "data" / "words"


@cache
def word_list(name: str) -> tuple[str, ...]:
    """The entries of ``data/words/<name>.txt`` in file order (comment and blank lines aside).

    >>> word_list("dataset_heads")[:2]
    ('dataset', 'datasets')
    """
    text = (WORDS_DIR / f"{name}.txt").read_text(encoding="utf-8")
    return tuple(s for s in (line.strip() for line in text.splitlines()) if s and s[0] != "#")


@cache
def word_set(name: str) -> frozenset[str]:
    """The entries of ``data/words/<name>.txt`` as a set.

    >>> "corpus" in word_set("dataset_heads")
    True
    """
    return frozenset(word_list(name))
