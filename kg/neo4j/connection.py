"""Connecting to a Bolt server (Neo4j or FalkorDB): settings, the server's dialect, runners.

What differs between Neo4j and FalkorDB is decided once per connection, in :class:`Dialect`.
"""

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kg.errors import KgError
from kg.neo4j.cypher import key_schema_queries

DEFAULT_URI = "bolt://localhost:7687"
CONNECT_TIMEOUT = 10.0
#: Seconds to keep retrying a connection that fails as it opens (FalkorDB refuses every
#: second new connection after a client's GOODBYE; a restarting Neo4j refuses them all).
CONNECT_RETRY = 5.0
WRITE_CLAUSES = re.compile(
    r"(?<![\w.$`])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|FOREACH|LOAD\s+CSV|"
    r"CALL\s*\{|IN\s+TRANSACTIONS|ALTER|GRANT|DENY|REVOKE)(?![\w`])",
    re.IGNORECASE,
)
BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


class BoltError(KgError):
    """The Bolt server could not be reached, refused us, or failed a statement."""


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

    def params(self, value: Any) -> Any:
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

    def key_schema_statements(self, existing_index_labels: set[str]) -> list[str]:
        """DDL that makes ``key`` unique (Neo4j) or indexed (others) on every label."""
        return key_schema_queries(constraints=self.constraints, existing=existing_index_labels)


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


def detect_dialect(session: Any) -> Dialect:
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
    def resolve(
        cls,
        *,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        environ: dict[str, str] | None = None,
    ) -> "Settings":
        """Explicit values first, then the environment, then defaults.

        >>> Settings.resolve(uri=None, environ={"NEO4J_URI": "bolt://h:1", "NEO4J_PASSWORD": "p"})
        Settings(uri='bolt://h:1', user='neo4j', password='p', database=None)
        """
        env: Any = os.environ if environ is None else environ
        password = password if password is not None else env.get("NEO4J_PASSWORD")
        user = user or env.get("NEO4J_USERNAME") or ("neo4j" if password else None)
        return cls(
            uri=uri or env.get("NEO4J_URI") or DEFAULT_URI,
            user=user,
            password=password,
            database=database or env.get("NEO4J_DATABASE") or None,
        )


def retry_connecting[T](
    attempt: Callable[[], T],
    *,
    seconds: float = CONNECT_RETRY,
    first_delay: float = 0.1,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """``attempt()``, tried again after a connection failure (the server unreachable or
    dropping the connection, or transiently unavailable) with doubling delays, for up to
    ``seconds``; the last failure is raised. Any other error is raised at once."""
    import neo4j

    deadline = clock() + seconds
    delay = first_delay
    while True:
        try:
            return attempt()
        except (
            neo4j.exceptions.ServiceUnavailable,
            neo4j.exceptions.SessionExpired,
            neo4j.exceptions.TransientError,
        ):
            if clock() + delay > deadline:
                raise
        sleep(delay)
        delay *= 2


class Connection:
    """A driver and one long-lived session on a Bolt server, with the server's dialect.

    A connection that fails as it opens is tried again for ``retry`` seconds
    (:func:`retry_connecting`).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        retry: float = CONNECT_RETRY,
    ) -> None:
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
            self.dialect, self.session = retry_connecting(self._open, seconds=retry)
        except BaseException as exc:
            self.driver.close()
            if isinstance(exc, neo4j.exceptions.DriverError | neo4j.exceptions.Neo4jError):
                raise connection_error(exc, settings) from None
            raise

    def _open(self) -> tuple[Dialect, Any]:
        """Check the server answers, learn its dialect, open the session (one try)."""
        self.driver.verify_connectivity()
        with self.driver.session() as probe:
            dialect = detect_dialect(probe)
        database = self.settings.database
        if database and not dialect.databases:
            raise BoltError(
                f"{self.settings.uri} ({dialect.name}) has no named databases; "
                f"drop --database / NEO4J_DATABASE ({database!r})"
            )
        session = self.driver.session(database=database)
        try:
            session.run("RETURN 1").consume()
        except BaseException:
            session.close()
            raise
        return dialect, session

    def close(self) -> None:
        """Close the session and the driver."""
        if getattr(self, "session", None) is not None:
            self.session.close()
        self.driver.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, cypher: str, params: dict | None = None) -> Any:
        """Run one write statement; returns its counters."""
        return self._execute(_consume, cypher, params, write=True)

    def read(self, cypher: str, params: dict | None = None, *, write: bool = False) -> list[dict]:
        """Run one statement, read-only unless ``write``; returns its rows as dicts."""
        return self._execute(_rows, cypher, params, write=write)

    def _execute(self, work: Any, cypher: str, params: dict | None, *, write: bool) -> Any:
        """A managed transaction (retried on transient errors) where the server has them."""
        params = self.dialect.params(params or {})
        if not self.dialect.transactions:
            return work(self.session, cypher, params)
        execute = self.session.execute_write if write else self.session.execute_read
        return execute(work, cypher, params)


def _consume(tx: Any, cypher: str, params: dict) -> Any:
    return tx.run(cypher, params).consume().counters


def _rows(tx: Any, cypher: str, params: dict) -> list[dict]:
    from kg.query.render import Rows

    result = tx.run(cypher, params)
    return Rows.of(result.keys(), ([bolt_plain(v) for v in record.values()] for record in result))


def bolt_plain(value: Any) -> Any:
    """A Bolt value as plain data, as the embedded engine gives it: nodes and relationships
    become property dicts with their labels or type, a path its nodes."""
    import neo4j.graph

    from kg.query.render import node_value, relationship_value

    if isinstance(value, neo4j.graph.Node):
        return node_value(value.labels, dict(value))
    if isinstance(value, neo4j.graph.Relationship):
        return relationship_value(value.type, dict(value))
    if isinstance(value, neo4j.graph.Path):
        return [bolt_plain(n) for n in value.nodes]
    if isinstance(value, list):
        return [bolt_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: bolt_plain(v) for k, v in value.items()}
    return value


def connection_error(exc: Exception, settings: Settings) -> BoltError:
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


def connect(
    *,
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    retry: float = CONNECT_RETRY,
) -> Connection:
    """Open a :class:`Connection` (a failure to connect is retried for ``retry`` seconds);
    unset arguments come from the NEO4J_* environment."""
    settings = Settings.resolve(uri=uri, user=user, password=password, database=database)
    return Connection(settings, connect_timeout=connect_timeout, retry=retry)


# ---------------------------------------------------------------- runner


def refuse_writes(cypher: str) -> None:
    """Raise if a statement has a write clause (outside strings and comments).

    The server enforces read access on Neo4j; this also holds on servers that do not.

    >>> refuse_writes("MATCH (n {name: 'CREATE'}) RETURN n.set")
    >>> refuse_writes("MATCH (n) DETACH DELETE n")
    Traceback (most recent call last):
    kg.neo4j.connection.BoltError: read-only query contains DETACH; pass --write to run writes
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

    def __init__(self, connection: Connection, *, write: bool = False) -> None:
        self.connection = connection
        self.write = write

    def __call__(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[dict]:
        import neo4j

        try:
            if not self.write:
                refuse_writes(cypher)
            return self.connection.read(cypher, dict(params or {}), write=self.write)
        except neo4j.exceptions.Neo4jError as exc:
            raise BoltError(f"{self.connection.settings.uri}: {exc.message or exc}") from None
        except neo4j.exceptions.DriverError as exc:
            raise BoltError(f"{self.connection.settings.uri}: {exc}") from None

    def close(self) -> None:
        """Close its connection."""
        self.connection.close()

    def __enter__(self) -> "BoltRunner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def bolt_runner(
    *,
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    write: bool = False,
) -> BoltRunner:
    """Connect and return a :class:`BoltRunner`; close it when done."""
    return BoltRunner(
        connect(uri=uri, user=user, password=password, database=database), write=write
    )
