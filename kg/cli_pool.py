"""``kg build``'s extraction pool: ``--workers`` processes here, or a Dask cluster
(``--dask``), registered and opened for :mod:`kg.cli`."""

import argparse
import sys
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

from kg.terminal import say

if TYPE_CHECKING:
    from kg.extractors.workers import Pool


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
