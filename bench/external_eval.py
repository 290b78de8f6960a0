"""Extraction quality on the third-party corpora in ../shared/eval/external (see their READMEs).

* Dataset F1 on ``tdmsci/test`` (DATASET) and ``dataset-mentions-xjaeh/zero-shot`` (Dataset):
  mention level, a system Dataset/Benchmark span counts when it overlaps a gold span
  (one-to-one), and ``exact`` when the offsets are equal.
* Method / Task / Dataset recall on ``scirex-abstracts``: per paper, the salient entities
  mentioned in the abstract; one is found when a system mention of the mapped type
  (Material -> Dataset/Benchmark) overlaps one of its mentions.

    python bench/external_eval.py
"""

import json
import sys
from pathlib import Path

from kg.extractors.pipeline import extract_mentions
from kg.extractors.records import PaperRecord

EXTERNAL = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "external"
COLLECTIONS = ("Dataset", "Benchmark")
SCIREX_TYPES = {"Method": ("Method",), "Task": ("Task",), "Material": COLLECTIONS}


def read_jsonl(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def mentions_of(rows):
    """The pipeline's mentions of each row's text, in row order."""
    records = (
        PaperRecord(abstract=r["text"], source="external", index=i) for i, r in enumerate(rows)
    )
    return [ms for _, ms in extract_mentions(records)]


def overlaps(a, b):
    return a[0] < b[1] and b[0] < a[1]


def span_match(gold, system):
    """(overlap matches, exact matches) between two lists of (start, end), one-to-one."""
    used, overlap = set(), 0
    for g in gold:
        for i, s in enumerate(system):
            if i not in used and overlaps(g, s):
                used.add(i)
                overlap += 1
                break
    exact = len(set(gold) & set(system))
    return overlap, exact


def prf(tp, n_system, n_gold):
    p = tp / n_system if n_system else 0.0
    r = tp / n_gold if n_gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def dataset_scores(rows, gold_label):
    """Precision, recall, F1 (overlap) and exact-span F1 of Dataset mentions."""
    tp = exact = n_gold = n_system = 0
    for row, mentions in zip(rows, mentions_of(rows), strict=True):
        gold = [(e["start"], e["end"]) for e in row["entities"] if e["type"] == gold_label]
        system = [(m.start, m.end) for m in mentions if m.type in COLLECTIONS]
        o, x = span_match(gold, system)
        tp, exact, n_gold, n_system = tp + o, exact + x, n_gold + len(gold), n_system + len(system)
    p, r, f = prf(tp, n_system, n_gold)
    return {
        "precision": p,
        "recall": r,
        "f1": f,
        "exact_f1": prf(exact, n_system, n_gold)[2],
        "gold": n_gold,
        "system": n_system,
    }


def scirex_recall(rows):
    """Recall of salient Method/Task/Material entities mentioned in the abstract."""
    found = {t: 0 for t in SCIREX_TYPES}
    total = dict(found)
    for row, mentions in zip(rows, mentions_of(rows), strict=True):
        for entity in row.get("salient_entities", []):
            kind = entity.get("type")
            if kind not in SCIREX_TYPES or not entity.get("mentioned_in_abstract"):
                continue
            spans = [
                (e["start"], e["end"])
                for e in row["entities"]
                if e.get("salient_cluster") == entity["name"]
            ]
            if not spans:
                continue
            total[kind] += 1
            system = [(m.start, m.end) for m in mentions if m.type in SCIREX_TYPES[kind]]
            if any(overlaps(g, s) for g in spans for s in system):
                found[kind] += 1
    return {
        kind: {
            "recall": found[kind] / total[kind] if total[kind] else 0.0,
            "found": found[kind],
            "gold": total[kind],
        }
        for kind in SCIREX_TYPES
    }


def main():
    if not EXTERNAL.is_dir():
        sys.exit(f"external corpora not found at {EXTERNAL}; this needs ../shared")
    results = {
        "tdmsci/test Dataset": dataset_scores(
            read_jsonl(EXTERNAL / "tdmsci" / "test.jsonl"), "DATASET"
        ),
        "dataset-mentions-xjaeh/zero-shot Dataset": dataset_scores(
            read_jsonl(EXTERNAL / "dataset-mentions-xjaeh" / "zero-shot.jsonl"), "Dataset"
        ),
    }
    for name, s in results.items():
        print(
            f"{name:42} P {s['precision']:.3f}  R {s['recall']:.3f}  F1 {s['f1']:.3f}  "
            f"(exact-span F1 {s['exact_f1']:.3f}; gold {s['gold']}, system {s['system']})"
        )
    scirex = scirex_recall(read_jsonl(EXTERNAL / "scirex-abstracts" / "train.jsonl"))
    for kind, s in scirex.items():
        label = "Dataset" if kind == "Material" else kind
        print(
            f"{'scirex-abstracts ' + label + ' recall':42} {s['recall']:.3f}  "
            f"({s['found']}/{s['gold']} salient entities mentioned in the abstract)"
        )


if __name__ == "__main__":
    main()
