"""The unseen gold set against ../shared: offsets land in the abstracts, the sampler
reproduces the stored order, and score.py reads the loader's output as the same set."""

import json

import pytest

from bench import unseen_gold, unseen_sample

if not unseen_sample.PAPERLISTS.is_dir():
    pytest.skip(
        f"paperlists not found at {unseen_sample.PAPERLISTS} (../shared is absent)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def stored():
    return unseen_gold.read_stored()


@pytest.fixture(scope="module")
def sources(stored):
    return unseen_gold.paperlists_records(r["file"] for r in stored)


def test_every_offset_lands_inside_its_abstract(stored, sources):
    for rec in stored:
        text = sources[(rec["file"], rec["id"])]["text"]
        for ent in rec["entities"]:
            assert 0 <= ent["start"] < ent["end"] <= len(text), (rec["id"], ent)
            surface = text[ent["start"] : ent["end"]]
            assert surface == surface.strip() and surface, (rec["id"], ent)


def test_the_sampler_reproduces_the_stored_order(stored):
    pairs = unseen_sample.sample_pairs()
    assert len(pairs) == unseen_sample.SIZE == 50
    assert [(r["file"], r["id"]) for r in stored] == pairs[: len(stored)]


def test_the_sampled_records_meet_the_rule():
    for name, rec in unseen_sample.sample_records():
        assert rec["year"] >= unseen_sample.MIN_YEAR and rec["text"].strip(), (name, rec["id"])


def test_the_loader_gives_scoreable_gold_that_scores_one_against_itself(stored):
    records = unseen_gold.load_gold()
    assert len(records) == len(stored) == len({r["id"] for r in records})
    for rec, raw in zip(records, stored, strict=True):
        assert len(rec["id"]) == 12 and rec["paperlists_id"] == raw["id"]
        assert all(set(e) == {"text", "type", "role", "canonical"} for e in rec["entities"])
    res = unseen_gold.self_check()
    assert res["papers"]["gold"] == len(stored)
    assert res["micro_typed"]["f1"] == res["type_blind"]["f1"] == res["authors"]["f1"] == 1.0
    # score.py merges entities of a paper whose names overlap: none of ours may be merged
    assert res["micro_typed"]["n_gold"] == sum(len(r["entities"]) for r in stored)
    assert res["type_blind"]["n_gold"] == sum(len(r["entities"]) for r in stored)


def test_the_sampler_cli_prints_the_pairs(capsys, tmp_path):
    assert unseen_sample.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [tuple(line.split("\t")) for line in lines] == unseen_sample.sample_pairs()
    out = tmp_path / "pairs.tsv"
    assert unseen_sample.main(["--out", str(out)]) == 0
    assert out.read_text().splitlines() == lines
    assert json.dumps(lines)  # plain strings


@pytest.mark.parametrize("second", [False, True], ids=["tuning", "tuning-2"])
def test_a_tuning_set_is_a_prefix_of_its_sample_and_lands_in_its_abstracts(second):
    path = unseen_gold.SECOND_TUNING_GOLD if second else unseen_gold.TUNING_GOLD
    tuning = unseen_gold.read_stored(path)
    pairs = unseen_sample.tuning_sample_pairs(second=second)
    assert len(pairs) == unseen_sample.TUNING_SIZE
    assert [(r["file"], r["id"]) for r in tuning] == pairs[: len(tuning)]
    assert not set(pairs) & set(unseen_sample.sample_pairs())  # never an unseen paper
    if second:  # nor a paper of the first tuning sample
        assert not set(pairs) & set(unseen_sample.tuning_sample_pairs())
    sources = unseen_gold.paperlists_records(r["file"] for r in tuning)
    for rec in tuning:
        text = sources[(rec["file"], rec["id"])]["text"]
        for ent in rec["entities"]:
            surface = text[ent["start"] : ent["end"]]
            assert surface and surface == surface.strip(), (rec["id"], ent)
    res = unseen_gold.self_check(path)
    assert res["type_blind"]["f1"] == 1.0
    assert res["type_blind"]["n_gold"] == sum(len(r["entities"]) for r in tuning)
