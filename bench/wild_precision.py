"""Precision in the wild: random entity mentions of built graphs, judged blind.

    python -m bench.wild_precision --pool main=A.kg ours=B.kg --out DIR   # sheet + keys
    python -m bench.wild_precision --rates bench/data/wild-judged.jsonl     # precision

A mention is one paper -> entity edge (the paper's evidence for that entity: its first
occurrence, with offsets into the abstract). ``random.Random(SEED)`` draws ``PER_GRAPH``
mentions from each graph; the two draws are shuffled together and the sheet shows each
mention in its sentence with its type, without saying which graph it came from. The key
file holds (graph, paper key, entity key, type, start, end): ids and offsets only.
"""

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx

from bench.applied_quality import load
from bench.bootstrap import wilson
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool", nargs="+", metavar="LABEL=GRAPH")
    ap.add_argument("--out", type=Path, default=Path("wild-pool"))
    ap.add_argument("--rates", type=Path)
    args = ap.parse_args(argv)
    if args.rates:
        rates(args.rates)
    elif args.pool:
        pool(dict(p.split("=", 1) for p in args.pool), args.out)
    else:
        ap.error("give --pool or --rates")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
