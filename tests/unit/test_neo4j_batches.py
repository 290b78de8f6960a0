"""kg.neo4j.batches: batches by rows and bytes, oversized rows split into pieces."""

import pytest

from kg.errors import KgError
from kg.neo4j import batches as nb


def test_batches_respect_rows_and_bytes():
    rows = [[f"paper:{i:03d}", {"t": "x" * 50}] for i in range(100)]
    for max_rows, max_bytes in [(7, 10_000), (1000, 700), (1, 100)]:
        groups = list(nb.batches(rows, max_rows=max_rows, max_bytes=max_bytes, overhead=60))
        assert [r for g in groups for r in g] == rows
        assert all(len(g) <= max_rows for g in groups)
        assert all(len(g) == 1 or nb.serialised_size(g) + 60 <= max_bytes for g in groups)
    assert len(list(nb.batches(rows, max_rows=1000, max_bytes=700, overhead=60))) == 13


def test_split_oversized_moves_long_values_into_pieces_that_fit():
    abstract = "Ein Satz über Graphen. " * 400
    row = [
        "paper:x",
        {"key": "paper:x", "abstract": abstract, "sources": ["a#1"] * 300, "year": 2020},
    ]
    head, pieces = nb.split_oversized(row, 1, 500, piece_budget=300)
    assert nb.serialised_size(head) <= 500
    assert all(nb.serialised_size(p) <= 300 for _, p in pieces)
    restored = dict(head[1])
    for name, piece in pieces:
        restored[name] = restored[name] + piece
    assert restored == row[1]


def test_split_oversized_refuses_a_row_that_cannot_fit():
    with pytest.raises(KgError, match="raise --max-batch-bytes"):
        nb.split_oversized(["paper:" + "x" * 400, {"year": 1}], 1, 100)


@pytest.mark.parametrize(
    "max_rows, max_bytes, count", [(2000, 3900, 61), (3, 3900, 100), (2000, 500, 263)]
)
def test_fitted_batches_keep_every_row_once_within_the_caps(max_rows, max_bytes, count):
    rows = [[f"paper:{i}", "x" * ((i * 7919) % 1500)] for i in range(300)]
    fitted = nb.fitted_batches(rows, max_rows=max_rows, max_bytes=max_bytes, overhead=100)
    assert sorted(row[0] for batch in fitted for row in batch) == sorted(row[0] for row in rows)
    for batch in fitted:
        assert len(batch) <= max_rows
        assert (
            len(batch) == 1 or 100 + 2 + sum(nb.serialised_size(r) + 1 for r in batch) <= max_bytes
        )
    assert len(fitted) == count  # consecutive batches: 68, 100, 300
