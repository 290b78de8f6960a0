"""APPLIED_TO quality: precision on blind-judged edges, recall on pairs listed by a reader.

- Precision: ``bench/data/applied-judgments.jsonl`` (``{"item": n, "correct": bool}``)
  joined through ``bench/data/applied-key.jsonl`` (item -> system, index) with the sample
  files ``bench/data/applied-edges-<system>.jsonl`` drawn by ``bench.applied_sample``;
  printed when the judgments exist.
- Recall: ``bench/data/applied-recall.jsonl``, the evaluation pairs a reader listed blind
  in random paperlists abstracts (``{"file", "id", "pairs": [{"method": [s, e], "dataset":
  [s, e]}]}``, offsets into the record's ``text``). A listed pair is found when the graph
  has an APPLIED_TO edge supported by that paper between the entities the paper names at
  those spans (an entity of the paper whose first mention overlaps the span, or whose name,
  alias, mention text or, for a sense, short form is the span's text). "Extracted" counts
  the pairs whose both ends are entities of the paper at all: the ceiling of any
  APPLIED_TO rule on that extraction. The same is printed for
  ``bench/data/applied-recall-tuning.jsonl`` (pairs listed the same way in other
  abstracts, on which the rules may be changed).
- The top 20 of ``top_method_dataset_pairs`` and the generic building blocks
  (``generic_methods.txt``) among their methods.

    python -m bench.applied_quality main=/tmp/main.kg applied=/tmp/applied.kg

Graph files of an older schema (main before APPLIED_TO kept evidence, schema 2) are read
too: what this script reads has not changed.
"""

import bisect
import json
import sys
from contextlib import contextmanager
from pathlib import Path

from bench.applied_sample import original_offsets
from bench.unseen_sample import PAPERLISTS
from kg import schema as S
from kg.extractors.names import name_key
from kg.extractors.rules.evaluations import is_generic_method
from kg.graph.senses import short_of
from kg.store import graphfile
from kg.traverse import top_method_dataset_pairs

DATA = Path(__file__).resolve().parent / "data"
RECALL = DATA / "applied-recall.jsonl"
#: Pairs listed the same way in other abstracts, for changing the rules (see bench/data).
RECALL_TUNING = DATA / "applied-recall-tuning.jsonl"
JUDGMENTS = DATA / "applied-judgments.jsonl"
KEY = DATA / "applied-key.jsonl"
#: The judging rounds: (key, judgments). Round 2 judged 60 edges of the build at d298180
#: mixed with 20 of round 1's main edges graded again (``main-control``); round 3, 60 of the
#: build at d23f5b9 with 20 of round 2's graded again (``d298180-control``); round 4, 60 of
#: the build at fe349ee with 20 of round 3's (``d23f5b9-control``); round 5, 60 of 81459a1
#: with 20 of round 4's; round 6, 60 of 13d01b5, 20 edges its rule removed
#: (``removed-13d01b5``) and 20 of round 5's; round 7, 60 of 462bb19; round 8, 60 of
#: 510e666 with 20 of round 7's graded again (``462bb19-control``); round 9, 60 of 8d7dcad
#: with 20 of round 8's; round 10, 60 of f8de45a with 20 of round 9's (``8d7dcad-control``).
ROUNDS = (
    (KEY, JUDGMENTS),
    *(
        (DATA / f"applied-key-{n}.jsonl", DATA / f"applied-judgments-{n}.jsonl")
        for n in (2, 3, 4, 5, 6, 7, 8, 9, 10)
    ),
)


@contextmanager
def _older_schemas():
    """Let ``load_graph`` open files of schema 2 as well."""
    saved = graphfile.SCHEMA_VERSION
    graphfile.SCHEMA_VERSION = 2
    try:
        yield
    finally:
        graphfile.SCHEMA_VERSION = saved


def load(path: str):
    """The graph of ``path``, whatever its schema (2 or this kg's)."""
    try:
        return graphfile.load_graph(path)
    except graphfile.GraphFileError:
        with _older_schemas():
            return graphfile.load_graph(path)


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]


def _texts(rows: list[dict]) -> dict[tuple[str, str], str]:
    wanted = {(r["file"], r["id"]) for r in rows}
    out = {}
    for name in sorted({f for f, _ in wanted}):
        for rec in _jsonl(PAPERLISTS / name):
            if (name, rec["id"]) in wanted:
                out[(name, rec["id"])] = rec["text"]
    return out


def _entities_at(G, paper: str, abstract: str, span: tuple[int, int], kinds) -> set[str]:
    """The entities of ``kinds`` the paper names at ``span`` (offsets into ``abstract``)."""
    text = name_key(abstract[span[0] : span[1]])
    found = set()
    for entity, rels in G[paper].items():
        attrs = G.nodes[entity]
        if attrs.get("kind") not in kinds:
            continue
        for rel, edge in rels.items():
            if rel not in S.MENTION_RELS:
                continue
            forms = {edge.get("text"), attrs.get("name"), attrs.get("long_form")}
            forms.update(attrs.get("aliases") or ())
            if attrs.get("long_form"):  # a sense node, "BPR (Binary Passage Retriever)"
                forms.add(short_of(attrs["name"]))
            overlaps = edge["start"] < span[1] and span[0] < edge["end"]
            if overlaps or text in {name_key(f) for f in forms if f}:
                found.add(entity)
    return found


def recall(G, gold: list[dict], texts: dict[tuple[str, str], str]) -> tuple[int, int, int]:
    """(listed pairs, pairs with both ends extracted, pairs found as APPLIED_TO)."""
    listed = extracted = found = 0
    for row in gold:
        paper = f"paper:{row['id']}"
        if not row["pairs"]:
            continue
        abstract = G.nodes[paper]["abstract"]
        index = original_offsets(texts[(row["file"], row["id"])])

        def collapsed(span, index=index):
            return bisect.bisect_left(index, span[0]), bisect.bisect_left(index, span[1])

        for pair in row["pairs"]:
            listed += 1
            methods = _entities_at(G, paper, abstract, collapsed(pair["method"]), (S.METHOD,))
            targets = _entities_at(
                G, paper, abstract, collapsed(pair["dataset"]), S.COLLECTION_KINDS
            )
            if methods and targets:
                extracted += 1
            if any(
                paper in G.edges[m, t, S.APPLIED_TO]["paper_keys"]
                for m in methods
                for t in targets
                if G.has_edge(m, t, S.APPLIED_TO)
            ):
                found += 1
    return listed, extracted, found


def precision(rounds: tuple[tuple[Path, Path], ...] = ROUNDS) -> dict[str, tuple[int, int]]:
    """{system: (judged items, correct)} from the judging rounds (key file, judgments file)
    that exist; each round's key names its systems (a build's commit, or main)."""
    out: dict[str, tuple[int, int]] = {}
    for key, judgments in rounds:
        if not (judgments.exists() and key.exists()):
            continue
        system_of = {r["item"]: r["system"] for r in _jsonl(key)}
        for r in _jsonl(judgments):
            system = system_of[r["item"]]
            judged, correct = out.get(system, (0, 0))
            out[system] = (judged + 1, correct + bool(r["correct"]))
    return out


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if not args or any("=" not in a for a in args):
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    sets = {"test": _jsonl(RECALL), "tuning": _jsonl(RECALL_TUNING)}
    texts = {name: _texts(gold) for name, gold in sets.items()}
    judged = precision()
    for name, gold in sets.items():
        papers = sum(1 for r in gold if r["pairs"])
        print(f"recall {name} set: {len(gold)} abstracts, {papers} with listed pairs")
    head = ("system", "set", "edges", "listed", "extr.", "found", "recall")
    print("{:10} {:6} {:>7} {:>6} {:>5} {:>5} {:>6}  precision".format(*head))
    top = {}
    for arg in args:
        system, path = arg.split("=", 1)
        G = load(path)
        edges = sum(1 for _, _, k in G.edges(keys=True) if k == S.APPLIED_TO)
        n, ok = judged.get(system, (0, 0))
        shown = f"{ok / n:.3f} ({ok}/{n})" if n else "not judged"
        for name, gold in sets.items():
            listed, extracted, found = recall(G, gold, texts[name])
            print(
                f"{system:10} {name:6} {edges:7d} {listed:6d} {extracted:5d} {found:5d} "
                f"{found / listed if listed else 0:6.3f}  {shown if name == 'test' else ''}"
            )
        top[system] = top_method_dataset_pairs(G, limit=20)
    for system, rows in top.items():
        generic = [r["method"] for r in rows if is_generic_method(r["method"])]
        print(f"{system}: top 20 pairs, generic building blocks among them: {generic or 'none'}")
        print("  " + "; ".join(f"{r['method']} -> {r['target']} {r['count']}" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
