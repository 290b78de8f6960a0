"""Save and load the graph file: the embedded default store.

Layout: a magic line ``KGRAPH\\n``, one JSON header line (format, schema version, counts,
the sections' names, sizes and SHA-256 checksums in file order, and the header's own
checksum), then three zstd-compressed JSON sections:
the graph of papers, authors and areas ``{"graph": {...}, "nodes": [[key, attrs], ...],
"edges": [[u, v, type, attrs], ...]}``; its entity layer ``{"nodes": [...], "edges":
[...]}`` (the entities and every edge touching one), nodes and edges sorted, so the same
graph always gives the same bytes; and the mentions each paper's abstract yielded before
resolution (``{paper key: [[field, ...], ...]}``), which lets a later build add papers and
resolve names over the whole corpus without re-extracting it (it re-lays the entity layer,
so it does not read it).
Plain data only (no pickle): safe to open from anyone. Writes go to a temporary file
beside the target and replace it atomically, holding the graph's lock (``GRAPH.lock``,
:func:`kg.lock.graph_lock`), which a build holds from its load to its save. A load checks
the header and each section it reads against their checksums before decoding anything, so a
damaged file is refused with one line (docs/reliability.md); files of schema 3 (no
checksums) load unverified, with a note.
"""

import gc
import hashlib
import os
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from operator import attrgetter, itemgetter
from os import PathLike
from typing import Any, BinaryIO, NamedTuple

import networkx as nx
import orjson
import zstandard

from kg.errors import GraphFileError, KgNote
from kg.extractors.records import MENTION_FIELDS, Mention, mention_from_row
from kg.files import atomic_output
from kg.graph._nx import insert_edges, insert_nodes, node_attrs, successors
from kg.lock import graph_lock
from kg.schema import CONCEPT_KINDS, DEFAULT_GRAPH, SCHEMA_VERSION

MAGIC = b"KGRAPH\n"
FORMAT = "kg-graph"
_COMPRESSION_LEVEL = 1  # zstd level 1: 3x faster than zlib level 1 and smaller
_SECTIONS = ("graph", "entities", "mentions")
_ENTITY_LAYER_KINDS = frozenset(CONCEPT_KINDS)
#: The first schema whose files carry checksums (of the header and of each section); files
#: of the schema before it (the same content) load unverified and the next write upgrades them.
CHECKED_SCHEMA = 4


class GraphFileNote(KgNote):
    """A graph file was read without its checksums (written before files carried them)."""


def _digest(data: bytes) -> str:
    """The checksum kept of a header or section: SHA-256 (hardware-accelerated on most CPUs)."""
    return hashlib.sha256(data).hexdigest()


#: A path as the functions here take it.
GraphPath = str | PathLike[str]


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a bulk step; restore its state after.

    Loading, building and saving a graph create millions of small objects and no reference
    cycles (reference counting frees a graph); without the pause the collector rescans them
    again and again during the step. (The ``kg`` command also freezes what a step made, so
    that later collections skip it: a process-wide choice left to the program.)
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def graph_sections(G: nx.MultiDiGraph) -> tuple[dict[str, Any], dict[str, Any]]:
    """The graph as plain, sorted lists (so the same graph always gives the same bytes), in
    two parts: ``{"graph", "nodes", "edges"}`` for papers, authors and areas and the edges
    among them, and ``{"nodes", "edges"}`` for the entity layer (entities and every edge
    touching one). Edges are ordered by source, type, target."""
    node, succ = node_attrs(G), successors(G)
    core: dict[str, Any] = {"graph": dict(G.graph), "nodes": [], "edges": []}
    layer: dict[str, Any] = {"nodes": [], "edges": []}
    in_layer = {key for key, attrs in node.items() if attrs["kind"] in _ENTITY_LAYER_KINDS}
    for u in sorted(node):
        part = layer if u in in_layer else core
        part["nodes"].append((u, node[u]))
        nbrs = succ[u]
        if not nbrs:
            continue
        out = [(u, v, rel, attrs) for v, rels in nbrs.items() for rel, attrs in rels.items()]
        if len(out) > 1:
            out.sort(key=_edge_order)
        if part is layer:
            layer["edges"] += out
        else:
            for edge in out:
                (layer if edge[1] in in_layer else core)["edges"].append(edge)
    return core, layer


_edge_order = itemgetter(2, 1)  # a node's edges by type, then target


def join_sections(core: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    """The graph data of both sections as one ``{"graph", "nodes", "edges"}``."""
    return {
        "graph": core["graph"],
        "nodes": core["nodes"] + layer["nodes"],
        "edges": core["edges"] + layer["edges"],
    }


def data_to_graph(data: dict[str, Any]) -> nx.MultiDiGraph:
    """Rebuild the MultiDiGraph, filling networkx's adjacency dicts directly.

    Equivalent to ``add_nodes_from`` + ``add_edges_from`` (a test checks it) and about three
    times faster, which is most of the load time of a large graph.
    """
    G: nx.MultiDiGraph = nx.MultiDiGraph(**data["graph"])
    insert_nodes(G, data["nodes"])
    insert_edges(G, data["edges"])
    return G


_mention_fields = attrgetter(*MENTION_FIELDS)


def mentions_to_data(mentions: Mapping[str, Sequence[Mention]]) -> dict[str, list[tuple]]:
    """Each paper's mentions as rows of field values (tuples: JSON arrays), keys sorted."""
    return {key: list(map(_mention_fields, ms)) for key, ms in sorted(mentions.items())}


def data_to_mentions(data: dict[str, list[list]]) -> dict[str, list[Mention]]:
    """The Mentions of rows made by :func:`mentions_to_data`; ValueError on a damaged row."""
    aliases, part_of = MENTION_FIELDS.index("aliases"), MENTION_FIELDS.index("part_of")
    mentions: dict[str, list[Mention]] = {}
    for key, rows in data.items():
        ms = mentions[key] = []
        for row in rows:
            if len(row) != len(MENTION_FIELDS):
                raise ValueError(f"a mention of {key} has {len(row)} fields")
            row[aliases], row[part_of] = tuple(row[aliases]), tuple(row[part_of])
            ms.append(mention_from_row(row))
    return mentions


def _compress(data: bytes) -> bytes:
    """One zstd frame (a compressor per call: they are not safe to share across threads)."""
    return zstandard.ZstdCompressor(level=_COMPRESSION_LEVEL).compress(data)


def save_graph(
    G: nx.MultiDiGraph,
    path: GraphPath = DEFAULT_GRAPH,
    *,
    mentions: Mapping[str, Sequence[Mention]] | None = None,
) -> GraphPath:
    """Write ``G`` (and the papers' unresolved ``mentions``) to ``path`` atomically.

    The previous file survives any failure; an unwritable path raises OutputError. The
    write holds the graph's lock (another process's build or save of ``path`` goes first).
    """
    core, layer = graph_sections(G)
    core["graph"]["schema_version"] = SCHEMA_VERSION  # a graph of an older file is upgraded
    with ThreadPoolExecutor(max_workers=1) as pool:  # zstd releases the GIL: it compresses
        futures = [
            pool.submit(_compress, orjson.dumps(part, option=orjson.OPT_SORT_KEYS))
            for part in (core, layer, mentions_to_data(mentions or {}))
        ]
        sections = [future.result() for future in futures]
    header = header_line(
        {
            "format": FORMAT,
            "schema_version": SCHEMA_VERSION,
            "nodes": len(core["nodes"]) + len(layer["nodes"]),
            "edges": len(core["edges"]) + len(layer["edges"]),
            "compression": "zstd",
            "sections": [
                [name, len(body), _digest(body)]
                for name, body in zip(_SECTIONS, sections, strict=True)
            ],
        }
    )
    with graph_lock(path), atomic_output(path, "the graph file", binary=True, durable=True) as fh:
        fh.write(MAGIC)
        fh.write(header + b"\n")
        for body in sections:
            fh.write(body)
    return path


def _damaged(path: GraphPath, what: str) -> GraphFileError:
    return GraphFileError(
        f"{path}: graph file is damaged ({what}); restore it from a copy or rebuild it "
        f"with `kg build INPUT -o {path} --fresh`"
    )


def _header_checksum(header: Mapping[str, Any]) -> str:
    """The checksum of a header: of the magic line and the header's JSON without it."""
    rest = {k: v for k, v in header.items() if k != "checksum"}
    return _digest(MAGIC + orjson.dumps(rest, option=orjson.OPT_SORT_KEYS))


def header_line(header: Mapping[str, Any]) -> bytes:
    """The header as its line of the file (without the newline), its checksum added."""
    return orjson.dumps(
        {**header, "checksum": _header_checksum(header)}, option=orjson.OPT_SORT_KEYS
    )


def _schema_version(path: GraphPath, header: dict[str, Any]) -> int:
    """The header's schema version if this kg reads it; GraphFileError naming what is wrong."""
    version = header.get("schema_version")
    if type(version) is not int or version < 1:
        raise _damaged(path, f"its schema version is {orjson.dumps(version).decode()[:20]}")
    if version > SCHEMA_VERSION:
        raise GraphFileError(
            f"{path}: written by a newer kg (schema {version}, this kg reads "
            f"up to {SCHEMA_VERSION}); upgrade kg to open it"
        )
    if version < SCHEMA_VERSION and version != CHECKED_SCHEMA - 1:
        raise GraphFileError(
            f"{path}: written by an older kg (schema {version}; this kg reads schema "
            f"{SCHEMA_VERSION}, whose keys differ); rebuild it with `kg build --fresh`"
        )
    return version


@contextmanager
def _opened(path: GraphPath) -> Iterator[BinaryIO]:
    """The graph file open for reading (one open for its header and its sections, so a
    build replacing it meanwhile cannot mix two files); GraphFileError if there is none."""
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        raise GraphFileError(
            f"{path}: no such graph file; build one with `kg build INPUT -o {path}`"
        ) from None
    except IsADirectoryError:
        raise GraphFileError(f"{path}: is a directory, not a graph file") from None
    with fh:
        yield fh


def _read_head(path: GraphPath, fh: BinaryIO) -> tuple[dict[str, Any], int, int]:
    """(header, offset of the first section, file size) of the open graph file ``fh``;
    GraphFileError if it is not a kg graph this kg reads or its header is damaged."""
    magic = fh.read(len(MAGIC))
    line = fh.readline(65536)
    size = os.fstat(fh.fileno()).st_size
    if size == 0:
        raise GraphFileError(
            f"{path}: an empty file, not a kg graph; `kg build INPUT -o {path} --fresh` "
            "replaces it with a new graph"
        )
    if magic != MAGIC:
        raise GraphFileError(f"{path}: not a kg graph file; build one with `kg build`")
    try:
        header = orjson.loads(line)
    except orjson.JSONDecodeError:
        raise _damaged(path, "its header is not JSON") from None
    if not isinstance(header, dict):
        raise _damaged(path, f"its header is a JSON {type(header).__name__}, not an object")
    if header.get("format") != FORMAT:
        raise GraphFileError(f"{path}: not a kg graph file; build one with `kg build`")
    # Checked before the version is read: a damaged version must not pass for a newer kg.
    if ("checksum" in header or _schema_version(path, header) >= CHECKED_SCHEMA) and (
        header.get("checksum") != _header_checksum(header)
        or line.rstrip(b"\n") != orjson.dumps(header, option=orjson.OPT_SORT_KEYS)
    ):
        raise _damaged(path, "its header fails its checksum")
    _schema_version(path, header)
    return header, len(MAGIC) + len(line), size


def read_header(path: GraphPath) -> dict[str, Any]:
    """The header of a graph file; raises GraphFileError if it is not a readable kg graph
    or its header is damaged."""
    with _opened(path) as fh:
        return _read_head(path, fh)[0]


class Section(NamedTuple):
    """Where one section lies in a graph file, and its checksum (None before schema 4)."""

    offset: int
    size: int
    checksum: str | None


def _sections(path: GraphPath, header: dict[str, Any], start: int, size: int) -> dict[str, Section]:
    """Each section's place in the file; GraphFileError if the header does not describe this
    format's sections or they do not fill the file."""
    entries = header.get("sections")
    if header.get("compression") != "zstd" or not isinstance(entries, list):
        raise GraphFileError(
            f"{path}: written by an older development version of kg; "
            "rebuild it with `kg build --fresh`"
        )
    checked = header["schema_version"] >= CHECKED_SCHEMA
    sections: dict[str, Section] = {}
    offset = start
    for entry in entries:
        if not (
            isinstance(entry, list)
            and len(entry) == (3 if checked else 2)
            and entry[0] in _SECTIONS
            and entry[0] not in sections
            and type(entry[1]) is int
            and entry[1] >= 0
            and (not checked or isinstance(entry[2], str))
        ):
            raise _damaged(path, f"its header lists a section as {orjson.dumps(entry)[:60]!r}")
        sections[entry[0]] = Section(offset, entry[1], entry[2] if checked else None)
        offset += entry[1]
    if set(sections) != set(_SECTIONS):
        raise _damaged(path, "its header does not list the graph, entities and mentions")
    if offset != size and (checked or offset > size):
        raise _damaged(
            path, f"{size:,} bytes where its header describes {offset:,}: truncated or cut"
        )
    return sections


def _load_sections[T](path: GraphPath, names: Sequence[str], convert: Callable[..., T]) -> T:
    """``convert`` applied to the decoded JSON of the named sections of a graph file, each
    checked against its checksum first; GraphFileError if the file is damaged. A file of the
    schema before checksums loads unverified, with a :class:`GraphFileNote`."""
    parts: list[bytes] = []
    with _opened(path) as fh:
        header, start, size = _read_head(path, fh)
        sections = _sections(path, header, start, size)
        for name in names:
            section = sections[name]
            fh.seek(section.offset)
            part = fh.read(section.size)
            if section.checksum is not None and _digest(part) != section.checksum:
                raise _damaged(path, f"its {name} section fails its checksum")
            parts.append(part)
    if header["schema_version"] < CHECKED_SCHEMA:
        warnings.warn(
            GraphFileNote(
                f"{path}: written by a kg before graph files carried checksums (schema "
                f"{header['schema_version']}), so read unverified; the next build into it "
                "adds them"
            ),
            stacklevel=3,
        )
    try:
        with paused_gc():
            return convert(
                *(orjson.loads(zstandard.ZstdDecompressor().decompress(part)) for part in parts)
            )
    except (zstandard.ZstdError, orjson.JSONDecodeError) as exc:
        raise GraphFileError(
            f"{path}: graph file is corrupt or truncated ({exc}); rebuild it with `kg build`"
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise GraphFileError(
            f"{path}: graph file is corrupt ({exc!r}); rebuild it with `kg build`"
        ) from None


def load_graph(path: GraphPath = DEFAULT_GRAPH, *, entity_layer: bool = True) -> nx.MultiDiGraph:
    """Load a graph saved by :func:`save_graph` (without its entities unless
    ``entity_layer``: a build that re-lays them from the mentions loads less)."""
    if entity_layer:
        return _load_sections(
            path,
            ("graph", "entities"),
            lambda core, layer: data_to_graph(join_sections(core, layer)),
        )
    return _load_sections(path, ("graph",), data_to_graph)


def load_mentions(path: GraphPath = DEFAULT_GRAPH) -> dict[str, list[Mention]]:
    """The unresolved mentions of each paper, saved beside the graph by a build."""
    return _load_sections(path, ("mentions",), data_to_mentions)
