"""Extraction speed over the real abstracts of ../shared/eval/external/paper-metadata-paperlists.

Reports abstracts per second for bare ``spacy.blank("en")`` tokenisation, the full pipeline
on one process, and the full pipeline with a worker pool, all on the same text in one run
(each timed once its pipelines are built: the one process's build and the pool's start-up,
reported apart, are fixed costs of a run, not of each abstract):
by wall clock, and (for the one-process runs) by CPU time, which is what the run costs
when no other process shares the cores; then the pipeline's speed as a share of the bare
tokenizer's, which depends far less on the machine than the rates do. With ``--repeat N``
each measure runs N times and the medians are reported.

    python bench/extract_speed.py [--limit N] [--workers 2] [--repeat 3] [--stages] [--json FILE]
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import spacy

from kg.extractors.pipeline import build_nlp, extract_mentions
from kg.extractors.records import PaperRecord
from kg.extractors.workers import WorkerPool

CORPUS = (
    Path(__file__).resolve().parents[1].parent
    / "shared"
    / "eval"
    / "external"
    / "paper-metadata-paperlists"
)


def load_abstracts(folder, limit=None):
    """The non-empty abstracts of every JSONL file of ``folder``, in file order."""
    texts = []
    for path in sorted(folder.glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                text = json.loads(line).get("text") or ""
                if text.strip():
                    texts.append(text)
    return texts[:limit] if limit else texts


def rate(n, seconds):
    return n / seconds if seconds else float("inf")


def timed(fn, repeat=1, fresh=lambda: None):
    """(result, median wall seconds, median CPU seconds of this process) over ``repeat`` runs
    of ``fn(fresh())``; ``fresh`` (untimed) gives each run a cold pipeline, so no run reuses
    the token caches an earlier one filled."""
    walls, cpus = [], []
    for _ in range(repeat):
        arg = fresh()
        start, cpu = time.perf_counter(), time.process_time()
        result = fn(arg)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return result, statistics.median(walls), statistics.median(cpus)


def report(label, n, wall, cpu=None, extra=""):
    cpu_rate = f"{rate(n, cpu):8,.0f} abstracts/s CPU" if cpu else " " * 23
    print(f"{label:36} {rate(n, wall):8,.0f} abstracts/s wall  {cpu_rate}{extra}")


#: The pipes each stage adds, in pipeline order.
STAGES = {
    "tokenizer": (),
    "gazetteers": ("gazetteer_cased", "gazetteer_lower"),
    "rules": ("paper_mentions",),
}


def stage_times(texts, repeat=1):
    """CPU µs per abstract that each stage adds, from cold pipelines run with the later
    stages disabled (medians of ``repeat`` runs)."""
    times, before, enabled = {}, 0.0, []
    for name, pipes in STAGES.items():
        enabled += pipes
        _, _, cpu = timed(
            lambda nlp: sum(1 for _ in nlp.pipe(texts, batch_size=256)),
            repeat,
            fresh=lambda enabled=tuple(enabled): _with_only(build_nlp(), list(enabled)),
        )
        total = cpu / len(texts) * 1e6
        times[name], before = total - before, total
    return times


def _with_only(nlp, pipes):
    for name in nlp.pipe_names:
        if name not in pipes:
            nlp.disable_pipe(name)
    return nlp


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="use only the first N abstracts")
    ap.add_argument("--workers", type=int, default=2, help="pool size for the parallel run")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each measure (medians)")
    ap.add_argument("--json", metavar="FILE", help="also write the rates as JSON")
    ap.add_argument(
        "--stages",
        action="store_true",
        help="also time the pipeline's stages: tokenizer, gazetteers, rules",
    )
    args = ap.parse_args(argv)
    if not CORPUS.is_dir():
        sys.exit(f"corpus not found at {CORPUS}; the benchmark needs ../shared")
    texts = load_abstracts(CORPUS, args.limit)
    records = [PaperRecord(abstract=t, source="bench", index=i) for i, t in enumerate(texts)]
    n, repeat = len(texts), max(1, args.repeat)
    print(f"{n:,} abstracts" + (f", medians of {repeat} runs" if repeat > 1 else ""))

    results = {"abstracts": n, "repeat": repeat}
    _, tok_wall, tok_cpu = timed(
        lambda blank: sum(1 for _ in blank.pipe(texts, batch_size=256)),
        repeat,
        fresh=lambda: spacy.blank("en"),
    )
    report("bare spacy.blank('en') tokenisation", n, tok_wall, tok_cpu)
    results.update(
        tokenizer_per_s=round(rate(n, tok_wall)), tokenizer_cpu_per_s=round(rate(n, tok_cpu))
    )

    _, build_secs, _ = timed(lambda _: build_nlp())
    print(f"pipeline build: {build_secs:.2f} s")
    count, wall, cpu = timed(
        lambda nlp: sum(len(ms) for _, ms in extract_mentions(records, nlp=nlp)),
        repeat,
        fresh=build_nlp,
    )
    report("pipeline, 1 process", n, wall, cpu, f"  ({count:,} mentions)")
    results.update(
        one_process_per_s=round(rate(n, wall)),
        one_process_cpu_per_s=round(rate(n, cpu)),
        one_process_vs_tokenizer_cpu=round(tok_cpu / cpu, 3),
    )
    start_ups = []

    def started_pool():
        start = time.perf_counter()
        pool = WorkerPool(args.workers)
        pool.wait_until_ready()
        start_ups.append(time.perf_counter() - start)
        return pool

    def extract_with(pool):
        with pool:
            return sum(len(ms) for _, ms in pool.extract(records))

    count, pool_wall, _ = timed(extract_with, repeat, fresh=started_pool)
    report(f"pipeline, {args.workers} workers", n, pool_wall, None, f"  ({count:,} mentions)")
    print(
        f"worker start-up (not counted, as the pipeline build is not counted for one "
        f"process): {statistics.median(start_ups):.2f} s"
    )
    results.update(
        workers=args.workers,
        workers_per_s=round(rate(n, pool_wall)),
        worker_start_up_s=round(statistics.median(start_ups), 2),
        workers_vs_tokenizer_wall=round(tok_wall / pool_wall, 3),
    )
    print(
        f"pipeline / bare tokenizer: {tok_cpu / cpu:.0%} on 1 process (CPU time), "
        f"{tok_wall / pool_wall:.0%} with {args.workers} workers (wall clock); "
        f"{args.workers} workers run {wall / pool_wall:.2f}x one process (wall clock)"
    )
    if args.stages:
        results["stage_us"] = stage_times(texts, repeat)
        print(
            "stages, µs per abstract (cold): "
            + ", ".join(f"{name} {us:.0f}" for name, us in results["stage_us"].items())
        )
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
