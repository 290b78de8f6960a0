"""A Bolt server that refuses connections for a moment (FalkorDB after a GOODBYE, a
restarting Neo4j): kg retries the connection instead of failing at once."""

import json
import socket
import threading
from contextlib import ExitStack

import pytest

from kg.cli import main
from kg.neo4j import connection as kn
from tests.helpers.bolt_server import no_goodbye


class RefusingProxy:
    """A TCP proxy to a Bolt server that drops the first ``refusals`` connections as soon
    as they are accepted, then forwards the others both ways."""

    def __init__(self, target_port, refusals):
        self.target_port, self.refusals, self.accepted = target_port, refusals, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def uri(self):
        return f"bolt://127.0.0.1:{self.port}"

    def _serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            if self.accepted <= self.refusals:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(source, sink), daemon=True).start()

    def close(self):
        self.listener.close()


def _pipe(source, sink):
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


@pytest.fixture
def refusing(bolt):
    """A proxy factory; connections through a proxy close without GOODBYE, as the test
    server's own do (see tests/helpers/bolt_server.py)."""
    with ExitStack() as stack:

        def make(refusals):
            proxy = RefusingProxy(bolt.port, refusals)
            stack.callback(proxy.close)
            stack.enter_context(no_goodbye(proxy.port))
            return proxy

        yield make


def test_a_connection_refused_at_first_is_retried(refusing):
    proxy = refusing(2)
    with kn.connect(uri=proxy.uri) as connection:
        assert kn.BoltRunner(connection)("RETURN 1 AS x") == [{"x": 1}]
    assert proxy.accepted >= 3


def test_without_retrying_the_same_server_fails_the_command(refusing):
    proxy = refusing(2)
    with pytest.raises(kn.BoltError, match="^cannot reach a Bolt server at "):
        kn.connect(uri=proxy.uri, retry=0)


def test_kg_cypher_on_a_refusing_server_answers(refusing, capsys):
    proxy = refusing(1)
    assert main(["cypher", "RETURN 1 AS x", "--uri", proxy.uri, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"x": 1}]
