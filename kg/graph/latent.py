"""A latent space of the papers' text (LSA): the leading singular vectors of their TF-IDF
rows, so that papers saying the same thing in other words still meet.

Learnt by a randomized SVD with a fixed seed (Halko, Martinsson and Tropp 2011): a random
projection, power iterations, then the exact SVD of the small projected matrix. Each step is
a product of the rows with a small dense matrix or a sum over rows, so the rows may come in
parts (as Dask's ``svd_compressed`` computes it).
"""

from typing import NamedTuple

import numpy as np
from scipy import linalg, sparse

#: Seed of the random projection (a fixed seed: the same corpus always gets the same space).
SEED = 0
#: Extra columns of that projection, and its power iterations.
OVERSAMPLE = 10
POWER_ITERATIONS = 2
#: Pairs scored at once (each pair's sum is its own, so chunks change no figure).
PAIR_CHUNK = 1 << 15


def dims(papers: int, terms: int, *, wanted: int, min_papers: int) -> int:
    """The dimensions of the latent space of a corpus of ``papers`` whose ``terms`` are
    held by two papers or more: ``wanted``, fewer if the corpus has fewer, none (0) below
    ``min_papers`` papers (a small corpus holds too little to learn a space from).

    >>> [dims(n, 3000, wanted=100, min_papers=1000) for n in (19456, 180)]
    [100, 0]
    """
    if papers < min_papers:
        return 0
    return max(0, min(wanted, papers - 1, terms - 1))


class Latent(NamedTuple):
    """A latent space: the columns (terms) it is learnt from, its basis (dimensions x those
    terms), and the papers' unit rows in it."""

    terms: np.ndarray
    basis: np.ndarray
    rows: np.ndarray

    def project(self, text: sparse.csr_matrix) -> np.ndarray:
        """The unit rows of text vectors in this space."""
        return unit_rows(text[:, self.terms], self.basis)


def basis(text: sparse.csr_matrix, dims: int) -> np.ndarray:
    """The ``dims`` leading right singular vectors of ``text`` (as rows).

    >>> M = sparse.csr_matrix(np.array([[1.0, 1.0, 0.0], [2.0, 2.0, 0.0], [0.0, 0.0, 1.0]]))
    >>> np.round(np.abs(basis(M, 1)), 3).tolist()
    [[0.707, 0.707, 0.0]]
    """
    width = min(dims + OVERSAMPLE, *text.shape)
    omega = np.random.default_rng(SEED).standard_normal((text.shape[1], width))
    q = orthonormal(text @ omega)
    for _ in range(POWER_ITERATIONS):
        q = orthonormal(text.T @ q)
        q = orthonormal(text @ q)
    projected = (text.T @ q).T  # width x terms: its right singular vectors are text's
    values, vectors = np.linalg.eigh(projected @ projected.T)
    order = np.argsort(values)[::-1][:dims]
    scale = np.sqrt(np.maximum(values[order], np.finfo(float).tiny))
    return np.ascontiguousarray((vectors[:, order].T @ projected) / scale[:, None])


def orthonormal(a: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the columns of ``a`` (tall): Cholesky QR done twice, which
    is as exact as Householder QR for the well-conditioned blocks of a randomized SVD and
    several times cheaper; Householder QR where the Gram matrix is singular.

    >>> q = orthonormal(np.array([[3.0, 1.0], [4.0, 2.0], [0.0, 2.0]]))
    >>> np.allclose(q.T @ q, np.eye(2))
    True
    """
    try:
        for _ in range(2):
            upper = np.linalg.cholesky(a.T @ a).T
            a = linalg.solve_triangular(upper, a.T, trans="T").T
    except np.linalg.LinAlgError:
        a, _ = np.linalg.qr(a)
    return a


def unit_rows(text: sparse.csr_matrix, on: np.ndarray) -> np.ndarray:
    """The unit rows of ``text`` projected on the basis ``on`` (a row with no projection
    stays 0)."""
    rows = np.asarray(text @ on.T)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return rows / norms


def space(text: sparse.csr_matrix, terms: np.ndarray, dims: int) -> Latent:
    """The latent space of ``dims`` dimensions learnt from the columns ``terms`` of the
    text vectors."""
    shared = text[:, terms]
    found = basis(shared, dims)
    return Latent(terms, found, unit_rows(shared, found))


def added(
    rows_of: np.ndarray, query: np.ndarray, rows: np.ndarray, cols: np.ndarray, weight: float
) -> np.ndarray:
    """What the latent space adds to the text score of each pair (``query[rows[i]]``,
    ``rows_of[cols[i]]``): ``weight`` times their cosine where it is positive.

    >>> L = np.array([[1.0, 0.0], [0.6, 0.8], [-1.0, 0.0]])
    >>> added(L, L, np.array([0, 0]), np.array([1, 2]), 0.5).tolist()
    [0.3, 0.0]
    """
    out = np.empty(len(rows), dtype=np.float64)
    for a in range(0, len(rows), PAIR_CHUNK):
        b = min(a + PAIR_CHUNK, len(rows))
        out[a:b] = np.einsum("ij,ij->i", query[rows[a:b]], rows_of[cols[a:b]])
    return weight * np.maximum(out, 0.0)
