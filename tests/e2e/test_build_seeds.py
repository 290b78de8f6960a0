"""Builds of the shared seed corpus and builds into an existing graph file (worker
processes): the graph, its file, resolution and traversals (moved from tests/unit)."""

import json

import networkx as nx

from kg import schema as S
from kg.graph.authors import author_key
from kg.graph.build import build
from kg.graph.papers import authored_by
from kg.graph.resolve import resolve_corpus
from kg.query.traverse import coauthors, collaboration_path
from kg.schema import CONCEPT_KINDS
from kg.store import graphfile as store
from kg.store.graphfile import load_graph, save_graph
from tests.unit.test_resolve import extended

# ---------------------------------------------------------------- the build (test_build)


def test_seed_graph_counts(seed_graph):
    G = seed_graph
    papers = [n for n, k in G.nodes(data="kind") if k == S.PAPER]
    authors = [n for n, k in G.nodes(data="kind") if k == S.AUTHOR]
    authored = [e for e in G.edges(keys=True) if e[2] == S.AUTHORED]
    assert len(papers) == 180
    assert sum(1 for p in papers if authored_by(G, p)) == 60
    assert len(authored) == 306
    assert len(authors) == 296
    kempe = author_key("Julia Kempe")
    assert len([p for _, p, k in G.out_edges(kempe, keys=True) if k == S.AUTHORED]) == 3
    assert G.nodes[author_key("REMI MUNOS")]["name"] == "Remi Munos"
    assert G.nodes[author_key("REMI MUNOS")]["variants"] == ["REMI MUNOS"]


def test_seed_truncated_lists_and_areas(seed_graph):
    G = seed_graph
    truncated = {
        p for _, p, k, d in G.edges(keys=True, data=True) if k == S.AUTHORED and d["truncated_list"]
    }
    assert len(truncated) == 3
    areas = {a["name"] for _, a in G.nodes(data=True) if a["kind"] == S.AREA}
    assert "Theory · Reinforcement Learning and Planning" in areas
    in_area = [e for e in G.edges(keys=True) if e[2] == S.IN_AREA]
    assert len(in_area) == 55


def test_incremental_build_equals_full_build(tmp_path):
    from kg.graph.build import build
    from kg.store.graphfile import load_mentions

    a = tmp_path / "a.jsonl"
    b = tmp_path / "b.jsonl"
    a.write_text(
        json.dumps(
            {
                "abstract": "Contrastive Language-Image Pretraining (CLIP) "
                "aligns images and text on COCO."
            }
        )
        + "\n"
    )
    b.write_text(
        json.dumps({"abstract": "We fine-tune CLIP on ImageNet-1K and report accuracy."}) + "\n"
    )
    build([a], str(tmp_path / "inc.kg"))
    build([b], str(tmp_path / "inc.kg"))
    build([a, b], str(tmp_path / "full.kg"))
    assert (tmp_path / "inc.kg").read_bytes() == (tmp_path / "full.kg").read_bytes()
    assert len(load_mentions(tmp_path / "inc.kg")) == 2


def test_incremental_build_with_conflicting_senses_equals_full_build(tmp_path):
    from kg.graph.build import build

    first = (
        "Interval bound propagation (IBP) certifies robust networks on CIFAR-10.",
        "We fit a Dirichlet process (DP) mixture with Gibbs sampling.",
    )
    second = (
        "We place an Indian Buffet Process (IBP) prior on latent features.",
        "Dynamic programming (DP) solves the alignment exactly.",
        "The IBP prior and the DP mixture are fit with Gibbs sampling.",
    )
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps({"abstract": t}) + "\n" for t in first))
    b.write_text("".join(json.dumps({"abstract": t}) + "\n" for t in second))
    build([a], str(tmp_path / "inc.kg"))
    build([b], str(tmp_path / "inc.kg"))
    G, _ = build([a, b], str(tmp_path / "full.kg"))
    assert (tmp_path / "inc.kg").read_bytes() == (tmp_path / "full.kg").read_bytes()
    names = {d["name"] for _, d in G.nodes(data=True) if d["kind"] in S.ENTITY_KINDS}
    # Both senses of each short form are nodes (the lexicon knows all four by name).
    assert {"Indian buffet process", "interval bound propagation"} <= names
    assert {"Dirichlet process", "dynamic programming"} <= names


def test_authors_carry_their_coauthor_count(seed_graph):
    from kg.query.traverse import collaborations

    index = collaborations(seed_graph)
    authors = [n for n, k in seed_graph.nodes(data="kind") if k == S.AUTHOR]
    assert all(seed_graph.nodes[a]["coauthors"] == len(index.get(a, {})) for a in authors)
    assert seed_graph.nodes[author_key("Julia Kempe")]["coauthors"] == 13


def test_coauthor_counts_follow_a_reingested_author_list(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    rows = [
        {"id": "p1", "abstract": "We study graphs.", "authors": ["X One", "Y Two"]},
        {"id": "p2", "abstract": "We study trees.", "authors": ["Y Two", "Z Three"]},
    ]
    first.write_text("".join(json.dumps(r) + "\n" for r in rows))
    second.write_text(
        json.dumps(
            {"id": "p1", "abstract": "We study forests now.", "authors": ["X One", "W Four"]}
        )
        + "\n"
    )
    graph = tmp_path / "g.kg"
    build([str(first)], str(graph))
    G, _ = build([str(second)], str(graph))
    counts = {
        G.nodes[a]["name"]: G.nodes[a]["coauthors"]
        for a, kind in G.nodes(data="kind")
        if kind == S.AUTHOR
    }
    assert counts == {"X One": 1, "W Four": 1, "Y Two": 1, "Z Three": 1}
    full, _ = build([str(first), str(second)], str(tmp_path / "full.kg"))
    assert counts == {
        full.nodes[a]["name"]: full.nodes[a]["coauthors"]
        for a, kind in full.nodes(data="kind")
        if kind == S.AUTHOR
    }


# ---------------------------------------------------------------- the graph file (test_store)


def test_byte_identical_rebuild(tmp_path, seed_files):
    a, b = tmp_path / "a.kg", tmp_path / "b.kg"
    build(seed_files, str(a))
    build(list(reversed(seed_files)), str(b), fresh=True)
    build(seed_files, str(a))  # building again into the same file adds nothing
    assert a.read_bytes() == b.read_bytes()


def test_data_to_graph_matches_networkx_construction(seed_graph):
    import networkx as nx

    data = store.join_sections(*store.graph_sections(seed_graph))
    fast = store.data_to_graph(data)
    slow = nx.MultiDiGraph(**data["graph"])
    slow.add_nodes_from(data["nodes"])
    slow.add_edges_from(data["edges"])
    assert nx.utils.graphs_equal(fast, slow)
    assert list(fast.pred["author:juliakempe"]) == list(slow.pred["author:juliakempe"])
    u, v, k = next(iter(fast.edges(keys=True)))
    fast.remove_edge(u, v, k)  # the structure stays consistent under mutation
    assert (u, v, k) not in fast.edges and u in fast and v in fast


def test_graph_loads_without_its_entity_layer(tmp_path, seed_graph):
    path = save_graph(seed_graph, tmp_path / "g.kg")
    core = load_graph(path, entity_layer=False)
    kept = [n for n, kind in seed_graph.nodes(data="kind") if kind not in CONCEPT_KINDS]
    assert sorted(core) == sorted(kept)
    assert core.number_of_edges() == seed_graph.subgraph(kept).number_of_edges()
    assert nx.utils.graphs_equal(load_graph(path), seed_graph)


# ---------------------------------------------------------------- resolution (test_resolve)


def test_extending_the_seed_corpus_in_steps_equals_resolving_it_at_once(tmp_path, seed_files):
    import random

    from kg.graph.build import build
    from kg.store.graphfile import load_mentions

    build(seed_files, str(tmp_path / "g.kg"))
    items = sorted(load_mentions(tmp_path / "g.kg").items())
    whole = sorted(resolve_corpus(items))
    rng = random.Random(7)
    for _ in range(20):
        shuffled = rng.sample(items, len(items))
        a, b = sorted(rng.sample(range(len(items) + 1), 2))
        assert extended(shuffled[:a], shuffled[a:b], shuffled[b:]) == whole


# ---------------------------------------------------------------- traversals (test_traverse)


def test_seed_graph_coauthors_of_julia_kempe(seed_graph):
    # 003_fd5b763aadb61871.txt: three papers of Julia Kempe, one with each of them
    rows = {r["coauthor"]: r for r in coauthors(seed_graph, "julia kempe")}
    assert rows["Yann Ollivier"]["shared"] == 1
    assert rows["Remi Munos"]["shared"] == 1
    assert len(rows) == 13
    path = collaboration_path(seed_graph, "Yann Ollivier", "remi munos")
    assert [r["author"] for r in path] == ["Yann Ollivier", "Julia Kempe", "Remi Munos"]
