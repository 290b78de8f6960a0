"""kg.graph.similar: the terms equal scikit-learn's analyzer, the compact term counts give
the summaries' vectors, and the text scores of the neighbours are the exact cosines."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from kg.graph import latent, similar

WORDS = ["the", "sparse", "bandit", "bandits", "regret", "of", "a", "3d", "naïve", "x_y", "é"]


@pytest.fixture(scope="module")
def analyzer():
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(stop_words="english").build_analyzer()


def test_stop_words_are_scikit_learns():
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    assert similar.STOP_WORDS == ENGLISH_STOP_WORDS


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(WORDS), st.text(max_size=6)),
        max_size=12,
    ).map(" ".join)
)
def test_terms_are_the_analyzers(analyzer, text):
    assert similar.terms(text) == analyzer(text)


def test_terms_of_an_abstract(analyzer):
    text = "Über-fast BERT_base models: we (re)train 2 of them on İstanbul's 10k docs."
    assert similar.terms(text) == analyzer(text)


def test_compact_counts_give_the_summaries_vectors():
    rng = np.random.default_rng(5)
    vocabulary = [f"w{i}" for i in range(60)]
    texts = [" ".join(rng.choice(vocabulary, size=int(rng.integers(1, 30)))) for _ in range(40)]
    texts.append("")  # a paper with no term
    papers = [similar.summarise(t, {}) for t in texts]
    model = similar.decide(similar.corpus_stats(papers))
    counts = similar.count_terms(texts)
    assert similar.decide(similar.term_stats(counts)).term_index == model.term_index
    a, b = similar.text_vectors(model, papers), similar.counted_vectors(model, counts)
    assert (a != b).nnz == 0 and np.array_equal(a.indices, b.indices)
    assert np.array_equal(a.data, b.data)


def test_text_scores_are_exact_cosines_with_few_champions():
    rng = np.random.default_rng(3)
    vocabulary = [f"w{i}" for i in range(40)]
    texts = [" ".join(rng.choice(vocabulary, size=12, p=None)) for _ in range(30)]
    papers = [similar.summarise(t, {}) for t in texts]
    tight = similar.Settings(term_cap=0.1, champions=2, candidates=5, k=3)
    model = similar.decide(similar.corpus_stats(papers), settings=tight)
    assert len(model.frequent_terms) > 0
    text = similar.vectors(model, papers).text.toarray()
    cosine = text @ text.T
    for i, row in enumerate(similar.neighbours(model, papers)):
        for n in row:
            assert n.text == similar.rounded(cosine[i, n.paper])


def test_latent_basis_spans_the_leading_singular_vectors():
    rng = np.random.default_rng(5)
    low_rank = rng.random((60, 3)) @ rng.random((3, 40)) + 0.01 * rng.random((60, 40))
    M = sparse.csr_matrix(low_rank)
    basis = latent.basis(M, 3)
    _, _, vt = np.linalg.svd(low_rank, full_matrices=False)
    # Same subspace: projecting the exact vectors on the basis keeps their length.
    assert np.allclose(np.linalg.norm(vt[:3] @ basis.T, axis=1), 1.0, atol=1e-6)
    assert np.array_equal(basis, latent.basis(M, 3))  # a fixed seed


def test_text_scores_add_the_latent_cosine_on_large_enough_corpora():
    rng = np.random.default_rng(3)
    vocabulary = [f"w{i}" for i in range(40)]
    texts = [" ".join(rng.choice(vocabulary, size=12)) for _ in range(30)]
    papers = [similar.summarise(t, {}) for t in texts]
    latent = similar.Settings(term_cap=0.1, candidates=5, k=3, latent_dims=4, latent_min_papers=30)
    model = similar.decide(similar.corpus_stats(papers), settings=latent)
    assert model.latent_dims == 4
    v = similar.vectors(model, papers)
    assert v.latent is not None
    cosine = (v.text @ v.text.T).toarray()
    hidden = v.latent.rows @ v.latent.rows.T
    for i, row in enumerate(similar.neighbours(model, papers)):
        assert row
        for n in row:
            expected = cosine[i, n.paper] + 0.15 * max(hidden[i, n.paper], 0.0)
            assert n.text == similar.rounded(expected)
    # A paper given as free text meets the same neighbours with the same text scores.
    alone = similar.query_neighbours(model, v, papers[0], k=4)
    assert [(n.paper, n.text) for n in alone[1:]] == [
        (n.paper, n.text) for n in similar.neighbours(model, papers)[0]
    ]
    few = similar.decide(similar.corpus_stats(papers[:29]), settings=latent)
    assert few.latent_dims == 0 and similar.vectors(few, papers[:29]).latent is None
