"""Extraction quality that cannot flatter: every figure with a 95% bootstrap interval.

    python -m bench.quality [--json FILE] [--bootstrap N] [--seed S]

One run prints four sections (``--json`` writes every number, with the counts):

1. **unseen** -- ``bench/data/unseen-gold.jsonl`` (50 paperlists abstracts annotated blind,
   evaluation only; ``bench.unseen_gold.load_gold``). The 50 abstracts are given to kg as
   one JSONL listing and extracted as ``kg extract`` does (``kg.store.extraction``:
   ``extract_records`` then ``paper_record``); the records are scored with
   ``../shared/eval/score.py``'s own functions (``load_records``, ``score``): P/R/F1 per
   class (Method, Dataset, Benchmark, Task, Metric), Dataset+Benchmark, micro (typed) and
   type-blind. Beside it, scored the same way, the **paperlists tuning** set
   (``bench/data/tuning-gold.jsonl``: other random paperlists abstracts annotated the same
   way, on which rules may be changed; see bench/data/README.md) and the **paperlists
   tuning 2** set (``tuning-gold-2.jsonl``, 40 more drawn and annotated on 2026-12-05 and
   first scored before any rule was changed looking at it). Then the **daily unseen** and
   **daily tuning** sets (``bench.daily_gold``: the daily-feed abstracts of the seeds that
   the dev gold does not hold, 40 frozen for evaluation and 40 for changing rules),
   extracted with the dev gold's seeds.
2. **dev** -- ``../shared/eval/seed-gold-dev.jsonl`` against ``kg extract ../shared/seeds``,
   split once by paper id (``SPLIT_RULE``: ``int(id, 16) % 2 == 0`` -> tuning, else check;
   48 tuning and 52 check papers). Both halves and the whole set are reported, and the gap
   (check minus tuning) with its interval; a gap is flagged when its whole interval lies
   below zero (the check half below the tuning half by more than the interval).
3. **external** -- the corpora of ``bench.external_eval``, each with its matching rule and
   type mapping (printed too): TDMSci test (TASK -> Task, METRIC -> Metric, DATASET ->
   Dataset or Benchmark) and dataset-mentions test and zero-shot (Dataset -> Dataset or
   Benchmark), sentence level, overlapping spans one-to-one (exact spans beside); SciREX
   abstracts, recall of the salient Method, Task and Material (-> Dataset or Benchmark)
   entities mentioned in the abstract. No training split is read.
4. **lexicon** -- recall (micro typed and type-blind) of the gold names the lexicon holds
   and of those it does not, for the unseen set and the dev halves. A gold entity is held
   when ``Lexicon.lookup`` (the lexicon's own name-key lookup) finds an entry of an entity
   type (not ``Ignore``) for its canonical or its text. Each part is scored with score.py
   against the whole system output, so one system name could match in both parts (the JSON
   gives the parts' type-blind true positives beside the whole's), and score.py merges a
   part's overlapping names on its own (a pair merged in the whole may count as two).

Intervals: percentile bootstrap (2.5th and 97.5th) over ``--bootstrap`` resamples (default
1000) of the units with replacement -- papers, or sentences for the sentence-level corpora --
summing the per-unit counts; every class and the lexicon split of one set share its
resamples. The generator of a set is seeded with ``(--seed, crc32(set name))`` (default seed
16), so a figure's interval does not depend on which other sets are run. The point values are
score.py's on the whole set (and equal the sums of the per-paper counts); a resample is scored
with score.py's ``prf``, so one holding gold entities of a class but no system ones has
precision 0 (a small class's interval may reach 0).
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from bench import external_eval
from bench.bootstrap import (
    BOOTSTRAP,
    LEVEL,
    SEED,
    Figure,
    figure,
    ratios,
    resample_weights,
)
from bench.daily_gold import TUNING as DAILY_TUNING
from bench.daily_gold import UNSEEN as DAILY_UNSEEN
from bench.daily_gold import load_daily_gold
from bench.external_eval import SCIREX_LABELS, SPAN_CORPORA, scorer
from bench.unseen_gold import (
    ENTITY_TYPES,
    SECOND_TUNING_GOLD,
    TUNING_GOLD,
    load_gold,
    paperlists_records,
)
from bench.unseen_sample import PAPERLISTS, SHARED
from kg.extractors.lexicon import Lexicon, load_lexicon
from kg.extractors.nlp import build_nlp
from kg.extractors.records import IGNORE
from kg.store.extraction import extract_records, paper_record

REPO = Path(__file__).resolve().parents[1]
DEV_GOLD = SHARED / "eval" / "seed-gold-dev.jsonl"
SEEDS = SHARED / "seeds"
SPLIT_RULE = "int(id, 16) % 2 == 0 -> tuning half, else check half"
TYPES = ENTITY_TYPES  # score.py's five, as bench.unseen_gold spells them
#: score.py's classes, in table order; "micro" is its micro_typed.
CLASSES = TYPES + ("Dataset+Benchmark", "micro", "type-blind")
PRF = ("precision", "recall", "f1")


def is_tuning(paper_id: str) -> bool:
    """Whether a dev-gold paper is in the tuning half (``SPLIT_RULE``)."""
    return int(paper_id, 16) % 2 == 0


def split_dev(records: Sequence[dict[str, Any]]) -> tuple[list[dict], list[dict]]:
    """(tuning half, check half) of gold records, by ``is_tuning`` of their id."""
    tuning: list[dict] = []
    check: list[dict] = []
    for rec in records:
        (tuning if is_tuning(rec["id"]) else check).append(rec)
    return tuning, check


# ---------------------------------------------------------------- score.py sets


def class_counts(result: dict[str, Any]) -> list[tuple[int, int, int]]:
    """(tp, n_sys, n_gold) of each of CLASSES from one score.py result."""
    parts = [result["per_type"][t] for t in TYPES]
    parts += [result["dataset_benchmark_merged"], result["micro_typed"], result["type_blind"]]
    return [(p["tp"], p["n_sys"], p["n_gold"]) for p in parts]


def scored(gold_records: Sequence[dict], system_records: Sequence[dict]) -> tuple[dict, np.ndarray]:
    """score.py's result on the whole set and the (papers, CLASSES, 3) per-paper counts."""
    sc = scorer()
    gold = sc.load_records(gold_records, "gold")
    system = sc.load_records(system_records, "system")
    whole = sc.score(gold, system)
    if whole["papers"]["gold_missing_in_system"]:
        raise RuntimeError(f"{whole['papers']['gold_missing_in_system']} gold papers not extracted")
    counts = np.array([class_counts(sc.score({pid: p}, system)) for pid, p in gold.items()])
    if counts.sum(axis=0).tolist() != [list(c) for c in class_counts(whole)]:
        raise RuntimeError("per-paper counts do not add up to score.py's whole-set counts")
    return whole, counts


def prf_samples(sums: np.ndarray) -> np.ndarray:
    """(resamples, 3) precision, recall, F1 of (resamples, 3) summed (tp, n_sys, n_gold)."""
    prf = scorer().prf
    return np.array([prf(*map(int, row)) for row in sums])


def set_figures(
    gold_records: Sequence[dict], system_records: Sequence[dict], weights: np.ndarray
) -> dict[str, Any]:
    """Per class: P, R, F1 figures and the counts; ``samples`` keeps the resampled values."""
    whole, counts = scored(gold_records, system_records)
    out: dict[str, Any] = {"papers": len(counts), "classes": {}, "samples": {}}
    for i, (cls, (tp, n_sys, n_gold)) in enumerate(zip(CLASSES, class_counts(whole), strict=True)):
        samples = prf_samples(weights @ counts[:, i, :])
        point = scorer().prf(tp, n_sys, n_gold)
        out["classes"][cls] = {
            name: figure(point[k], samples[:, k]) for k, name in enumerate(PRF)
        } | {"tp": tp, "n_sys": n_sys, "n_gold": n_gold}
        out["samples"][cls] = samples
    return out


def gap_figures(tuning: dict[str, Any], check: dict[str, Any]) -> dict[str, Any]:
    """Check minus tuning per class and measure, flagged when the interval is below zero."""
    out: dict[str, Any] = {}
    for cls in CLASSES:
        out[cls] = {}
        for k, name in enumerate(PRF):
            value = check["classes"][cls][name]["value"] - tuning["classes"][cls][name]["value"]
            fig = figure(value, check["samples"][cls][:, k] - tuning["samples"][cls][:, k])
            out[cls][name] = fig | {"flagged": fig["high"] < 0}
    return out


# ---------------------------------------------------------------- lexicon split


def in_lexicon(entity: dict[str, Any], lexicon: Lexicon) -> bool:
    """Whether the lexicon holds a gold entity: an entry of an entity type for its
    canonical or its text, by the lexicon's own lookup."""
    for name in (entity.get("canonical"), entity.get("text")):
        entry = lexicon.lookup(name) if name else None
        if entry is not None and entry.type != IGNORE:
            return True
    return False


def lexicon_split(
    records: Sequence[dict[str, Any]], lexicon: Lexicon
) -> tuple[list[dict], list[dict]]:
    """(held, not held): copies of the gold records keeping the entities the lexicon holds,
    and those it does not; every paper stays in both (so the units line up)."""
    held, missing = [], []
    for rec in records:
        ents = rec["entities"]
        held.append(rec | {"entities": [e for e in ents if in_lexicon(e, lexicon)]})
        missing.append(rec | {"entities": [e for e in ents if not in_lexicon(e, lexicon)]})
    return held, missing


def lexicon_figures(
    gold_records: Sequence[dict],
    system_records: Sequence[dict],
    weights: np.ndarray,
    lexicon: Lexicon,
) -> dict[str, Any]:
    """Share of gold names held, and recall (micro, type-blind) of the held and the rest."""
    parts = dict(zip(("in", "out"), lexicon_split(gold_records, lexicon), strict=True))
    counts = {part: scored(recs, system_records)[1] for part, recs in parts.items()}
    _, whole = scored(gold_records, system_records)
    blind = CLASSES.index("type-blind")
    n_in, n_out = counts["in"][:, blind, 2], counts["out"][:, blind, 2]
    share = np.stack([n_in, n_in + n_out], axis=1)
    out: dict[str, Any] = {
        "share_held": figure(share[:, 0].sum() / share[:, 1].sum(), ratios(weights @ share)),
        "gold_held": int(n_in.sum()),
        "gold_not_held": int(n_out.sum()),
        "type-blind tp whole": int(whole[:, blind, 0].sum()),
        "type-blind tp parts": int(
            counts["in"][:, blind, 0].sum() + counts["out"][:, blind, 0].sum()
        ),
    }
    for part, c in counts.items():
        for cls in ("micro", "type-blind"):
            tp_gold = c[:, CLASSES.index(cls)][:, [0, 2]]
            tp, n_gold = tp_gold.sum(axis=0)
            out[f"{cls} recall {part}"] = figure(
                tp / n_gold if n_gold else 0.0, ratios(weights @ tp_gold)
            ) | {"tp": int(tp), "n_gold": int(n_gold)}
    return out


# ---------------------------------------------------------------- system output


def system_records(inputs: Sequence[str | Path], *, format: str | None = None) -> list[dict]:
    """score.py records of the inputs, made as ``kg extract`` makes them."""
    return [paper_record(r, ms) for r, ms in extract_records(inputs, format=format)]


def paperlists_system(gold: Sequence[dict[str, Any]]) -> list[dict]:
    """The abstracts of gold records of paperlists papers (the unseen or the tuning set)
    given to kg as one JSONL listing (in a temporary file, never kept), extracted as
    ``kg extract`` does."""
    source = paperlists_records((r["file"] for r in gold), PAPERLISTS)
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "paperlists.jsonl"
        with open(listing, "w", encoding="utf-8") as fh:
            for rec in gold:
                fh.write(json.dumps(source[(rec["file"], rec["paperlists_id"])]) + "\n")
        return system_records([listing], format="jsonl")


# ---------------------------------------------------------------- external corpora


def external_figures(counts: dict[str, dict[str, list]], resamples: int, seed: int) -> dict:
    """Figures of ``external_eval.external_counts``: per corpus its unit, rule, mapping and,
    per label, P/R/F1 (overlap) and exact-span F1, or SciREX recall."""
    prf = scorer().prf
    out: dict[str, Any] = {}
    for corpus in SPAN_CORPORA:
        labels = counts[corpus.name]
        units = len(next(iter(labels.values())))
        weights = resample_weights(units, resamples, seed, corpus.name)
        entry: dict[str, Any] = {
            "unit": "sentence",
            "units": units,
            "matching": external_eval.SPAN_RULE,
            "mapping": {label: " or ".join(t) for label, t in corpus.labels.items()},
            "labels": {},
        }
        for label, per_unit in labels.items():
            point = external_eval.span_scores(per_unit)
            sums = weights @ np.array(per_unit, dtype=np.int64)
            samples = np.array([[*prf(o, n, g), prf(x, n, g)[2]] for o, x, n, g in sums.tolist()])
            names = PRF + ("exact_f1",)
            entry["labels"][label] = {
                name: figure(point[name], samples[:, k]) for k, name in enumerate(names)
            } | {
                "gold": point["gold"],
                "system": point["system"],
                "kg_types": entry["mapping"][label],
            }
        out[corpus.name] = entry
    scirex = counts["scirex-abstracts"]
    units = len(next(iter(scirex.values())))
    weights = resample_weights(units, resamples, seed, "scirex-abstracts")
    entry = {
        "unit": "paper",
        "units": units,
        "matching": external_eval.SCIREX_RULE,
        "mapping": {k: " or ".join(t) for k, t in external_eval.SCIREX_TYPES.items()},
        "labels": {},
    }
    for kind, per_unit in scirex.items():
        point = external_eval.recall_scores(per_unit)
        samples = ratios(weights @ np.array(per_unit, dtype=np.int64))
        entry["labels"][SCIREX_LABELS[kind]] = {"recall": figure(point["recall"], samples)} | {
            "found": point["found"],
            "gold": point["gold"],
            "scirex_type": kind,
            "kg_types": entry["mapping"][kind],
        }
    out["scirex-abstracts"] = entry
    return out


# ---------------------------------------------------------------- the run


def measure(resamples: int = BOOTSTRAP, seed: int = SEED) -> dict[str, Any]:
    """Every section's figures (see the module docstring)."""
    lexicon = load_lexicon()
    unseen_gold = load_gold()
    paperlists_tuning = load_gold(TUNING_GOLD)
    second_tuning = load_gold(SECOND_TUNING_GOLD)
    dev_gold = external_eval.read_jsonl(DEV_GOLD)
    tuning, check = split_dev(dev_gold)
    dev_system = system_records(sorted(SEEDS.glob("*.txt")))
    sets = {
        "unseen": (unseen_gold, paperlists_system(unseen_gold)),
        "paperlists tuning": (paperlists_tuning, paperlists_system(paperlists_tuning)),
        "paperlists tuning 2": (second_tuning, paperlists_system(second_tuning)),
        "daily unseen": (load_daily_gold(DAILY_UNSEEN), dev_system),
        "daily tuning": (load_daily_gold(DAILY_TUNING), dev_system),
        "dev tuning": (tuning, dev_system),
        "dev check": (check, dev_system),
        "dev all": (dev_gold, dev_system),
    }
    results: dict[str, Any] = {"sets": {}, "lexicon": {}}
    for name, (gold, system) in sets.items():
        weights = resample_weights(len(gold), resamples, seed, name)
        results["sets"][name] = set_figures(gold, system, weights)
        if name != "dev all":
            results["lexicon"][name] = lexicon_figures(gold, system, weights, lexicon)
    results["gap"] = gap_figures(results["sets"]["dev tuning"], results["sets"]["dev check"])
    for res in results["sets"].values():
        del res["samples"]
    counts = external_eval.external_counts(build_nlp())
    results["external"] = external_figures(counts, resamples, seed)
    return results


def fmt(fig: Figure) -> str:
    return f"{fig['value']:.2f} [{fig['low']:.2f}, {fig['high']:.2f}]"


def table(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table: the title, a header row, a rule and the rows."""
    cells = [list(map(str, headers))] + [list(map(str, r)) for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return f"{title}\n" + "\n".join(lines)


def report(results: dict[str, Any]) -> str:
    """The four sections as readable tables."""
    meta = results["meta"]
    out = [
        f"bench.quality: {meta['bootstrap']} bootstrap resamples, seed {meta['seed']}, "
        f"95% percentile intervals [low, high]; commit {meta['commit']}"
    ]
    headers = ("set", "class", "P", "R", "F1", "gold", "system")
    for section, names in (
        ("1. unseen", ("unseen", "paperlists tuning", "paperlists tuning 2")),
        ("1b. daily feed", ("daily unseen", "daily tuning")),
        ("2. dev gold", ("dev tuning", "dev check", "dev all")),
    ):
        rows = []
        for name in names:
            s = results["sets"][name]
            for cls, c in s["classes"].items():
                label = f"{name} ({s['papers']} papers)"
                rows.append((label, cls, *(fmt(c[m]) for m in PRF), c["n_gold"], c["n_sys"]))
        title = f"{section} -- score.py classes"
        if section.startswith("2"):
            title += f"; split: {SPLIT_RULE}"
        out.append(table(title, headers, rows))
    gap_rows = []
    for cls, g in results["gap"].items():
        flags = ",".join(m for m in PRF if g[m]["flagged"]) or "-"
        gap_rows.append((cls, *(fmt(g[m]) for m in PRF), flags))
    out.append(
        table(
            "2. dev gap: check minus tuning (flagged: interval entirely below 0)",
            ("class", "gap P", "gap R", "gap F1", "flagged"),
            gap_rows,
        )
    )
    rows = []
    for name, ext in results["external"].items():
        unit = f"{name} ({ext['units']} {ext['unit']}s)"
        for label, c in ext["labels"].items():
            kind = f"{c.get('scirex_type', label)} -> {c['kg_types']}"
            if "precision" in c:
                figs = [fmt(c[m]) for m in PRF + ("exact_f1",)]
                rows.append((unit, kind, *figs, c["gold"], c["system"]))
            else:
                rows.append((unit, kind, "", fmt(c["recall"]), "", "", c["gold"], c["found"]))
    rules: dict[str, list[str]] = {}
    for name, ext in results["external"].items():
        rules.setdefault(ext["matching"], []).append(name)
    title = "3. external corpora (evaluation splits only; no training split is read)"
    for rule, corpora in rules.items():
        title += f"\n   {', '.join(corpora)}:\n     {rule}"
    out.append(
        table(
            title,
            (
                "corpus",
                "gold label -> kg types",
                "P",
                "R",
                "F1",
                "exact F1",
                "gold",
                "system/found",
            ),
            rows,
        )
    )
    rows = []
    for name, lx in results["lexicon"].items():
        total = lx["gold_held"] + lx["gold_not_held"]
        rows.append(
            (
                name,
                f"{fmt(lx['share_held'])} ({lx['gold_held']}/{total})",
                *(
                    fmt(lx[f"{c} recall {p}"])
                    for c in ("micro", "type-blind")
                    for p in ("in", "out")
                ),
            )
        )
    out.append(
        table(
            "4. recall by lexicon: gold names the lexicon holds (in) and does not (out)",
            ("set", "share held", "micro R in", "micro R out", "blind R in", "blind R out"),
            rows,
        )
    )
    return "\n\n".join(out)


def commit() -> str:
    """The checkout's commit (``-dirty`` when tracked files differ from it)."""
    git = ["git", "-C", str(REPO), "describe", "--always", "--dirty", "--abbrev=7"]
    try:
        return subprocess.run(git, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Extraction quality with bootstrap intervals.")
    ap.add_argument("--json", metavar="FILE", help="also write every number here (JSON)")
    ap.add_argument("--bootstrap", type=int, default=BOOTSTRAP, help="resamples (default 1000)")
    ap.add_argument("--seed", type=int, default=SEED, help="bootstrap seed (default 16)")
    args = ap.parse_args(argv)
    if args.bootstrap < 1:
        ap.error("--bootstrap must be at least 1")
    if not DEV_GOLD.exists() or not PAPERLISTS.is_dir():
        print(f"bench.quality: ../shared not found at {SHARED}", file=sys.stderr)
        return 1
    start = time.perf_counter()
    results = measure(args.bootstrap, args.seed)
    results = {
        "meta": {
            "bootstrap": args.bootstrap,
            "seed": args.seed,
            "level": LEVEL,
            "split_rule": SPLIT_RULE,
            "commit": commit(),
            "date": date.today().isoformat(),
            "seconds": round(time.perf_counter() - start, 1),
        }
    } | results
    print(report(results))
    print(f"\n({results['meta']['seconds']} s)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=1, sort_keys=True)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
