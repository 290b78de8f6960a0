"""The graph into Neo4j (or any Bolt server).

:mod:`~kg.neo4j.connection` (settings, dialect, connection, runner), :mod:`~kg.neo4j.cypher`
(the statements), :mod:`~kg.neo4j.batches`, :mod:`~kg.neo4j.falkordb` (FalkorDB's packed
rows) and :mod:`~kg.neo4j.push`.
"""

from kg.neo4j.connection import (
    DEFAULT_URI,
    GENERIC_BOLT,
    NEO4J,
    BoltError,
    BoltRunner,
    Connection,
    Dialect,
    Settings,
    bolt_runner,
    connect,
)
from kg.neo4j.push import (
    DEFAULT_BATCH_SIZE,
    PushError,
    PushReport,
    push,
    push_rows,
    push_units,
    terminal_progress,
)

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DEFAULT_URI",
    "GENERIC_BOLT",
    "NEO4J",
    "BoltError",
    "BoltRunner",
    "Connection",
    "Dialect",
    "PushError",
    "PushReport",
    "Settings",
    "bolt_runner",
    "connect",
    "push",
    "push_rows",
    "push_units",
    "terminal_progress",
]
