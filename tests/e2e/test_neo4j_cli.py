"""`kg push` and `kg export` end to end, in process, against the Bolt test server."""

import pytest

import kg.neo4j as kn
from kg.cli import main
from kg.store.graphfile import save_graph
from tests.helpers.bolt_server import free_port
from tests.helpers.neo4j_graphs import small_graph

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def graph_file(tmp_path):
    path = tmp_path / "graph.kg"
    save_graph(small_graph(), path)
    return str(path)


@pytest.fixture
def no_neo4j_env(monkeypatch):
    for name in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        monkeypatch.delenv(name, raising=False)


def counts(uri):
    with kn.connect(uri=uri) as conn:
        return conn.read("MATCH (n) RETURN count(n) AS n")[0]["n"], conn.read(
            "MATCH ()-[r]->() RETURN count(r) AS r"
        )[0]["r"]


def test_push_twice_from_the_environment(bolt, graph_file, capsys, monkeypatch, no_neo4j_env):
    monkeypatch.setenv("NEO4J_URI", bolt.uri)
    assert main(["push", "-g", graph_file]) == 0
    assert main(["push", "-g", graph_file, "--batch-size", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith(f"Pushed to {bolt.uri} (")
    assert "17/17 nodes and 30/30 relationships written, 0 stale relationships" in out[1]
    assert counts(bolt.uri) == (17, 30)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--uri", "http://localhost:7474"], "bad Bolt URI 'http://localhost:7474'"),
        (["--uri", "bolt://127.0.0.1:{free}"], "cannot reach a Bolt server at bolt://127.0.0.1:"),
        (["--uri", "{bolt}", "--password", "wrong"], "refused the connection"),
        (["--uri", "{bolt}", "--database", "papers"], "has no named databases"),
    ],
)
def test_push_fails_in_one_line(bolt, graph_file, capsys, no_neo4j_env, args, message):
    args = [a.format(free=free_port(), bolt=bolt.uri) for a in args]
    assert main(["push", "-g", graph_file, *args]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kg: error: ") and message in err
    assert counts(bolt.uri) == (0, 0)


def test_push_refuses_a_file_that_is_not_a_graph(bolt, tmp_path, capsys, no_neo4j_env):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a graph\n")
    assert main(["push", "-g", str(bogus), "--uri", bolt.uri]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a kg graph file" in err


def test_export_neo4j_csv_prints_the_import_command(graph_file, tmp_path, capsys):
    assert (
        main(
            [
                "export",
                "--format",
                "neo4j-csv",
                str(tmp_path / "import"),
                "-g",
                graph_file,
                "--import-dir",
                "/import",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "neo4j-admin database import full neo4j --nodes=/import/nodes-Area.csv " in out
    assert (tmp_path / "import" / "relationships-AUTHORED.csv").exists()


def test_export_graphml(graph_file, tmp_path):
    output = str(tmp_path / "g.graphml")
    assert main(["export", "--format", "graphml", output, "-g", graph_file]) == 0
    assert (tmp_path / "g.graphml").read_text().count("<node ") == 17
