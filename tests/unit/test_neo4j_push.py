"""kg.neo4j.push without a server: what is stale, what may be orphaned, what changed."""

from kg.neo4j.push_plan import changes, orphan_candidates, owner_kinds, stale_relationships
from tests.helpers.neo4j_graphs import paper, small_graph


def test_stale_relationships_and_orphan_candidates():
    G = small_graph()
    existing = [
        ("USES", paper("lora"), "method:lora"),
        ("USES", paper("lora"), "method:gone"),
        ("EVALUATED_ON", paper("lora"), "dataset:mnli"),
        ("NOT_OURS", "a", "b"),
    ]
    graph_rels = {(t, s, d) for s, d, t in G.edges(keys=True)}
    stale = stale_relationships(graph_rels, existing)
    assert stale == {("USES", paper("lora"), "method:gone")}
    assert orphan_candidates(G.nodes, [paper("lora"), "method:gone", "method:lora", "x:y"]) == [
        "method:gone"
    ]


def test_changes_split_rows_by_what_the_server_has():
    group = ("APPLIED_TO", "Method", "Dataset")
    rows = [["method:a", "dataset:x", {}], ["method:a", "dataset:y", {"n": 1}]]
    existing = {("APPLIED_TO", "method:a", "dataset:y"): {"n": 2}}
    assert changes(group, rows, existing) == ([rows[0]], [rows[1]], [])
    assert owner_kinds() == ["Benchmark", "Dataset", "Method"]
