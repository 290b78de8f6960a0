"""kg.neo4j.connection without a server: settings, the write guard, dialects."""

import pytest

from kg.errors import KgError
from kg.neo4j import connection as kn


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
