"""kg.neo4j.connection without a server: settings, the write guard, dialects."""

import pytest

from kg.errors import KgError
from kg.neo4j import connection as kn


def test_settings_prefer_arguments_then_environment():
    env = {
        "NEO4J_URI": "bolt://env:7687",
        "NEO4J_USERNAME": "u",
        "NEO4J_PASSWORD": "p",
        "NEO4J_DATABASE": "graphs",
    }
    assert kn.Settings.resolve(environ=env) == kn.Settings("bolt://env:7687", "u", "p", "graphs")
    assert kn.Settings.resolve(uri="bolt://arg:1", password="q", environ=env) == kn.Settings(
        "bolt://arg:1", "u", "q", "graphs"
    )
    assert kn.Settings.resolve(environ={}) == kn.Settings(kn.DEFAULT_URI, None, None, None)


@pytest.mark.parametrize(
    "cypher",
    [
        "CREATE (n:X)",
        "match (n) set n.x = 1",
        "MATCH (n) DETACH DELETE n",
        "MERGE (n:X {key: 'a'})",
        "MATCH (n) REMOVE n.x",
        "DROP INDEX i",
        "UNWIND [1] AS x CALL { CREATE (:X) }",
        "LOAD CSV FROM 'file:///x' AS r RETURN r",
    ],
)
def test_refuse_writes_refuses_write_clauses(cypher):
    with pytest.raises(KgError, match="pass --write"):
        kn.refuse_writes(cypher)


@pytest.mark.parametrize(
    "cypher",
    [
        "MATCH (n:Paper {title: 'CREATE and SET'}) RETURN n.set AS s",
        'MATCH (n) WHERE n.name = "DELETE" RETURN n // MERGE later\n',
        "MATCH (n:`CREATE`) RETURN count(n) /* SET */",
        "MATCH (a)-[:APPLIED_TO]->(d) RETURN a.key, $offset, d.created",
    ],
)
def test_refuse_writes_allows_reads(cypher):
    kn.refuse_writes(cypher)


def test_connect_refuses_a_bad_uri():
    with pytest.raises(kn.BoltError, match="bad Bolt URI 'http://localhost:7474'"):
        kn.connect(uri="http://localhost:7474")


def test_dialects_keep_the_ddl_difference():
    assert kn.NEO4J.key_schema_statements(set())[0] == (
        "CREATE CONSTRAINT kg_area_key IF NOT EXISTS FOR (n:Area) REQUIRE n.key IS UNIQUE"
    )
    assert kn.GENERIC_BOLT.key_schema_statements(
        {"Area", "Author", "Benchmark", "Concept", "Dataset", "Method", "Metric", "Paper"}
    ) == ["CREATE INDEX FOR (n:Task) ON (n.key)"]


# ---------------------------------------------------------------- connect retry


class FakeClock:
    """A clock that moves only when slept on."""

    def __init__(self):
        self.now, self.sleeps = 0.0, []

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def flaky(failures, error=None):
    """An attempt that raises ``error`` (ServiceUnavailable) ``failures`` times, then works."""
    import neo4j

    calls = []

    def attempt():
        calls.append(1)
        if len(calls) <= failures:
            raise error or neo4j.exceptions.ServiceUnavailable("connection refused")
        return "connected"

    return attempt, calls


def retrying(attempt, clock, seconds=5.0):
    return kn.retry_connecting(attempt, seconds=seconds, sleep=clock.sleep, clock=lambda: clock.now)


def test_a_connection_refused_twice_is_retried_with_growing_delays():
    clock = FakeClock()
    attempt, calls = flaky(2)
    assert retrying(attempt, clock) == "connected"
    assert len(calls) == 3 and clock.sleeps == [0.1, 0.2]


def test_retrying_gives_up_after_its_seconds_with_the_last_failure():
    import neo4j

    clock = FakeClock()
    attempt, calls = flaky(100)
    with pytest.raises(neo4j.exceptions.ServiceUnavailable):
        retrying(attempt, clock)
    assert clock.sleeps == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6]) and len(calls) == 6
    assert clock.now <= 5.0


@pytest.mark.parametrize("kind", ["SessionExpired", "TransientError"])
def test_a_dropped_session_or_a_starting_server_is_retried(kind):
    import neo4j

    clock = FakeClock()
    attempt, calls = flaky(1, getattr(neo4j.exceptions, kind)("not now"))
    assert retrying(attempt, clock) == "connected" and len(calls) == 2


def test_a_refused_login_is_not_retried():
    import neo4j

    clock = FakeClock()
    attempt, calls = flaky(1, neo4j.exceptions.AuthError("bad password"))
    with pytest.raises(neo4j.exceptions.AuthError):
        retrying(attempt, clock)
    assert len(calls) == 1 and clock.sleeps == []


class FakeResult:
    def data(self):
        return [{"name": "Neo4j Kernel"}]

    def consume(self):
        return None


class FakeDriver:
    """A driver whose server refuses the first ``refusals`` connections."""

    def __init__(self, refusals):
        self.refusals, self.closed = refusals, False

    def verify_connectivity(self):
        import neo4j

        if self.refusals:
            self.refusals -= 1
            raise neo4j.exceptions.ServiceUnavailable("Connection refused")

    def session(self, **options):
        driver = self

        class Session:
            def run(self, cypher):
                return FakeResult()

            def close(self):
                pass

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                pass

        assert not driver.closed
        return Session()

    def close(self):
        self.closed = True


def test_connect_retries_a_server_that_refuses_at_first(monkeypatch):
    import neo4j

    driver = FakeDriver(refusals=2)
    monkeypatch.setattr(neo4j.GraphDatabase, "driver", lambda *a, **k: driver)
    with kn.connect(uri="bolt://localhost:7687") as connection:
        assert connection.dialect is kn.NEO4J and driver.refusals == 0
    driver = FakeDriver(refusals=2)
    with pytest.raises(kn.BoltError, match="^cannot reach a Bolt server at bolt://localhost:7687"):
        kn.connect(uri="bolt://localhost:7687", retry=0)
    assert driver.closed and driver.refusals == 1
