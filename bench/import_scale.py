"""``kg build --neo4j-import DIR --dask local:2`` from 20,000 papers up: time, throughput per
worker core and the summed memory of the whole process tree.

Run by hand (not part of the tests; ``--local`` also builds each listing with ``kg build
--workers 2`` into a graph file, the local build the throughput is compared with, and
exports that with ``kg export --format neo4j-csv``, the local way to the same files):

    .venv/bin/python -m bench.import_scale [--series 20000,100000,1000000] [--json FILE]

Corpora past the 19,456 real papers are replicas that grow the summaries as a real corpus
would: replica r of a paper gets the id ``<id>~r<r>``, every author a surname with a
suffix of replica r (``Bengio`` -> ``Bengiobd`` in replica 29), so each replica has its own
people, and every coined name (a word with two capitals and a lower-case letter, ``ResNet``,
``LoRA``) the same suffix in capitals (``ResNetBD``), so each replica coins its own names;
names in capitals only (``BERT``, ``MNLI``) stay as they are; and every replica's abstract
ends with ``(Replica r.)``, so that none is a duplicate of its original (an abstract that
coins no name would be, and the build would count it once). The build runs in a fresh
process; the tree (driver, scheduler, nannies, workers) is sampled every half second with
psutil, and the peak of its summed RSS is reported with the driver's own peak and the
largest peak of any other process of the tree (a worker, as a rule).
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from bench.scale import real_records

COINED = re.compile(r"\b(?=\w*[A-Z]\w*[A-Z])(?=\w*[a-z])[A-Za-z][A-Za-z0-9]*")
WORKERS = 2


def suffix(replica):
    """``bd`` for replica 29: the replica number in letters (a = 0)."""
    letters = ""
    while replica:
        replica, digit = divmod(replica, 26)
        letters = "abcdefghijklmnopqrstuvwxyz"[digit] + letters
    return letters


def varied(record, replica):
    """Replica ``replica`` of a paperlists record (itself for 0)."""
    if not replica:
        return record
    tail = suffix(replica)
    rec = dict(record)
    rec["id"] = f"{rec['id']}~r{replica}"
    rec["authors"] = [f"{a}{tail}" for a in rec.get("authors") or []]
    for field in ("title", "text"):
        if rec.get(field):
            rec[field] = COINED.sub(lambda m: m.group(0) + tail.upper(), rec[field])
    # Without it, a replica of an abstract that coins no name would be a duplicate of it.
    rec["text"] = f"{rec['text']} (Replica {replica}.)"
    return rec


def write_varied(n, path):
    """Write ``n`` varied records to ``path``."""
    base = list(real_records())
    with open(path, "w", encoding="utf-8") as out:
        for i in range(n):
            out.write(json.dumps(varied(base[i % len(base)], i // len(base))) + "\n")


def tree_rss(proc):
    """The summed RSS of ``proc`` and its descendants, and each one's, by pid, in MB."""
    each = {}
    for p in [proc, *proc.children(recursive=True)]:
        try:
            each[p.pid] = p.memory_info().rss / 2**20
        except psutil.Error:
            continue
    return sum(each.values()), each


def watched_run(command):
    """Run ``command``, sampling its process tree: (seconds, tree peak, its own peak, the
    largest peak of any other process), in MB."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    watched, peak, peaks = psutil.Process(proc.pid), 0.0, {}
    while proc.poll() is None:
        total, each = tree_rss(watched)
        peak = max(peak, total)
        for pid, rss in each.items():
            peaks[pid] = max(peaks.get(pid, 0.0), rss)
        time.sleep(0.5)
    seconds = time.perf_counter() - started
    if proc.returncode:
        sys.exit(f"bench: {' '.join(command[2:4])} ... failed:\n{proc.stderr.read()}")
    own = peaks.pop(proc.pid, 0.0)
    return seconds, peak, own, max(peaks.values(), default=0.0)


def measure(n, tmp, local=False):
    """One build of ``n`` varied papers: its figures; with ``local``, also those of
    ``kg build --workers 2`` of the same listing into a graph file."""
    listing, out = Path(tmp) / f"papers-{n}.jsonl", Path(tmp) / f"import-{n}"
    write_varied(n, listing)
    kg = [sys.executable, "-m", "kg"]
    seconds, peak, driver, other = watched_run(
        [*kg, "build", str(listing), "--neo4j-import", str(out), "--dask", f"local:{WORKERS}"]
        + ["--fresh", "-q"]
    )
    size = sum(p.stat().st_size for p in out.iterdir()) / 2**20
    manifest = json.loads((out / "kg-import.json").read_text())
    row = {
        "papers": n,
        "duplicates": manifest["duplicates"],
        "seconds": seconds,
        "papers_per_core_s": n / seconds / WORKERS,
        "peak_tree_mb": peak,
        "peak_driver_mb": driver,
        "peak_largest_other_mb": other,
        "files_mb": size,
    }
    if local:
        graph, exported = Path(tmp) / f"graph-{n}.kg", Path(tmp) / f"export-{n}"
        seconds, peak, _, _ = watched_run(
            [*kg, "build", str(listing), "-o", str(graph), "--workers", str(WORKERS)]
            + ["--fresh", "-q"]
        )
        export_seconds, export_peak, _, _ = watched_run(
            [*kg, "export", "-g", str(graph), "--format", "neo4j-csv", str(exported)]
        )
        shutil.rmtree(exported)
        for leftover in Path(tmp).glob(f"graph-{n}.kg*"):  # the graph and its engine cache
            if leftover.is_dir():
                shutil.rmtree(leftover)
            else:
                leftover.unlink()
        row.update(
            local_export_seconds=export_seconds,
            local_export_peak_tree_mb=export_peak,
            local_seconds=seconds,
            local_papers_per_core_s=n / seconds / WORKERS,
            local_peak_tree_mb=peak,
        )
    listing.unlink()
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", default="20000,100000,1000000", help="paper counts")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--local",
        action="store_true",
        help="also build each listing with kg build --workers 2 into a graph file and export "
        "that with kg export --format neo4j-csv, and give the import path's throughput per "
        "core as a share of the build's, and of the build and export's",
    )
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in map(int, args.series.split(",")):
            row = measure(n, tmp, local=args.local)
            rows.append(row)
            print(
                f"{n:>9,} papers ({row['duplicates']:,} duplicates)  {row['seconds']:7.1f} s  "
                f"{row['papers_per_core_s']:5.0f} papers/s/core  "
                f"{row['seconds'] / n * 1000:5.2f} s/1k  "
                f"tree peak {row['peak_tree_mb']:6.0f} MB "
                f"({row['peak_tree_mb'] / n * 1000:5.1f} MB/1k)  "
                f"driver {row['peak_driver_mb']:5.0f} MB  "
                f"largest other process {row['peak_largest_other_mb']:5.0f} MB",
                flush=True,
            )
            if args.local:
                both = row["local_seconds"] + row["local_export_seconds"]
                print(
                    f"{'':>9}  kg build --workers {WORKERS}: {row['local_seconds']:7.1f} s  "
                    f"{row['local_papers_per_core_s']:5.0f} papers/s/core  tree peak "
                    f"{row['local_peak_tree_mb']:6.0f} MB; the import path runs at "
                    f"{row['papers_per_core_s'] / row['local_papers_per_core_s']:.0%} of its "
                    f"rate per core\n{'':>9}  then kg export --format neo4j-csv: "
                    f"{row['local_export_seconds']:7.1f} s (peak "
                    f"{row['local_export_peak_tree_mb']:6.0f} MB); to the same files the "
                    f"import path runs at {both / row['seconds']:.0%} of the local rate",
                    flush=True,
                )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
