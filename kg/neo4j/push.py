"""Write the graph to a Bolt server (Neo4j) and run Cypher there.

A push is idempotent and converges: nodes are MERGEd on ``key`` (under a uniqueness
constraint per label, or an index where the server has no constraints); the relationships
the server has for the graph's papers (and APPLIED_TO/PART_OF sources) are read, those the
graph no longer has are deleted, missing ones created, changed ones MERGEd, identical ones
left alone; then entities that nothing points to any more are deleted. Every statement is
``UNWIND $rows ...`` over a batch bounded by rows and serialised bytes (:mod:`kg.neo4j.rows`).
What differs between Neo4j and FalkorDB is decided once per connection, in :class:`Dialect`.
"""

import os
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import itemgetter

from kg.errors import KgError
from kg.neo4j.rows import (
    RECORD,
    append_node_property_query,
    append_relationship_property_query,
    batches,
    delete_nodes_query,
    delete_relationships_query,
    existing_relationships_query,
    fitted_batches,
    grouped_lines,
    kind_of_key,
    merge_nodes_query,
    node_rows,
    orphan_candidates,
    orphans_query,
    owner_kinds,
    packed_columns,
    packed_merge_nodes_query,
    packed_size,
    packed_write_relationships_query,
    relationship_rows,
    row_packer,
    serialised_size,
    shared_endpoint,
    split_oversized,
    stale_relationships,
    write_relationships_query,
)
from kg.schema import NODE_KINDS, PAPER, labels_of

DEFAULT_BATCH_SIZE = 2000
DEFAULT_URI = "bolt://localhost:7687"
CONNECT_TIMEOUT = 10.0
WRITE_CLAUSES = re.compile(
    r"(?<![\w.$`])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|FOREACH|LOAD\s+CSV|"
    r"CALL\s*\{|IN\s+TRANSACTIONS|ALTER|GRANT|DENY|REVOKE)(?![\w`])",
    re.IGNORECASE,
)
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


class BoltError(KgError):
    """The Bolt server could not be reached, refused us, or failed a statement."""


class PushError(BoltError):
    """A push stopped part-way; ``report`` says what had been written."""

    def __init__(self, message, report):
        super().__init__(message)
        self.report = report


# ---------------------------------------------------------------- server dialects


@dataclass(frozen=True)
class Dialect:
    """What differs between Neo4j and other Bolt servers (FalkorDB); decided once per connection.

    ``max_batch_bytes`` is the default cap on a statement's serialised text and parameters;
    ``packed_rows`` sends rows as one delimited string (see :mod:`kg.neo4j.rows`);
    without ``transactions`` (no rollback, so nothing to gain but round trips) statements
    run in auto-commit.
    """

    name: str
    constraints: bool
    databases: bool
    max_batch_bytes: int
    escape_strings: bool = False
    packed_rows: bool = False
    transactions: bool = True

    def params(self, value):
        r"""Parameters as this server must receive them.

        FalkorDB splices string parameters into single-quoted Cypher literals without
        escaping them, so quotes and backslashes are escaped for it here.

        >>> GENERIC_BOLT.params({"rows": [["it's", 1]]})
        {'rows': [["it\\'s", 1]]}
        >>> NEO4J.params({"name": "it's"})
        {'name': "it's"}
        """
        if not self.escape_strings:
            return value
        if isinstance(value, str):
            return value.replace("\\", "\\\\").replace("'", "\\'")
        if isinstance(value, dict):
            return {key: self.params(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.params(item) for item in value]
        return value

    def key_schema_statements(self, existing_index_labels):
        """DDL that makes ``key`` unique (Neo4j) or indexed (others) on every label."""
        labels = sorted({label for kind in NODE_KINDS for label in labels_of(kind)})
        if self.constraints:
            return [
                f"CREATE CONSTRAINT kg_{label.lower()}_key IF NOT EXISTS "
                f"FOR (n:{label}) REQUIRE n.key IS UNIQUE"
                for label in labels
            ]
        return [
            f"CREATE INDEX FOR (n:{label}) ON (n.key)"
            for label in labels
            if label not in existing_index_labels
        ]


NEO4J = Dialect("Neo4j", constraints=True, databases=True, max_batch_bytes=8 * 1024 * 1024)
#: FalkorDB crashes on statements over about 4 KB (measured: 4,060 bytes of statement and
#: escaped parameters pass, 4,100 crash), has no constraints or databases, splices
#: string parameters into the statement unescaped, parses list and map parameters slowly, and
#: has no rollback (a transaction there only adds round trips).
GENERIC_BOLT = Dialect(
    "Bolt server without constraints (FalkorDB)",
    constraints=False,
    databases=False,
    max_batch_bytes=3900,
    escape_strings=True,
    packed_rows=True,
    transactions=False,
)


def detect_dialect(session):
    """Neo4j if the server answers ``dbms.components()`` as Neo4j, else the generic dialect."""
    import neo4j

    try:
        rows = session.run("CALL dbms.components() YIELD name RETURN name").data()
    except neo4j.exceptions.Neo4jError:
        return GENERIC_BOLT
    return NEO4J if any(row["name"].startswith("Neo4j") for row in rows) else GENERIC_BOLT


# ---------------------------------------------------------------- connection


@dataclass(frozen=True)
class Settings:
    """Where and how to connect; unset fields come from NEO4J_URI/USERNAME/PASSWORD/DATABASE."""

    uri: str = DEFAULT_URI
    user: str | None = None
    password: str | None = None
    database: str | None = None

    @classmethod
    def resolve(cls, *, uri=None, user=None, password=None, database=None, environ=None):
        """Explicit values first, then the environment, then defaults.

        >>> Settings.resolve(uri=None, environ={"NEO4J_URI": "bolt://h:1", "NEO4J_PASSWORD": "p"})
        Settings(uri='bolt://h:1', user='neo4j', password='p', database=None)
        """
        env = os.environ if environ is None else environ
        password = password if password is not None else env.get("NEO4J_PASSWORD")
        user = user or env.get("NEO4J_USERNAME") or ("neo4j" if password else None)
        return cls(
            uri=uri or env.get("NEO4J_URI") or DEFAULT_URI,
            user=user,
            password=password,
            database=database or env.get("NEO4J_DATABASE") or None,
        )


class Connection:
    """A driver and one long-lived session on a Bolt server, with the server's dialect."""

    def __init__(self, settings, *, connect_timeout=CONNECT_TIMEOUT):
        import neo4j

        self.settings = settings
        auth = (settings.user or "neo4j", settings.password) if settings.password else None
        try:
            if settings.uri.partition("://")[0] not in BOLT_SCHEMES:
                raise ValueError(f"the scheme must be one of {', '.join(BOLT_SCHEMES)}")
            self.driver = neo4j.GraphDatabase.driver(
                settings.uri,
                auth=auth,
                connection_timeout=connect_timeout,
                connection_acquisition_timeout=connect_timeout * 2,
                max_transaction_retry_time=15,
            )
        except (ValueError, neo4j.exceptions.ConfigurationError) as exc:
            raise BoltError(
                f"bad Bolt URI {settings.uri!r}: {exc}; use bolt://HOST:7687 or neo4j://HOST:7687"
            ) from None
        try:
            self.driver.verify_connectivity()
            with self.driver.session() as probe:
                self.dialect = detect_dialect(probe)
            if settings.database and not self.dialect.databases:
                raise BoltError(
                    f"{settings.uri} ({self.dialect.name}) has no named databases; "
                    f"drop --database / NEO4J_DATABASE ({settings.database!r})"
                )
            self.session = self.driver.session(database=settings.database)
            self.session.run("RETURN 1").consume()
        except BaseException as exc:
            self.driver.close()
            if isinstance(exc, neo4j.exceptions.DriverError | neo4j.exceptions.Neo4jError):
                raise connection_error(exc, settings) from None
            raise

    def close(self):
        if getattr(self, "session", None) is not None:
            self.session.close()
        self.driver.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def write(self, cypher, params=None):
        """Run one write statement; returns its counters."""
        return self._execute(_consume, cypher, params, write=True)

    def read(self, cypher, params=None, *, write=False):
        """Run one statement, read-only unless ``write``; returns its rows as dicts."""
        return self._execute(_rows, cypher, params, write=write)

    def _execute(self, work, cypher, params, *, write):
        """A managed transaction (retried on transient errors) where the server has them."""
        params = self.dialect.params(params or {})
        if not self.dialect.transactions:
            return work(self.session, cypher, params)
        execute = self.session.execute_write if write else self.session.execute_read
        return execute(work, cypher, params)


def _consume(tx, cypher, params):
    return tx.run(cypher, params).consume().counters


def _rows(tx, cypher, params):
    return [record.data() for record in tx.run(cypher, params)]


def connection_error(exc, settings):
    """One line for a failure to connect: unreachable, refused login, unknown database."""
    import neo4j

    where = settings.uri
    code = getattr(exc, "code", None) or ""
    if isinstance(exc, neo4j.exceptions.AuthError) or "Security" in code:
        return BoltError(
            f"{where} refused the login of user {settings.user!r}: check "
            "--user/--password or NEO4J_USERNAME/NEO4J_PASSWORD"
        )
    if "DatabaseNotFound" in code:
        return BoltError(
            f"{where} has no database {settings.database!r}: create it or pick "
            "another with --database / NEO4J_DATABASE"
        )
    if isinstance(exc, neo4j.exceptions.ServiceUnavailable):
        return BoltError(
            f"cannot reach a Bolt server at {where}: is it running "
            "(docker compose -f docker/compose.yml up -d --wait) and is the URI "
            "right?"
        )
    if isinstance(exc, neo4j.exceptions.DatabaseError) and settings.password:
        return BoltError(
            f"{where} refused the connection ({exc.message}); check "
            "--user/--password, or connect without a password if the server "
            "needs none"
        )
    message = getattr(exc, "message", None) or str(exc)
    return BoltError(f"{where}: {message}")


def connect(*, uri=None, user=None, password=None, database=None, connect_timeout=CONNECT_TIMEOUT):
    """Open a :class:`Connection`; unset arguments come from the NEO4J_* environment."""
    settings = Settings.resolve(uri=uri, user=user, password=password, database=database)
    return Connection(settings, connect_timeout=connect_timeout)


# ---------------------------------------------------------------- runner


def refuse_writes(cypher):
    """Raise if a statement has a write clause (outside strings and comments).

    The server enforces read access on Neo4j; this also holds on servers that do not.

    >>> refuse_writes("MATCH (n {name: 'CREATE'}) RETURN n.set")
    >>> refuse_writes("MATCH (n) DETACH DELETE n")
    Traceback (most recent call last):
    kg.neo4j.push.BoltError: read-only query contains DETACH; pass --write to run writes
    """
    code = re.sub(
        r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/",
        " ",
        cypher,
        flags=re.DOTALL,
    )
    found = WRITE_CLAUSES.search(code)
    if found:
        clause = " ".join(found.group(1).split()).upper()
        raise BoltError(f"read-only query contains {clause}; pass --write to run writes")


class BoltRunner:
    """``runner(cypher, params) -> list[dict]`` over one long-lived session.

    Read access mode unless ``write=True``; the same signature as the embedded runner,
    so named queries run unchanged on either.
    """

    def __init__(self, connection, *, write=False):
        self.connection = connection
        self.write = write

    def __call__(self, cypher, params=None):
        import neo4j

        try:
            if not self.write:
                refuse_writes(cypher)
            return self.connection.read(cypher, params, write=self.write)
        except neo4j.exceptions.Neo4jError as exc:
            raise BoltError(f"{self.connection.settings.uri}: {exc.message or exc}") from None
        except neo4j.exceptions.DriverError as exc:
            raise BoltError(f"{self.connection.settings.uri}: {exc}") from None

    def close(self):
        self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def bolt_runner(*, uri=None, user=None, password=None, database=None, write=False):
    """Connect and return a :class:`BoltRunner`; close it when done."""
    return BoltRunner(
        connect(uri=uri, user=user, password=password, database=database), write=write
    )


# ---------------------------------------------------------------- push


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

    def summary(self):
        return (
            f"{self.nodes:,}/{self.total_nodes:,} nodes and "
            f"{self.relationships:,}/{self.total_relationships:,} relationships written, "
            f"{self.deleted_relationships:,} stale relationships and "
            f"{self.deleted_nodes:,} orphaned nodes deleted"
        )


def push(G, connection, *, batch_size=DEFAULT_BATCH_SIZE, max_batch_bytes=None, progress=None):
    """Write ``G`` to the server: key constraints, nodes, stale edges out, edges, orphans out.

    Parameters
    ----------
    batch_size : rows per statement at most.
    max_batch_bytes : serialised bytes per statement at most (default: the server dialect's).
    progress : optional ``progress(step, done, total)`` callback.

    Returns a :class:`PushReport`; raises :class:`PushError` carrying the report so far.
    """
    import neo4j

    if batch_size < 1:
        raise KgError("--batch-size must be at least 1")
    max_bytes = max_batch_bytes or connection.dialect.max_batch_bytes
    nodes, rels = node_rows(G), relationship_rows(G)
    report = PushReport(
        total_nodes=sum(map(len, nodes.values())),
        total_relationships=sum(map(len, rels.values())),
        server=connection.dialect.name,
    )
    writer = _Writer(connection, report, batch_size, max_bytes, progress)
    start = time.perf_counter()
    try:
        with writer.step("schema"):
            writer.ensure_key_schema()
        with writer.step("nodes"):
            for kind, rows in nodes.items():
                writer.write_rows("nodes", rows, 1, _NodeStatements(kind))
        with writer.step("stale relationships"):
            existing, stale = writer.delete_stale(G)
        with writer.step("relationships"):
            abstracts = paper_abstracts(G)
            for group, rows in rels.items():
                create, update, unchanged = changes(group, rows, existing)
                report.relationships += len(unchanged)
                texts = abstracts if group[1] == PAPER else None
                for verb, part in (("CREATE", create), ("MERGE", update)):
                    writer.write_rows(
                        "relationships", part, 2, _RelationshipStatements(*group, verb, texts)
                    )
        with writer.step("orphans"):
            writer.delete_orphans(G, orphan_candidates(G, [k for _, s, d in stale for k in (s, d)]))
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


def changes(group, rows, existing):
    """Split a group's rows into (to create, to MERGE, unchanged) against the server's.

    ``existing`` maps ``(type, source, target)`` to properties for every relationship the
    server has that the push read; a row it could not have read is MERGEd.

    >>> group = ("USES", "Paper", "Method")
    >>> rows = [["p:a", "m:x", {"s": 1}], ["p:a", "m:y", {}], ["p:a", "m:z", {}]]
    >>> changes(group, rows, {("USES", "p:a", "m:x"): {"s": 2}, ("USES", "p:a", "m:y"): {}})
    ([['p:a', 'm:z', {}]], [['p:a', 'm:x', {'s': 1}]], [['p:a', 'm:y', {}]])
    """
    rel_type, src_kind, dst_kind = group
    was_read = PAPER in (src_kind, dst_kind) or src_kind in owner_kinds()
    create, update, unchanged = [], [], []
    for row in rows:
        props = existing.get((rel_type, row[0], row[1]))
        if props is None:
            (create if was_read else update).append(row)
        else:
            (unchanged if props == row[2] else update).append(row)
    return create, update, unchanged


def paper_abstracts(G):
    """Each Paper's abstract by key: what packed relationship rows may cut their texts from."""
    return {
        key: attrs["abstract"]
        for key, attrs in G.nodes(data=True)
        if attrs.get("kind") == PAPER and isinstance(attrs.get("abstract"), str)
    }


class _NodeStatements:
    """The statements that write a group of node rows."""

    source_texts = None

    def __init__(self, kind):
        self.kind, self.key_kinds = kind, (kind,)

    def rows(self):
        return merge_nodes_query(self.kind)

    def packed(self, columns, shared):
        return packed_merge_nodes_query(self.kind, columns)

    def shared(self, rows):
        return None

    def append(self, name):
        return append_node_property_query(self.kind, name)

    def append_params(self, row):
        return {"key": row[0]}


class _RelationshipStatements:
    """The statements that write a group of relationship rows, with MERGE or CREATE."""

    def __init__(self, rel_type, src_kind, dst_kind, verb, source_texts=None):
        self.group, self.verb = (rel_type, src_kind, dst_kind), verb
        self.key_kinds = (src_kind, dst_kind)
        self.source_texts = source_texts

    def rows(self):
        return write_relationships_query(*self.group, verb=self.verb)

    def packed(self, columns, shared):
        return packed_write_relationships_query(*self.group, columns, verb=self.verb, shared=shared)

    def shared(self, rows):
        return shared_endpoint(rows)

    def append(self, name):
        return append_relationship_property_query(*self.group, name)

    def append_params(self, row):
        return {"src": row[0], "dst": row[1]}


class _Writer:
    """Sends batches for one push and keeps its report and progress up to date."""

    def __init__(self, connection, report, batch_size, max_bytes, progress):
        self.connection, self.report = connection, report
        self.batch_size, self.max_bytes = batch_size, max_bytes
        self.progress = progress or (lambda step, done, total: None)

    @contextmanager
    def step(self, name):
        start = time.perf_counter()
        yield
        self.report.steps.append((name, round(time.perf_counter() - start, 3)))

    def _write(self, cypher, params):
        counters = self.connection.write(cypher, params)
        self.report.statements += 1
        return counters

    def _advance(self, step, count):
        setattr(self.report, step, getattr(self.report, step) + count)
        self.progress(step, getattr(self.report, step), getattr(self.report, f"total_{step}"))

    def ensure_key_schema(self):
        existing = set()
        if not self.connection.dialect.constraints:
            rows = self.connection.read(
                "CALL db.indexes() YIELD label, properties RETURN label, properties"
            )
            existing = {row["label"] for row in rows if "key" in (row["properties"] or [])}
        for statement in self.connection.dialect.key_schema_statements(existing):
            self._write(statement, None)

    def write_rows(self, step, rows, n_keys, statements):
        """Write rows packed where the dialect wants it and they fit, the rest as lists."""
        if self.connection.dialect.packed_rows and rows:
            rows = self._write_packed(step, rows, n_keys, statements)
        cypher = statements.rows()
        overhead = len(cypher.encode("utf-8")) + len("rows")
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
            self._write(cypher, {"rows": batch})
            for row, pieces in appends:
                for name, piece in pieces:
                    self._write(
                        statements.append(name), {**statements.append_params(row), "piece": piece}
                    )
            self._advance(step, len(batch))

    def _write_packed(self, step, rows, n_keys, statements):
        """Write the rows that pack within the byte cap; return the others."""
        texts = statements.source_texts
        columns = packed_columns(rows, statements.key_kinds, source_texts=texts)
        if columns is None:
            return rows
        shared = statements.shared(rows)
        cypher = statements.packed(columns, shared)
        overhead = len(cypher.encode("utf-8")) + len("rows") + 4
        pack = row_packer(statements.key_kinds, columns, source_texts=texts, shared=shared)
        room, others = self.max_bytes - overhead, []
        if shared is None:
            lines = []
            for row in rows:
                line = pack(row)
                size = packed_size(line)
                if size < room:
                    lines.append((line, 1, size))
                else:
                    others.append(row)
        else:
            edges, key_sizes = [], {}
            for row in rows:
                key, edge = pack(row)
                key_size = key_sizes.get(key)
                if key_size is None:
                    key_size = key_sizes[key] = packed_size(key)
                edge_size = packed_size(edge)
                if key_size + 1 + edge_size < room:
                    edges.append((key, edge, edge_size))
                else:
                    others.append(row)
            lines = grouped_lines(edges, max_size=room - 1, max_rows=self.batch_size)
        for batch in fitted_batches(
            lines,
            max_rows=self.batch_size,
            max_bytes=self.max_bytes,
            overhead=overhead,
            size=itemgetter(2),
            count=itemgetter(1),
        ):
            self._write(cypher, {"rows": RECORD.join([line for line, _, _ in batch])})
            self._advance(step, sum(count for _, count, _ in batch))
        return others

    def _key_batches(self, keys):
        return batches(keys, max_rows=self.batch_size, max_bytes=self.max_bytes, overhead=400)

    def delete_stale(self, G):
        """Read the relationships the graph's nodes own on the server; delete those G lacks.

        Returns ``(existing, stale)``: the properties of what stays, keyed by
        ``(type, source, target)``, and the set of deleted keys.
        """
        existing = {}
        for kind in [PAPER] + owner_kinds():
            keys = sorted(k for k, a in G.nodes(data=True) if a["kind"] == kind)
            for batch in self._key_batches(keys):
                cypher = existing_relationships_query(kind)
                for row in self.connection.read(cypher, {"rows": batch}):
                    src, dst = (
                        (row["node"], row["other"])
                        if row["outgoing"]
                        else (row["other"], row["node"])
                    )
                    existing[(row["type"], src, dst)] = row["props"]
        stale = stale_relationships(G, existing)
        groups = {}
        for rel_type, src, dst in sorted(stale):
            existing.pop((rel_type, src, dst))
            src_kind, dst_kind = kind_of_key(src), kind_of_key(dst)
            if src_kind and dst_kind:
                groups.setdefault((rel_type, src_kind, dst_kind), []).append([src, dst])
        for group, rows in groups.items():
            cypher = delete_relationships_query(*group)
            for batch in batches(
                rows, max_rows=self.batch_size, max_bytes=self.max_bytes, overhead=len(cypher)
            ):
                counters = self._write(cypher, {"rows": batch})
                self.report.deleted_relationships += counters.relationships_deleted
        return existing, stale

    def delete_orphans(self, G, keys):
        """Delete nodes outside the graph that nothing points to, then whatever that orphans."""
        while keys:
            by_kind, targets = {}, set()
            for key in keys:
                by_kind.setdefault(kind_of_key(key), []).append(key)
            for kind, candidates in sorted(by_kind.items()):
                orphans = []
                for batch in self._key_batches(candidates):
                    for row in self.connection.read(orphans_query(kind), {"rows": batch}):
                        orphans.append(row["key"])
                        targets.update(row["targets"])
                cypher = delete_nodes_query(kind)
                for batch in self._key_batches(orphans):
                    counters = self._write(cypher, {"rows": batch})
                    self.report.deleted_nodes += counters.nodes_deleted
                    self.report.deleted_relationships += counters.relationships_deleted
            keys = orphan_candidates(G, targets)


def terminal_progress(stream=None):
    """A ``progress`` callback drawing a bar per step on a terminal; None when not a terminal."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None
    from tqdm import tqdm

    bars = {}

    def progress(step, done, total):
        bar = bars.get(step)
        if bar is None:
            for other in bars.values():
                other.close()
            bar = bars[step] = tqdm(total=total, desc=step, unit=" rows", file=stream, leave=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return progress
