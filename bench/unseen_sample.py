"""Draw the unseen evaluation sample from the paperlists abstracts (reproducibly).

Rule (fixed before annotation; do not change it, the gold file depends on it):

* source: every ``*.jsonl`` file of ``../shared/eval/external/paper-metadata-paperlists``
  (19,456 records: ``id``, ``title``, ``text`` = abstract, ``authors``, ``venue``, ``year``, ...);
* keep the records with ``year >= 2017`` and a non-empty abstract (``text.strip()``);
* sort them by (file name, id);
* ``random.Random(16).sample(records, 50)`` -- seed 16, sample size 50;
* the result, in sample order, is the list of (file name, id) pairs.

``bench/data/unseen-gold.jsonl`` annotates a prefix of this order.

The **paperlists tuning sample** (``bench/data/tuning-gold.jsonl``, drawn on 2026-12-04
for changing rules on conference abstracts) takes the same eligible records less the unseen
sample's 50 and the 60 abstracts of ``bench/data/applied-recall.jsonl``, in the same order,
then ``random.Random(2912).sample(records, 40)`` (``tuning_sample_pairs``).

The **second paperlists tuning sample** (``bench/data/tuning-gold-2.jsonl``, drawn on
2026-12-05, once the first one's errors had been read for many rule changes) takes the
same eligible records less the unseen sample, the APPLIED_TO recall set and the first
tuning sample, in the same order, then ``random.Random(3505).sample(records, 40)``
(``tuning_sample_pairs(second=True)``). It was annotated and scored before any rule was
changed looking at it, so its first score is a second measurement on unseen papers.

The **APPLIED_TO recall tuning sample** (``bench/data/applied-recall-tuning.jsonl``, drawn
on 2026-12-05 for changing the APPLIED_TO rules; ``applied-recall.jsonl`` stays the
evaluation set) takes the eligible records less the unseen sample, the recall set and both
tuning samples, keeps those whose abstract holds a data word (``DATA_WORD``: dataset,
benchmark, corpus or corpora, a filter on the text alone so that more abstracts name a
dataset), then ``random.Random(3605).sample(records, 60)`` (``applied_tuning_pairs``).

    python -m bench.unseen_sample                  # print "file<TAB>id" lines
    python -m bench.unseen_sample --out pairs.tsv  # write them to a file instead

``../shared`` is found beside the repository root; set ``KG_SHARED`` to use another place.
"""

import argparse
import json
import os
import random
import re
import sys
from pathlib import Path

# ../shared beside the repository root; KG_SHARED overrides it (e.g. in a git worktree
# elsewhere, whose parent has no shared/).
SHARED = Path(os.environ.get("KG_SHARED") or Path(__file__).resolve().parents[1].parent / "shared")
PAPERLISTS = SHARED / "eval" / "external" / "paper-metadata-paperlists"
SEED = 16
SIZE = 50
MIN_YEAR = 2017
TUNING_SEED = 2912
TUNING_SIZE = 40
SECOND_TUNING_SEED = 3505
APPLIED_TUNING_SEED = 3605
APPLIED_TUNING_SIZE = 60
DATA_WORD = re.compile(r"\b(?:datasets?|benchmarks?|corpus|corpora)\b", re.IGNORECASE)
DATA = Path(__file__).resolve().parent / "data"


def eligible_records(directory=PAPERLISTS):
    """(file name, record) of every eligible record, sorted by (file name, id)."""
    out = []
    for path in sorted(Path(directory).glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                rec = json.loads(line)
                year = rec.get("year")
                text = rec.get("text")
                if (
                    isinstance(year, int)
                    and year >= MIN_YEAR
                    and isinstance(text, str)
                    and text.strip()
                ):
                    out.append((path.name, rec))
    out.sort(key=lambda fr: (fr[0], fr[1]["id"]))
    return out


def sample_records(directory=PAPERLISTS, seed=SEED, size=SIZE):
    """The sampled (file name, record) pairs, in sample order."""
    return random.Random(seed).sample(eligible_records(directory), size)


def _pairs(drawn):
    """The (file name, id) pairs of drawn (file name, record) pairs, in order."""
    return [(name, rec["id"]) for name, rec in drawn]


def sample_pairs(directory=PAPERLISTS, seed=SEED, size=SIZE):
    """The sampled (file name, id) pairs, in sample order."""
    return _pairs(sample_records(directory, seed, size))


def _tuning_draws(eligible):
    """(every record an earlier sample or the APPLIED_TO recall set holds, the first tuning
    sample, the second), drawn from one list of the eligible records."""
    taken = set(_pairs(random.Random(SEED).sample(eligible, SIZE)))
    with open(DATA / "applied-recall.jsonl", encoding="utf-8") as fh:
        taken |= {(r["file"], r["id"]) for r in map(json.loads, filter(str.strip, fh))}
    records = [(n, r) for n, r in eligible if (n, r["id"]) not in taken]
    first = random.Random(TUNING_SEED).sample(records, TUNING_SIZE)
    drawn = set(_pairs(first))
    records = [(n, r) for n, r in records if (n, r["id"]) not in drawn]
    second = random.Random(SECOND_TUNING_SEED).sample(records, TUNING_SIZE)
    return taken, first, second


def tuning_sample_pairs(directory=PAPERLISTS, second=False):
    """The paperlists tuning sample's (file name, id) pairs, in sample order: the eligible
    records that neither the unseen sample nor the APPLIED_TO recall set holds (nor, for
    the ``second`` sample, the first)."""
    _, first, later = _tuning_draws(eligible_records(directory))
    return _pairs(later if second else first)


def applied_tuning_pairs(directory=PAPERLISTS):
    """The APPLIED_TO recall tuning sample's (file name, id) pairs, in sample order."""
    eligible = eligible_records(directory)
    taken, first, second = _tuning_draws(eligible)
    taken |= set(_pairs(first)) | set(_pairs(second))
    records = [
        (n, r) for n, r in eligible if (n, r["id"]) not in taken and DATA_WORD.search(r["text"])
    ]
    return _pairs(random.Random(APPLIED_TUNING_SEED).sample(records, APPLIED_TUNING_SIZE))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the pairs here (file<TAB>id per line) instead of stdout")
    ap.add_argument("--tuning", action="store_true", help="the paperlists tuning sample instead")
    ap.add_argument("--tuning-2", action="store_true", help="the second tuning sample instead")
    ap.add_argument(
        "--applied-tuning", action="store_true", help="the APPLIED_TO recall tuning sample"
    )
    args = ap.parse_args(argv)
    if not PAPERLISTS.is_dir():
        print(f"paperlists not found at {PAPERLISTS}", file=sys.stderr)
        return 1
    if args.applied_tuning:
        pairs = applied_tuning_pairs()
    elif args.tuning_2:
        pairs = tuning_sample_pairs(second=True)
    else:
        pairs = tuning_sample_pairs() if args.tuning else sample_pairs()
    lines = "".join(f"{name}\t{pid}\n" for name, pid in pairs)
    if args.out:
        Path(args.out).write_text(lines, encoding="utf-8")
    else:
        sys.stdout.write(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
