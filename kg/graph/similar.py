"""Related papers: each paper's nearest papers by what they say, raised by what they share.

A paper is summarised by the terms of its title and abstract (words, English stop words
dropped, as scikit-learn's TF-IDF analyzer makes them, without importing it) and by the
concepts it points to, a side mention weighing less than its topic. Corpus statistics (how
many papers hold each term and concept) are pure functions over those summaries that merge
associatively: ``summarise`` one paper, ``merge`` any two statistics in any grouping,
``decide`` the model from the total.

The score of a pair is ``text * (1 + concept_weight * shared)``. ``text`` is the cosine of
the papers' TF-IDF vectors (sublinear term frequency, smoothed IDF) over every term, plus
``latent_weight`` times their cosine (when positive) in a latent space of ``latent_dims``
dimensions (LSA: the leading singular vectors of the TF-IDF rows), so that papers saying the
same thing in other words still meet.
``shared`` sums, over the concepts both papers point to, the product of their roles times
the concept's damped IDF ln(cap * N / df): a concept held by ``concept_cap`` of the papers
or more (accuracy, BERT, Transformer) adds nothing, so generic concepts cannot carry a
score, and a paper with few concepts still gets its neighbours by text.

Candidates never come from all pairs: a sparse product over the specific vocabulary only
(terms held by at most ``term_cap`` of the papers, concepts below ``concept_cap``) keeps
each paper's ``candidates`` best, which are then scored exactly. Scores are rounded; ties go
to the higher text score, then the earlier paper.
"""

import math
import os
import re
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from itertools import chain, repeat
from typing import NamedTuple

import numpy as np
from scipy import sparse

from kg.graph import latent
from kg.graph.row_products import champions, pair_dots, rest_dots, shared_entries
from kg.pickled import pickle_plain

#: Decimal places of a stored score.
SCORE_DIGITS = 6
#: Fewest papers a cap allows, so that a small corpus still has specific terms and concepts.
MIN_CAP = 3


@dataclass(frozen=True)
class Settings:
    """How related papers are ranked (the defaults were tuned on the tuning half of the
    judged set, see docs/traversals.md)."""

    #: Neighbours kept per paper.
    k: int = 10
    #: Share of the papers above which a term makes no candidate pair.
    term_cap: float = 0.02
    #: Share of the papers at which a concept's weight falls to zero.
    concept_cap: float = 0.02
    #: How much shared concepts raise the text score.
    concept_weight: float = 0.1
    #: Role of a concept a paper only mentions on the side (its topic counts 1).
    side_weight: float = 0.5
    #: Candidates per paper scored exactly.
    candidates: int = 50
    #: Papers per frequent term through which it makes candidate pairs.
    champions: int = 200
    #: Dimensions of the latent space (LSA) whose cosine adds to the text score.
    latent_dims: int = 100
    #: How much the latent cosine adds to the TF-IDF cosine.
    latent_weight: float = 0.15
    #: Fewest papers with a latent space (fewer hold too little to learn one from: their
    #: text score is the TF-IDF cosine alone).
    latent_min_papers: int = 1000


#: The settings a build uses unless told otherwise.
DEFAULTS = Settings()


class Summary(NamedTuple):
    """One paper: its terms (term -> count) and its concepts (concept key -> role)."""

    terms: dict[str, int]
    concepts: dict[str, float]


pickle_plain(Summary)


@dataclass(frozen=True)
class Stats:
    """Corpus statistics: papers counted, and how many of them hold each term and concept."""

    papers: int
    term_df: Counter[str]
    concept_df: Counter[str]


class Neighbour(NamedTuple):
    """A related paper: its position among the papers, score, text part and what each
    shared concept adds."""

    paper: int
    score: float
    text: float
    shared: tuple[tuple[str, float], ...]


def rounded(x: float) -> float:
    """``x`` rounded half up to SCORE_DIGITS places (as Cypher's ``round(x * 1e6) / 1e6``).

    >>> rounded(0.12345649), rounded(0.1234565)
    (0.123456, 0.123457)
    """
    scale = 10**SCORE_DIGITS
    return math.floor(x * scale + 0.5) / scale


def _round(x: np.ndarray) -> np.ndarray:
    """:func:`rounded` of every element."""
    scale = 10.0**SCORE_DIGITS
    return np.floor(x * scale + 0.5) / scale


#: A term: a run of two or more word characters (scikit-learn's default token pattern,
#: ``\b\w\w+\b``, whose word boundaries a greedy match implies).
TERM = re.compile(r"\w\w+")
#: English stop words (``stop_words.txt``), never terms.
STOP_WORDS = frozenset(
    line
    for line in (files("kg.graph") / "stop_words.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
)


def terms(text: str) -> list[str]:
    """The terms of ``text`` in order: its words of two letters or more, lowercased, English
    stop words dropped (what scikit-learn's ``TfidfVectorizer(stop_words="english")``
    analyzer gives).

    >>> terms("The CNN-based model, trained on 3D data; a b-tree.")
    ['cnn', 'based', 'model', 'trained', '3d', 'data', 'tree']
    """
    return [t for t in TERM.findall(text.lower()) if t not in STOP_WORDS]


def summarise(text: str, concepts: Mapping[str, float]) -> Summary:
    """The summary of one paper from its title and abstract (``text``) and its concepts'
    roles.

    >>> s = summarise("Sparse bandits. Bandits with sparse rewards.", {"method:ucb": 1.0})
    >>> s.terms["bandits"], s.terms["rewards"], s.concepts
    (2, 1, {'method:ucb': 1.0})
    """
    return Summary(dict(Counter(terms(text))), dict(concepts))


def stats_of(summary: Summary) -> Stats:
    """The statistics of one paper."""
    return Stats(1, Counter(summary.terms.keys()), Counter(summary.concepts.keys()))


def merge(a: Stats, b: Stats) -> Stats:
    """Statistics of two parts of a corpus together (associative and commutative).

    >>> one = stats_of(Summary({"a": 2}, {"c": 1.0}))
    >>> both = merge(one, stats_of(Summary({"a": 1, "b": 1}, {})))
    >>> both.papers, both.term_df["a"], both.concept_df["c"]
    (2, 2, 1)
    """
    return Stats(a.papers + b.papers, a.term_df + b.term_df, a.concept_df + b.concept_df)


def corpus_stats(summaries: Iterable[Summary]) -> Stats:
    """``merge`` of every summary's statistics, counted in one pass."""
    papers, term_df, concept_df = 0, Counter[str](), Counter[str]()
    for s in summaries:
        papers += 1
        term_df.update(s.terms.keys())
        concept_df.update(s.concepts.keys())
    return Stats(papers, term_df, concept_df)


class TermCounts(NamedTuple):
    """The terms of many papers at a few bytes a term (what their summaries' terms hold,
    without a dict a paper): the vocabulary in the order first met, and each paper's term
    ids and counts (paper i's are ``ids[indptr[i]:indptr[i + 1]]``)."""

    vocabulary: list[str]
    indptr: np.ndarray
    ids: np.ndarray
    counts: np.ndarray


def count_terms(texts: Iterable[str]) -> TermCounts:
    """The :class:`TermCounts` of ``texts``, each a paper's title and abstract.

    >>> c = count_terms(["Sparse bandits. Bandits with sparse rewards.", "Sparse codes"])
    >>> c.vocabulary, c.indptr.tolist(), c.ids.tolist(), c.counts.tolist()
    (['sparse', 'bandits', 'rewards', 'codes'], [0, 3, 5], [0, 1, 2, 0, 3], [2, 2, 1, 1, 1])
    """
    vocabulary: dict[str, int] = {}
    ids, counts, indptr = array("i"), array("i"), array("q", [0])
    for text in texts:
        found = Counter(terms(text))
        ids.extend([vocabulary.setdefault(t, len(vocabulary)) for t in found])
        counts.extend(found.values())
        indptr.append(len(ids))
    return TermCounts(
        list(vocabulary),
        np.frombuffer(indptr, np.int64),
        np.frombuffer(ids, np.int32),
        np.frombuffer(counts, np.int32),
    )


def reordered(counts: TermCounts, order: Sequence[int]) -> TermCounts:
    """The papers of ``counts`` in the order ``order`` gives (their positions).

    >>> c = reordered(count_terms(["Sparse bandits", "codes", "Sparse codes"]), [2, 0])
    >>> c.indptr.tolist(), [c.vocabulary[i] for i in c.ids]
    ([0, 2, 4], ['sparse', 'codes', 'sparse', 'bandits'])
    """
    at = np.asarray(order, dtype=np.int64)
    lengths = np.diff(counts.indptr)[at]
    indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    entries = np.repeat(counts.indptr[at] - indptr[:-1], lengths) + np.arange(indptr[-1])
    return TermCounts(counts.vocabulary, indptr, counts.ids[entries], counts.counts[entries])


def term_stats(counts: TermCounts) -> Stats:
    """The statistics of the papers of ``counts`` (what :func:`corpus_stats` of their
    summaries gives).

    >>> s = term_stats(count_terms(["Sparse bandits.", "Sparse codes"]))
    >>> s.papers, s.term_df["sparse"], s.term_df["codes"]
    (2, 2, 1)
    """
    df = np.bincount(counts.ids, minlength=len(counts.vocabulary)).tolist()
    return Stats(
        len(counts.indptr) - 1, Counter(dict(zip(counts.vocabulary, df, strict=True))), Counter()
    )


@dataclass(frozen=True)
class Model:
    """What ``decide`` makes of the statistics: the terms and concepts (column order), their
    weights, which terms are specific enough to make candidate pairs and which are held by
    too many papers to (terms of one paper are neither)."""

    term_index: dict[str, int]
    term_idf: np.ndarray
    specific_terms: np.ndarray
    frequent_terms: np.ndarray
    concept_index: dict[str, int]
    concept_idf: np.ndarray
    latent_dims: int
    settings: Settings


def decide(stats: Stats, *, settings: Settings = DEFAULTS) -> Model:
    """The model of a corpus: every term with its smoothed IDF, ln((1 + N) / (1 + df)) + 1,
    those held by 2 papers to ``term_cap`` of them marked specific; the concepts held by 2
    papers or more with a positive damped IDF ln(concept_cap * N / df); in sorted order;
    the latent space's dimensions (none below ``latent_min_papers`` papers). (A cap is never
    below MIN_CAP papers.)"""
    n = stats.papers
    term_cap = max(settings.term_cap * n, MIN_CAP)
    concept_cap = max(settings.concept_cap * n, MIN_CAP)
    terms = sorted(stats.term_df)
    df = np.fromiter((stats.term_df[t] for t in terms), dtype=np.float64, count=len(terms))
    damped = {c: math.log(concept_cap / count) for c, count in stats.concept_df.items()}
    concepts = sorted(c for c, count in stats.concept_df.items() if count >= 2 and damped[c] > 0)
    shared = int(np.count_nonzero(df >= 2))
    return Model(
        dict(zip(terms, range(len(terms)), strict=True)),
        np.log((1 + n) / (1 + df)) + 1,
        np.flatnonzero((df >= 2) & (df <= term_cap)),
        np.flatnonzero(df > term_cap),
        {c: i for i, c in enumerate(concepts)},
        np.array([damped[c] for c in concepts], dtype=np.float64),
        latent.dims(n, shared, wanted=settings.latent_dims, min_papers=settings.latent_min_papers),
        settings,
    )


def _matrix(
    items: Sequence[Mapping[str, float]], index: Mapping[str, int], width: int
) -> sparse.csr_matrix:
    """Rows of the values of ``items`` in the columns ``index`` gives their names."""
    cols = np.fromiter(map(index.get, chain.from_iterable(items), repeat(-1)), dtype=np.int64)
    vals = np.fromiter(chain.from_iterable(item.values() for item in items), dtype=np.float64)
    rows = np.repeat(np.arange(len(items)), [len(item) for item in items])
    known = cols >= 0
    return sparse.csr_matrix((vals[known], (rows[known], cols[known])), shape=(len(items), width))


def _normalised(M: sparse.csr_matrix) -> sparse.csr_matrix:
    norms = np.sqrt(np.asarray(M.multiply(M).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.csr_matrix(sparse.diags(1.0 / norms) @ M)


class Vectors(NamedTuple):
    """Papers as rows: TF-IDF text vectors (unit length), concept roles times the square
    root of their damped IDF (so that a row product sums role * role * IDF), and the latent
    space learnt from the text vectors (None when the model has none)."""

    text: sparse.csr_matrix
    concepts: sparse.csr_matrix
    latent: latent.Latent | None


def vectors(model: Model, summaries: Sequence[Summary]) -> Vectors:
    """The vectors of ``summaries`` under ``model``."""
    text = text_vectors(model, summaries)
    return Vectors(text, concept_vectors(model, summaries), latent_space(model, text))


def latent_space(model: Model, text: sparse.csr_matrix) -> latent.Latent | None:
    """The latent space of a corpus's text vectors (None when the model has none)."""
    if not model.latent_dims:
        return None
    terms = np.sort(np.concatenate([model.specific_terms, model.frequent_terms]))
    return latent.space(text, terms, model.latent_dims)


def text_vectors(model: Model, summaries: Sequence[Summary]) -> sparse.csr_matrix:
    """The unit TF-IDF rows of ``summaries``' terms (the model's term part alone)."""
    return _tf_idf(
        model, _matrix([s.terms for s in summaries], model.term_index, len(model.term_index))
    )


def counted_vectors(model: Model, counts: TermCounts) -> sparse.csr_matrix:
    """The unit TF-IDF rows of the papers of ``counts`` (as :func:`text_vectors` of their
    summaries), every term of them in ``model``."""
    column = np.fromiter(map(model.term_index.__getitem__, counts.vocabulary), dtype=np.int64)
    rows = np.repeat(np.arange(len(counts.indptr) - 1), np.diff(counts.indptr))
    shape = (len(counts.indptr) - 1, len(model.term_index))
    values = counts.counts.astype(np.float64)
    return _tf_idf(model, sparse.csr_matrix((values, (rows, column[counts.ids])), shape=shape))


def _tf_idf(model: Model, counts: sparse.csr_matrix) -> sparse.csr_matrix:
    """Unit rows of sublinear term frequency times IDF, from raw term ``counts``."""
    counts.data = 1.0 + np.log(counts.data)
    return _normalised(sparse.csr_matrix(counts @ sparse.diags(model.term_idf)))


def concept_vectors(model: Model, summaries: Sequence[Summary]) -> sparse.csr_matrix:
    """The rows of ``summaries``' concept roles times the square root of their damped IDF
    (the model's concept part alone)."""
    roles = _matrix([s.concepts for s in summaries], model.concept_index, len(model.concept_index))
    concepts = sparse.csr_matrix(roles @ sparse.diags(np.sqrt(model.concept_idf)))
    concepts.sort_indices()
    return concepts


def best_pairs(
    rows: np.ndarray, cols: np.ndarray, score: np.ndarray, text: np.ndarray, *, k: int
) -> np.ndarray:
    """Positions of the ``k`` best pairs (rows[i], cols[i]) of each row: rows ascending, then
    the highest rounded score first, then the highest rounded text score, then col.

    >>> best_pairs(np.array([0, 0, 0, 1]), np.array([3, 1, 2, 0]),
    ...            np.array([0.5, 0.5, 0.9, 0.1]), np.array([0.5, 0.5, 0.1, 0.1]), k=2)
    array([2, 1, 3])
    """
    order = np.lexsort((cols, -_round(text), -_round(score), rows))
    sorted_rows = rows[order]
    keep = np.arange(len(order)) - np.searchsorted(sorted_rows, sorted_rows, side="left") < k
    return order[keep]


def _scored(
    model: Model,
    corpus: sparse.csr_matrix,
    query: sparse.csr_matrix,
    rows: np.ndarray,
    cols: np.ndarray,
    text: np.ndarray,
    *,
    k: int,
) -> list[list[Neighbour]]:
    """Each query row's ``k`` best among the candidate pairs (query row, corpus col) whose
    text scores are ``text``; ``corpus`` and ``query`` are concept vectors."""
    raise_by = text * model.settings.concept_weight
    score = text + raise_by * pair_dots(query, corpus, rows, cols)
    picked = best_pairs(rows, cols, score, text, k=k)
    pair, column, product = shared_entries(query, corpus, rows[picked], cols[picked])
    adds = _round(raise_by[picked][pair] * product)
    bounds = np.searchsorted(pair, np.arange(len(picked) + 1)).tolist()
    names = sorted(model.concept_index, key=model.concept_index.__getitem__)
    columns, weights = column.tolist(), adds.tolist()
    out: list[list[Neighbour]] = [[] for _ in range(query.shape[0])]
    for n, (i, j, s, t) in enumerate(
        zip(
            rows[picked].tolist(),
            cols[picked].tolist(),
            _round(score[picked]).tolist(),
            _round(text[picked]).tolist(),
            strict=True,
        )
    ):
        start, end = bounds[n], bounds[n + 1]
        shared: tuple[tuple[str, float], ...] = ()
        if start < end:
            pairs = zip(columns[start:end], weights[start:end], strict=True)
            found = [(names[c], w) for c, w in pairs if w]
            shared = tuple(sorted(found, key=lambda p: (-p[1], p[0])))
        out[i].append(Neighbour(j, s, t, shared))
    return out


class Candidates(NamedTuple):
    """Candidate pairs of papers (``rows[i]``, ``cols[i]``) and their exact text scores."""

    rows: np.ndarray
    cols: np.ndarray
    text: np.ndarray


def text_candidates(model: Model, text: sparse.csr_matrix) -> Candidates:
    """Each paper's ``candidates`` best pairs by text, with their exact text scores (the
    model's term part and the papers' ``text`` vectors alone): the TF-IDF cosine, plus what
    the latent space adds."""
    from sparse_dot_topn import sp_matmul_topn

    settings = model.settings
    # First, while little else is held: the latent space's passes hold several copies of
    # the rows. Arrays are dropped as soon as they are used, for the same reason.
    space = latent_space(model, text)
    # Frequent terms make pairs only through their champions: the papers they weigh most in.
    columns = np.concatenate([model.specific_terms, model.frequent_terms])
    frequent = text[:, model.frequent_terms]
    held = champions(frequent, settings.champions)
    targets = sparse.hstack([text[:, model.specific_terms], held], format="csr").T.tocsr()
    top = sp_matmul_topn(
        text[:, columns],
        targets,
        top_n=settings.candidates + 1,
        n_threads=os.cpu_count(),  # rows apart, so the same result as one thread
    ).tocoo()
    del targets
    other = top.row != top.col
    rows, cols = top.row[other].astype(np.int64), top.col[other].astype(np.int64)
    scores = top.data[other]
    del top, other
    # Exactly over every term: the product counted the frequent terms of the champions only
    # (terms of one paper join no pair).
    rest = sparse.csr_matrix(frequent - held)
    del held
    scores += rest_dots(frequent, rest, rows, cols)
    del frequent, rest
    if space is not None:
        scores += latent.added(space.rows, space.rows, rows, cols, settings.latent_weight)
    return Candidates(rows, cols, scores)


def neighbours(
    model: Model, summaries: Sequence[Summary], candidates: Candidates | None = None
) -> list[list[Neighbour]]:
    """Each paper's ``k`` best neighbours among ``summaries``, from their ``text_candidates``
    (computed here unless given: then the model's term part and the summaries' terms are
    not used)."""
    if candidates is None:
        candidates = text_candidates(model, text_vectors(model, summaries))
    concepts = concept_vectors(model, summaries)
    return _scored(model, concepts, concepts, *candidates, k=model.settings.k)


def query_neighbours(model: Model, corpus: Vectors, query: Summary, *, k: int) -> list[Neighbour]:
    """The ``k`` best neighbours in a corpus (its ``vectors``) of a paper outside it."""
    q_text, q_concepts = text_vectors(model, [query]), concept_vectors(model, [query])
    text = (corpus.text @ q_text.T).toarray().ravel()
    cols = np.flatnonzero(text)
    rows = np.zeros(len(cols), dtype=np.int64)
    scores = text[cols]
    if corpus.latent is not None:
        q_latent = corpus.latent.project(q_text)
        weight = model.settings.latent_weight
        scores = scores + latent.added(corpus.latent.rows, q_latent, rows, cols, weight)
    return _scored(model, corpus.concepts, q_concepts, rows, cols, scores, k=k)[0]
