"""kg.neo4j.cypher: the statements, built only from the schema's closed lists."""

import pytest

from kg.errors import KgError
from kg.neo4j import cypher
from kg.schema import NODE_KINDS, REL_ENDPOINTS


@pytest.mark.parametrize(
    "builder, args",
    [
        (cypher.merge_nodes_query, ("Planet",)),
        (cypher.write_relationships_query, ("AUTHORED", "Author", "Planet")),
        (cypher.delete_relationships_query, ("DROP", "Paper", "Method")),
        (cypher.append_node_property_query, ("Paper", "abstract`) DETACH DELETE (n")),
    ],
)
def test_cypher_builders_accept_only_the_closed_lists(builder, args):
    with pytest.raises(KgError):
        builder(*args)


def test_engine_load_statements_set_one_column_each():
    assert cypher.write_relationships_query(
        "USES", "Paper", "Method", verb="CREATE", columns=["score", "text"]
    ) == (
        "UNWIND $rows AS row MATCH (a:Paper {key: row[0]}) MATCH (b:Method {key: row[1]}) "
        "CREATE (a)-[r:USES]->(b) SET r.`score` = row[2], r.`text` = row[3]"
    )
    assert cypher.create_nodes_query("Method", []) == (
        "UNWIND $rows AS row CREATE (n:Method:Concept {key: row[0]})"
    )
    with pytest.raises(KgError, match="not a plain identifier"):
        cypher.create_nodes_query("Paper", ["title`) DETACH DELETE (n"])


def test_every_kind_and_relationship_of_the_schema_has_its_statements():
    for kind in NODE_KINDS:
        assert f"(n:{cypher.node_labels(kind)} " in cypher.merge_nodes_query(kind)
    for rel, ends in REL_ENDPOINTS.items():
        for src, dst in ends:
            assert f"[r:{rel}]" in cypher.write_relationships_query(rel, src, dst)
            assert f"[r:{rel}]" in cypher.delete_relationships_query(rel, src, dst)
    assert cypher.key_labels() == sorted(NODE_KINDS)
