"""kg.neo4j.push without a server: rows, batches, splitting, Cypher text, settings, the write guard."""

import networkx as nx
import pytest

from kg.errors import KgError
from kg.neo4j import push as kn
from kg.neo4j import rows as br
from tests.helpers.neo4j_graphs import paper, small_graph


def test_node_rows_carry_key_and_drop_none():
    rows = br.node_rows(small_graph())
    assert sorted(rows) == [
        "Area",
        "Author",
        "Benchmark",
        "Concept",
        "Dataset",
        "Method",
        "Paper",
        "Task",
    ]
    ppo = dict(rows["Method"])["method:ppo"]
    assert ppo == {"key": "method:ppo", "name": "PPO", "aliases": []}
    lora_paper = dict(rows["Paper"])[paper("lora")]
    assert "label" not in lora_paper and lora_paper["year"] == 2024


def test_relationship_rows_grouped_by_type_and_endpoint_kinds():
    rows = br.relationship_rows(small_graph())
    assert len(rows[("AUTHORED", "Author", "Paper")]) == 7
    assert len(rows[("EVALUATED_ON", "Paper", "Dataset")]) == 4
    assert rows[("PART_OF", "Dataset", "Benchmark")] == [["dataset:mnli", "benchmark:glue", {}]]
    assert sum(map(len, rows.values())) == 30


@pytest.mark.parametrize(
    "attrs, message",
    [
        ({"kind": "Planet"}, "kind 'Planet'"),
        ({"kind": "Paper", "sources": [1, 2]}, "non-string items"),
        ({"kind": "Paper", "year": {"y": 1}}, "has type dict"),
    ],
)
def test_node_rows_refuse_what_neo4j_cannot_store(attrs, message):
    G = nx.MultiDiGraph()
    G.add_node("paper:x", **attrs)
    with pytest.raises(KgError, match=message):
        br.node_rows(G)


def test_relationship_rows_refuse_unknown_types():
    G = nx.MultiDiGraph()
    G.add_node("paper:x", kind="Paper")
    G.add_edge("paper:x", "paper:x", key="LIKES")
    with pytest.raises(KgError, match="unknown relationship type 'LIKES'"):
        br.relationship_rows(G)


@pytest.mark.parametrize(
    "builder, args",
    [
        (br.merge_nodes_query, ("Planet",)),
        (br.write_relationships_query, ("AUTHORED", "Author", "Planet")),
        (br.delete_relationships_query, ("DROP", "Paper", "Method")),
        (br.append_node_property_query, ("Paper", "abstract`) DETACH DELETE (n")),
    ],
)
def test_cypher_builders_accept_only_the_closed_lists(builder, args):
    with pytest.raises(KgError):
        builder(*args)


def test_batches_respect_rows_and_bytes():
    rows = [["paper:%03d" % i, {"t": "x" * 50}] for i in range(100)]
    for max_rows, max_bytes in [(7, 10_000), (1000, 700), (1, 100)]:
        groups = list(br.batches(rows, max_rows=max_rows, max_bytes=max_bytes, overhead=60))
        assert [r for g in groups for r in g] == rows
        assert all(len(g) <= max_rows for g in groups)
        assert all(len(g) == 1 or br.serialised_size(g) + 60 <= max_bytes for g in groups)
    assert len(list(br.batches(rows, max_rows=1000, max_bytes=700, overhead=60))) == 13


def test_split_oversized_moves_long_values_into_pieces_that_fit():
    abstract = "Ein Satz über Graphen. " * 400
    row = [
        "paper:x",
        {"key": "paper:x", "abstract": abstract, "sources": ["a#1"] * 300, "year": 2020},
    ]
    head, pieces = br.split_oversized(row, 1, 500, piece_budget=300)
    assert br.serialised_size(head) <= 500
    assert all(br.serialised_size(p) <= 300 for _, p in pieces)
    restored = dict(head[1])
    for name, piece in pieces:
        restored[name] = restored[name] + piece
    assert restored == row[1]


def test_split_oversized_refuses_a_row_that_cannot_fit():
    with pytest.raises(KgError, match="raise --max-batch-bytes"):
        br.split_oversized(["paper:" + "x" * 400, {"year": 1}], 1, 100)


def test_stale_relationships_and_orphan_candidates():
    G = small_graph()
    existing = [
        ("USES", paper("lora"), "method:lora"),
        ("USES", paper("lora"), "method:gone"),
        ("EVALUATED_ON", paper("lora"), "dataset:mnli"),
        ("NOT_OURS", "a", "b"),
    ]
    stale = br.stale_relationships(G, existing)
    assert stale == {("USES", paper("lora"), "method:gone")}
    assert br.orphan_candidates(G, [paper("lora"), "method:gone", "method:lora", "x:y"]) == [
        "method:gone"
    ]


def test_settings_prefer_arguments_then_environment():
    env = {
        "NEO4J_URI": "bolt://env:7687",
        "NEO4J_USERNAME": "u",
        "NEO4J_PASSWORD": "p",
        "NEO4J_DATABASE": "graphs",
    }
    assert kn.Settings.resolve(environ=env) == kn.Settings("bolt://env:7687", "u", "p", "graphs")
    assert kn.Settings.resolve(uri="bolt://arg:1", password="q", environ=env) == kn.Settings(
        "bolt://arg:1", "u", "q", "graphs"
    )
    assert kn.Settings.resolve(environ={}) == kn.Settings(kn.DEFAULT_URI, None, None, None)


@pytest.mark.parametrize(
    "cypher",
    [
        "CREATE (n:X)",
        "match (n) set n.x = 1",
        "MATCH (n) DETACH DELETE n",
        "MERGE (n:X {key: 'a'})",
        "MATCH (n) REMOVE n.x",
        "DROP INDEX i",
        "UNWIND [1] AS x CALL { CREATE (:X) }",
        "LOAD CSV FROM 'file:///x' AS r RETURN r",
    ],
)
def test_refuse_writes_refuses_write_clauses(cypher):
    with pytest.raises(KgError, match="pass --write"):
        kn.refuse_writes(cypher)


@pytest.mark.parametrize(
    "cypher",
    [
        "MATCH (n:Paper {title: 'CREATE and SET'}) RETURN n.set AS s",
        'MATCH (n) WHERE n.name = "DELETE" RETURN n // MERGE later\n',
        "MATCH (n:`CREATE`) RETURN count(n) /* SET */",
        "MATCH (a)-[:APPLIED_TO]->(d) RETURN a.key, $offset, d.created",
    ],
)
def test_refuse_writes_allows_reads(cypher):
    kn.refuse_writes(cypher)


def test_connect_refuses_a_bad_uri():
    with pytest.raises(kn.BoltError, match="bad Bolt URI 'http://localhost:7474'"):
        kn.connect(uri="http://localhost:7474")


def test_dialects_keep_the_ddl_difference():
    assert kn.NEO4J.key_schema_statements(set())[0] == (
        "CREATE CONSTRAINT kg_area_key IF NOT EXISTS FOR (n:Area) REQUIRE n.key IS UNIQUE"
    )
    assert kn.GENERIC_BOLT.key_schema_statements(
        {"Area", "Author", "Benchmark", "Concept", "Dataset", "Method", "Metric", "Paper"}
    ) == ["CREATE INDEX FOR (n:Task) ON (n.key)"]


def test_packed_rows_round_trip_their_types():
    rows = [
        ["author:a", "paper:b", {"n": 3, "ok": True, "s": 0.9, "names": [], "t": "it's"}],
        ["author:c", "paper:d", {"n": -1, "ok": False, "s": 2.0, "names": ["x", "y z"]}],
    ]
    columns = br.packed_columns(rows, ("Author", "Paper"))
    assert columns == [
        ("n", "int"),
        ("names", "string[]"),
        ("ok", "boolean"),
        ("s", "decimal1"),
        ("t", "?"),
    ]
    fields = br.pack_row(rows[1], ("Author", "Paper"), columns).split(br.FIELD)
    assert fields == ["c", "d", "-1", "x\x1dy z", "f", "20", br.NULL]
    assert br.packed_size("it's") == 5


@pytest.mark.parametrize(
    "rows",
    [
        [["paper:a", {"t": "x\x1fy"}]],
        [["paper:a", {"t": ["x\x1ey"]}]],
        [["paper:a\x1a", {}]],
        [["paper:a", {"v": 1}], ["paper:b", {"v": "1"}]],
        [["paper:a", {"v": 0.1 + 0.2}]],
        [["author:a", {}]],
    ],
)
def test_rows_that_cannot_be_packed_are_left_as_lists(rows):
    assert br.packed_columns(rows, ("Paper",)) is None


def test_packed_queries_decode_every_column():
    query = br.packed_write_relationships_query(
        "AUTHORED",
        "Author",
        "Paper",
        [("position", "int"), ("truncated_list", "boolean?")],
        verb="CREATE",
    )
    assert query == (
        "UNWIND split($rows, '\x1e') AS line WITH split(line, '\x1f') AS row "
        "MATCH (a:Author {key: 'author:' + row[0]}) MATCH (b:Paper {key: 'paper:' + row[1]}) "
        "CREATE (a)-[r:AUTHORED {`position`: toInteger(row[2]), `truncated_list`: "
        "CASE row[3] WHEN '\x1a' THEN null ELSE row[3] = 't' END}]->(b)"
    )


@pytest.mark.parametrize(
    "kind, pattern", [("Method", "(n:Method:Concept {key: "), ("Paper", "(n:Paper {key: ")]
)
def test_node_merges_carry_every_label_at_once(kind, pattern):
    for query in (br.merge_nodes_query(kind), br.packed_merge_nodes_query(kind, [("name", "")])):
        assert f"MERGE {pattern}" in query and "SET n:" not in query


def test_packed_texts_found_in_the_source_abstract_travel_as_offsets():
    abstract = "Über 𝒪(n) methods. We fine-tune with LoRA on GSM8K."
    rows = [
        ["paper:a", "method:lora", {"evidence": "We fine-tune with LoRA on GSM8K", "t": "LoRA"}]
    ]
    texts = {"paper:a": abstract}
    columns = br.packed_columns(rows, ("Paper", "Method"), source_texts=texts)
    assert columns == [("evidence", "slice"), ("t", "")]
    fields = br.row_packer(("Paper", "Method"), columns, source_texts=texts)(rows[0])
    assert fields.split(br.FIELD) == ["a", "lora", "19,31", "LoRA"]
    assert abstract[19 : 19 + 31] == rows[0][2]["evidence"]
    rows.append(["paper:b", "method:lora", {"evidence": "not in any abstract", "t": "x"}])
    assert br.packed_columns(rows, ("Paper", "Method"), source_texts=texts) == [
        ("evidence", ""),
        ("t", ""),
    ]


def test_packed_texts_between_start_and_end_travel_as_nothing():
    abstract = "Über 𝒪(n) methods. We fine-tune with LoRA on GSM8K."
    texts = {"paper:a": abstract}
    rows = [["paper:a", "method:lora", {"start": 37, "end": 41, "text": "LoRA"}]]
    columns = br.packed_columns(rows, ("Paper", "Method"), source_texts=texts)
    assert columns == [("end", "int"), ("start", "int"), ("text", "span")]
    fields = br.row_packer(("Paper", "Method"), columns, source_texts=texts)(rows[0])
    assert fields.split(br.FIELD) == ["a", "lora", "41", "37", ""]
    query = br.packed_write_relationships_query("USES", "Paper", "Method", columns, verb="CREATE")
    assert (
        "`text`: substring(a.abstract, toInteger(row[3]), toInteger(row[2]) - toInteger(row[3]))"
    ) in query
    without_offsets = [["paper:a", "method:lora", {"text": "LoRA"}]]
    assert br.packed_columns(without_offsets, ("Paper", "Method"), source_texts=texts) == [
        ("text", "")
    ]
    elsewhere = [["paper:a", "method:lora", {"start": 0, "end": 4, "text": "fine-tune with LoRA"}]]
    assert br.packed_columns(elsewhere, ("Paper", "Method"), source_texts=texts) == [
        ("end", "int"),
        ("start", "int"),
        ("text", "slice"),
    ]


@pytest.mark.parametrize(
    "max_rows, max_bytes, count", [(2000, 3900, 61), (3, 3900, 100), (2000, 500, 263)]
)
def test_fitted_batches_keep_every_row_once_within_the_caps(max_rows, max_bytes, count):
    rows = [["paper:%d" % i, "x" * ((i * 7919) % 1500)] for i in range(300)]
    fitted = br.fitted_batches(rows, max_rows=max_rows, max_bytes=max_bytes, overhead=100)
    assert sorted(row[0] for batch in fitted for row in batch) == sorted(row[0] for row in rows)
    for batch in fitted:
        assert len(batch) <= max_rows
        assert (
            len(batch) == 1 or 100 + 2 + sum(br.serialised_size(r) + 1 for r in batch) <= max_bytes
        )
    assert len(fitted) == count  # consecutive batches: 68, 100, 300


def test_grouped_lines_cut_groups_at_the_row_and_byte_caps():
    pack = br.row_packer(("Author", "Paper"), [("n", "int")], shared=1)
    edges = [pack([f"author:author{i}", "paper:p1", {"n": i}]) for i in range(10)]
    assert edges[3] == ("p1", br.FIELD.join(["author3", "3"]))
    edges = [(key, edge, br.packed_size(edge)) for key, edge in edges]
    by_rows = br.grouped_lines(edges, max_size=1000, max_rows=4)
    assert [count for _, count, _ in by_rows] == [4, 4, 2]
    assert all(line.startswith("p1" + br.EDGE) for line, _, _ in by_rows)
    assert all(br.packed_size(line) == size for line, _, size in by_rows)
    by_bytes = br.grouped_lines(edges, max_size=40, max_rows=100)
    assert all(size <= 40 for _, _, size in by_bytes)
    assert sum(count for _, count, _ in by_bytes) == 10
    grouped = [edge for line, _, _ in by_bytes for edge in line.split(br.EDGE)[1:]]
    assert grouped == [br.FIELD.join([f"author{i}", str(i)]) for i in range(10)]


def test_grouped_relationship_query_rebuilds_the_ungrouped_row():
    query = br.packed_write_relationships_query(
        "AUTHORED", "Author", "Paper", [("position", "int")], verb="CREATE", shared=1
    )
    assert query == (
        "UNWIND split($rows, '\x1e') AS line WITH split(line, '\x1c') AS edges "
        "MATCH (b:Paper {key: 'paper:' + edges[0]}) UNWIND edges[1..] AS edge "
        "WITH b, [split(edge, '\x1f')[0], ''] + split(edge, '\x1f')[1..] AS row "
        "MATCH (a:Author {key: 'author:' + row[0]}) "
        "CREATE (a)-[r:AUTHORED {`position`: toInteger(row[2])}]->(b)"
    )
    assert br.shared_endpoint([["a:1", "p:1", {}], ["a:2", "p:1", {}], ["a:3", "p:2", {}]]) == 1
