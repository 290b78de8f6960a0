"""The daily-feed sets: abstracts of the daily-papers seed that the dev gold does not hold.

The dev gold annotates the first 40 of the 120 abstracts of ``../shared/seeds/001_*.txt``
(the daily-papers feed); the other 80 are drawn once, ``random.Random(DRAW_SEED)`` shuffling
them, into two halves of 40: the first is **daily unseen**, frozen and evaluation only
(never read for a rule), the second **daily tuning**, whose errors rules may be written
from. A drawn paper whose abstract the dev gold holds under another seed file (the same
opening, :func:`dev_copies`) is left out of its half. Both were annotated blind under the
guidelines before any rule looked at them (see bench/data/README.md).

Stored like the paperlists sets, without text: per paper the seed ``source`` file, its
``index`` there (as kg's reader and the dev gold number it), score.py's paper ``id`` of its
abstract (checked on loading), and entities as character offsets into the abstract as kg
reads it.

    python -m bench.daily_gold            # the draw: source<TAB>index<TAB>half per line
"""

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from bench.unseen_gold import gold_entities, read_stored, score_module
from bench.unseen_sample import DATA, SHARED
from kg.extractors.read import read_listings
from kg.extractors.records import PaperRecord

SOURCE = "001_f83ffad77a937ed2.txt"
DRAW_SEED = 4205
HALF = 40
UNSEEN = DATA / "daily-unseen-gold.jsonl"
TUNING = DATA / "daily-tuning-gold.jsonl"


def seed_records(shared: Path = SHARED) -> dict[int, PaperRecord]:
    """The daily seed's records by index, as kg reads them."""
    return {r.index: r for r in read_listings([Path(shared) / "seeds" / SOURCE])}


def _dev_rows(shared: Path) -> list[dict[str, Any]]:
    return read_stored(Path(shared) / "eval" / "seed-gold-dev.jsonl")


def dev_indices(shared: Path = SHARED) -> set[int]:
    """The indices of the daily seed's papers the dev gold holds."""
    return {r["index"] for r in _dev_rows(shared) if r["source"] == SOURCE}


#: Characters of an abstract's opening (whitespace collapsed) that name it as a copy.
OPENING = 100


def _opening(text: str) -> str:
    return " ".join(text.split())[:OPENING]


def dev_copies(shared: Path = SHARED) -> set[int]:
    """Indices of the daily seed's papers whose abstract opens as one of the dev gold's
    papers from another seed file does (the same paper listed twice)."""
    paper_id = score_module(shared).paper_id
    dev = {r["id"] for r in _dev_rows(shared)}
    others = sorted((Path(shared) / "seeds").glob("*.txt"))
    openings = {
        _opening(r.abstract)
        for r in read_listings([p for p in others if p.name != SOURCE])
        if paper_id(r.abstract) in dev
    }
    return {i for i, r in seed_records(shared).items() if _opening(r.abstract) in openings}


def draw(shared: Path = SHARED) -> tuple[list[int], list[int]]:
    """(unseen half, tuning half): indices of the daily seed's papers outside the dev gold,
    shuffled by ``random.Random(DRAW_SEED)``, the first HALF and the next HALF."""
    held = dev_indices(shared)
    eligible = [i for i in sorted(seed_records(shared)) if i not in held]
    drawn = random.Random(DRAW_SEED).sample(eligible, len(eligible))
    return drawn[:HALF], drawn[HALF : 2 * HALF]


def load_daily_gold(path: Path = UNSEEN, shared: Path = SHARED) -> list[dict[str, Any]]:
    """A stored daily set as score.py gold records (one per paper, in stored order)."""
    paper_id = score_module(shared).paper_id
    records = seed_records(shared)
    out = []
    for rec in read_stored(path):
        text = records[rec["index"]].abstract
        if paper_id(text) != rec["id"]:
            raise ValueError(
                f"{path.name}: paper {rec['index']} of {SOURCE} is not the abstract it was "
                "annotated on (its id differs)"
            )
        entities = gold_entities(rec["id"], text, rec["entities"])
        out.append({"id": rec["id"], "authors": [], "entities": entities})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="The daily-feed sets' draw.")
    ap.parse_args(argv)
    unseen, tuning = draw()
    copies = dev_copies()
    for half, indices in (("unseen", unseen), ("tuning", tuning)):
        for index in indices:
            left_out = "\tleft out: the dev gold holds it" if index in copies else ""
            sys.stdout.write(f"{SOURCE}\t{index}\t{half}{left_out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
