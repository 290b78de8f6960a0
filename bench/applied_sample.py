"""Draw random APPLIED_TO edges of a graph for blind judging (precision of APPLIED_TO).

Rule: the APPLIED_TO edges of the graph sorted by (method key, target key), then
``random.Random(seed).sample(edges, size)``; for each drawn edge, one of its supporting
papers, ``rng.choice`` over the sorted paper keys with the same generator. Each item names
the pair and gives the evidence as character offsets into the paper's ``text`` in
``../shared`` (never the text itself):

- ``evidence``: the sentences that support the edge in that paper: the edge's stored
  evidence sentence where the graph has one (``evidence_at``), else the
  sentences of the paper's mentions of the method and of the target;
- ``method_at`` / ``target_at``: the paper's first mention of each.

    python -m bench.applied_sample /tmp/applied.kg --seed 1812 --out edges.jsonl
    python -m bench.applied_sample --pool A.jsonl B.jsonl --seed 7 --out blind.jsonl --key k.jsonl

``--pool`` merges sample files, shuffles them (seeded) and numbers the items 1.., writing a
blind judging file without the ``system`` field and a key file (item -> system, index).
A judgments file has one line per item: ``{"item": n, "correct": true|false}``.
"""

import argparse
import bisect
import json
import random
import sys
from pathlib import Path

from kg import schema as S
from kg.extractors.rules.sentences import sentence_bounds
from kg.store import load_graph

SIZE = 60


def original_offsets(text: str) -> list[int]:
    """For each character of the whitespace-collapsed ``text`` (as the graph stores an
    abstract), its index in ``text``; one more entry for the end."""
    out: list[int] = []
    i, n = 0, len(text)
    while i < n and text[i].isspace():
        i += 1
    while i < n:
        if text[i].isspace():
            j = i
            while j < n and text[j].isspace():
                j += 1
            if j == n:
                break
            out.append(i)
            i = j
        else:
            out.append(i)
            i += 1
    out.append(out[-1] + 1 if out else 0)
    return out


def to_original(index: list[int], start: int, end: int) -> list[int]:
    """A span of the collapsed text as a span of the original text."""
    return [index[start], index[end - 1] + 1 if end > start else index[start]]


def _sentence_at(abstract: str, pos: int) -> tuple[int, int]:
    bounds = sentence_bounds(abstract)
    return bounds[bisect.bisect_right([a for a, _ in bounds], pos) - 1]


def _mention_edge(G, paper: str, entity: str) -> dict | None:
    for rel, attrs in (G.get_edge_data(paper, entity) or {}).items():
        if rel in S.MENTION_RELS:
            return attrs
    return None


def _source_file(G, paper: str) -> str:
    return Path(G.nodes[paper]["sources"][0].rsplit("#", 1)[0]).name


def draw(G, *, seed: int, size: int, system: str) -> list[dict]:
    """The judging items of ``size`` random APPLIED_TO edges of ``G``."""
    edges = sorted((m, t) for m, t, k in G.edges(keys=True) if k == S.APPLIED_TO)
    rng = random.Random(seed)
    items = []
    for n, (method, target) in enumerate(rng.sample(edges, min(size, len(edges))), 1):
        attrs = G.edges[method, target, S.APPLIED_TO]
        keys = sorted(attrs["paper_keys"])
        paper = rng.choice(keys)
        abstract = G.nodes[paper]["abstract"]
        m_edge, t_edge = _mention_edge(G, paper, method), _mention_edge(G, paper, target)
        if "evidence_at" in attrs:
            at = attrs["evidence_at"][attrs["paper_keys"].index(paper)]
            spans = [tuple(int(x) for x in at.split(":"))]
        else:
            spans = sorted({_sentence_at(abstract, e["start"]) for e in (m_edge, t_edge) if e})
        items.append(
            {
                "system": system,
                "index": n,
                "file": _source_file(G, paper),
                "id": paper.removeprefix("paper:"),
                "method": G.nodes[method]["name"],
                "method_key": method,
                "target": G.nodes[target]["name"],
                "target_key": target,
                "target_kind": G.nodes[target]["kind"],
                "papers": attrs["papers"],
                "abstract_chars": len(abstract),
                "evidence": [list(s) for s in spans],
                "method_at": [m_edge["start"], m_edge["end"]] if m_edge else None,
                "target_at": [t_edge["start"], t_edge["end"]] if t_edge else None,
            }
        )
    return items


def in_original_text(items: list[dict], shared: Path) -> list[dict]:
    """The items with their offsets moved from the collapsed abstract to the record's
    ``text`` in ``shared`` (``file``/``id``)."""
    texts: dict[tuple[str, str], str] = {}
    for name in sorted({it["file"] for it in items}):
        wanted = {it["id"] for it in items if it["file"] == name}
        with open(shared / name, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    if rec["id"] in wanted:
                        texts[(name, rec["id"])] = rec["text"]
    out = []
    for it in items:
        index = original_offsets(texts[(it["file"], it["id"])])
        if len(index) - 1 != it["abstract_chars"]:
            raise ValueError(f"{it['id']}: the graph's abstract is not the record's text")
        moved = dict(it, evidence=[to_original(index, a, b) for a, b in it["evidence"]])
        for field in ("method_at", "target_at"):
            if it[field]:
                moved[field] = to_original(index, *it[field])
        del moved["abstract_chars"]
        out.append(moved)
    return out


def pool(paths: list[str], *, seed: int) -> tuple[list[dict], list[dict]]:
    """(blind items numbered 1.. in shuffled order, key rows item -> system, index)."""
    items = [json.loads(line) for p in paths for line in open(p, encoding="utf-8") if line.strip()]
    random.Random(seed).shuffle(items)
    blind, key = [], []
    for n, it in enumerate(items, 1):
        key.append({"item": n, "system": it["system"], "index": it["index"]})
        blind.append({"item": n} | {k: v for k, v in it.items() if k not in ("system", "index")})
    return blind, key


def _write(path: str, rows: list[dict]) -> None:
    Path(path).write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def main(argv=None):
    from bench.unseen_sample import PAPERLISTS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graph", nargs="?", help="the graph file to draw from")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--size", type=int, default=SIZE)
    ap.add_argument("--system", help="the name the items carry (default: the graph's stem)")
    ap.add_argument("--pool", nargs="+", help="sample files to pool into one blind file")
    ap.add_argument("--key", help="with --pool: where the key (item -> system) goes")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    if args.pool:
        blind, key = pool(args.pool, seed=args.seed)
        _write(args.out, blind)
        _write(args.key or args.out + ".key", key)
        return 0
    if not args.graph:
        ap.error("give a graph file or --pool")
    G = load_graph(args.graph)
    items = draw(G, seed=args.seed, size=args.size, system=args.system or Path(args.graph).stem)
    _write(args.out, in_original_text(items, PAPERLISTS))
    print(f"{len(items)} items -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
