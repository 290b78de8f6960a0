"""kg.graph.row_products: the products of chosen row pairs equal the rows' products, however
the pairs are chunked and the rows read in blocks."""

import numpy as np
import pytest
from scipy import sparse

from kg.graph import row_products


def random_csr(rng, shape, density):
    M = sparse.random(*shape, density=density, format="csr", random_state=rng)
    M.sort_indices()
    return M


@pytest.mark.parametrize(("chunk", "block"), [(1, 2), (3, 4), (1 << 15, 4096)])
def test_pair_products_are_row_products(monkeypatch, chunk, block):
    monkeypatch.setattr(row_products, "PAIR_CHUNK", chunk)
    monkeypatch.setattr(row_products, "ROW_BLOCK", block)
    rng = np.random.default_rng(7)
    A, B = random_csr(rng, (9, 13), 0.3), random_csr(rng, (11, 13), 0.3)
    rows, cols = rng.integers(0, 9, 40), rng.integers(0, 11, 40)
    expected = np.array([(A[i] @ B[j].T).toarray().item() for i, j in zip(rows, cols, strict=True)])
    assert np.allclose(row_products.pair_dots(A, B, rows, cols), expected)
    assert np.allclose(row_products.rest_dots(A, B, rows, cols), expected)
    pair, column, product = row_products.shared_entries(A, B, rows, cols)
    for p, c, x in zip(pair, column, product, strict=True):
        assert x == A[rows[p], c] * B[cols[p], c] != 0
    both = sum(len(set(A[i].indices) & set(B[j].indices)) for i, j in zip(rows, cols, strict=True))
    assert len(pair) == both


def test_no_pairs():
    M = random_csr(np.random.default_rng(1), (3, 4), 0.5)
    none = np.zeros(0, dtype=np.int64)
    assert row_products.pair_dots(M, M, none, none).tolist() == []
    assert [len(x) for x in row_products.shared_entries(M, M, none, none)] == [0, 0, 0]
