"""The stored daily-feed sets have the agreed shape (no ../shared needed)."""

import json

import pytest

from bench.daily_gold import HALF, SOURCE, TUNING, UNSEEN
from bench.unseen_gold import ENTITY_TYPES, ROLES
from tests.unit.test_unseen_gold import key


@pytest.fixture(params=[UNSEEN, TUNING], ids=["daily-unseen", "daily-tuning"])
def rows(request):
    text = request.param.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def test_records_name_their_seed_paper_and_hold_no_text(rows):
    assert 20 <= len(rows) <= HALF
    for rec in rows:
        assert set(rec) == {"source", "index", "id", "entities"}
        assert rec["source"] == SOURCE and type(rec["index"]) is int
        assert len(rec["id"]) == 12 and int(rec["id"], 16) >= 0
        for ent in rec["entities"]:
            assert set(ent) == {"start", "end", "type", "role", "canonical"}, rec["index"]
            assert type(ent["start"]) is int and 0 <= ent["start"] < ent["end"]
            assert ent["type"] in ENTITY_TYPES and ent["role"] in ROLES
            assert ent["canonical"] and ent["canonical"] == ent["canonical"].strip()
    assert len({r["index"] for r in rows}) == len(rows)


def test_one_entity_per_canonical_per_paper_in_offset_order(rows):
    for rec in rows:
        keys = [key(e["canonical"]) for e in rec["entities"]]
        assert len(keys) == len(set(keys)), rec["index"]
        spans = [(e["start"], e["end"]) for e in rec["entities"]]
        assert spans == sorted(spans), rec["index"]


def test_the_halves_share_no_paper():
    unseen = {json.loads(line)["index"] for line in UNSEEN.read_text().splitlines() if line}
    tuning = {json.loads(line)["index"] for line in TUNING.read_text().splitlines() if line}
    assert not unseen & tuning
