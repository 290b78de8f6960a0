"""kg.neo4j.falkordb: packed rows, their columns, grouped lines and the packed queries."""

import pytest

from kg.neo4j import cypher
from kg.neo4j import falkordb as fk


def test_packed_rows_round_trip_their_types():
    rows = [
        ["author:a", "paper:b", {"n": 3, "ok": True, "s": 0.9, "names": [], "t": "it's"}],
        ["author:c", "paper:d", {"n": -1, "ok": False, "s": 2.0, "names": ["x", "y z"]}],
    ]
    columns = fk.packed_columns(rows, ("Author", "Paper"))
    assert columns == [
        ("n", "int"),
        ("names", "string[]"),
        ("ok", "boolean"),
        ("s", "decimal1"),
        ("t", "?"),
    ]
    fields = fk.pack_row(rows[1], ("Author", "Paper"), columns).split(fk.FIELD)
    assert fields == ["c", "d", "-1", "x\x1dy z", "f", "20", fk.NULL]
    assert fk.packed_size("it's") == 5


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
    assert fk.packed_columns(rows, ("Paper",)) is None


def test_packed_queries_decode_every_column():
    query = fk.packed_write_relationships_query(
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
    for query in (
        cypher.merge_nodes_query(kind),
        fk.packed_merge_nodes_query(kind, [("name", "")]),
    ):
        assert f"MERGE {pattern}" in query and "SET n:" not in query


def test_packed_texts_found_in_the_source_abstract_travel_as_offsets():
    abstract = "Über 𝒪(n) methods. We fine-tune with LoRA on GSM8K."
    rows = [
        ["paper:a", "method:lora", {"evidence": "We fine-tune with LoRA on GSM8K", "t": "LoRA"}]
    ]
    texts = {"paper:a": abstract}
    columns = fk.packed_columns(rows, ("Paper", "Method"), source_texts=texts)
    assert columns == [("evidence", "slice"), ("t", "")]
    fields = fk.row_packer(("Paper", "Method"), columns, source_texts=texts)(rows[0])
    assert fields.split(fk.FIELD) == ["a", "lora", "19,31", "LoRA"]
    assert abstract[19 : 19 + 31] == rows[0][2]["evidence"]
    rows.append(["paper:b", "method:lora", {"evidence": "not in any abstract", "t": "x"}])
    assert fk.packed_columns(rows, ("Paper", "Method"), source_texts=texts) == [
        ("evidence", ""),
        ("t", ""),
    ]


def test_packed_texts_between_start_and_end_travel_as_nothing():
    abstract = "Über 𝒪(n) methods. We fine-tune with LoRA on GSM8K."
    texts = {"paper:a": abstract}
    rows = [["paper:a", "method:lora", {"start": 37, "end": 41, "text": "LoRA"}]]
    columns = fk.packed_columns(rows, ("Paper", "Method"), source_texts=texts)
    assert columns == [("end", "int"), ("start", "int"), ("text", "span")]
    fields = fk.row_packer(("Paper", "Method"), columns, source_texts=texts)(rows[0])
    assert fields.split(fk.FIELD) == ["a", "lora", "41", "37", ""]
    query = fk.packed_write_relationships_query("USES", "Paper", "Method", columns, verb="CREATE")
    assert (
        "`text`: substring(a.abstract, toInteger(row[3]), toInteger(row[2]) - toInteger(row[3]))"
    ) in query
    without_offsets = [["paper:a", "method:lora", {"text": "LoRA"}]]
    assert fk.packed_columns(without_offsets, ("Paper", "Method"), source_texts=texts) == [
        ("text", "")
    ]
    elsewhere = [["paper:a", "method:lora", {"start": 0, "end": 4, "text": "fine-tune with LoRA"}]]
    assert fk.packed_columns(elsewhere, ("Paper", "Method"), source_texts=texts) == [
        ("end", "int"),
        ("start", "int"),
        ("text", "slice"),
    ]


def test_grouped_lines_cut_groups_at_the_row_and_byte_caps():
    pack = fk.row_packer(("Author", "Paper"), [("n", "int")], shared=1)
    edges = [pack([f"author:author{i}", "paper:p1", {"n": i}]) for i in range(10)]
    assert edges[3] == ("p1", fk.FIELD.join(["author3", "3"]))
    edges = [(key, edge, fk.packed_size(edge)) for key, edge in edges]
    by_rows = fk.grouped_lines(edges, max_size=1000, max_rows=4)
    assert [count for _, count, _ in by_rows] == [4, 4, 2]
    assert all(line.startswith("p1" + fk.EDGE) for line, _, _ in by_rows)
    assert all(fk.packed_size(line) == size for line, _, size in by_rows)
    by_bytes = fk.grouped_lines(edges, max_size=40, max_rows=100)
    assert all(size <= 40 for _, _, size in by_bytes)
    assert sum(count for _, count, _ in by_bytes) == 10
    grouped = [edge for line, _, _ in by_bytes for edge in line.split(fk.EDGE)[1:]]
    assert grouped == [fk.FIELD.join([f"author{i}", str(i)]) for i in range(10)]


def test_grouped_relationship_query_rebuilds_the_ungrouped_row():
    query = fk.packed_write_relationships_query(
        "AUTHORED", "Author", "Paper", [("position", "int")], verb="CREATE", shared=1
    )
    assert query == (
        "UNWIND split($rows, '\x1e') AS line WITH split(line, '\x1c') AS edges "
        "MATCH (b:Paper {key: 'paper:' + edges[0]}) UNWIND edges[1..] AS edge "
        "WITH b, [split(edge, '\x1f')[0], ''] + split(edge, '\x1f')[1..] AS row "
        "MATCH (a:Author {key: 'author:' + row[0]}) "
        "CREATE (a)-[r:AUTHORED {`position`: toInteger(row[2])}]->(b)"
    )
    assert fk.shared_endpoint([["a:1", "p:1", {}], ["a:2", "p:1", {}], ["a:3", "p:2", {}]]) == 1
