"""Interleaved A/B timing of kg commands in two checkouts: medians and their ratio.

    git worktree add ../base 58a059e && (cd ../base && bash scripts/setup.sh)
    .venv/bin/python -m bench.ab --base ../base --runs 5 build extract first-query add-100

Each run times one step in the base checkout, then in this one (the order alternates from
run to run), so both see the same machine; the table gives each side's median, the spread
and the ratio of medians (this / base). Steps:

* ``build``: ``kg build`` of the 19,456 paperlists abstracts, ``--workers 2 --fresh``;
* ``extract``: ``kg extract`` of them with ``--workers 1`` (one process);
* ``first-query``: ``kg query top_collaborators`` on the built graph with no engine cache;
* ``add-100``: 100 new papers added to the graph of the others (incremental build).
"""

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAPERLISTS = ROOT.parent / "shared" / "eval" / "external" / "paper-metadata-paperlists"
Step = Callable[[Path, Path], list[list[str]]]


def corpus() -> list[str]:
    return [str(p) for p in sorted(PAPERLISTS.glob("*.jsonl"))]


def split_inputs(work: Path) -> tuple[Path, Path]:
    """The corpus less its last 100 records, and those 100, as two JSONL files."""
    lines = [
        line
        for p in corpus()
        for line in Path(p).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rest, added = work / "rest.jsonl", work / "added.jsonl"
    rest.write_text("\n".join(lines[:-100]) + "\n", encoding="utf-8")
    added.write_text("\n".join(lines[-100:]) + "\n", encoding="utf-8")
    return rest, added


def steps(work: Path) -> dict[str, tuple[Step, Step]]:
    """name -> (setup commands, timed commands), each given (checkout, scratch folder)."""
    rest, added = split_inputs(work)

    def kg(checkout: Path) -> str:
        return str(checkout / ".venv" / "bin" / "kg")

    return {
        "build": (
            lambda c, w: [],
            lambda c, w: [
                [kg(c), "build", *corpus(), "-o", str(w / "g.kg"), "--workers", "2", "--fresh"]
            ],
        ),
        "extract": (
            lambda c, w: [],
            lambda c, w: [
                [kg(c), "extract", *corpus(), "-o", str(w / "x.jsonl"), "--workers", "1"]
            ],
        ),
        "first-query": (
            lambda c, w: [
                [kg(c), "build", *corpus(), "-o", str(w / "q.kg"), "--workers", "2", "--fresh"]
            ],
            lambda c, w: [[kg(c), "query", "top_collaborators", "-g", str(w / "q.kg")]],
        ),
        "add-100": (
            lambda c, w: [
                [kg(c), "build", str(rest), "-o", str(w / "a.kg"), "--workers", "2", "--fresh"]
            ],
            lambda c, w: [[kg(c), "build", str(added), "-o", str(w / "a.kg"), "--workers", "2"]],
        ),
    }


def run(commands: list[list[str]]) -> float:
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def reset(work: Path) -> None:
    """Drop graphs and engine caches left by a run (the next setup makes what it needs)."""
    for path in work.iterdir():
        if path.suffix in (".kg", ".falkordb") or path.name.endswith(".falkordb"):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("steps", nargs="+", choices=["build", "extract", "first-query", "add-100"])
    ap.add_argument("--base", type=Path, required=True, help="the base checkout (with its .venv)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    sides = {"base": args.base.resolve(), "this": ROOT}
    results: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        table = steps(work)
        for name in args.steps:
            setup, timed = table[name]
            times: dict[str, list[float]] = {"base": [], "this": []}
            for n in range(args.runs):
                order = ["base", "this"] if n % 2 == 0 else ["this", "base"]
                for side in order:
                    folder = work / side
                    folder.mkdir(exist_ok=True)
                    reset(folder)
                    run(setup(sides[side], folder))
                    times[side].append(run(timed(sides[side], folder)))
            results[name] = times
            base, this = (statistics.median(times[s]) for s in ("base", "this"))
            print(
                f"{name:12} base {base:7.2f} s ({min(times['base']):.2f}-{max(times['base']):.2f})"
                f"  this {this:7.2f} s ({min(times['this']):.2f}-{max(times['this']):.2f})"
                f"  ratio {this / base:.2f}",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
