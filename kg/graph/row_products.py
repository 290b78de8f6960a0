"""Products of chosen pairs of rows of sparse matrices, without forming the matrices'
product: what related papers score their candidate pairs with (:mod:`kg.graph.similar`).
Each pair's sum is computed on its own, in the order of its row's entries, so however the
pairs are chunked the figures are the same."""

import numpy as np
from scipy import sparse

#: Pairs scored at once: each pair's dot product is its own sum, so the chunks change no
#: figure and keep the arrays of a chunk small.
PAIR_CHUNK = 1 << 15


def _entries(M: sparse.csr_matrix, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions in ``M.data`` of the entries of the rows ``rows``, one row after the
    other, and which of ``rows`` each belongs to."""
    counts = np.diff(M.indptr)[rows]
    owner = np.repeat(np.arange(len(rows)), counts)
    ends = np.cumsum(counts)
    return np.arange(ends[-1] if len(ends) else 0) + np.repeat(
        M.indptr[rows] - ends + counts, counts
    ), owner


def shared_entries(
    A: sparse.csr_matrix, B: sparse.csr_matrix, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The columns both ``A[rows[i]]`` and ``B[cols[i]]`` hold: (i, column, product) of
    each, i ascending, then the column (a sorted merge of the rows, no row copies; both
    matrices' indices sorted).

    >>> A = sparse.csr_matrix(np.array([[1.0, 2.0, 0.0], [3.0, 0.0, 4.0]]))
    >>> [x.tolist() for x in shared_entries(A, A, np.array([0, 1]), np.array([1, 1]))]
    [[0, 1, 1], [0, 0, 2], [3.0, 9.0, 16.0]]
    """
    width = A.shape[1]
    at_a, pair_a = _entries(A, rows)
    at_b, pair_b = _entries(B, cols)
    keys_a = pair_a * width + A.indices[at_a]
    keys_b = pair_b * width + B.indices[at_b]
    if not len(keys_b):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=np.float64)
    found = np.minimum(np.searchsorted(keys_b, keys_a), len(keys_b) - 1)
    hit = keys_b[found] == keys_a
    at_a, found = at_a[hit], found[hit]
    return pair_a[hit], A.indices[at_a], A.data[at_a] * B.data[at_b[found]]


def pair_dots(
    A: sparse.csr_matrix, B: sparse.csr_matrix, rows: np.ndarray, cols: np.ndarray
) -> np.ndarray:
    """``A[rows[i]] . B[cols[i]]`` for every i, by ``shared_entries`` in chunks.

    >>> M = sparse.csr_matrix(np.array([[1.0, 2.0], [3.0, 0.0]]))
    >>> pair_dots(M, M, np.array([0, 0, 1]), np.array([0, 1, 1])).tolist()
    [5.0, 3.0, 9.0]
    """
    out = np.empty(len(rows), dtype=np.float64)
    for a in range(0, len(rows), PAIR_CHUNK):
        b = min(a + PAIR_CHUNK, len(rows))
        pair, _, product = shared_entries(A, B, rows[a:b], cols[a:b])
        out[a:b] = np.bincount(pair, product, minlength=b - a)
    return out


#: Rows of a sparse matrix made dense at once by :func:`rest_dots` (a block holds this many
#: rows times the matrix's width, whatever the corpus's size).
ROW_BLOCK = 4096


def rest_dots(
    A: sparse.csr_matrix, R: sparse.csr_matrix, rows: np.ndarray, cols: np.ndarray
) -> np.ndarray:
    """``A[rows[i]] . R[cols[i]]`` for every i, ``R`` as wide as ``A``: ``R`` is read dense
    ROW_BLOCK rows at a time, so memory stays bounded while each pair's sum is the dense
    product's.

    >>> A = sparse.csr_matrix(np.array([[1.0, 2.0], [3.0, 0.0]]))
    >>> rest_dots(A, A, np.array([0, 0, 1]), np.array([0, 1, 1])).tolist()
    [5.0, 3.0, 9.0]
    """
    # By column, so that the reads of a block go row after row (each pair's sum unchanged).
    order = np.argsort(cols, kind="stable")
    rows, cols = rows[order], cols[order]
    out = np.empty(len(rows), dtype=np.float64)
    firsts = range(0, R.shape[0], ROW_BLOCK)
    bounds = np.searchsorted(cols, [*firsts, R.shape[0]]).tolist()
    for n, first in enumerate(firsts):
        lo, hi = bounds[n], bounds[n + 1]
        if lo == hi:
            continue
        dense = R[first : first + ROW_BLOCK].toarray()
        for a in range(lo, hi, PAIR_CHUNK):
            b = min(a + PAIR_CHUNK, hi)
            at, pair = _entries(A, rows[a:b])
            product = A.data[at] * dense[cols[a:b][pair] - first, A.indices[at]]
            out[a:b] = np.bincount(pair, product, minlength=b - a)
    dots = np.empty_like(out)
    dots[order] = out
    return dots


def champions(M: sparse.csr_matrix, n: int) -> sparse.csr_matrix:
    """``M`` with only the ``n`` largest values of each column (ties: the earlier rows)."""
    C = M.tocsc()
    keep = np.zeros(C.nnz, dtype=bool)
    for j in range(C.shape[1]):
        start, end = C.indptr[j], C.indptr[j + 1]
        if end - start <= n:
            keep[start:end] = True
        else:
            order = np.lexsort((C.indices[start:end], -C.data[start:end]))
            keep[start + order[:n]] = True
    C.data = np.where(keep, C.data, 0.0)
    C.eliminate_zeros()
    return C.tocsr()
