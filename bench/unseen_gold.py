"""Load ``bench/data/unseen-gold.jsonl`` as score.py gold records.

The stored file holds, per paper, the paperlists ``file`` and ``id`` and entities given by
character offsets (``start``, ``end``) into the record's abstract (``text``) -- no abstract
text. This module joins them with ``../shared/eval/external/paper-metadata-paperlists`` and
returns records in the gold format of ``../shared/eval/score.py``::

    {"id": score.paper_id(abstract), "authors": [...],
     "entities": [{"text": abstract[start:end], "type", "role", "canonical"}],
     "file": "iclr.jsonl", "paperlists_id": "iclr2018-..."}

(``file`` and ``paperlists_id`` are extra keys; score.py ignores them.)

    python -m bench.unseen_gold --out /tmp/unseen-gold-scoreable.jsonl
    python -m bench.unseen_gold --self-check   # loader output scored against itself: F1 1.0

Evaluation only: never tune extraction rules on this set (see bench/data/README.md).
"""

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.unseen_sample import DATA, PAPERLISTS, SHARED

GOLD = DATA / "unseen-gold.jsonl"
#: The paperlists tuning set: the same format, annotated the same way, for changing rules.
TUNING_GOLD = GOLD.with_name("tuning-gold.jsonl")
#: The second paperlists tuning set (drawn and annotated on 2026-12-05; see bench/data).
SECOND_TUNING_GOLD = GOLD.with_name("tuning-gold-2.jsonl")
ENTITY_TYPES = ("Method", "Dataset", "Benchmark", "Task", "Metric")
ROLES = ("proposed", "used")


def read_stored(path=GOLD):
    """The stored records (file, id, entities with offsets), in file order."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def score_module(shared=SHARED):
    """../shared/eval/score.py, imported from its path."""
    path = Path(shared) / "eval" / "score.py"
    spec = importlib.util.spec_from_file_location("kg_shared_score", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def paperlists_records(names, directory=PAPERLISTS):
    """{(file name, id): record} for the given paperlists file names."""
    out = {}
    for name in sorted(set(names)):
        with open(Path(directory) / name, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    out[(name, rec["id"])] = rec
    return out


def load_gold(path=GOLD, shared=SHARED):
    """The unseen gold set as score.py gold records (one per paper, in stored order)."""
    shared = Path(shared)
    paper_id = score_module(shared).paper_id
    stored = read_stored(path)
    directory = shared / "eval" / "external" / "paper-metadata-paperlists"
    source = paperlists_records((r["file"] for r in stored), directory)
    out = []
    for rec in stored:
        paper = source[(rec["file"], rec["id"])]
        text = paper["text"]
        out.append(
            {
                "id": paper_id(text),
                "authors": list(paper.get("authors") or []),
                "entities": gold_entities(rec["id"], text, rec["entities"]),
                "file": rec["file"],
                "paperlists_id": rec["id"],
            }
        )
    return out


def gold_entities(paper, text, stored):
    """A paper's stored entities (offsets into ``text``) as score.py gold entities; a
    ValueError names ``paper`` if an offset falls outside the abstract."""
    entities = []
    for ent in stored:
        start, end = ent["start"], ent["end"]
        if not 0 <= start < end <= len(text):
            raise ValueError(f"{paper}: offsets {start}:{end} outside the abstract")
        entities.append({"text": text[start:end]} | {k: ent[k] for k in LABELS})
    return entities


#: What a stored entity gives a gold entity besides its text.
LABELS = ("type", "role", "canonical")


def write_jsonl(records, path):
    with open(path, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


def self_check(path=GOLD, shared=SHARED, loader=None):
    """Write the loader's output (``loader(path, shared)``, default :func:`load_gold`) to a
    temporary gold file and score it against itself with ``python3
    ../shared/eval/score.py --json``; returns score.py's result dict."""
    shared = Path(shared)
    records = (loader or load_gold)(path, shared)
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "unseen-gold.jsonl"
        write_jsonl(records, gold)
        proc = subprocess.run(
            [sys.executable, str(shared / "eval" / "score.py"), str(gold), str(gold), "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(proc.stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Unseen gold set in score.py's gold format.")
    ap.add_argument("--out", help="write the gold records here (JSONL) instead of stdout")
    ap.add_argument("--self-check", action="store_true", help="score the gold against itself")
    args = ap.parse_args(argv)
    if args.self_check:
        res = self_check()
        f1s = {
            "micro_typed": res["micro_typed"]["f1"],
            "type_blind": res["type_blind"]["f1"],
            "authors": res["authors"]["f1"],
        }
        papers = res["papers"]["gold"]
        ok = all(v == 1.0 for v in f1s.values()) and papers == len(read_stored())
        print(f"papers={papers} n_gold={res['micro_typed']['n_gold']} F1={f1s}")
        print("self-check OK" if ok else "self-check FAILED")
        return 0 if ok else 1
    records = load_gold()
    if args.out:
        write_jsonl(records, args.out)
    else:
        for rec in records:
            print(json.dumps(rec, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
