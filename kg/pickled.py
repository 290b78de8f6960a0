"""Pickling of the NamedTuples that a partitioned build saves and loads by the million."""

import copyreg
from typing import Any


def plain_tuple(row: tuple) -> tuple[Any, tuple[Any, ...]]:
    """How :func:`pickle_plain` pickles a NamedTuple: as a plain tuple that
    ``tuple.__new__`` makes the class again."""
    return tuple.__new__, (type(row), tuple(row))


def pickle_plain(*classes: type[tuple]) -> None:
    """Have pickle (and copy, Dask) keep these NamedTuples as :func:`plain_tuple`, so that
    loading makes no Python call per row: a NamedTuple's own ``__new__`` is a Python
    function, three times slower to load by.

    >>> import pickle
    >>> from kg.rows import NodeRow
    >>> row = NodeRow("paper:x", "Paper", {})
    >>> copyreg.dispatch_table[NodeRow] is plain_tuple, pickle.loads(pickle.dumps(row)) == row
    (True, True)
    """
    for cls in classes:
        copyreg.pickle(cls, plain_tuple)
