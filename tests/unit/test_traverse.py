"""The traversals on the hand-made example graph (known answers) and on the seed graph."""

from itertools import pairwise

import pytest

from kg.errors import NotFound
from kg.query.traverse import (
    coauthors,
    coauthors_within,
    collaboration_path,
    datasets_of,
    example_graph,
    methods_on,
    papers_with,
    related_papers,
    shared_concepts,
    top_collaborators,
    top_method_dataset_pairs,
)
from kg.schema import AUTHORED, content_hash


@pytest.fixture
def G():
    return example_graph()


def add_paper(G, title, authors):
    key = f"paper:{content_hash(title)}"
    G.add_node(
        key,
        kind="Paper",
        abstract=title,
        title=title,
        label=None,
        area=None,
        sources=["extra.txt#0"],
        hash=key[6:],
        venue=None,
        year=None,
    )
    for position, author in enumerate(authors, 1):
        G.add_edge(author, key, AUTHORED, position=position, truncated_list=False)
    return key


def test_coauthors_counts_shared_papers_and_breaks_ties_by_name(G):
    rows = coauthors(G, "Julia Kempe")
    assert [(r["coauthor"], r["shared"]) for r in rows] == [("Rémi Munos", 2), ("Yann Ollivier", 2)]
    assert rows[0] == {
        "coauthor": "Rémi Munos",
        "key": "author:remimunos",
        "shared": 2,
        "papers": ["Bandits Again", "Sharper Bounds"],
    }


def test_coauthors_of_a_loner_is_empty(G):
    assert coauthors(G, "ada lovelace") == []


def test_coauthors_limit(G):
    assert [r["coauthor"] for r in coauthors(G, "Rémi Munos", limit=1)] == ["Julia Kempe"]


def test_coauthors_unknown_name_suggests(G):
    with pytest.raises(NotFound) as info:
        coauthors(G, "Julia Kemper")
    assert info.value.suggestions == ["Julia Kempe"]


def test_coauthors_within_gives_distances(G):
    rows = coauthors_within(G, "Yann Ollivier", hops=3)
    assert [(r["author"], r["distance"]) for r in rows] == [
        ("Julia Kempe", 1),
        ("Rémi Munos", 1),
        ("Carol Chen", 2),
    ]
    assert coauthors_within(G, "Dan Diaz", hops=5) == [
        {"author": "Eve Evans", "key": "author:eveevans", "distance": 1}
    ]
    assert coauthors_within(G, "Ada Lovelace") == []
    with pytest.raises(ValueError):
        coauthors_within(G, "Ada Lovelace", hops=0)


def test_collaboration_path_links_each_step_with_papers(G):
    rows = collaboration_path(G, "Carol Chen", "yann ollivier")
    assert [(r["step"], r["author"], r["papers"]) for r in rows] == [
        (0, "Carol Chen", []),
        (1, "Rémi Munos", ["Edge Case"]),
        (2, "Yann Ollivier", ["Sharper Bounds"]),
    ]


def test_collaboration_path_tie_goes_to_smallest_author_keys(G):
    add_paper(G, "Second Route", ["author:yannollivier", "author:carolchen"])
    rows = collaboration_path(G, "Julia Kempe", "Carol Chen")
    assert [r["key"] for r in rows] == [
        "author:juliakempe",
        "author:remimunos",
        "author:carolchen",
    ]
    rows = collaboration_path(G, "Carol Chen", "Julia Kempe")
    assert [r["key"] for r in rows] == [
        "author:carolchen",
        "author:remimunos",
        "author:juliakempe",
    ]


def test_collaboration_path_disconnected_or_same_author_is_empty(G):
    assert collaboration_path(G, "Julia Kempe", "Eve Evans") == []
    assert collaboration_path(G, "Ada Lovelace", "Julia Kempe") == []
    assert collaboration_path(G, "Julia Kempe", "julia kempe") == []


def chain_graph(steps):
    """Authors c00, c01, ... each writing one paper with the next: a chain of ``steps``."""
    import networkx as nx

    G = nx.MultiDiGraph(schema_version=1)
    for i in range(steps + 1):
        G.add_node(f"author:c{i:02d}", kind="Author", name=f"C{i:02d}", variants=[])
    for i in range(steps):
        add_paper(G, f"Link {i}", [f"author:c{i:02d}", f"author:c{i + 1:02d}"])
    return G


def test_collaboration_path_is_bounded_like_its_query():
    """At most MAX_CHAIN_STEPS co-author steps, as the query's [:AUTHORED*..2k] pattern."""
    from kg.query.named import load_query
    from kg.query.traverse_coauthors import MAX_CHAIN_STEPS as k

    G = chain_graph(k + 1)
    rows = collaboration_path(G, "author:c00", f"author:c{k:02d}")
    assert [r["step"] for r in rows] == list(range(k + 1))
    assert rows[-1]["papers"] == [f"Link {k - 1}"]
    assert collaboration_path(G, "author:c00", f"author:c{k + 1:02d}") == []
    assert collaboration_path(G, "author:c01", f"author:c{k + 1:02d}") != []
    text = load_query("collaboration_path").text
    assert f"[:AUTHORED*..{2 * k}]" in text and f"more than {k} co-author steps" in text


def test_top_collaborators(G):
    rows = top_collaborators(G, limit=10)
    assert [(r["author"], r["coauthors"], r["papers"]) for r in rows] == [
        ("Rémi Munos", 3, 3),
        ("Julia Kempe", 2, 3),
        ("Yann Ollivier", 2, 2),
        ("Carol Chen", 1, 1),
        ("Dan Diaz", 1, 1),
        ("Eve Evans", 1, 1),
    ]


def test_datasets_of_with_papers_and_evidence(G):
    rows = datasets_of(G, "Group Relative Policy Optimization")
    assert rows[1] == {
        "method": "GRPO",
        "method_key": "method:grpo",
        "target": "MNLI",
        "target_key": "dataset:mnli",
        "target_kind": "Dataset",
        "count": 1,
        "papers": ["Sharper Bounds"],
        "evidence": ["GRPO is tested on MNLI."],
    }
    ppo = datasets_of(G, "ppo")
    assert ppo[0]["count"] == 2 and ppo[0]["papers"] == ["Edge Case", "Quantum Walks"]
    assert ppo[0]["evidence"] == ["ImageNet results.", "PPO runs on ImageNet."]


def test_methods_on_a_benchmark_with_and_without_parts(G):
    assert [(r["method"], r["target"]) for r in methods_on(G, "GLUE")] == [("GRPO", "GLUE")]
    assert [(r["method"], r["target"]) for r in methods_on(G, "GLUE", include_parts=True)] == [
        ("GRPO", "GLUE"),
        ("GRPO", "MNLI"),
    ]
    assert methods_on(G, "MNLI", include_parts=True)[0]["target"] == "MNLI"
    with pytest.raises(NotFound):
        methods_on(G, "GRPO")


def test_top_method_dataset_pairs(G):
    rows = top_method_dataset_pairs(G)
    assert [(r["method"], r["target"], r["count"]) for r in rows] == [
        ("PPO", "ImageNet", 2),
        ("GRPO", "GLUE", 1),
        ("GRPO", "MNLI", 1),
    ]


def test_related_papers_reads_the_stored_neighbours(G):
    rows = related_papers(G, "Sharper Bounds")
    assert [(r["paper"], r["score"], r["text_score"], r["shared"]) for r in rows] == [
        ("Bandits Again", 0.27789, 0.272368, ["GRPO"]),
        ("Lonely Paper", 0.131563, 0.130243, ["regret"]),
        ("Quantum Walks", 0.080451, 0.080451, []),
    ]
    assert related_papers(G, "Sharper Bounds", limit=1)[0]["paper"] == "Bandits Again"
    assert related_papers(G, "Far Away") == []


def test_related_papers_shared_concepts_raise_the_text_score(G):
    rows = related_papers(G, "Quantum Walks")
    assert [(r["paper"], r["shared"]) for r in rows] == [
        ("Edge Case", ["ImageNet", "PPO"]),
        ("Sharper Bounds", []),
        ("Bandits Again", []),
    ]
    assert rows[0]["score"] > rows[0]["text_score"]
    assert all(r["score"] == r["text_score"] for r in rows[1:])


def test_related_papers_takes_a_paper_or_a_text(G):
    with pytest.raises(ValueError):
        related_papers(G, "Sharper Bounds", text="regret")
    with pytest.raises(ValueError):
        related_papers(G)


def test_papers_with_and_shared_concepts(G):
    assert [(r["paper"], r["relations"]) for r in papers_with(G, "ImageNet-1K")] == [
        ("Edge Case", ["EVALUATED_ON"]),
        ("Quantum Walks", ["EVALUATED_ON"]),
    ]
    assert [r["concept"] for r in shared_concepts(G, "Quantum Walks", "Edge Case")] == [
        "ImageNet",
        "PPO",
    ]
    assert shared_concepts(G, "Lonely Paper", "Far Away") == []
    assert shared_concepts(G, "Lonely Paper", "Lonely Paper") == []


def random_collaboration_graph(seed, authors=30, papers=40):
    import random

    import networkx as nx

    rng = random.Random(seed)
    G = nx.MultiDiGraph(schema_version=1)
    names = [f"author:a{i:02d}" for i in range(authors)]
    for name in names:
        G.add_node(name, kind="Author", name=name[7:].upper(), variants=[name[7:]])
    for i in range(papers):
        add_paper(G, f"P{i}", rng.sample(names, rng.choice([1, 2, 2, 3])))
    return G


@pytest.mark.parametrize("seed", range(12))
def test_collaboration_path_is_the_first_shortest_chain(seed):
    """Against brute force: every shortest chain in the co-author graph, smallest keys first,
    none longer than the bound."""
    import itertools

    import networkx as nx

    from kg.query.traverse_coauthors import MAX_CHAIN_STEPS

    G = random_collaboration_graph(seed)
    authors = sorted(n for n, k in G.nodes(data="kind") if k == "Author")
    projection = nx.Graph()
    projection.add_nodes_from(authors)
    for p in (n for n, k in G.nodes(data="kind") if k == "Paper"):
        projection.add_edges_from(itertools.combinations(sorted(G.predecessors(p)), 2))
    for a, b in itertools.permutations(authors[:12], 2):
        rows = collaboration_path(G, a, b)
        if not nx.has_path(projection, a, b) or (
            nx.shortest_path_length(projection, a, b) > MAX_CHAIN_STEPS
        ):
            assert rows == []
            continue
        expected = min(nx.all_shortest_paths(projection, a, b))
        assert [r["key"] for r in rows] == expected
        for before, row in pairwise(rows):
            assert row["papers"] and all(
                before["key"] in G.pred[key]
                for key in (k for k, t in G.nodes(data="title") if t in row["papers"])
            )
