"""The APPLIED_TO judged sets in bench/data: offsets into ../shared that hold, no copied text,
and the blind pool that maps back to both samples."""

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.applied_sample import original_offsets, to_original
from bench.unseen_sample import PAPERLISTS

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
FIELDS = {
    "item", "file", "id", "method", "method_key", "target", "target_key", "target_kind",
    "papers", "evidence", "method_at", "target_at",
}  # fmt: skip


def jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def texts():
    out = {}
    for path in sorted(PAPERLISTS.glob("*.jsonl")):
        for rec in jsonl(path):
            out[(path.name, rec["id"])] = rec["text"]
    assert out, f"the paperlists corpus is missing at {PAPERLISTS}"
    return out


@pytest.mark.parametrize("text", ["  a  b\n c ", "abc", "a\u00a0\u00a0b d"])
def test_original_offsets_map_the_collapsed_text_back(text):
    index = original_offsets(text)
    collapsed = " ".join(text.split())
    assert len(index) == len(collapsed) + 1
    assert "".join(text[i] if not text[i].isspace() else " " for i in index[:-1]) == collapsed
    a, b = to_original(index, 0, len(collapsed))
    assert " ".join(text[a:b].split()) == collapsed


@pytest.mark.parametrize(
    "name, pairs", [("applied-recall.jsonl", 24), ("applied-recall-tuning.jsonl", 28)]
)
def test_recall_pairs_are_spans_of_the_records(texts, name, pairs):
    rows = jsonl(DATA / name)
    assert len(rows) == 60 and sum(len(r["pairs"]) for r in rows) == pairs
    for row in rows:
        text = texts[(row["file"], row["id"])]
        for pair in row["pairs"]:
            for start, end in (pair["method"], pair["dataset"]):
                assert 0 <= start < end <= len(text) and text[start:end].strip()


def test_blind_items_hold_names_and_offsets_only_and_map_back_to_both_samples(texts):
    blind = jsonl(DATA / "applied-blind.jsonl")
    key = jsonl(DATA / "applied-key.jsonl")
    assert [b["item"] for b in blind] == list(range(1, 121)) == [k["item"] for k in key]
    assert Counter(k["system"] for k in key) == {"main": 60, "ours": 60}
    samples = {s: jsonl(DATA / f"applied-edges-{s}.jsonl") for s in ("main", "ours")}
    for item, k in zip(blind, key, strict=True):
        assert set(item) == FIELDS
        drawn = samples[k["system"]][k["index"] - 1]
        assert {f: drawn[f] for f in FIELDS - {"item"}} == {f: item[f] for f in FIELDS - {"item"}}
        text = texts[(item["file"], item["id"])]
        for start, end in item["evidence"] + [item["method_at"], item["target_at"]]:
            assert 0 <= start < end <= len(text)
        if k["system"] == "main":  # main's evidence: the sentences of the first mentions
            a, b = item["target_at"]
            assert any(s <= a and b <= e for s, e in item["evidence"])


def test_the_recall_tuning_set_is_its_sample_and_shares_no_abstract_with_the_test_set():
    from bench.unseen_sample import applied_tuning_pairs

    tuning = jsonl(DATA / "applied-recall-tuning.jsonl")
    assert [(r["file"], r["id"]) for r in tuning] == applied_tuning_pairs()
    test = {(r["file"], r["id"]) for r in jsonl(DATA / "applied-recall.jsonl")}
    assert not test & {(r["file"], r["id"]) for r in tuning}


@pytest.mark.parametrize("round_", [6, 7, 8, 9, 10])
def test_a_later_round_pools_its_samples_and_judges_every_item(texts, round_):
    blind = jsonl(DATA / f"applied-blind-{round_}.jsonl")
    key = jsonl(DATA / f"applied-key-{round_}.jsonl")
    judged = jsonl(DATA / f"applied-judgments-{round_}.jsonl")
    assert [b["item"] for b in blind] == [k["item"] for k in key] == [j["item"] for j in judged]
    assert all(isinstance(j["correct"], bool) for j in judged)
    for item, k in zip(blind, key, strict=True):
        # a control is an edge of an earlier round's sample ("510e666-control")
        system = k["system"].removesuffix("-control")
        drawn = jsonl(DATA / f"applied-edges-{system}.jsonl")[k["index"] - 1]
        assert (drawn["id"], drawn["method_key"], drawn["target_key"]) == (
            item["id"],
            item["method_key"],
            item["target_key"],
        )
        text = texts[(item["file"], item["id"])]
        assert all(0 <= a < b <= len(text) for a, b in item["evidence"])
