"""kg.neo4j.push against a real Bolt server: the FalkorDB test server from conftest."""

import neo4j
import pytest

import kg.neo4j as kn
from kg.neo4j.batches import serialised_size
from kg.neo4j.falkordb import EDGE, packed_size
from kg.rows import properties
from kg.schema import AUTHOR, labels_of
from tests.helpers.bolt_server import free_port
from tests.helpers.neo4j_graphs import paper, reingest_lora, small_graph

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def connection(bolt):
    with kn.connect(uri=bolt.uri, password="") as conn:
        yield conn


def expected_state(G):
    nodes = {
        key: (
            sorted(labels_of(attrs["kind"])),
            {"key": key, **properties(attrs, skip=frozenset({"kind", "key"}))},
        )
        for key, attrs in G.nodes(data=True)
    }
    rels = {(t, s, d): properties(a) for s, d, t, a in G.edges(keys=True, data=True)}
    return nodes, rels


def server_state(conn):
    nodes = {
        row["key"]: (sorted(row["labels"]), row["props"])
        for row in conn.read(
            "MATCH (n) RETURN n.key AS key, labels(n) AS labels, properties(n) AS props"
        )
    }
    rels = {
        (row["type"], row["src"], row["dst"]): row["props"]
        for row in conn.read(
            "MATCH (a)-[r]->(b) RETURN type(r) AS type, a.key AS src, b.key AS dst, "
            "properties(r) AS props"
        )
    }
    return nodes, rels


def test_connect_detects_a_server_without_constraints(connection):
    assert connection.dialect is kn.GENERIC_BOLT


def test_push_writes_every_node_label_and_property(connection):
    G = small_graph()
    report = kn.push(G, connection)
    assert (report.nodes, report.relationships) == (17, 30)
    assert server_state(connection) == expected_state(G)
    rows = connection.read("CALL db.indexes() YIELD label RETURN label")
    indexed = {row["label"] for row in rows}
    assert indexed == {
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


def test_push_twice_changes_nothing(connection):
    G = small_graph()
    kn.push(G, connection)
    first = server_state(connection)
    again = kn.push(G, connection)
    assert (again.deleted_relationships, again.deleted_nodes) == (0, 0)
    assert server_state(connection) == first == expected_state(G)


def test_repush_after_reingest_replaces_edges_and_drops_orphans(connection):
    kn.push(small_graph(), connection)
    H = reingest_lora(small_graph())
    report = kn.push(H, connection)
    assert server_state(connection) == expected_state(H)
    # EVALUATED_ON MNLI/GLUE, ADDRESSES NLI, Turing's AUTHORED, LoRA APPLIED_TO MNLI/GLUE, PART_OF
    assert report.deleted_relationships == 7
    assert report.deleted_nodes == 3
    assert "title" not in server_state(connection)[0][paper("lora")][1]


def test_push_keeps_every_statement_within_the_byte_cap(connection, monkeypatch):
    G = small_graph()
    long_abstract = "Graphs of papers, with evidence and 'quotes' \"too\", über alles. " * 200
    G.nodes[paper("mix")]["abstract"] = long_abstract
    G.nodes[paper("mix")]["sources"] = [f"listing-{i}.txt#{i}" for i in range(300)]
    sent = []
    write = connection.write

    def recording_write(cypher, params=None):
        # Packed rows travel as one string, its separators one byte each (JSON would
        # spell them as six).
        sent.append(
            len(cypher.encode())
            + sum(
                packed_size(v) if isinstance(v, str) else serialised_size(v)
                for v in (params or {}).values()
            )
        )
        return write(cypher, params)

    monkeypatch.setattr(connection, "write", recording_write)
    report = kn.push(G, connection, max_batch_bytes=1200)
    assert max(sent) <= 1200
    assert report.statements == len(sent) > 30
    nodes, _ = server_state(connection)
    assert nodes[paper("mix")][1]["abstract"] == long_abstract
    assert nodes[paper("mix")][1]["sources"] == G.nodes[paper("mix")]["sources"]


def test_default_cap_survives_rows_far_over_four_kilobytes(connection):
    G = small_graph()
    G.nodes[paper("grpo")]["abstract"] = "A sentence about optimisation. " * 600
    kn.push(G, connection)
    assert server_state(connection) == expected_state(G)


def test_failure_mid_push_says_what_was_written_and_a_rerun_converges(connection, monkeypatch):
    G = small_graph()
    write, calls = connection.write, []

    def failing_write(cypher, params=None):
        calls.append(cypher)
        if len(calls) == 14:
            raise neo4j.exceptions.ServiceUnavailable("connection lost")
        return write(cypher, params)

    monkeypatch.setattr(connection, "write", failing_write)
    with pytest.raises(kn.PushError) as failure:
        kn.push(G, connection, batch_size=2)
    message = str(failure.value)
    assert "stopped: connection lost" in message and "running the push again converges" in message
    report = failure.value.report
    assert f"17/17 nodes and {report.relationships}/30 relationships written" in message
    assert 0 < report.relationships < 30
    monkeypatch.setattr(connection, "write", write)
    kn.push(G, connection)
    assert server_state(connection) == expected_state(G)


def test_runner_reads_and_refuses_writes_in_read_mode(connection):
    kn.push(small_graph(), connection)
    run = kn.BoltRunner(connection)
    rows = run(
        "MATCH (a:Author)-[:AUTHORED]->(p:Paper) WHERE a.name = $name "
        "RETURN p.title AS title ORDER BY title",
        {"name": "Ada Lovelace"},
    )
    assert rows == [{"title": "On grpo"}, {"title": "On mix"}]
    with pytest.raises(kn.BoltError, match="pass --write"):
        run("CREATE (:Paper {key: 'paper:new'})")
    assert run("MATCH (p:Paper) RETURN count(p) AS n") == [{"n": 3}]
    writer = kn.BoltRunner(connection, write=True)
    created = writer("CREATE (p:Paper {key: 'paper:new'}) RETURN p.key AS key")
    assert created == [{"key": "paper:new"}]
    assert run("MATCH (p:Paper) RETURN count(p) AS n") == [{"n": 4}]


def test_runner_turns_server_errors_into_one_line(connection):
    with pytest.raises(kn.BoltError, match=r"^bolt://127\.0\.0\.1:\d+: "):
        kn.BoltRunner(connection)("MATCH (n RETURN n")


def test_connect_reports_an_unreachable_server():
    with pytest.raises(kn.BoltError, match="cannot reach a Bolt server at bolt://127.0.0.1:"):
        kn.connect(uri=f"bolt://127.0.0.1:{free_port()}", connect_timeout=2)


def test_connect_reports_a_refused_password(bolt):
    with pytest.raises(kn.BoltError, match="refused the connection .*check --user/--password"):
        kn.connect(uri=bolt.uri, user="neo4j", password="wrong")


def test_connect_refuses_a_database_name_the_server_cannot_route(bolt):
    with pytest.raises(kn.BoltError, match="has no named databases"):
        kn.connect(uri=bolt.uri, database="papers")


def test_quotes_and_backslashes_round_trip_as_data(connection):
    G = small_graph()
    G.add_node(
        "author:conan o'brien",
        kind="Author",
        name="Conan O'Brien",
        variants=["C. O\\'Brien", "Conan O'Brien"],
    )
    G.add_edge(
        "author:conan o'brien", paper("mix"), key="AUTHORED", position=4, truncated_list=False
    )
    G.nodes[paper("mix")]["abstract"] = "A model's loss \\ 'x'); MATCH (n) DETACH DELETE n //"
    kn.push(G, connection)
    assert server_state(connection) == expected_state(G)
    run = kn.BoltRunner(connection)
    assert run(
        "MATCH (a:Author {name: $name}) RETURN a.variants AS v", {"name": "Conan O'Brien"}
    ) == [{"v": ["C. O\\'Brien", "Conan O'Brien"]}]


def test_values_holding_packing_marks_still_round_trip(connection):
    G = small_graph()
    G.nodes["method:lora"]["aliases"] = ["Low\x1fRank", "x\x1ey"]
    G.nodes[paper("grpo")]["title"] = "odd\x1acharacter"
    kn.push(G, connection)
    assert server_state(connection) == expected_state(G)


def test_evidence_cut_from_abstracts_with_wide_characters_round_trips(connection, monkeypatch):
    sent = []
    write = connection.write
    monkeypatch.setattr(
        connection,
        "write",
        lambda cypher, params=None: (sent.append(cypher), write(cypher, params))[1],
    )
    G = small_graph()
    key = paper("grpo")
    G.nodes[key]["abstract"] = "Über 𝒪(n²) — naïve. " + G.nodes[key]["abstract"]
    for _, _, attrs in G.out_edges(key, data=True):
        if "evidence" in attrs:
            shift = len("Über 𝒪(n²) — naïve. ")
            attrs["start"], attrs["end"] = attrs["start"] + shift, attrs["end"] + shift
    kn.push(G, connection)
    assert server_state(connection) == expected_state(G)
    evidence = connection.read(
        "MATCH (:Paper {key: $key})-[r:PROPOSES]->() RETURN r.evidence AS e", {"key": key}
    )
    assert evidence == [{"e": "We propose GRPO, a policy optimisation method"}]
    assert any("PROPOSES" in cypher and "substring(a.abstract" in cypher for cypher in sent)
    assert any("PROPOSES" in cypher and "- toInteger(row[" in cypher for cypher in sent)


@pytest.mark.parametrize("batch_size", [1, 2000])
def test_relationships_sharing_a_paper_go_grouped_within_the_row_cap(
    connection, monkeypatch, batch_size
):
    sent = []
    write = connection.write
    monkeypatch.setattr(
        connection,
        "write",
        lambda cypher, params=None: (sent.append((cypher, params)), write(cypher, params))[1],
    )
    G = small_graph()
    kn.push(G, connection, batch_size=batch_size)
    assert server_state(connection) == expected_state(G)
    authored = [params["rows"] for cypher, params in sent if "[r:AUTHORED" in cypher]
    assert all("edges[1..]" in cypher for cypher, _ in sent if "[r:AUTHORED" in cypher)
    assert sum(rows.count(EDGE) for rows in authored) == 7
    assert len(authored) == (7 if batch_size == 1 else 1)


def test_push_after_authors_are_re_keyed_leaves_no_stale_author(connection):
    """A database pushed before author keys changed converges to the new graph: the old
    Author nodes lose their AUTHORED edges as stale and are removed as orphans."""
    import networkx as nx

    G = small_graph()
    authors = [k for k, a in G.nodes(data=True) if a["kind"] == AUTHOR]
    assert authors
    old = nx.relabel_nodes(G, {k: k + " (old key)" for k in authors})
    kn.push(old, connection)
    kn.push(G, connection)
    assert server_state(connection) == expected_state(G)
