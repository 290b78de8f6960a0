"""The word lists the rules read (head words, cue words, stop words, ...), loaded once.

Each list is a file ``data/words/<name>.txt``: one entry per line, ``#`` starts a comment
line, and the first comment says what the list is for. A user extends a list with a file of
the same name in ``$KG_DATA/words/``: its entries are added, and an entry written ``-entry``
is taken out of the shipped list.
"""

import os
from functools import cache
from importlib.resources import files
from pathlib import Path

WORDS_DIR = files("kg.extractors") / "data" / "words"
#: The environment variable naming the user's data folder (``words/``, ``lexicon.jsonl``).
USER_DATA_ENV = "KG_DATA"


def _entries(text: str) -> list[str]:
    return [s for s in (line.strip() for line in text.splitlines()) if s and s[0] != "#"]


@cache
def word_list(name: str) -> tuple[str, ...]:
    """The entries of ``data/words/<name>.txt`` in file order (comment and blank lines aside),
    with the user's additions and removals from ``$KG_DATA/words/<name>.txt``.

    >>> word_list("dataset_heads")[:2]
    ('dataset', 'datasets')
    """
    entries = _entries((WORDS_DIR / f"{name}.txt").read_text(encoding="utf-8"))
    user = os.environ.get(USER_DATA_ENV)
    extra = Path(user, "words", f"{name}.txt") if user else None
    if extra is not None and extra.is_file():
        lines = _entries(extra.read_text(encoding="utf-8"))
        dropped = {line[1:].strip() for line in lines if line.startswith("-")}
        entries = [e for e in entries if e not in dropped]
        entries += [e for e in lines if not e.startswith("-") and e not in entries]
    return tuple(entries)


@cache
def word_set(name: str) -> frozenset[str]:
    """The entries of ``data/words/<name>.txt`` as a set.

    >>> "corpus" in word_set("dataset_heads")
    True
    """
    return frozenset(word_list(name))
