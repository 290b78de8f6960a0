"""The identity audit's keys, candidate finders and rates."""

import networkx as nx

from bench import identity_audit as audit
from bench.bootstrap import wilson
from kg import schema as S


def graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    for key, kind, name, aliases in [
        ("method:event-detection", S.METHOD, "event detection", []),
        ("task:event-detection", S.TASK, "Event Detection", []),
        ("method:ibp", S.METHOD, "IBP (Indian Buffet Process)", ["Indian Buffet Process"]),
        ("method:ibp-2", S.METHOD, "IBP", []),
        (
            "method:snn",
            S.METHOD,
            "SNN",
            ["spiking neural network", "Siamese neural network", "SNNs"],
        ),
        ("method:gpt", S.METHOD, "GPT", ["GPT-2", "GPT-3", "GPTs"]),
    ]:
        G.add_node(key, kind=kind, name=name, aliases=aliases)
    for key, name in [
        ("author:a", "Aaron C. Courville"),
        ("author:b", "Aaron Courville"),
        ("author:c", "Ada Courville"),
        ("author:d", "Yoshua Bengio"),
    ]:
        G.add_node(key, kind=S.AUTHOR, name=name)
    for paper, authors in [("paper:1", "ad"), ("paper:2", "bd"), ("paper:3", "c")]:
        G.add_node(paper, kind=S.PAPER)
        for a in authors:
            G.add_edge(f"author:{a}", paper, key=S.AUTHORED)
    return G


def test_loose_key_folds_case_hyphens_and_a_plural() -> None:
    assert audit.loose_key("Event-Detection") == audit.loose_key("event detections")
    assert audit.loose_key("loss") == "loss"


def test_candidates_by_kind() -> None:
    found = audit.candidates(graph())
    assert [(c["a"], c["b"]) for c in found["same-name"]] == [
        ("method:event-detection", "task:event-detection")
    ]
    assert [(c["a"], c["b"]) for c in found["short-form"]] == [("method:ibp", "method:ibp-2")]
    assert [(c["a"], c["b"]) for c in found["author-initials"]] == [("author:a", "author:b")]
    assert [c["a"] for c in found["alias-long-forms"]] == ["method:snn"]
    assert [c["a"] for c in found["aliased"]] == ["method:gpt", "method:snn"]


def test_given_names_compatible() -> None:
    assert audit.compatible_given("A. Courville", "Aaron C. Courville")
    assert not audit.compatible_given("Ada Courville", "Aaron Courville")


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson(5, 100)
    assert low < 0.05 < high
    assert wilson(0, 0) == (0.0, 1.0)


def test_wild_mentions_and_context() -> None:
    from bench import wild_precision as wild

    G = nx.MultiDiGraph()
    G.add_node("paper:1", kind=S.PAPER, abstract="We train on MNIST. It works.")
    G.add_node("dataset:mnist", kind=S.DATASET, name="MNIST")
    G.add_edge("paper:1", "dataset:mnist", key=S.EVALUATED_ON, start=12, end=17)
    assert wild.mentions(G) == [
        {"paper": "paper:1", "entity": "dataset:mnist", "type": S.DATASET, "start": 12, "end": 17}
    ]
    assert wild.marked(G.nodes["paper:1"]["abstract"], 12, 17) == "We train on [[MNIST]]."
