"""Precision in the wild: random entity mentions of built graphs, judged blind.

    python -m bench.wild_precision --pool main=A.kg ours=B.kg --out DIR   # sheet + keys
    python -m bench.wild_precision --rates bench/data/wild-judged.jsonl     # precision
    python -m bench.wild_precision --rescore bench/data/wild-judged.jsonl   # this checkout

A mention is one paper -> entity edge (the paper's evidence for that entity: its first
occurrence, with offsets into the abstract). ``random.Random(SEED)`` draws ``PER_GRAPH``
mentions from each graph; the two draws are shuffled together and the sheet shows each
mention in its sentence with its type, without saying which graph it came from. The key
file holds (graph, paper key, entity key, type, start, end): ids and offsets only.

``--rescore`` estimates this checkout's precision on the judged mentions without a new
judging round: the judged papers' abstracts (read from the paperlists corpus by id) are
extracted as ``kg extract`` does (resolved among themselves, not across the whole corpus),
and each judged mention is *kept* (a mention of the same type at the same offsets),
*retyped* (same offsets, another type) or *dropped*. Precision is correct / kept, per graph
of the judged set; the retyped and dropped mentions are left out, and a mention this
checkout adds is never judged, so the estimate holds for the mentions both systems share.
"""

import argparse
import json
import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx

from bench.applied_quality import load
from bench.bootstrap import wilson
from bench.unseen_sample import PAPERLISTS
from kg import schema as S

SEED = 1692
PER_GRAPH = 75
NON_ENTITY = {S.PAPER, S.AUTHOR, S.AREA}


def mentions(G: nx.MultiDiGraph) -> list[dict[str, Any]]:
    """Every paper -> entity edge with offsets, as (paper, entity, type, start, end)."""
    out = []
    for paper, entity, data in G.edges(data=True):
        kind = G.nodes[entity].get("kind")
        if (
            G.nodes[paper].get("kind") == S.PAPER
            and kind not in NON_ENTITY
            and data.get("start") is not None
        ):
            out.append(
                {
                    "paper": paper,
                    "entity": entity,
                    "type": kind,
                    "start": data["start"],
                    "end": data["end"],
                }
            )
    out.sort(key=lambda m: (m["paper"], m["start"], m["entity"]))
    return out


def marked(abstract: str, start: int, end: int, width: int = 260) -> str:
    """The mention in its context, between [[ and ]]."""
    left = abstract.rfind(". ", 0, start)
    left = 0 if left < 0 or start - left > width else left + 2
    right = abstract.find(". ", end)
    right = len(abstract) if right < 0 or right - end > width else right + 1
    return f"{abstract[left:start]}[[{abstract[start:end]}]]{abstract[end:right]}"


def pool(graphs: dict[str, str], out: Path, seed: int = SEED) -> None:
    rng = random.Random(seed)
    items, loaded = [], {}
    for label, path in graphs.items():
        G = loaded[label] = load(path)
        drawn = rng.sample(mentions(G), PER_GRAPH)
        items += [{**m, "graph": label} for m in drawn]
    rng.shuffle(items)
    out.mkdir(parents=True, exist_ok=True)
    with (
        open(out / "wild-sheet.txt", "w", encoding="utf-8") as sheet,
        open(out / "wild-keys.jsonl", "w", encoding="utf-8") as keys,
    ):
        for n, m in enumerate(items, 1):
            G = loaded[m["graph"]]
            abstract = G.nodes[m["paper"]]["abstract"]
            sheet.write(
                f"=== item {n}  type: {m['type']}  name: {G.nodes[m['entity']].get('name')}\n"
                f"{marked(abstract, m['start'], m['end'])}\n\n"
            )
            keys.write(json.dumps({"item": n, **m}) + "\n")


def rates(judged: Path) -> None:
    """Precision per graph (correct / judged), overall and per type."""
    rows = [json.loads(line) for line in judged.read_text().splitlines() if line.strip()]
    for graph in sorted({r["graph"] for r in rows}):
        part = [r for r in rows if r["graph"] == graph]
        k = sum(1 for r in part if r["verdict"] == "correct")
        low, high = wilson(k, len(part))
        print(f"{graph:6} precision {k}/{len(part)} = {k / len(part):.2f} [{low:.2f}, {high:.2f}]")
        by_type = Counter(r["type"] for r in part)
        good = Counter(r["type"] for r in part if r["verdict"] == "correct")
        print("       " + ", ".join(f"{t} {good[t]}/{n}" for t, n in sorted(by_type.items())))


def paperlists_by_key(directory: Path = PAPERLISTS) -> dict[str, dict[str, Any]]:
    """Every paperlists record by its graph paper key (``paper:<id>``)."""
    out = {}
    for path in sorted(Path(directory).glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    out[S.paper_key(rec["text"], rec["id"])] = rec
    return out


def extracted_spans(records: list[dict[str, Any]]) -> dict[str, dict[tuple[int, int], str]]:
    """{paper key: {(start, end): type}} of this checkout's extraction of the records."""
    from kg.store.extraction import extract_records

    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "judged.jsonl"
        listing.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        pairs = extract_records([listing], format="jsonl")
    return {
        S.paper_key(rec.abstract, rec.external_id): {(m.start, m.end): m.type for m in ms}
        for rec, ms in pairs
    }


def verdicts_now(rows: list[dict[str, Any]], spans: dict[str, dict]) -> list[str]:
    """Each judged row's status in this checkout: kept, retyped or dropped."""
    out = []
    for r in rows:
        now = spans.get(r["paper"], {}).get((r["start"], r["end"]))
        out.append("dropped" if now is None else "kept" if now == r["type"] else "retyped")
    return out


def rescore(judged: Path) -> None:
    """Precision of this checkout on the judged mentions it still makes (module docstring)."""
    rows = [json.loads(line) for line in judged.read_text().splitlines() if line.strip()]
    source = paperlists_by_key()
    missing = sorted({r["paper"] for r in rows} - source.keys())
    if missing:
        raise SystemExit(f"{judged}: papers not in {PAPERLISTS}: {', '.join(missing[:5])}")
    papers = sorted({r["paper"] for r in rows})
    status = verdicts_now(rows, extracted_spans([source[p] for p in papers]))
    for graph in sorted({r["graph"] for r in rows}) + ["all"]:
        part = [(r, s) for r, s in zip(rows, status, strict=True) if graph in ("all", r["graph"])]
        counts = Counter(s for _, s in part)
        kept = [r for r, s in part if s == "kept"]
        k = sum(1 for r in kept if r["verdict"] == "correct")
        low, high = wilson(k, len(kept))
        lost = Counter(r["verdict"] for r, s in part if s != "kept")
        print(
            f"{graph:6} kept {counts['kept']}, retyped {counts['retyped']}, "
            f"dropped {counts['dropped']} (of the lost: {lost['correct']} correct, "
            f"{lost['wrong']} wrong); precision of the kept {k}/{len(kept)} = "
            f"{k / max(len(kept), 1):.2f} [{low:.2f}, {high:.2f}]"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool", nargs="+", metavar="LABEL=GRAPH")
    ap.add_argument("--out", type=Path, default=Path("wild-pool"))
    ap.add_argument("--rates", type=Path)
    ap.add_argument("--rescore", type=Path, metavar="JUDGED")
    ap.add_argument("--seed", type=int, default=SEED, help=f"the draw's seed (default {SEED})")
    args = ap.parse_args(argv)
    if args.rates:
        rates(args.rates)
    elif args.rescore:
        rescore(args.rescore)
    elif args.pool:
        pool(dict(p.split("=", 1) for p in args.pool), args.out, args.seed)
    else:
        ap.error("give --pool or --rates")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
