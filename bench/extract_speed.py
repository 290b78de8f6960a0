"""Extraction speed over the real abstracts of ../shared/eval/external/paper-metadata-paperlists.

Reports abstracts per second for bare ``spacy.blank("en")`` tokenisation, the full pipeline
on one process, and the full pipeline with a worker pool, all on the same text in one run:
by wall clock, and (for the one-process runs) by CPU time, which is what the run costs
when no other process shares the cores.

    python bench/extract_speed.py [--limit N] [--workers 2] [--json FILE]
"""

import argparse
import json
import sys
import time
from pathlib import Path

import spacy

from extractors.pipeline import build_nlp, extract_mentions
from extractors.records import PaperRecord

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "external" / \
    "paper-metadata-paperlists"


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


def timed(fn):
    """(result, wall seconds, CPU seconds of this process)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - start, time.process_time() - cpu


def report(label, n, wall, cpu=None, extra=""):
    cpu_rate = f"{rate(n, cpu):8,.0f} abstracts/s CPU" if cpu else " " * 23
    print(f"{label:36} {rate(n, wall):8,.0f} abstracts/s wall  {cpu_rate}{extra}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="use only the first N abstracts")
    ap.add_argument("--workers", type=int, default=2, help="pool size for the parallel run")
    ap.add_argument("--json", metavar="FILE", help="also write the rates as JSON")
    args = ap.parse_args(argv)
    if not CORPUS.is_dir():
        sys.exit(f"corpus not found at {CORPUS}; the benchmark needs ../shared")
    texts = load_abstracts(CORPUS, args.limit)
    records = [PaperRecord(abstract=t, source="bench", index=i) for i, t in enumerate(texts)]
    print(f"{len(texts):,} abstracts")

    results = {"abstracts": len(texts)}
    blank = spacy.blank("en")
    _, wall, cpu = timed(lambda: sum(1 for _ in blank.pipe(texts, batch_size=256)))
    report("bare spacy.blank('en') tokenisation", len(texts), wall, cpu)
    results["tokenizer_per_s"] = round(rate(len(texts), wall))

    nlp, build_secs, _ = timed(build_nlp)
    print(f"pipeline build: {build_secs:.2f} s")
    count, wall, cpu = timed(lambda: sum(len(ms) for _, ms in
                                         extract_mentions(records, nlp=nlp)))
    report("pipeline, 1 process", len(texts), wall, cpu, f"  ({count:,} mentions)")
    results["one_process_per_s"] = round(rate(len(texts), wall))
    count, wall, _ = timed(lambda: sum(len(ms) for _, ms in
                                       extract_mentions(records, workers=args.workers)))
    report(f"pipeline, {args.workers} workers", len(texts), wall, None, f"  ({count:,} mentions)")
    results.update(workers=args.workers, workers_per_s=round(rate(len(texts), wall)))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")

if __name__ == "__main__":
    main()
