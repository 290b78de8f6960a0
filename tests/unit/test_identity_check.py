"""bench/identity_check.py: definitions resolved against their long form, on a corpus of ours."""

import json

import pytest

from bench.identity_check import check, definitions, spelled
from kg import schema as S
from kg.graph.build import build_graph

ABSTRACTS = (
    "We place an Indian Buffet Process (IBP) prior on latent features. The IBP grows with data.",
    "Interval bound propagation (IBP) certifies the robustness of networks to perturbations.",
    "We learn a Bayesian network (BN) from data, and the BN encodes the dependencies.",
    "Batch normalization (BN) speeds up the training of deep networks on ImageNet.",
    "Spiking neural networks (SNNs) process events, unlike Siamese neural networks.",
    "We train Siamese Neural Networks (SNN) to compare signatures.",
)


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    listing = tmp_path_factory.mktemp("identity") / "papers.jsonl"
    listing.write_text("".join(json.dumps({"abstract": a}) + "\n" for a in ABSTRACTS))
    G, _ = build_graph([listing])
    return G


def test_every_definition_resolves_to_its_long_form(graph):
    result = check(graph)
    assert result["violations"] == 0, result["examples"]
    assert result["definitions"] == 6
    assert result["resolved"] == 6
    names = {a["name"] for _, a in graph.nodes(data=True) if a["kind"] in S.ENTITY_KINDS}
    # A sense the lexicon knows by its long form takes that entry's node.
    assert {"Indian buffet process", "interval bound propagation", "BN (Bayesian network)"} <= names
    assert result["sense_nodes"] >= 2


def test_a_node_spelling_another_long_form_is_a_violation(graph):
    G = graph.copy()
    (key,) = [n for n, a in G.nodes(data=True) if a.get("name") == "BN (Bayesian network)"]
    G.nodes[key].update(name="BN", long_form="batch normalization")
    result = check(G)
    assert result["violations"] == 1
    assert result["examples"][0]["short"] == "BN"


def test_definitions_are_read_as_the_extraction_reads_them():
    found, noisy = definitions(
        "We propose \\textbf{Gr}adient Fl\\textbf{ow} (GF) and Deep Zap (DZ)."
    )
    assert [(a.short, a.long) for a in found] == [("DZ", "Deep Zap")]
    assert spelled("question answering", "open-domain question answering")
    assert not spelled("question answering", "question generation")
