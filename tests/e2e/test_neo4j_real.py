"""Behaviour only a real Neo4j has: constraints, server-side read mode, rollback, databases.

Runs when NEO4J_URI (with NEO4J_USERNAME/NEO4J_PASSWORD) points at a Neo4j 5 whose data
may be wiped, e.g. the one from docker/compose.yml.
"""

import os

import neo4j
import pytest

import kg.neo4j as kn
from tests.e2e.test_neo4j_bolt import expected_state, server_state
from tests.helpers.neo4j_graphs import reingest_lora, small_graph

pytestmark = [
    pytest.mark.neo4j,
    pytest.mark.timeout(300),
    pytest.mark.skipif(
        not os.environ.get("NEO4J_URI"), reason="set NEO4J_URI to a Neo4j 5 whose data may be wiped"
    ),
]


@pytest.fixture
def neo4j_connection():
    with kn.connect() as conn:
        conn.write("MATCH (n) DETACH DELETE n")
        yield conn


def test_detects_neo4j_and_creates_one_constraint_per_label(neo4j_connection):
    assert neo4j_connection.dialect is kn.NEO4J
    kn.push(small_graph(), neo4j_connection)
    rows = neo4j_connection.read(
        "SHOW CONSTRAINTS YIELD name, labelsOrTypes, properties, type "
        "WHERE name STARTS WITH 'kg_' RETURN labelsOrTypes[0] AS label, "
        "properties AS props, type"
    )
    assert {row["label"] for row in rows} == {
        "Paper",
        "Author",
        "Method",
        "Dataset",
        "Benchmark",
        "Task",
        "Metric",
        "Concept",
        "Area",
    }
    assert all(row["props"] == ["key"] and row["type"] == "UNIQUENESS" for row in rows)


def test_push_twice_and_reingest_converge(neo4j_connection):
    kn.push(small_graph(), neo4j_connection)
    kn.push(small_graph(), neo4j_connection)
    assert server_state(neo4j_connection) == expected_state(small_graph())
    H = reingest_lora(small_graph())
    kn.push(H, neo4j_connection)
    assert server_state(neo4j_connection) == expected_state(H)


def test_server_refuses_writes_in_read_mode(neo4j_connection):
    with pytest.raises(Exception, match="(?i)read|access mode"):
        neo4j_connection.read("CREATE (:Paper {key: 'paper:x'})")
    assert neo4j_connection.read("MATCH (n) RETURN count(n) AS n") == [{"n": 0}]


def test_failed_batch_rolls_back(neo4j_connection):
    kn.push(small_graph(), neo4j_connection)
    with pytest.raises(neo4j.exceptions.Neo4jError):
        neo4j_connection.write(
            "UNWIND $rows AS row CREATE (n:Paper {key: row})", {"rows": ["paper:new", "paper:new"]}
        )
    assert neo4j_connection.read("MATCH (n:Paper {key: 'paper:new'}) RETURN count(n) AS n") == [
        {"n": 0}
    ]


def test_unknown_database_and_bad_password_are_one_line():
    with pytest.raises(kn.BoltError, match="has no database 'kg_no_such_db'"):
        kn.connect(database="kg_no_such_db")
    with pytest.raises(kn.BoltError, match="refused the login"):
        kn.connect(password="definitely-not-the-password")
