"""The daily-feed sets against ../shared: the draw reproduces the stored order, no paper of
the dev gold is drawn, and score.py reads the loader's output as the same set."""

import json

import pytest

from bench import daily_gold, unseen_gold
from bench.unseen_sample import SHARED

if not (SHARED / "seeds" / daily_gold.SOURCE).is_file():
    pytest.skip(f"{daily_gold.SOURCE} not found under {SHARED}", allow_module_level=True)


def test_the_draw_is_outside_the_dev_gold_and_reproduces_the_stored_order():
    unseen, tuning = daily_gold.draw()
    assert len(unseen) == len(tuning) == daily_gold.HALF
    assert not (set(unseen) | set(tuning)) & daily_gold.dev_indices()
    assert not set(unseen) & set(tuning)
    copies = daily_gold.dev_copies()
    assert len(copies) <= 2  # the dev gold's papers listed again in the daily feed
    for path, half in ((daily_gold.UNSEEN, unseen), (daily_gold.TUNING, tuning)):
        stored = [r["index"] for r in unseen_gold.read_stored(path)]
        assert stored == [i for i in half if i not in copies][: len(stored)]


@pytest.mark.parametrize("path", [daily_gold.UNSEEN, daily_gold.TUNING], ids=["unseen", "tuning"])
def test_the_loader_gives_gold_that_scores_one_against_itself(path):
    stored = unseen_gold.read_stored(path)
    records = daily_gold.load_daily_gold(path)
    assert [r["id"] for r in records] == [r["id"] for r in stored]
    for rec in records:
        for ent in rec["entities"]:
            assert ent["text"] and ent["text"] == ent["text"].strip()
    res = unseen_gold.self_check(path, loader=daily_gold.load_daily_gold)
    assert res["type_blind"]["f1"] == 1.0
    assert res["type_blind"]["n_gold"] == sum(len(r["entities"]) for r in stored)


def test_a_changed_abstract_is_refused(tmp_path):
    row = unseen_gold.read_stored(daily_gold.UNSEEN)[0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(row | {"id": "0" * 12}) + "\n")
    with pytest.raises(ValueError, match="not the abstract it was annotated on"):
        daily_gold.load_daily_gold(bad)


def test_the_cli_prints_the_draw(capsys):
    assert daily_gold.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    unseen, tuning = daily_gold.draw()
    assert [line.split("\t")[1:3] for line in lines] == [
        [str(i), h] for h, s in (("unseen", unseen), ("tuning", tuning)) for i in s
    ]
    left_out = [int(line.split("\t")[1]) for line in lines if "left out" in line]
    assert set(left_out) == daily_gold.dev_copies()
