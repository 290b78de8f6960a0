"""Extraction quality on the third-party corpora in ../shared/eval/external (see their READMEs).

Every corpus here is evaluation-only; no training split is read.

* Span corpora, one unit a sentence (``SPAN_CORPORA``): ``tdmsci/test`` (TASK -> Task,
  METRIC -> Metric, DATASET -> Dataset or Benchmark), ``dataset-mentions-xjaeh/test`` and
  ``/zero-shot`` (Dataset -> Dataset or Benchmark). Matching (``SPAN_RULE``): per gold label,
  a system mention of a mapped type counts when its span overlaps a gold span of that label,
  one-to-one (each gold span takes the first unused overlapping system span); ``exact`` when
  the offsets are equal. Precision is over all system mentions of the mapped types.
* ``scirex-abstracts`` (its only split, train, used for evaluation only; one unit a paper;
  ``SCIREX_RULE``): recall of the salient Method / Task / Material entities mentioned in the
  abstract; one is found when a system mention of the mapped type (Method -> Method,
  Task -> Task, Material -> Dataset or Benchmark) overlaps one of its mentions.

The counts are kept per unit (sentence or paper) so that ``bench.quality`` can resample them;
the figures use score.py's ``prf`` (its zero-denominator convention).

    python -m bench.external_eval
"""

import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from spacy.language import Language

from bench.unseen_gold import score_module
from bench.unseen_sample import SHARED
from kg.extractors.pipeline import extract_mentions
from kg.extractors.records import Mention, PaperRecord

EXTERNAL = SHARED / "eval" / "external"
COLLECTIONS = ("Dataset", "Benchmark")
SPAN_RULE = (
    "mention level per gold label: a system mention of a mapped type counts when its span "
    "overlaps a gold span of that label (one-to-one); exact = equal offsets"
)
SCIREX_RULE = (
    "recall of the salient entities mentioned in the abstract: found when a system mention "
    "of the mapped type overlaps one of the entity's mentions"
)
SCIREX_PATH = "scirex-abstracts/train.jsonl"
SCIREX_TYPES: dict[str, tuple[str, ...]] = {
    "Method": ("Method",),
    "Task": ("Task",),
    "Material": COLLECTIONS,
}
#: How each SciREX type is reported (Material is SciREX's name for datasets).
SCIREX_LABELS = {"Method": "Method", "Task": "Task", "Material": "Dataset"}


@dataclass(frozen=True)
class SpanCorpus:
    """A sentence-level corpus: its file under EXTERNAL and gold label -> system types."""

    name: str
    path: str
    labels: dict[str, tuple[str, ...]]


SPAN_CORPORA = (
    SpanCorpus(
        "tdmsci/test",
        "tdmsci/test.jsonl",
        {"TASK": ("Task",), "METRIC": ("Metric",), "DATASET": COLLECTIONS},
    ),
    SpanCorpus(
        "dataset-mentions-xjaeh/test", "dataset-mentions-xjaeh/test.jsonl", {"Dataset": COLLECTIONS}
    ),
    SpanCorpus(
        "dataset-mentions-xjaeh/zero-shot",
        "dataset-mentions-xjaeh/zero-shot.jsonl",
        {"Dataset": COLLECTIONS},
    ),
)

Span = tuple[int, int]
#: Per unit: (overlap matches, exact matches, system mentions, gold spans).
SpanCounts = tuple[int, int, int, int]
#: Per unit: (salient entities found, salient entities mentioned in the abstract).
RecallCounts = tuple[int, int]


@cache
def scorer() -> ModuleType:
    """../shared/eval/score.py, imported once."""
    return score_module()


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def mentions_of(rows: Sequence[dict[str, Any]], nlp: Language | None = None) -> list[list[Mention]]:
    """The pipeline's mentions of each row's text, in row order."""
    records = (
        PaperRecord(abstract=r["text"], source="external", index=i) for i, r in enumerate(rows)
    )
    return [ms for _, ms in extract_mentions(records, nlp=nlp)]


def overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def span_match(gold: Sequence[Span], system: Sequence[Span]) -> tuple[int, int]:
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


def span_counts(
    rows: Sequence[dict[str, Any]],
    mentions: Sequence[Sequence[Mention]],
    label: str,
    system_types: tuple[str, ...],
) -> list[SpanCounts]:
    """Per row: (overlap matches, exact matches, system mentions, gold spans) of one label."""
    out = []
    for row, ms in zip(rows, mentions, strict=True):
        gold = [(e["start"], e["end"]) for e in row["entities"] if e["type"] == label]
        system = [(m.start, m.end) for m in ms if m.type in system_types]
        overlap, exact = span_match(gold, system)
        out.append((overlap, exact, len(system), len(gold)))
    return out


def span_scores(counts: Iterable[SpanCounts]) -> dict[str, float]:
    """Precision, recall, F1 (overlap) and exact-span F1 of summed per-unit counts."""
    tp, exact, n_system, n_gold = (sum(c) for c in zip(*counts, strict=True))
    prf = scorer().prf
    p, r, f = prf(tp, n_system, n_gold)
    return {
        "precision": p,
        "recall": r,
        "f1": f,
        "exact_f1": prf(exact, n_system, n_gold)[2],
        "gold": n_gold,
        "system": n_system,
    }


def scirex_counts(
    rows: Sequence[dict[str, Any]], mentions: Sequence[Sequence[Mention]]
) -> dict[str, list[RecallCounts]]:
    """Per SciREX type, per row: (salient entities found, salient entities in the abstract)."""
    out: dict[str, list[RecallCounts]] = {kind: [] for kind in SCIREX_TYPES}
    for row, ms in zip(rows, mentions, strict=True):
        found = dict.fromkeys(SCIREX_TYPES, 0)
        total = dict.fromkeys(SCIREX_TYPES, 0)
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
            system = [(m.start, m.end) for m in ms if m.type in SCIREX_TYPES[kind]]
            if any(overlaps(g, s) for g in spans for s in system):
                found[kind] += 1
        for kind in SCIREX_TYPES:
            out[kind].append((found[kind], total[kind]))
    return out


def recall_scores(counts: Iterable[RecallCounts]) -> dict[str, float]:
    found, total = (sum(c) for c in zip(*counts, strict=True))
    return {"recall": found / total if total else 0.0, "found": found, "gold": total}


def external_counts(
    nlp: Language | None = None, external: Path = EXTERNAL
) -> dict[str, dict[str, list[Any]]]:
    """Per-unit counts of every corpus: {corpus: {label: [counts per unit]}}; the span
    corpora's labels are their gold labels, SciREX's its types."""
    out: dict[str, dict[str, list[Any]]] = {}
    for corpus in SPAN_CORPORA:
        rows = read_jsonl(external / corpus.path)
        mentions = mentions_of(rows, nlp)
        out[corpus.name] = {
            label: span_counts(rows, mentions, label, types)
            for label, types in corpus.labels.items()
        }
    rows = read_jsonl(external / SCIREX_PATH)
    out["scirex-abstracts"] = dict(scirex_counts(rows, mentions_of(rows, nlp)))
    return out


def main() -> None:
    if not EXTERNAL.is_dir():
        sys.exit(f"external corpora not found at {EXTERNAL}; this needs ../shared")
    counts = external_counts()
    for corpus in SPAN_CORPORA:
        for label, per_unit in counts[corpus.name].items():
            s = span_scores(per_unit)
            name = f"{corpus.name} {label}"
            print(
                f"{name:42} P {s['precision']:.3f}  R {s['recall']:.3f}  F1 {s['f1']:.3f}  "
                f"(exact-span F1 {s['exact_f1']:.3f}; gold {s['gold']}, system {s['system']})"
            )
    for kind, per_unit in counts["scirex-abstracts"].items():
        s = recall_scores(per_unit)
        print(
            f"{'scirex-abstracts ' + SCIREX_LABELS[kind] + ' recall':42} {s['recall']:.3f}  "
            f"({s['found']}/{s['gold']} salient entities mentioned in the abstract)"
        )


if __name__ == "__main__":
    main()
