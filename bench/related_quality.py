"""Related papers against the judged set: P@5 and nDCG@10 of every system on both halves.

The judged set (``bench/data/related-*.jsonl``): 40 query papers drawn at random from the
paperlists corpus (seed 1842), split into a tuning half and a test half before any result
was seen; the pooled top 10 of the systems graded 0/1/2 by reading both abstracts, blind to
the system. Relevant means grade >= 1; nDCG uses the grades as gains, the ideal ranking
being the query's judged papers by grade. An unjudged result counts as not relevant; the
share of each system's top 10 that is judged is printed beside it.

Systems: ``kg`` (``related_papers`` on the graph given, built from the paperlists corpus),
``kg-main`` (main's ranking before this one, as recorded when the pool was made), and the
text baselines used for pooling: TF-IDF of title and abstract (English stop words,
sublinear tf), the same with word pairs, and BM25 (k1 1.2, b 0.75, same tokens).

    python -m bench.related_quality --graph /tmp/related.kg
"""

import argparse
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from bench.unseen_sample import SHARED

DATA = Path(__file__).resolve().parent / "data"
PAPERLISTS = SHARED / "eval" / "external" / "paper-metadata-paperlists"
HALVES = ("tuning", "test")
#: Ranking -> {query id: [result ids, best first]}.
Runs = dict[str, list[str]]


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def corpus_records(folder: Path = PAPERLISTS) -> list[tuple[str, dict]]:
    """Every record with an abstract, first occurrence of each id, by (file name, id)."""
    seen: set[str] = set()
    out = []
    for path in sorted(folder.glob("*.jsonl")):
        for r in read_jsonl(path):
            if isinstance(r.get("text"), str) and r["text"].strip() and r["id"] not in seen:
                seen.add(r["id"])
                out.append((path.name, r))
    out.sort(key=lambda fr: (fr[0], fr[1]["id"]))
    return out


def doc_text(r: Mapping) -> str:
    return f"{r.get('title') or ''}. {r['text']}"


def top_k(scores: np.ndarray, ids: Sequence[str], self_index: int, k: int = 10) -> list[str]:
    scores = np.asarray(scores).ravel().copy()
    scores[self_index] = -np.inf
    order = np.lexsort((np.arange(len(scores)), -scores))[:k]
    return [ids[i] for i in order if scores[i] > 0]


def tfidf_runs(texts: list[str], ids: list[str], queries: list[str], **options) -> Runs:
    from sklearn.feature_extraction.text import TfidfVectorizer

    X = TfidfVectorizer(stop_words="english", sublinear_tf=True, **options).fit_transform(texts)
    index = {i: n for n, i in enumerate(ids)}
    return {q: top_k((X @ X[index[q]].T).toarray(), ids, index[q]) for q in queries}


def bm25_runs(
    texts: list[str], ids: list[str], queries: list[str], k1: float = 1.2, b: float = 0.75
) -> Runs:
    from sklearn.feature_extraction.text import CountVectorizer

    C = CountVectorizer(stop_words="english").fit_transform(texts).tocsr().astype(float)
    n = C.shape[0]
    df = np.bincount(C.indices, minlength=C.shape[1])
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    dl = np.asarray(C.sum(axis=1)).ravel()
    W = C.copy()
    rows = np.repeat(np.arange(n), np.diff(W.indptr))
    tf = W.data
    W.data = idf[W.indices] * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl[rows] / dl.mean()))
    index = {i: m for m, i in enumerate(ids)}
    out = {}
    for q in queries:
        qv = C[index[q]].copy()
        qv.data[:] = 1.0
        out[q] = top_k((W @ qv.T).toarray(), ids, index[q])
    return out


def kg_runs(graph: str, queries: list[str]) -> Runs:
    from kg.store import load_graph
    from kg.traverse import related_papers

    G = load_graph(graph)
    return {
        q: [r["key"].removeprefix("paper:") for r in related_papers(G, f"paper:{q}", limit=10)]
        for q in queries
    }


def recorded_runs(path: Path) -> Runs:
    return {r["query"]: r["results"] for r in read_jsonl(path)}


def scores(
    runs: Runs, queries: list[str], grades: Mapping[tuple[str, str], int]
) -> tuple[float, float, float]:
    """Mean P@5, nDCG@10 and share of the top 10 judged over ``queries``."""
    p5 = ndcg = judged = 0.0
    for q in queries:
        got = [grades.get((q, c)) for c in runs.get(q, [])[:10]]
        gains = [g or 0 for g in got]
        p5 += sum(g >= 1 for g in gains[:5]) / 5
        ideal = sorted((g for (qq, _), g in grades.items() if qq == q), reverse=True)[:10]
        idcg = _dcg(ideal)
        ndcg += _dcg(gains) / idcg if idcg else 0.0
        judged += sum(g is not None for g in got) / 10
    n = len(queries)
    return p5 / n, ndcg / n, judged / n


def _dcg(gains: Sequence[int]) -> float:
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def report(systems: Mapping[str, Runs], halves: Mapping[str, list[str]], grades: Mapping) -> str:
    lines = [
        f"{'system':16s}" + "".join(f"{h + ': P@5  nDCG@10 judged':>32s}" for h in halves),
    ]
    for name, runs in systems.items():
        cells = "".join(
            f"{'':8s}{p5:9.3f}{nd:9.3f}{j:6.0%}"
            for p5, nd, j in (scores(runs, qs, grades) for qs in halves.values())
        )
        lines.append(f"{name:16s}{cells}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graph", required=True, help="graph built from the paperlists corpus")
    ap.add_argument("--data", type=Path, default=DATA, help="folder of the judged set")
    args = ap.parse_args(argv)
    if not PAPERLISTS.is_dir():
        print(f"bench.related_quality: no corpus at {PAPERLISTS}", file=sys.stderr)
        return 1
    queries = read_jsonl(args.data / "related-queries.jsonl")
    grades = {
        (r["query"], r["candidate"]): r["grade"]
        for r in read_jsonl(args.data / "related-judgments.jsonl")
    }
    halves = {h: [q["query"] for q in queries if q["half"] == h] for h in HALVES}
    ids = [q["query"] for q in queries]
    records = corpus_records()
    texts, keys = [doc_text(r) for _, r in records], [r["id"] for _, r in records]
    systems: dict[str, Callable[[], Runs]] = {
        "kg": lambda: kg_runs(args.graph, ids),
        "kg-main": lambda: recorded_runs(args.data / "related-kg-main.jsonl"),
        "tfidf": lambda: tfidf_runs(texts, keys, ids),
        "tfidf-bigrams": lambda: tfidf_runs(texts, keys, ids, ngram_range=(1, 2)),
        "bm25": lambda: bm25_runs(texts, keys, ids),
    }
    print(report({name: run() for name, run in systems.items()}, halves, grades))
    return 0


if __name__ == "__main__":
    sys.exit(main())
