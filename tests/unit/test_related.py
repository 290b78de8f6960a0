"""SIMILAR_TO with its text part computed in a side process equals SIMILAR_TO computed in
the build's own process."""

import numpy as np
import pytest

from kg import schema as S
from kg.extractors.workers import worker_processes
from kg.graph import related
from kg.graph.papers import new_graph
from kg.graph.related import TextPart, add_similar_edges


def corpus(papers: int = 40):
    """Papers of random words, some pointing to shared concepts."""
    rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(60)]
    G = new_graph()
    for c in range(6):
        G.add_node(f"method:m{c}", kind=S.METHOD, name=f"M{c}")
    for p in range(papers):
        key = f"paper:{p:03d}"
        text = " ".join(rng.choice(words, size=20))
        G.add_node(key, kind=S.PAPER, title=f"T{p}", abstract=text)
        for c in rng.choice(6, size=2, replace=False):
            G.add_edge(key, f"method:m{c}", key=S.USES)
    return G


def similar_edges(G):
    return sorted(
        (u, v, sorted(d.items()))
        for u, v, k, d in G.edges(keys=True, data=True)
        if k == S.SIMILAR_TO
    )


@pytest.fixture
def side(monkeypatch):
    monkeypatch.setattr(related, "SIDE_MIN_PAPERS", 10)


def test_text_part_in_a_side_process_gives_the_same_edges(side):
    here, there = corpus(), corpus()
    add_similar_edges(here)
    with TextPart(there) as text:
        candidates = text.result(there)
        assert candidates is not None
        add_similar_edges(there, text=candidates)
    assert similar_edges(here) == similar_edges(there) != []


def test_no_side_result_for_changed_papers_or_a_small_graph(side):
    G = corpus()
    with TextPart(G) as text:
        G.add_node("paper:new", kind=S.PAPER, title="New", abstract="w1 w2")
        assert text.result(G) is None
    with TextPart(corpus(papers=5)) as small:
        assert small.result(corpus(papers=5)) is None


def test_closing_stops_the_side_process(side):
    text = TextPart(corpus())
    text.result(corpus())
    processes = worker_processes(text._pool)
    assert processes
    text.close()
    assert not any(p.is_alive() for p in processes)


def test_a_latent_space_raises_text_scores_alike_in_the_side_process(side):
    latent = related.Settings(latent_dims=5, latent_min_papers=20)
    plain = related.Settings(latent_min_papers=10_000)
    here, there, without = corpus(), corpus(), corpus()
    add_similar_edges(here, settings=latent)
    add_similar_edges(without, settings=plain)
    with TextPart(there, settings=latent) as text:
        add_similar_edges(there, settings=latent, text=text.result(there))
    assert similar_edges(here) == similar_edges(there)
    scores = {
        (u, v): d["text_score"]
        for u, v, k, d in here.edges(keys=True, data=True)
        if k == S.SIMILAR_TO
    }
    before = {
        (u, v): d["text_score"]
        for u, v, k, d in without.edges(keys=True, data=True)
        if k == S.SIMILAR_TO
    }
    shared = set(scores) & set(before)
    assert shared and all(scores[p] >= before[p] for p in shared)
    assert any(scores[p] > before[p] for p in shared)
