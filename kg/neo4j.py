"""Write the graph to a Bolt server (Neo4j) and run Cypher there.

A push is idempotent and converges: nodes are MERGEd on ``key`` (under a uniqueness
constraint per label, or an index where the server has no constraints), then each node's
relationships that the graph no longer has are deleted, then relationships are MERGEd
between nodes matched by label and key, then entities that nothing points to any more are
deleted. Every statement is ``UNWIND $rows ...`` over a batch bounded by rows and by
serialised bytes; labels and relationship types come only from :mod:`kg.schema`.

Examples
--------
>>> merge_nodes_query("Method")
'UNWIND $rows AS row MERGE (n:Method {key: row[0]}) SET n = row[1] SET n:Concept'
>>> merge_relationships_query("AUTHORED", "Author", "Paper")
'UNWIND $rows AS row MATCH (a:Author {key: row[0]}) MATCH (b:Paper {key: row[1]}) MERGE (a)-[r:AUTHORED]->(b) SET r = row[2]'
"""

import json
import os
import re
import sys
import time
from dataclasses import dataclass, field

from kg.errors import KgError
from kg.schema import NODE_KINDS, PAPER, REL_ENDPOINTS, REL_TYPES, labels_of

DEFAULT_BATCH_SIZE = 2000
DEFAULT_URI = "bolt://localhost:7687"
CONNECT_TIMEOUT = 10.0
WRITE_CLAUSES = re.compile(
    r"(?<![\w.$`])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|FOREACH|LOAD\s+CSV|"
    r"CALL\s*\{|IN\s+TRANSACTIONS|ALTER|GRANT|DENY|REVOKE)(?![\w`])", re.IGNORECASE)
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
PROPERTY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


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

    ``max_batch_bytes`` is the default cap on a statement's serialised text and parameters.
    """

    name: str
    constraints: bool
    databases: bool
    max_batch_bytes: int
    escape_strings: bool = False

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
            return [f"CREATE CONSTRAINT kg_{label.lower()}_key IF NOT EXISTS "
                    f"FOR (n:{label}) REQUIRE n.key IS UNIQUE" for label in labels]
        return [f"CREATE INDEX FOR (n:{label}) ON (n.key)"
                for label in labels if label not in existing_index_labels]


NEO4J = Dialect("Neo4j", constraints=True, databases=True, max_batch_bytes=8 * 1024 * 1024)
#: FalkorDB crashes on statements over about 4 KB, has no constraints or databases, and
#: splices string parameters into the statement unescaped.
GENERIC_BOLT = Dialect("Bolt server without constraints (FalkorDB)", constraints=False,
                       databases=False, max_batch_bytes=3500, escape_strings=True)


def detect_dialect(session):
    """Neo4j if the server answers ``dbms.components()`` as Neo4j, else the generic dialect."""
    import neo4j

    try:
        rows = session.run("CALL dbms.components() YIELD name RETURN name").data()
    except neo4j.exceptions.Neo4jError:
        return GENERIC_BOLT
    return NEO4J if any(row["name"].startswith("Neo4j") for row in rows) else GENERIC_BOLT


# ---------------------------------------------------------------- Cypher builders

def _label(kind):
    if kind not in NODE_KINDS:
        raise KgError(f"unknown node kind {kind!r}; expected one of {', '.join(NODE_KINDS)}")
    return kind


def _rel_type(rel_type):
    if rel_type not in REL_TYPES:
        raise KgError(f"unknown relationship type {rel_type!r}; "
                      f"expected one of {', '.join(REL_TYPES)}")
    return rel_type


def _property(name):
    if not PROPERTY_NAME.fullmatch(name):
        raise KgError(f"property name {name!r} is not a plain identifier")
    return f"`{name}`"


def merge_nodes_query(kind):
    extra = "".join(f" SET n:{label}" for label in labels_of(_label(kind))[1:])
    return f"UNWIND $rows AS row MERGE (n:{kind} {{key: row[0]}}) SET n = row[1]{extra}"


def merge_relationships_query(rel_type, src_kind, dst_kind):
    return (f"UNWIND $rows AS row MATCH (a:{_label(src_kind)} {{key: row[0]}}) "
            f"MATCH (b:{_label(dst_kind)} {{key: row[1]}}) "
            f"MERGE (a)-[r:{_rel_type(rel_type)}]->(b) SET r = row[2]")


def delete_relationships_query(rel_type, src_kind, dst_kind):
    return (f"UNWIND $rows AS row MATCH (a:{_label(src_kind)} {{key: row[0]}})"
            f"-[r:{_rel_type(rel_type)}]->(b:{_label(dst_kind)} {{key: row[1]}}) DELETE r")


def orphans_query(kind):
    """Nodes nothing points to (no incoming relationship, none with a Paper) and what they point to."""
    return (f"UNWIND $rows AS row MATCH (n:{_label(kind)} {{key: row}}) "
            f"WHERE NOT (n)<--() AND NOT (n)--(:{PAPER}) "
            "OPTIONAL MATCH (n)-->(m) RETURN n.key AS key, collect(m.key) AS targets")


def delete_nodes_query(kind):
    return f"UNWIND $rows AS row MATCH (n:{_label(kind)} {{key: row}}) DETACH DELETE n"


def existing_relationships_query(kind):
    """Relationships a node of this kind owns: all of a Paper's, others' outgoing non-Paper ones."""
    if _label(kind) == PAPER:
        pattern, where = "(n)-[r]-(x)", ""
    else:
        pattern, where = "(n)-[r]->(x)", f" WHERE NOT x:{PAPER}"
    return (f"UNWIND $rows AS row MATCH (n:{kind} {{key: row}}) MATCH {pattern}{where} "
            "RETURN type(r) AS type, startNode(r) = n AS outgoing, n.key AS node, x.key AS other")


def append_node_property_query(kind, name):
    prop = _property(name)
    return f"MATCH (n:{_label(kind)} {{key: $key}}) SET n.{prop} = n.{prop} + $piece"


def append_relationship_property_query(rel_type, src_kind, dst_kind, name):
    prop = _property(name)
    return (f"MATCH (a:{_label(src_kind)} {{key: $src}})-[r:{_rel_type(rel_type)}]->"
            f"(b:{_label(dst_kind)} {{key: $dst}}) SET r.{prop} = r.{prop} + $piece")


# ---------------------------------------------------------------- rows (pure)

def kind_of_key(key):
    """The node kind a key names: ``method:grpo`` -> ``Method``; None if not one of ours.

    >>> kind_of_key("method:grpo"), kind_of_key("paper:0123456789ab"), kind_of_key("x:y")
    ('Method', 'Paper', None)
    """
    prefix = key.partition(":")[0]
    return next((kind for kind in NODE_KINDS if kind.lower() == prefix), None)


def property_map(attrs, *, where, skip=()):
    """Neo4j properties from networkx attributes: None dropped, tuples to lists, types checked."""
    props = {}
    for name, value in attrs.items():
        if name in skip or value is None:
            continue
        if isinstance(value, tuple | list):
            value = list(value)
            if not all(isinstance(item, str) for item in value):
                raise KgError(f"{where}: property {name!r} is a list with non-string items; "
                              "rebuild the graph with this version of kg")
        elif not isinstance(value, str | int | float | bool):
            raise KgError(f"{where}: property {name!r} has type {type(value).__name__}, "
                          "which Neo4j cannot store; rebuild the graph with this version of kg")
        props[name] = value
    return props


def node_rows(G):
    """``{kind: [[key, props], ...]}`` for every node, in a stable order."""
    rows = {}
    for key in sorted(G.nodes):
        attrs = G.nodes[key]
        kind = attrs.get("kind")
        if kind not in NODE_KINDS:
            raise KgError(f"node {key!r} has kind {kind!r}; expected one of {', '.join(NODE_KINDS)}")
        props = property_map(attrs, where=f"node {key!r}", skip=("kind", "key"))
        rows.setdefault(kind, []).append([key, {"key": key, **props}])
    return rows


def edge_group(G, src, dst, rel_type):
    """The (type, source kind, target kind) a relationship is written under."""
    return _rel_type(rel_type), G.nodes[src]["kind"], G.nodes[dst]["kind"]


def relationship_rows(G):
    """``{(type, source kind, target kind): [[source, target, props], ...]}``, stable order."""
    rows = {}
    for src, dst, rel_type, attrs in sorted(G.edges(keys=True, data=True), key=_edge_sort):
        where = f"relationship {src!r} -[{rel_type}]-> {dst!r}"
        props = property_map(attrs, where=where)
        rows.setdefault(edge_group(G, src, dst, rel_type), []).append([src, dst, props])
    return rows


def _edge_sort(edge):
    return edge[2], edge[0], edge[1]


def owner_kinds():
    """Kinds whose nodes own relationships that touch no Paper (APPLIED_TO, PART_OF sources)."""
    return sorted({src for pairs in REL_ENDPOINTS.values() for src, dst in pairs
                   if PAPER not in (src, dst)})


def stale_relationships(G, existing):
    """Relationships on the server (``(type, source, target)``) that the graph does not have.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_edge("paper:a", "method:x", key="USES")
    'USES'
    >>> sorted(stale_relationships(G, [("USES", "paper:a", "method:x"), ("USES", "paper:a", "method:y")]))
    [('USES', 'paper:a', 'method:y')]
    """
    return {(t, s, d) for t, s, d in existing
            if t in REL_TYPES and not G.has_edge(s, d, key=t)}


def orphan_candidates(G, keys):
    """The keys, less the graph's nodes, Papers and keys that are not ours: what may be orphaned."""
    return sorted({key for key in keys if key not in G and kind_of_key(key) not in (None, PAPER)})


def serialised_size(value):
    """Bytes of the compact JSON form (quotes counted twice): a bound on what a server renders.

    >>> serialised_size({"t": "it's"})
    13
    """
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return len(data) + data.count(b"'")


def split_oversized(row, props_index, budget, *, piece_budget=None):
    """Fit a row into ``budget`` bytes: its largest strings and lists move to appended pieces.

    Returns ``(row, [(property, piece), ...])``; the row carries the first piece of each
    moved value and the pieces, appended in order, restore it. Raises if even the row
    without those values does not fit.

    >>> row, pieces = split_oversized(["k", {"key": "k", "text": "abcdefghij"}], 1, 32)
    >>> row[1]["text"] + "".join(p for _, p in pieces)
    'abcdefghij'
    """
    if serialised_size(row) <= budget:
        return row, []
    props = dict(row[props_index])
    row = row[:props_index] + [props] + row[props_index + 1:]
    movable = sorted((name for name, value in props.items()
                      if name != "key" and isinstance(value, str | list)),
                     key=lambda name: -serialised_size(props[name]))
    moved = []
    for name in movable:
        moved.append((name, props[name]))
        props[name] = props[name][:0]
        if serialised_size(row) <= budget:
            break
    else:
        raise KgError(f"row {row[0]!r} needs {serialised_size(row)} bytes even without its "
                      f"long values; raise --max-batch-bytes above {budget}")
    piece_budget = piece_budget or budget
    pieces = [(name, piece) for name, value in moved for piece in pieces_of(value, piece_budget)]
    return row, pieces


def pieces_of(value, budget):
    """Split a string or list into consecutive pieces that each serialise within ``budget``.

    >>> pieces_of("abcdef", 5)
    ['abc', 'def']
    >>> pieces_of(["ab", "cd", "ef"], 12)
    [['ab', 'cd'], ['ef']]
    """
    pieces, start = [], 0
    while start < len(value):
        end = start + 1
        step = max(1, (len(value) - start) // 2)
        while step:
            if end + step <= len(value) and serialised_size(value[start:end + step]) <= budget:
                end += step
            else:
                step //= 2
        pieces.append(value[start:end])
        start = end
    return pieces


def batches(rows, *, max_rows, max_bytes, overhead=0):
    """Consecutive batches of at most ``max_rows`` rows and ``max_bytes`` serialised bytes.

    A row alone over the byte cap forms a batch of its own (callers split such rows first).

    >>> [len(b) for b in batches([["a" * 10]] * 5, max_rows=3, max_bytes=1000)]
    [3, 2]
    >>> [len(b) for b in batches([["a" * 10]] * 5, max_rows=10, max_bytes=40)]
    [2, 2, 1]
    """
    batch, size = [], overhead + 2
    for row in rows:
        row_size = serialised_size(row) + 1
        if batch and (len(batch) >= max_rows or size + row_size > max_bytes):
            yield batch
            batch, size = [], overhead + 2
        batch.append(row)
        size += row_size
    if batch:
        yield batch


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
        return cls(uri=uri or env.get("NEO4J_URI") or DEFAULT_URI, user=user,
                   password=password, database=database or env.get("NEO4J_DATABASE") or None)


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
                settings.uri, auth=auth, connection_timeout=connect_timeout,
                connection_acquisition_timeout=connect_timeout * 2, max_transaction_retry_time=15)
        except (ValueError, neo4j.exceptions.ConfigurationError) as exc:
            raise BoltError(f"bad Bolt URI {settings.uri!r}: {exc}; use bolt://HOST:7687 "
                            "or neo4j://HOST:7687") from None
        try:
            self.driver.verify_connectivity()
            with self.driver.session() as probe:
                self.dialect = detect_dialect(probe)
            if settings.database and not self.dialect.databases:
                raise BoltError(f"{settings.uri} ({self.dialect.name}) has no named databases; "
                                f"drop --database / NEO4J_DATABASE ({settings.database!r})")
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
        """Run one statement in a managed write transaction; returns its counters."""
        return self.session.execute_write(_consume, cypher, self.dialect.params(params or {}))

    def read(self, cypher, params=None, *, write=False):
        """Run one statement in a managed read (or write) transaction; returns rows as dicts."""
        execute = self.session.execute_write if write else self.session.execute_read
        return execute(_rows, cypher, self.dialect.params(params or {}))


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
        return BoltError(f"{where} refused the login of user {settings.user!r}: check "
                         "--user/--password or NEO4J_USERNAME/NEO4J_PASSWORD")
    if "DatabaseNotFound" in code:
        return BoltError(f"{where} has no database {settings.database!r}: create it or pick "
                         "another with --database / NEO4J_DATABASE")
    if isinstance(exc, neo4j.exceptions.ServiceUnavailable):
        return BoltError(f"cannot reach a Bolt server at {where}: is it running "
                         "(docker compose -f docker/compose.yml up -d --wait) and is the URI right?")
    if isinstance(exc, neo4j.exceptions.DatabaseError) and settings.password:
        return BoltError(f"{where} refused the connection ({exc.message}); check "
                         "--user/--password, or connect without a password if the server needs none")
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
    kg.neo4j.BoltError: read-only query contains DETACH; pass --write to run writes
    """
    code = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", " ",
                  cypher, flags=re.DOTALL)
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
    return BoltRunner(connect(uri=uri, user=user, password=password, database=database),
                      write=write)


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
        return (f"{self.nodes:,}/{self.total_nodes:,} nodes and "
                f"{self.relationships:,}/{self.total_relationships:,} relationships written, "
                f"{self.deleted_relationships:,} stale relationships and "
                f"{self.deleted_nodes:,} orphaned nodes deleted")


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
    report = PushReport(total_nodes=sum(map(len, nodes.values())),
                        total_relationships=sum(map(len, rels.values())),
                        server=connection.dialect.name)
    writer = _Writer(connection, report, batch_size, max_bytes, progress)
    start = time.perf_counter()
    try:
        writer.ensure_key_schema()
        for kind, rows in nodes.items():
            writer.write_rows("nodes", merge_nodes_query(kind), rows, 1,
                              lambda name, k=kind: append_node_property_query(k, name),
                              lambda row: {"key": row[0]})
        deleted = writer.delete_stale(G)
        for (rel_type, src, dst), rows in rels.items():
            writer.write_rows("relationships", merge_relationships_query(rel_type, src, dst),
                              rows, 2,
                              lambda name, g=(rel_type, src, dst):
                                  append_relationship_property_query(*g, name),
                              lambda row: {"src": row[0], "dst": row[1]})
        writer.delete_orphans(G, orphan_candidates(G, [k for _, s, d in deleted for k in (s, d)]))
    except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError, KgError) as exc:
        report.seconds = time.perf_counter() - start
        cause = getattr(exc, "message", None) or str(exc)
        raise PushError(f"push to {connection.settings.uri} stopped: {cause}; so far "
                        f"{report.summary()}; running the push again converges", report) from None
    report.seconds = time.perf_counter() - start
    return report


class _Writer:
    """Sends batches for one push and keeps its report and progress up to date."""

    def __init__(self, connection, report, batch_size, max_bytes, progress):
        self.connection, self.report = connection, report
        self.batch_size, self.max_bytes = batch_size, max_bytes
        self.progress = progress or (lambda step, done, total: None)

    def _write(self, cypher, params):
        counters = self.connection.write(cypher, params)
        self.report.statements += 1
        return counters

    def ensure_key_schema(self):
        existing = set()
        if not self.connection.dialect.constraints:
            rows = self.connection.read("CALL db.indexes() YIELD label, properties "
                                        "RETURN label, properties")
            existing = {row["label"] for row in rows if "key" in (row["properties"] or [])}
        for statement in self.connection.dialect.key_schema_statements(existing):
            self._write(statement, None)

    def write_rows(self, step, cypher, rows, props_index, append_query, append_params):
        overhead = len(cypher.encode("utf-8")) + len("rows")
        budget = self.max_bytes - overhead - 4
        total = getattr(self.report, f"total_{step}")
        for batch in batches(rows, max_rows=self.batch_size, max_bytes=self.max_bytes,
                             overhead=overhead):
            appends = []
            if any(serialised_size(r) > budget for r in batch):
                split = [split_oversized(r, props_index, budget,
                                         piece_budget=max(budget - 256, 64)) for r in batch]
                batch = [r for r, _ in split]
                appends = [(r, pieces) for r, pieces in split if pieces]
            self._write(cypher, {"rows": batch})
            for row, pieces in appends:
                for name, piece in pieces:
                    self._write(append_query(name), {**append_params(row), "piece": piece})
            setattr(self.report, step, getattr(self.report, step) + len(batch))
            self.progress(step, getattr(self.report, step), total)

    def _read_batches(self, keys):
        return batches(keys, max_rows=self.batch_size, max_bytes=self.max_bytes,
                       overhead=400)

    def delete_stale(self, G):
        """Delete the relationships of the graph's nodes that the graph no longer has."""
        existing = []
        for kind in [PAPER] + owner_kinds():
            keys = sorted(k for k, a in G.nodes(data=True) if a["kind"] == kind)
            for batch in self._read_batches(keys):
                for row in self.connection.read(existing_relationships_query(kind), {"rows": batch}):
                    src, dst = ((row["node"], row["other"]) if row["outgoing"]
                                else (row["other"], row["node"]))
                    existing.append((row["type"], src, dst))
        stale = stale_relationships(G, existing)
        groups = {}
        for rel_type, src, dst in sorted(stale):
            src_kind, dst_kind = kind_of_key(src), kind_of_key(dst)
            if src_kind and dst_kind:
                groups.setdefault((rel_type, src_kind, dst_kind), []).append([src, dst])
        for group, rows in groups.items():
            cypher = delete_relationships_query(*group)
            for batch in batches(rows, max_rows=self.batch_size, max_bytes=self.max_bytes,
                                 overhead=len(cypher)):
                counters = self._write(cypher, {"rows": batch})
                self.report.deleted_relationships += counters.relationships_deleted
        return stale

    def delete_orphans(self, G, keys):
        """Delete nodes outside the graph that nothing points to, then whatever that orphans."""
        while keys:
            by_kind, targets = {}, set()
            for key in keys:
                by_kind.setdefault(kind_of_key(key), []).append(key)
            for kind, candidates in sorted(by_kind.items()):
                orphans = []
                for batch in self._read_batches(candidates):
                    for row in self.connection.read(orphans_query(kind), {"rows": batch}):
                        orphans.append(row["key"])
                        targets.update(row["targets"])
                cypher = delete_nodes_query(kind)
                for batch in self._read_batches(orphans):
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
            bar = bars[step] = tqdm(total=total, desc=step, unit=" rows", file=stream,
                                    leave=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return progress

