"""``kg build``'s extraction pool: ``--workers`` processes here, or a Dask cluster
(``--dask``), registered and opened for :mod:`kg.cli`; and the build of neo4j-admin import
files without a graph (``--neo4j-import``)."""

import argparse
import os
import sys
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

from kg.errors import KgError
from kg.terminal import say

if TYPE_CHECKING:
    from kg.extractors.workers import Pool
    from kg.scale.imports import ImportReport


def add_pool_options(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` and ``--dask ADDRESS``."""
    parser.add_argument(
        "--workers", type=int, default=1, metavar="N", help="extraction processes (default: 1)"
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="extract on a Dask cluster instead: a scheduler's address (tcp://host:8786), or "
        "local:N to start N worker processes here (needs pip install -e '.[dask]')",
    )


def add_import_options(parser: argparse.ArgumentParser) -> None:
    """``--neo4j-import DIR`` and ``--import-dir PATH``."""
    parser.add_argument(
        "--neo4j-import",
        metavar="DIR",
        help="write neo4j-admin import files into DIR instead of a graph file, without "
        "building the whole graph in memory (with --dask, on the cluster; docs/scale.md)",
    )
    parser.add_argument(
        "--import-dir",
        metavar="PATH",
        help="with --neo4j-import: where neo4j-admin will see DIR (default: DIR itself)",
    )


def build_import_files(args: argparse.Namespace) -> int:
    """``kg build --neo4j-import DIR``: the import files, and what was read and written."""
    from kg.extractors.workers import WorkerPool
    from kg.graph.overrides import read_overrides
    from kg.scale.dask_pool import DaskPool
    from kg.scale.engines import DaskEngine, InProcess
    from kg.scale.imports import build_import

    if args.output:
        raise KgError("give -o GRAPH or --neo4j-import DIR, not both")
    overrides = read_overrides(args.identity) if args.identity else None
    with open_pool(args, adding=False) as pool:
        engine = (
            DaskEngine(pool)
            if isinstance(pool, DaskPool)
            else InProcess(pool if isinstance(pool, WorkerPool) else None)
        )
        report = build_import(
            args.inputs,
            args.neo4j_import,
            engine=engine,
            format=args.format,
            overrides=overrides,
            import_dir=args.import_dir,
            fresh=args.fresh,
        )
    for problem in report.problems:
        say(f"kg: {problem.report}", file=sys.stderr)
    if not args.quiet:
        print(import_summary(report))
        say(f"Import files written to {os.path.abspath(args.neo4j_import)}; load them with:")
        print(report.command)
    return 0


def open_pool(args: argparse.Namespace, adding: bool) -> AbstractContextManager["Pool | None"]:
    """The pool a build extracts with, opened now: a Dask cluster's if ``--dask`` is given;
    else, when ``adding`` to a graph or extracting with several workers, worker processes
    that load spaCy while this process loads the graph and reads the listings (before the
    graph code is even imported); else none (the build extracts in this process)."""
    if args.dask:
        from kg.scale.dask_pool import DaskPool

        pool = DaskPool(args.dask)
        if not args.quiet:
            say(f"kg: extracting on {pool.describe()}", file=sys.stderr)
        return pool
    if adding or args.workers > 1:
        from kg.extractors.workers import WorkerPool

        return WorkerPool(max(args.workers, 1))
    return nullcontext()


def import_summary(report: "ImportReport") -> str:
    """What an import build read, in one line; for a later batch, the files it changed.

    >>> from kg.scale.imports import ImportReport
    >>> import_summary(ImportReport(records=5, papers=2, duplicates=1, partitions=1,
    ...                             total_papers=9, known=2))
    'Read 5 records: 2 papers, 1 duplicates, 2 known, 0 skipped; 1 partition. 9 papers in all.'
    >>> import_summary(ImportReport(records=2, papers=2, partitions=2, total_papers=9,
    ...                             files=30, changed=["a.csv"] * 12)).split(". ", 1)[1]
    '9 papers in all; 12 of 30 files changed (the rest kept as they were).'
    """
    known = f"{report.known:,} known, " if report.known else ""
    skipped = sum(not p.kept for p in report.problems)
    parts = f"{report.partitions:,} partition{'s' * (report.partitions != 1)}"
    total = (
        f" {report.total_papers:,} papers in all." if report.total_papers > report.papers else ""
    )
    if total and report.files:
        total = (
            f"{total[:-1]}; {len(report.changed):,} of {report.files:,} files changed "
            "(the rest kept as they were)."
        )
    return (
        f"Read {report.records:,} records: {report.papers:,} papers, "
        f"{report.duplicates:,} duplicates, {known}{skipped:,} skipped; {parts}.{total}"
    )
