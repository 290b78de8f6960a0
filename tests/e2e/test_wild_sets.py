"""The wild-precision judged sets in bench/data: ids and offsets into ../shared only, a
verdict for every item, both graphs of a draw in equal shares."""

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.unseen_sample import PAPERLISTS

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
FIELDS = {"item", "paper", "entity", "type", "start", "end", "graph", "verdict"}
FILES = sorted(DATA.glob("wild-judged-*.jsonl"))


@pytest.fixture(scope="module")
def abstracts():
    out = {}
    for path in sorted(PAPERLISTS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line:
                rec = json.loads(line)
                out[f"paper:{rec['id']}"] = " ".join(rec["text"].split())
    assert out, f"the paperlists corpus is missing at {PAPERLISTS}"
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_judged_draw_holds_offsets_and_verdicts_only(path, abstracts):
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert [r["item"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(set(r) == FIELDS for r in rows)
    assert all(r["verdict"] in ("correct", "wrong") for r in rows)
    shares = Counter(r["graph"] for r in rows)
    assert len(shares) == 2 and len(set(shares.values())) == 1
    for r in rows:
        text = abstracts[r["paper"]]
        assert 0 <= r["start"] < r["end"] <= len(text)
