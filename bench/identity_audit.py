"""Identity audit: candidate missed merges and wrong merges on a built graph.

    python -m bench.identity_audit GRAPH                      # counts per candidate kind
    python -m bench.identity_audit GRAPH --list KIND          # the candidates of one kind
    python -m bench.identity_audit --pool main=A.kg ours=B.kg --out DIR   # blind judging sheet
    python -m bench.identity_audit --rates bench/data/identity-judged.jsonl

Missed-merge candidates (pairs of nodes that may be one thing):

* ``same-name``: entity nodes whose names are equal under a loose key (fold, no final
  plural ``s``), whatever their types;
* ``fuzzy``: entity names of eight characters or more, blocked by their first four loose
  characters, with rapidfuzz ``ratio`` >= 92 and different loose keys;
* ``short-form``: nodes sharing a short form ("IBP (Indian Buffet Process)" and "IBP");
* ``author-initials``: authors with one surname and first initial, different keys, and a
  co-author in common (middle-initial variants).

Wrong-merge candidates: entity nodes whose aliases spell two or more long forms that are not
spellings of each other; and, for the judged rate, random nodes with three or more aliases.

The pool draws with ``random.Random(SEED)`` the same number of candidates from each graph,
shuffles them together and writes a sheet without the graph names; the key file says which
graph each came from. Rates come with Wilson 95% intervals.
"""

import argparse
import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import networkx as nx
from rapidfuzz import fuzz

from bench.applied_quality import load
from bench.bootstrap import wilson
from kg import schema as S
from kg.extractors.names import fold

SEED = 1717
PAIRS_PER_GRAPH = 50
ALIASED_PER_GRAPH = 30
NON_ENTITY = {S.PAPER, S.AUTHOR, S.AREA}
SHORT_FORM = re.compile(r"^(\S+) \((.+)\)$")

Candidate = dict[str, Any]


def loose_key(name: str) -> str:
    """Fold, drop everything but letters and digits, and a final plural ``s``."""
    key = re.sub(r"[^0-9a-z]", "", fold(name))
    return key[:-1] if len(key) > 3 and key.endswith("s") and not key.endswith("ss") else key


def entities(G: nx.MultiDiGraph) -> dict[str, dict[str, Any]]:
    """Entity nodes: key -> attributes with ``papers`` (how many papers point to it)."""
    out = {}
    for key, attrs in G.nodes(data=True):
        if attrs.get("kind") not in NON_ENTITY:
            papers = {u for u in G.pred[key] if G.nodes[u].get("kind") == S.PAPER}
            out[key] = {**attrs, "papers": len(papers)}
    return out


def same_name(nodes: dict[str, dict[str, Any]]) -> Iterator[Candidate]:
    groups = defaultdict(list)
    for key, attrs in nodes.items():
        groups[loose_key(attrs.get("name") or key)].append(key)
    for keys in groups.values():
        for a, b in list(combinations(sorted(keys), 2))[:3]:
            yield {"kind": "same-name", "a": a, "b": b}


def fuzzy(nodes: dict[str, dict[str, Any]]) -> Iterator[Candidate]:
    blocks = defaultdict(list)
    for key, attrs in nodes.items():
        loose = loose_key(attrs.get("name") or key)
        if len(loose) >= 8:
            blocks[loose[:4]].append((loose, key))
    for members in blocks.values():
        members.sort()
        for (la, a), (lb, b) in combinations(members, 2):
            if la != lb and fuzz.ratio(la, lb) >= 92:
                yield {"kind": "fuzzy", "a": min(a, b), "b": max(a, b)}


def short_forms(nodes: dict[str, dict[str, Any]]) -> Iterator[Candidate]:
    groups = defaultdict(list)
    for key, attrs in nodes.items():
        name = attrs.get("name") or ""
        match = SHORT_FORM.match(name)
        groups[fold(match.group(1) if match else name)].append(key)
    for keys in groups.values():
        if len(keys) > 1 and any(SHORT_FORM.match(nodes[k].get("name") or "") for k in keys):
            for a, b in list(combinations(sorted(keys), 2))[:3]:
                yield {"kind": "short-form", "a": a, "b": b}


def compatible_given(a: str, b: str) -> bool:
    """Whether two printed names may be one person: equal first names, or an initial that
    matches the other's first name ("A. Courville", "Aaron C. Courville")."""
    first_a, first_b = (fold(n.split()[0]).rstrip(".") for n in (a, b))
    return first_a == first_b or (min(len(first_a), len(first_b)) == 1 and first_a[0] == first_b[0])


def author_initials(G: nx.MultiDiGraph) -> Iterator[Candidate]:
    groups = defaultdict(list)
    for key, attrs in G.nodes(data=True):
        if attrs.get("kind") == S.AUTHOR:
            parts = (attrs.get("name") or "").split()
            if len(parts) >= 2:
                groups[(fold(parts[-1]), fold(parts[0])[:1])].append(key)
    coauthors = {}
    for keys in groups.values():
        if len(keys) < 2 or len(keys) > 20:
            continue
        for key in keys:
            if key not in coauthors:
                papers = list(G.succ[key])
                coauthors[key] = {a for p in papers for a in G.pred[p] if a != key}
        for a, b in combinations(sorted(keys), 2):
            if (
                compatible_given(G.nodes[a]["name"], G.nodes[b]["name"])
                and coauthors[a] & coauthors[b]
            ):
                yield {"kind": "author-initials", "a": a, "b": b}


def wrong_merges(nodes: dict[str, dict[str, Any]]) -> Iterator[Candidate]:
    for key, attrs in sorted(nodes.items()):
        longs = sorted(
            {loose_key(a): a for a in attrs.get("aliases") or [] if len(a.split()) >= 2}.values()
        )
        distinct = []
        for form in longs:
            if all(fuzz.token_set_ratio(fold(form), fold(d)) < 80 for d in distinct):
                distinct.append(form)
        if len(distinct) >= 2:
            yield {"kind": "alias-long-forms", "a": key}


def candidates(G: nx.MultiDiGraph) -> dict[str, list[Candidate]]:
    """Every candidate, by kind."""
    nodes = entities(G)
    found: dict[str, list[Candidate]] = {}
    for kind, rows in (
        ("same-name", same_name(nodes)),
        ("fuzzy", fuzzy(nodes)),
        ("short-form", short_forms(nodes)),
        ("author-initials", author_initials(G)),
        ("alias-long-forms", wrong_merges(nodes)),
    ):
        found[kind] = sorted({(c["a"], c.get("b", "")): c for c in rows}.values(), key=str)
    found["aliased"] = [
        {"kind": "aliased", "a": k}
        for k, a in sorted(nodes.items())
        if len(a.get("aliases") or []) >= 3
    ]
    return found


def describe(G: nx.MultiDiGraph, key: str, evidence: int = 2) -> str:
    """A node as the judge sees it: name, type, aliases, papers and a few evidence lines."""
    attrs = G.nodes[key]
    links = len(G.pred[key]) or len(G.succ[key])
    lines = [f"  [{attrs.get('kind')}] {attrs.get('name')!s}  ({links} links)"]
    if attrs.get("aliases"):
        lines.append(f"    aliases: {' | '.join(attrs['aliases'][:12])}")
    if attrs.get("long_form"):
        lines.append(f"    long form: {attrs['long_form']}")
    shown = 0
    for _, _, data in sorted(G.in_edges(key, data=True), key=lambda e: e[0]):
        if data.get("evidence") and shown < evidence:
            lines.append(f"    - {data['evidence'][:300]}")
            shown += 1
    if attrs.get("kind") == S.AUTHOR:
        titles = [G.nodes[p].get("title") or p for p in sorted(G.succ[key])][:4]
        venues = sorted({str(G.nodes[p].get("venue")) for p in G.succ[key]})[:4]
        co = sorted({a for p in G.succ[key] for a in G.pred[p] if a != key})[:8]
        lines.append(f"    papers: {' | '.join(titles)}\n    venues: {', '.join(venues)}")
        lines.append(f"    co-authors: {', '.join(co)}")
    return "\n".join(lines)


def pool(graphs: dict[str, str], out: Path, seed: int = SEED) -> None:
    """A blind sheet of missed-merge pairs and multi-alias nodes drawn from each graph."""
    rng = random.Random(seed)
    items = []
    loaded = {label: load(path) for label, path in graphs.items()}
    for label, G in loaded.items():
        found = candidates(G)
        pairs = [
            c
            for kind, rows in found.items()
            if kind not in ("alias-long-forms", "aliased")
            for c in rows
        ]
        items += [
            {**c, "graph": label} for c in rng.sample(pairs, min(PAIRS_PER_GRAPH, len(pairs)))
        ]
        aliased = found["aliased"]
        items += [
            {**c, "graph": label} for c in rng.sample(aliased, min(ALIASED_PER_GRAPH, len(aliased)))
        ]
    rng.shuffle(items)
    out.mkdir(parents=True, exist_ok=True)
    with (
        open(out / "identity-sheet.txt", "w", encoding="utf-8") as sheet,
        open(out / "identity-keys.jsonl", "w", encoding="utf-8") as keys,
    ):
        for n, item in enumerate(items, 1):
            G = loaded[item["graph"]]
            question = (
                "ONE-NODE: do all names/aliases of this node name one thing?"
                if "b" not in item
                else "PAIR: are these two nodes the same thing?"
            )
            sheet.write(f"=== item {n}  {question}\n{describe(G, item['a'])}\n")
            if "b" in item:
                sheet.write(f"{describe(G, item['b'])}\n")
            sheet.write("\n")
            keys.write(json.dumps({"item": n, **item}) + "\n")


def rates(judged: Path) -> None:
    """Missed-merge rate of the pairs and wrong-merge rate of the nodes, per graph."""
    rows = [json.loads(line) for line in judged.read_text().splitlines() if line.strip()]
    for graph in sorted({r["graph"] for r in rows}):
        pairs = [r for r in rows if r["graph"] == graph and "b" in r]
        nodes = [r for r in rows if r["graph"] == graph and "b" not in r]
        for label, part, flag in (
            ("missed merges", pairs, "same"),
            ("wrong merges", nodes, "mixed"),
        ):
            k = sum(1 for r in part if r["verdict"] == flag)
            low, high = wilson(k, len(part))
            rate = k / max(len(part), 1)
            print(f"{graph:6} {label:14} {k}/{len(part)} = {rate:.2f} [{low:.2f}, {high:.2f}]")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graph", nargs="?")
    ap.add_argument("--list", metavar="KIND")
    ap.add_argument("--pool", nargs="+", metavar="LABEL=GRAPH")
    ap.add_argument("--out", type=Path, default=Path("identity-pool"))
    ap.add_argument("--rates", type=Path)
    ap.add_argument("--seed", type=int, default=SEED, help=f"the draw's seed (default {SEED})")
    args = ap.parse_args(argv)
    if args.rates:
        rates(args.rates)
    elif args.pool:
        pool(dict(p.split("=", 1) for p in args.pool), args.out, args.seed)
    elif args.graph:
        G = load(args.graph)
        found = candidates(G)
        for kind, rows in found.items():
            print(f"{kind:18} {len(rows)}")
        for c in found.get(args.list or "", []):
            print(json.dumps(c))
    else:
        ap.error("give a GRAPH, --pool or --rates")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
