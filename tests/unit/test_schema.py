"""kg.schema: labels and relationship types are built on the entity-type vocabulary."""

import importlib

import pytest

from kg import schema as S
from kg.extractors import records
from kg.extractors.records import EntityType, Mention


def test_schema_follows_the_vocabulary():
    assert S.CONCEPT_KINDS == tuple(t.name for t in records.ENTITY_TYPES)
    assert S.ENTITY_KINDS == ("Method", "Dataset", "Benchmark", "Task", "Metric")
    assert S.MENTION_RELS == (
        "PROPOSES",
        "USES",
        "EVALUATED_ON",
        "ADDRESSES",
        "MEASURES",
        "MENTIONS",
    )
    assert S.REL_ENDPOINTS["EVALUATED_ON"] == {("Paper", "Dataset"), ("Paper", "Benchmark")}
    assert S.REL_ENDPOINTS["PROPOSES"] == {("Paper", k) for k in S.ENTITY_KINDS}
    assert S.SCORED_TYPES == S.ENTITY_KINDS and S.PROPOSABLE == set(S.ENTITY_KINDS)
    assert list(S.REL_ENDPOINTS) == list(S.REL_TYPES)


@pytest.fixture
def software(monkeypatch):
    """The schema rebuilt on the vocabulary plus a Software type, restored afterwards."""
    extended = records.ENTITY_TYPES + (EntityType("Software", "USES"),)
    monkeypatch.setattr(records, "ENTITY_TYPES", extended)
    importlib.reload(S)
    yield S
    monkeypatch.undo()
    importlib.reload(S)


def test_a_new_entity_type_is_a_label_a_node_kind_and_a_legend_entry(software):
    from kg.graph.entities import add_entity_layer
    from kg.graph.papers import new_graph
    from kg.viz.page import DEFAULT_STYLE, legend
    from kg.viz.views import View

    assert "Software" in software.NODE_KINDS and software.labels_of("Software") == [
        "Software",
        "Concept",
    ]
    assert ("Paper", "Software") in software.REL_ENDPOINTS["USES"]
    assert ("Paper", "Software") in software.REL_ENDPOINTS["PROPOSES"]
    G = new_graph()
    G.add_node("paper:p", kind="Paper", label=None)
    m = Mention("Software", "PyTorch", "PyTorch", 0, 7, "PyTorch.", "lexicon", 0.9, "proposed")
    add_entity_layer(G, [("paper:p", [m])])
    assert G.nodes["software:pytorch"]["kind"] == "Software"
    assert list(G["paper:p"]["software:pytorch"]) == ["PROPOSES"]
    view = View("v", "t", ("paper:p", "software:pytorch"), (), "n")
    assert legend(G, view)[1] == ("Software", DEFAULT_STYLE[0], DEFAULT_STYLE[2])
