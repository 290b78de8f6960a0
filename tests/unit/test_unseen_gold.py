"""The stored gold sets (unseen and the two paperlists tuning sets) have the agreed shape
(no ../shared needed)."""

import json
import unicodedata

import pytest

from bench.unseen_gold import ENTITY_TYPES, GOLD, ROLES, SECOND_TUNING_GOLD, TUNING_GOLD

FILES = {"acl.jsonl", "coling.jsonl", "colm.jsonl", "iclr.jsonl", "icml.jsonl", "naacl.jsonl",
         "nips.jsonl"}  # fmt: skip
ENTITY_KEYS = {"start", "end", "type", "role", "canonical"}


@pytest.fixture(
    params=[GOLD, TUNING_GOLD, SECOND_TUNING_GOLD], ids=["unseen", "tuning", "tuning-2"]
)
def rows(request):
    text = request.param.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def key(name):
    """score.py's comparison key (NFKC, casefold, no whitespace, hyphens, dots, underscores)."""
    s = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in s if not ch.isspace() and ch not in "-._\u2010\u2011\u2013\u2014")


def test_records_have_file_id_and_entities_only(rows):
    records = rows
    assert len(records) >= 20
    for rec in records:
        assert set(rec) == {"file", "id", "entities"}, rec.get("id")
        assert rec["file"] in FILES
        assert isinstance(rec["id"], str) and rec["id"].startswith(rec["file"].split(".")[0])
        assert isinstance(rec["entities"], list)
    assert len({(r["file"], r["id"]) for r in records}) == len(records)


def test_entities_are_offsets_types_roles_and_canonicals_without_text(rows):
    for rec in rows:
        for ent in rec["entities"]:
            assert set(ent) == ENTITY_KEYS, (rec["id"], ent)  # in particular no "text"
            assert type(ent["start"]) is int and type(ent["end"]) is int
            assert 0 <= ent["start"] < ent["end"], (rec["id"], ent)
            assert ent["type"] in ENTITY_TYPES
            assert ent["role"] in ROLES
            assert isinstance(ent["canonical"], str) and ent["canonical"].strip()
            assert ent["canonical"] == ent["canonical"].strip()


def test_one_entity_per_canonical_per_paper(rows):
    for rec in rows:
        keys = [key(e["canonical"]) for e in rec["entities"]]
        assert len(keys) == len(set(keys)), rec["id"]


def test_entities_are_in_offset_order(rows):
    for rec in rows:
        spans = [(e["start"], e["end"]) for e in rec["entities"]]
        assert spans == sorted(spans), rec["id"]
