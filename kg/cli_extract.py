"""The ``kg extract`` command (arguments and the one call), registered by :mod:`kg.cli`."""

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from kg.terminal import say


def cmd_extract(args: argparse.Namespace) -> int:
    from kg.store.extraction import extract_to_jsonl

    problems: list = []
    count = extract_to_jsonl(
        args.inputs, args.output, format=args.format, workers=args.workers, problems=problems
    )
    for problem in problems:
        say(f"kg: {problem.report}", file=sys.stderr)
    if not args.quiet:
        say(f"Wrote {count:,} papers to {os.path.abspath(args.output)}")
    return 0


def add_extract_parser(sub: Any, formats: Sequence[str]) -> None:
    p = sub.add_parser(
        "extract",
        help="write the entities found in each abstract as JSONL",
        description="Extract methods, datasets, benchmarks, tasks and metrics from each "
        "abstract and write one record per paper (the format of "
        "eval/GUIDELINES.md, with evidence offsets and sentences).",
        epilog="Example: kg extract ../shared/seeds -o seeds.jsonl && "
        "python3 ../shared/eval/score.py ../shared/eval/seed-gold-dev.jsonl seeds.jsonl",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="listing files, directories, globs")
    p.add_argument("-o", "--output", required=True, metavar="FILE.jsonl", help="file to write")
    p.add_argument("--format", choices=formats, help="force the input format (default: detect)")
    p.add_argument(
        "--workers", type=int, default=1, metavar="N", help="extraction processes (default: 1)"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    p.set_defaults(func=cmd_extract)
