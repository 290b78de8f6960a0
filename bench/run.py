"""The whole benchmark suite, one table: build, extraction, traversals, push.

Run by hand on an idle machine (not part of the tests; about 15 minutes with 200k):

    .venv/bin/python bench/run.py --json out/bench.json
    .venv/bin/python bench/run.py --series 2000,19456          # skip the 200k build

Each part is its own script (``scale.py``, ``extract_speed.py``, ``traverse_speed.py``,
``push_speed.py``) run in a fresh process with ``--json``; this script builds the graph of the
19,456 real papers once for the traversal and push parts and prints every figure beside its
target. Wall-clock figures depend on what else the machine runs: compare ratios, rerun, quote
medians.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
PAPERLISTS = BENCH.parent.parent / "shared" / "eval" / "external" / "paper-metadata-paperlists"


def run_part(script, *args, workdir):
    """Run ``bench/<script>`` with ``--json``; return its results."""
    out = Path(workdir) / f"{Path(script).stem}.json"
    module = "bench." + Path(script).stem
    subprocess.run(
        [sys.executable, "-m", module, *map(str, args), "--json", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=BENCH.parent,
    )
    return json.loads(out.read_text())


def rows_of(results):
    """(figure, value, target) rows of the summary table."""
    rows = []
    for b in results["scale"]["builds"]:
        label = f"build {b['papers']:,} papers, {b['workers']} workers" + (
            " (replicated)" if b["replicated"] else ""
        )
        rows += [
            (label, f"{b['seconds']} s, {b['papers_per_s']:,} papers/s", "<= 40 s at 19,456"),
            (
                "  peak RSS / file / load",
                f"{b['peak_rss_mb']} MB / {b['file_mb']} MB / {b['load_s']} s",
                "<= 1.5 GB / - / <= 3 s",
            ),
        ]
    inc = results["scale"].get("incremental")
    if inc:
        rows.append(
            (
                f"add {inc['added']} papers to {inc['base']:,}",
                f"{inc['seconds']} s median ({inc['seconds_min']}..{inc['seconds_max']}), "
                f"same as rebuild: {inc['same_as_full_rebuild']}",
                "<= 5 s, same",
            )
        )
    ex = results["extract"]
    rows += [
        ("extraction, bare tokenizer", f"{ex['tokenizer_per_s']:,} abstracts/s", "-"),
        ("extraction, 1 process", f"{ex['one_process_per_s']:,} abstracts/s", ">= 1,500/s"),
        (
            f"extraction, {ex['workers']} workers",
            f"{ex['workers_per_s']:,} abstracts/s"
            + (f" (+ {ex['worker_start_up_s']} s start-up)" if "worker_start_up_s" in ex else ""),
            ">= 2,500/s",
        ),
    ]
    tr = results["traverse"]
    python = max(v["median_ms"] for v in tr["python"].values())
    cypher = sorted((v["median_ms"], k) for k, v in tr["cypher"].items())
    rows += [
        ("traversals, Python API (worst median)", f"{python:.2f} ms", "<= 10 ms"),
        (
            "named queries, embedded (best..worst median)",
            f"{cypher[0][0]:.1f}..{cypher[-1][0]:.1f} ms ({cypher[-1][1]})",
            "<= 100 ms",
        ),
        ("first Cypher query after a build", f"{tr['first_query_after_build_s']} s", "<= 2.5 s"),
        (
            "  kg build's engine step / loading instead",
            f"{tr['prepare_s']} s / {tr['first_query_loading_s']} s",
            "-",
        ),
    ]
    pu = results["push"]
    full = pu["runs"]["full"]
    rows += [
        ("push to the Bolt test server", f"{full['relationships_per_s']:,} rels/s", ">= 20,000/s"),
        ("  batched vs one statement per row", f"{pu['batched_vs_per_row']}x", ">= 10x"),
    ]
    return rows


def format_table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    head = ("figure", "measured", "target")
    widths = [max(w, len(h)) for w, h in zip(widths, head, strict=True)]
    lines = [
        "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--series", default="2000,19456,200000")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="FILE", help="also write every result as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as workdir:
        graph = Path(workdir) / "graph.kg"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "kg.cli",
                "build",
                str(PAPERLISTS),
                "-o",
                str(graph),
                "-q",
                "--workers",
                str(args.workers),
            ],
            check=True,
        )
        results = {
            "scale": run_part(
                "scale.py",
                "--series",
                args.series,
                "--workers",
                args.workers,
                "--incremental",
                workdir=workdir,
            ),
            "extract": run_part("extract_speed.py", "--workers", args.workers, workdir=workdir),
            "traverse": run_part("traverse_speed.py", "-g", graph, workdir=workdir),
            "push": run_part("push_speed.py", "-g", graph, workdir=workdir),
        }
    print(format_table(rows_of(results)))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
