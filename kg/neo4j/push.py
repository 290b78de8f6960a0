"""Write the graph to a Bolt server (Neo4j or FalkorDB): the push.

A push is idempotent and converges: nodes are MERGEd on ``key`` (under a uniqueness
constraint per label, or an index where the server has no constraints); the relationships
the server has for the graph's papers (and APPLIED_TO/PART_OF sources) are read, those the
graph no longer has are deleted, missing ones created, changed ones MERGEd, identical ones
left alone; then entities that nothing points to any more are deleted. The push reads the
graph as the neutral rows of :mod:`kg.rows`; every statement is ``UNWIND $rows ...``
(:mod:`kg.neo4j.cypher`) over a batch bounded by rows and serialised bytes
(:mod:`kg.neo4j.batches`), packed for FalkorDB (:mod:`kg.neo4j.falkordb`).
"""

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from kg.errors import KgError
from kg.neo4j import cypher
from kg.neo4j.batches import batches, serialised_size, split_oversized
from kg.neo4j.connection import BoltError, Connection
from kg.neo4j.falkordb import (
    packed_merge_nodes_query,
    packed_write_relationships_query,
    shared_endpoint,
    write_packed,
)
from kg.neo4j.push_plan import (
    RelKey,
    changes,
    kind_of_key,
    orphan_candidates,
    owner_kinds,
    stale_relationships,
)
from kg.rows import (
    NodeRow,
    RelationshipRow,
    by_group,
    by_kind,
    node_rows,
    relationship_rows,
    sorted_rows,
)
from kg.schema import PAPER

if TYPE_CHECKING:
    import networkx as nx

DEFAULT_BATCH_SIZE = 2000
Progress = Callable[[str, int, int], None]


class PushError(BoltError):
    """A push stopped part-way; ``report`` says what had been written."""

    def __init__(self, message: str, report: "PushReport") -> None:
        super().__init__(message)
        self.report = report


@dataclass
class PushReport:
    """What a push wrote (so far): counts of rows sent and of deletions."""

    nodes: int = 0
    relationships: int = 0
    deleted_relationships: int = 0
    deleted_nodes: int = 0
    statements: int = 0
    seconds: float = 0.0
    total_nodes: int = 0
    total_relationships: int = 0
    server: str = ""
    steps: list = field(default_factory=list)

    def summary(self) -> str:
        """One line: what was written and deleted, of how much."""
        return (
            f"{self.nodes:,}/{self.total_nodes:,} nodes and "
            f"{self.relationships:,}/{self.total_relationships:,} relationships written, "
            f"{self.deleted_relationships:,} stale relationships and "
            f"{self.deleted_nodes:,} orphaned nodes deleted"
        )


@dataclass(frozen=True)
class _Graph:
    """What the push needs of a unit's rows: its nodes' keys by kind, its relationships
    and its papers' abstracts."""

    keys_by_kind: dict[str, list[str]]
    relationships: frozenset[RelKey]
    abstracts: dict[str, str]


def push(
    G: "nx.MultiDiGraph",
    connection: Connection,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_batch_bytes: int | None = None,
    progress: Progress | None = None,
) -> PushReport:
    """Write ``G`` to the server: key constraints, nodes, stale edges out, edges, orphans out.

    Parameters
    ----------
    batch_size : rows per statement at most.
    max_batch_bytes : serialised bytes per statement at most (default: the server dialect's).
    progress : optional ``progress(step, done, total)`` callback.

    Returns a :class:`PushReport`; raises :class:`PushError` carrying the report so far.
    """
    return push_rows(
        node_rows(G),
        relationship_rows(G),
        connection,
        batch_size=batch_size,
        max_batch_bytes=max_batch_bytes,
        progress=progress,
    )


class Unit(Protocol):
    """Rows pushed together: some nodes and every relationship they own (a Paper: its
    outgoing ones and those from other kinds; APPLIED_TO, PART_OF and VARIANT_OF sources:
    their outgoing ones to non-Papers), read as often as the push needs them."""

    def counts(self) -> tuple[int, int]: ...
    def nodes(self) -> list[NodeRow]: ...
    def relationships(self) -> list[RelationshipRow]: ...


@dataclass
class RowsUnit:
    """A unit of rows held in memory (a whole graph's, for one)."""

    node_list: list[NodeRow]
    rel_list: list[RelationshipRow]

    def counts(self) -> tuple[int, int]:
        return len(self.node_list), len(self.rel_list)

    def nodes(self) -> list[NodeRow]:
        return self.node_list

    def relationships(self) -> list[RelationshipRow]:
        return self.rel_list


def push_rows(
    nodes: Iterable[NodeRow],
    relationships: Iterable[RelationshipRow],
    connection: Connection,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_batch_bytes: int | None = None,
    progress: Progress | None = None,
) -> PushReport:
    """:func:`push` of a graph's rows."""
    unit = RowsUnit(list(nodes), list(relationships))
    return push_units(
        [unit],
        connection,
        batch_size=batch_size,
        max_batch_bytes=max_batch_bytes,
        progress=progress,
    )


def push_units(
    units: Sequence[Unit],
    connection: Connection,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_batch_bytes: int | None = None,
    progress: Progress | None = None,
) -> PushReport:
    """:func:`push` of rows read unit by unit (the partitions and buckets of a folder of
    import files, :mod:`kg.scale.import_files`): every unit's nodes, then each unit's
    relationships against what its nodes own on the server, then the orphans. The push
    holds one unit's rows at a time, and every node's key."""
    import neo4j

    if batch_size < 1:
        raise KgError("--batch-size must be at least 1")
    max_bytes = max_batch_bytes or connection.dialect.max_batch_bytes
    counts = [unit.counts() for unit in units]
    report = PushReport(
        total_nodes=sum(n for n, _ in counts),
        total_relationships=sum(r for _, r in counts),
        server=connection.dialect.name,
    )
    writer = _Writer(connection, report, batch_size, max_bytes, progress)
    start = time.perf_counter()
    keys: set[str] = set()
    ends: list[str] = []
    try:
        with writer.step("schema"):
            writer.ensure_key_schema()
        with writer.step("nodes"):
            for unit in units:
                node_list = sorted_rows(unit.nodes())
                keys.update(row.key for row in node_list)
                for kind, rows in by_kind(node_list).items():
                    node_group = [[row.key, {"key": row.key, **row.props}] for row in rows]
                    writer.write_rows("nodes", node_group, 1, _NodeStatements(kind))
        for unit in units:
            ends.extend(_push_relationships(writer, unit))
        with writer.step("orphans"):
            writer.delete_orphans(keys, orphan_candidates(keys, ends))
    except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError, KgError) as exc:
        report.seconds = time.perf_counter() - start
        cause = getattr(exc, "message", None) or str(exc)
        raise PushError(
            f"push to {connection.settings.uri} stopped: {cause}; so far "
            f"{report.summary()}; running the push again converges",
            report,
        ) from None
    report.seconds = time.perf_counter() - start
    return report


def _push_relationships(writer: "_Writer", unit: Unit) -> list[str]:
    """Delete the relationships the unit's nodes own on the server but the unit lacks,
    write the unit's; the keys at the ends of the deleted ones."""
    node_list, rel_list = unit.nodes(), sorted_rows(unit.relationships())
    graph = _Graph(
        keys_by_kind={k: [row.key for row in rows] for k, rows in by_kind(node_list).items()},
        relationships=frozenset((row.type, row.start, row.end) for row in rel_list),
        abstracts={
            row.key: abstract
            for row in node_list
            if row.kind == PAPER and isinstance(abstract := row.props.get("abstract"), str)
        },
    )
    with writer.step("stale relationships"):
        existing, stale = writer.delete_stale(graph)
    with writer.step("relationships"):
        for group, rows in by_group(rel_list).items():
            rel_group = [[row.start, row.end, row.props] for row in rows]
            create, update, unchanged = changes(group, rel_group, existing)
            writer.report.relationships += len(unchanged)
            texts = graph.abstracts if group[1] == PAPER else None
            for verb, part in (("CREATE", create), ("MERGE", update)):
                writer.write_rows(
                    "relationships", part, 2, _RelationshipStatements(group, verb, texts)
                )
    return [key for _, src, dst in stale for key in (src, dst)]


class _NodeStatements:
    """The statements that write a group of node rows."""

    source_texts: dict[str, str] | None = None

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.key_kinds: tuple[str, ...] = (kind,)

    def rows(self) -> str:
        return cypher.merge_nodes_query(self.kind)

    def packed(self, columns: list[tuple[str, str]], shared: int | None) -> str:
        return packed_merge_nodes_query(self.kind, columns)

    def shared(self, rows: list[list]) -> int | None:
        return None

    def append(self, name: str) -> str:
        return cypher.append_node_property_query(self.kind, name)

    def append_params(self, row: list) -> dict:
        return {"key": row[0]}


class _RelationshipStatements:
    """The statements that write a group of relationship rows, with MERGE or CREATE."""

    def __init__(
        self, group: tuple[str, str, str], verb: str, source_texts: dict[str, str] | None
    ) -> None:
        self.group, self.verb = group, verb
        self.key_kinds: tuple[str, ...] = group[1:]
        self.source_texts = source_texts

    def rows(self) -> str:
        return cypher.write_relationships_query(*self.group, verb=self.verb)

    def packed(self, columns: list[tuple[str, str]], shared: int | None) -> str:
        return packed_write_relationships_query(*self.group, columns, verb=self.verb, shared=shared)

    def shared(self, rows: list[list]) -> int | None:
        return shared_endpoint(rows)

    def append(self, name: str) -> str:
        return cypher.append_relationship_property_query(*self.group, name)

    def append_params(self, row: list) -> dict:
        return {"src": row[0], "dst": row[1]}


class _Writer:
    """Sends batches for one push and keeps its report and progress up to date."""

    def __init__(
        self,
        connection: Connection,
        report: PushReport,
        batch_size: int,
        max_bytes: int,
        progress: Progress | None,
    ) -> None:
        self.connection, self.report = connection, report
        self.batch_size, self.max_bytes = batch_size, max_bytes
        self.progress = progress or (lambda step, done, total: None)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time a step (a step taken again, e.g. once per unit, adds to its time)."""
        start = time.perf_counter()
        yield
        seconds = time.perf_counter() - start
        steps = self.report.steps
        at = next((i for i, (n, _) in enumerate(steps) if n == name), None)
        if at is None:
            steps.append((name, round(seconds, 3)))
        else:
            steps[at] = (name, round(steps[at][1] + seconds, 3))

    def _write(self, statement: str, params: dict | None) -> Any:
        counters = self.connection.write(statement, params)
        self.report.statements += 1
        return counters

    def _advance(self, step: str, count: int) -> None:
        setattr(self.report, step, getattr(self.report, step) + count)
        self.progress(step, getattr(self.report, step), getattr(self.report, f"total_{step}"))

    def ensure_key_schema(self) -> None:
        existing = set()
        if not self.connection.dialect.constraints:
            rows = self.connection.read(cypher.INDEXES_QUERY)
            existing = {row["label"] for row in rows if "key" in (row["properties"] or [])}
        for statement in self.connection.dialect.key_schema_statements(existing):
            self._write(statement, None)

    def write_rows(
        self,
        step: str,
        rows: list[list],
        n_keys: int,
        statements: _NodeStatements | _RelationshipStatements,
    ) -> None:
        """Write rows packed where the dialect wants it and they fit, the rest as lists."""
        if self.connection.dialect.packed_rows and rows:

            def send(statement: str, packed: str, count: int) -> None:
                self._write(statement, {"rows": packed})
                self._advance(step, count)

            rows = write_packed(
                rows, statements, send, max_bytes=self.max_bytes, max_rows=self.batch_size
            )
        statement = statements.rows()
        overhead = len(statement.encode("utf-8")) + len("rows")
        budget = self.max_bytes - overhead - 4
        for batch in batches(
            rows, max_rows=self.batch_size, max_bytes=self.max_bytes, overhead=overhead
        ):
            appends = []
            if any(serialised_size(r) > budget for r in batch):
                split = [
                    split_oversized(r, n_keys, budget, piece_budget=max(budget - 256, 64))
                    for r in batch
                ]
                batch = [r for r, _ in split]
                appends = [(r, pieces) for r, pieces in split if pieces]
            self._write(statement, {"rows": batch})
            for row, pieces in appends:
                for name, piece in pieces:
                    self._write(
                        statements.append(name), {**statements.append_params(row), "piece": piece}
                    )
            self._advance(step, len(batch))

    def _key_batches(self, keys: list[str]) -> Iterator[list]:
        return batches(keys, max_rows=self.batch_size, max_bytes=self.max_bytes, overhead=400)

    def delete_stale(self, graph: _Graph) -> tuple[dict[RelKey, dict], set[RelKey]]:
        """Read the relationships the graph's nodes own on the server; delete those it lacks.

        Returns ``(existing, stale)``: the properties of what stays, keyed by
        ``(type, source, target)``, and the set of deleted keys.
        """
        existing: dict[RelKey, dict] = {}
        for kind in [PAPER] + owner_kinds():
            query = cypher.existing_relationships_query(kind)
            for batch in self._key_batches(graph.keys_by_kind.get(kind, [])):
                for row in self.connection.read(query, {"rows": batch}):
                    src, dst = (
                        (row["node"], row["other"])
                        if row["outgoing"]
                        else (row["other"], row["node"])
                    )
                    existing[(row["type"], src, dst)] = row["props"]
        stale = stale_relationships(graph.relationships, existing)
        groups: dict[tuple[str, str, str], list[list[str]]] = {}
        for rel_type, src, dst in sorted(stale):
            existing.pop((rel_type, src, dst))
            src_kind, dst_kind = kind_of_key(src), kind_of_key(dst)
            if src_kind and dst_kind:
                groups.setdefault((rel_type, src_kind, dst_kind), []).append([src, dst])
        for group, rows in groups.items():
            query = cypher.delete_relationships_query(*group)
            for batch in batches(
                rows, max_rows=self.batch_size, max_bytes=self.max_bytes, overhead=len(query)
            ):
                counters = self._write(query, {"rows": batch})
                self.report.deleted_relationships += counters.relationships_deleted
        return existing, stale

    def delete_orphans(self, graph_keys: set[str], keys: list[str]) -> None:
        """Delete the nodes of ``keys`` that nothing points to, then whatever that orphans
        (never one of ``graph_keys``)."""
        while keys:
            by_key_kind: dict[str, list[str]] = {}
            targets: set[str] = set()
            for key in keys:
                by_key_kind.setdefault(kind_of_key(key) or "", []).append(key)
            for kind, candidates in sorted(by_key_kind.items()):
                orphans = []
                for batch in self._key_batches(candidates):
                    for row in self.connection.read(cypher.orphans_query(kind), {"rows": batch}):
                        orphans.append(row["key"])
                        targets.update(row["targets"])
                query = cypher.delete_nodes_query(kind)
                for batch in self._key_batches(orphans):
                    counters = self._write(query, {"rows": batch})
                    self.report.deleted_nodes += counters.nodes_deleted
                    self.report.deleted_relationships += counters.relationships_deleted
            keys = orphan_candidates(graph_keys, targets)


def terminal_progress(stream: TextIO | None = None) -> Progress | None:
    """A ``progress`` callback drawing a bar per step on a terminal; None when not a terminal."""
    out = stream or sys.stderr
    if not out.isatty():
        return None
    from tqdm import tqdm

    bars: dict[str, Any] = {}

    def progress(step: str, done: int, total: int) -> None:
        bar = bars.get(step)
        if bar is None:
            for other in bars.values():
                other.close()
            bar = bars[step] = tqdm(total=total, desc=step, unit=" rows", file=out, leave=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return progress
