"""Model versions under their families on a corpus written here: Llama 3 and Llama-3-8B are
nodes of their own, VARIANT_OF Llama; a family query answers for all of them, the same in
Python, on the embedded engine and over Bolt; exports, pushes and pages carry the links;
building in steps equals building at once."""

import json

import networkx as nx
import pytest

import kg.neo4j as kn
from kg.export import export_graph
from kg.graph.build import build
from kg.query import traverse
from kg.query.engine import open_graph
from kg.query.named import load_query, run_query
from kg.schema import APPLIED_TO, VARIANT_OF
from kg.store.graphfile import load_graph

pytestmark = pytest.mark.timeout(300)

#: Abstracts written for these tests, one per paper.
ABSTRACTS = [
    "We fine-tune Llama 3 with a new curriculum and evaluate it on GSM8K.",
    "We study Llama-3-8B under quantization and evaluate it on MMLU and GSM8K.",
    "We compare GPT-4o-mini with GPT-4o on HumanEval and find the smaller model close behind.",
    "LLaMA is pretrained on public data; we evaluate LLaMA on SQuAD.",
    "We align Llama 2 with human feedback and test it on TriviaQA.",
    "We distil BERT-large into BERT-base and evaluate both on SST-2.",
    "ResNet-152 and other ResNets are trained on CIFAR-10 and CIFAR-100.",
]
#: Added by a second build: a size of Llama 2, and a family whose versions only it names.
LATER = [
    "We prune Llama-2-7B and report results on TriviaQA and MMLU.",
    "We adapt Qwen2.5-7B to code and evaluate it on HumanEval.",
]


def write_corpus(path, abstracts, start=0):
    with open(path, "w", encoding="utf-8") as out:
        for i, abstract in enumerate(abstracts, start):
            out.write(json.dumps({"id": f"v{i}", "title": f"Paper {i}", "abstract": abstract}))
            out.write("\n")
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("variants")
    first = write_corpus(folder / "first.jsonl", ABSTRACTS)
    later = write_corpus(folder / "later.jsonl", LATER, start=len(ABSTRACTS))
    return folder, first, later


@pytest.fixture(scope="module")
def G(corpus):
    folder, first, later = corpus
    graph, _ = build([first, later], folder / "whole.kg", fresh=True)
    return graph


def variants(G):
    return sorted((u, v) for u, v, k in G.edges(keys=True) if k == VARIANT_OF)


def test_versions_and_sizes_are_nodes_linked_up_to_their_family(G):
    assert variants(G) == [
        ("method:bert-base", "method:bert"),
        ("method:bert-large", "method:bert"),
        ("method:gpt-4o", "method:gpt"),
        ("method:gpt-4o-mini", "method:gpt-4o"),
        ("method:llama-2", "method:llama"),
        ("method:llama-2-7b", "method:llama-2"),
        ("method:llama-3", "method:llama"),
        ("method:llama-3-8b", "method:llama-3"),
        ("method:qwen2-5-7b", "method:qwen"),  # Qwen2.5 is one of Qwen's names: skipped
        ("method:resnet-152", "method:resnet"),
    ]
    assert G.nodes["method:llama"]["aliases"] == ["LLaMA"]  # no version among its spellings
    assert G.nodes["method:gpt-4o"]["aliases"] == []
    # CIFAR-10 is a dataset of its own, no variant of anything.
    assert G.nodes["dataset:cifar-10"]["kind"] == "Dataset"
    assert not any(k == VARIANT_OF for *_, k in G.edges("dataset:cifar-10", keys=True))


def test_families_no_paper_names_are_brought_in_without_papers(G):
    from kg.query.lookup import paper_counts

    # BERT, GPT and Qwen come from the lexicon's families.
    counts = paper_counts(G, ["method:bert", "method:gpt", "method:qwen"])
    assert counts == {"method:bert": 0, "method:gpt": 0, "method:qwen": 0}
    assert "method:qwen2-5" not in G
    assert paper_counts(G, ["method:llama", "method:gpt-4o"]) == {
        "method:llama": 1,
        "method:gpt-4o": 1,
    }


def pairs(rows):
    return {(r["method_key"], r["target_key"]) for r in rows}


def test_a_version_and_its_size_answer_apart_and_the_family_for_both(G):
    llama3 = traverse.datasets_of(G, "Llama 3")
    llama3_8b = traverse.datasets_of(G, "Llama-3-8B")
    assert pairs(llama3) == {("method:llama-3", "benchmark:gsm8k")}
    assert pairs(llama3_8b) == {
        ("method:llama-3-8b", "benchmark:gsm8k"),
        ("method:llama-3-8b", "benchmark:mmlu"),
    }
    version = traverse.datasets_of(G, "Llama 3", include_variants=True)
    assert pairs(version) == pairs(llama3) | pairs(llama3_8b)
    family = traverse.datasets_of(G, "Llama", include_variants=True)
    members = ["Llama", "Llama 2", "Llama-2-7B", "Llama 3", "Llama-3-8B"]
    assert pairs(family) == set().union(*(pairs(traverse.datasets_of(G, m)) for m in members))
    assert pairs(traverse.datasets_of(G, "Llama")) == {("method:llama", "dataset:squad")}
    # Rows come most supported first, then by target and method.
    keys = [(-r["count"], r["target"], r["target_key"], r["method"]) for r in family]
    assert keys == sorted(keys)


def test_gpt_4o_mini_is_its_own_node(G):
    mini = traverse.datasets_of(G, "gpt-4o-mini")
    assert pairs(mini) == {("method:gpt-4o-mini", "benchmark:humaneval")}
    assert pairs(traverse.datasets_of(G, "GPT-4o")) == {("method:gpt-4o", "benchmark:humaneval")}
    assert pairs(traverse.datasets_of(G, "GPT", include_variants=True)) == {
        ("method:gpt-4o", "benchmark:humaneval"),
        ("method:gpt-4o-mini", "benchmark:humaneval"),
    }


#: datasets_of parameters on this corpus: versions, sizes, families, with and without.
CASES = [
    {"method": m, **({"include_variants": flag} if flag else {})}
    for m in ("Llama", "Llama 3", "Llama-3-8B", "GPT", "GPT-4o", "Qwen", "ResNet")
    for flag in ("", "true", "false")
]


def python_rows(G, given):
    return traverse.datasets_of(
        G, given["method"], include_variants=given.get("include_variants") == "true"
    )


def test_the_embedded_engine_answers_as_python(G):
    query = load_query("datasets_of")
    with open_graph(G) as run:
        for given in CASES:
            assert run_query(query, run, given) == python_rows(G, given), given


def test_bolt_answers_as_python_and_the_push_writes_the_links(G, bolt):
    with kn.connect(uri=bolt.uri) as connection:
        kn.push(G, connection)
        on_server = connection.read(
            f"MATCH (a:Method)-[:{VARIANT_OF}]->(b:Method) RETURN a.key AS a, b.key AS b "
            "ORDER BY a, b"
        )
        assert [(r["a"], r["b"]) for r in on_server] == variants(G)
        query = load_query("datasets_of")
        with kn.BoltRunner(connection) as run:
            for given in CASES:
                assert run_query(query, run, given) == python_rows(G, given), given


def test_a_push_after_a_version_goes_leaves_no_stale_link_or_family(G, bolt):
    """Pushed with Qwen2.5-7B, then with its paper re-read as naming none: the version, its
    VARIANT_OF link and the Qwen family node nothing points to any more go."""
    H = G.copy()
    H.remove_nodes_from(["method:qwen2-5-7b", "method:qwen"])
    with kn.connect(uri=bolt.uri) as connection:
        kn.push(G, connection)
        report = kn.push(H, connection)
        keys = {r["key"] for r in connection.read("MATCH (n:Method) RETURN n.key AS key")}
        links = connection.read(f"MATCH ()-[r:{VARIANT_OF}]->() RETURN count(r) AS n")
    assert {"method:qwen", "method:qwen2-5-7b"}.isdisjoint(keys)
    assert keys == {k for k, kind in H.nodes(data="kind") if kind == "Method"}
    assert links == [{"n": len(variants(H))}] and report.deleted_nodes == 2


def test_graphml_carries_the_links(G, tmp_path):
    export_graph(G, tmp_path / "graph.graphml", format="graphml")
    H = nx.read_graphml(tmp_path / "graph.graphml", force_multigraph=True)
    assert sorted((u, v) for u, v, k in H.edges(keys=True) if k == VARIANT_OF) == variants(G)


def test_gexf_carries_the_links(G, tmp_path):
    export_graph(G, tmp_path / "graph.gexf", format="gexf")
    H = nx.read_gexf(tmp_path / "graph.gexf")
    assert set(variants(G)) <= set(H.edges())
    text = (tmp_path / "graph.gexf").read_text(encoding="utf-8")
    assert text.count(f'value="{VARIANT_OF}"') == len(variants(G))


def test_neo4j_csv_has_a_file_of_the_links(G, tmp_path):
    import csv

    export_graph(G, tmp_path, format="neo4j-csv")
    with open(tmp_path / f"relationships-{VARIANT_OF}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][:3] == [":START_ID", ":END_ID", ":TYPE"]
    assert sorted((r[0], r[1]) for r in rows[1:]) == variants(G)
    assert {r[2] for r in rows[1:]} == {VARIANT_OF}


def test_building_in_steps_equals_building_at_once(corpus, G):
    folder, first, later = corpus
    build([first], folder / "steps.kg", fresh=True)
    stepped, _ = build([first, later], folder / "steps.kg")
    assert (folder / "steps.kg").read_bytes() == (folder / "whole.kg").read_bytes()
    assert variants(stepped) == variants(load_graph(folder / "whole.kg"))


def test_a_family_page_draws_its_versions(G, tmp_path):
    from kg.viz import views

    view = views.method_page(G, "method:llama")
    links = {(e.source, e.target) for e in view.edges if "VARIANT_OF" in e.tooltip}
    assert links == {
        ("method:llama-2", "method:llama"),
        ("method:llama-2-7b", "method:llama-2"),
        ("method:llama-3", "method:llama"),
        ("method:llama-3-8b", "method:llama-3"),
    }
    applied = {(e.source, e.target) for e in view.edges if "applied to" in e.tooltip}
    assert applied == {
        (m, t) for m, t, k in G.edges(keys=True) if k == APPLIED_TO and m.startswith("method:llama")
    }
    assert "4 version links" in view.note
