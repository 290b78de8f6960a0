"""The pure parts of bench.quality: the dev split rule, the bootstrap interval, the lexicon
split and the gap flag (no ../shared needed)."""

import numpy as np
import pytest

from bench.bootstrap import bootstrap_interval, percentile_interval, ratios, resample_weights
from bench.quality import (
    CLASSES,
    PRF,
    gap_figures,
    in_lexicon,
    is_tuning,
    lexicon_split,
    split_dev,
    table,
)
from kg.extractors.lexicon import Entry, Lexicon
from kg.extractors.records import IGNORE


@pytest.mark.parametrize(
    ("paper_id", "tuning"),
    [("c78d17ddba46", True), ("a3f97345305c", True), ("000000000000", True),
     ("00000000000f", False), ("ffffffffffff", False), ("10ea2f2f6d4b", False)],
)  # fmt: skip
def test_is_tuning_is_the_parity_of_the_hex_id(paper_id, tuning):
    assert is_tuning(paper_id) is tuning


def test_split_dev_keeps_order_and_puts_each_paper_in_one_half():
    records = [{"id": f"{n:012x}", "entities": []} for n in range(10)]
    tuning, check = split_dev(records)
    assert [r["id"][-1] for r in tuning] == ["0", "2", "4", "6", "8"]
    assert [r["id"][-1] for r in check] == ["1", "3", "5", "7", "9"]


def test_resample_weights_draw_as_many_units_as_there_are_and_repeat_with_the_seed():
    w = resample_weights(7, 50, seed=3, stream="dev check")
    assert w.shape == (50, 7) and (w.sum(axis=1) == 7).all() and (w >= 0).all()
    assert (w == resample_weights(7, 50, seed=3, stream="dev check")).all()
    assert not (w == resample_weights(7, 50, seed=3, stream="dev tuning")).all()
    assert not (w == resample_weights(7, 50, seed=4, stream="dev check")).all()


def test_percentile_interval_is_the_central_95_percent():
    assert percentile_interval(range(101)) == pytest.approx((2.5, 97.5))
    assert percentile_interval([0.4] * 9) == (0.4, 0.4)


def recall(sums):
    return sums[0] / sums[1]


def test_bootstrap_interval_of_identical_units_is_the_point():
    assert bootstrap_interval([(1, 2)] * 5, recall, resamples=200, seed=1) == (0.5, 0.5)
    assert bootstrap_interval([(3, 4)], recall, resamples=200, seed=1) == (0.75, 0.75)


def test_bootstrap_interval_of_a_hit_and_a_miss_spans_zero_to_one():
    # two papers, one gold name each, one found: a resample of two has recall 0, 1/2 or 1
    # with probabilities 1/4, 1/2, 1/4, so the 2.5th and 97.5th percentiles are 0 and 1
    assert bootstrap_interval([(1, 1), (0, 1)], recall, resamples=1000, seed=16) == (0.0, 1.0)


def test_bootstrap_interval_narrows_with_more_units():
    few = bootstrap_interval([(1, 1), (0, 1)] * 5, recall, resamples=1000, seed=16)
    many = bootstrap_interval([(1, 1), (0, 1)] * 200, recall, resamples=1000, seed=16)
    assert few[0] < many[0] < 0.5 < many[1] < few[1]
    assert many[1] - many[0] < 0.12


def test_ratios_are_zero_where_the_denominator_is():
    assert ratios(np.array([[1, 2], [0, 0], [3, 3]])).tolist() == [0.5, 0.0, 1.0]


@pytest.fixture
def lexicon():
    lex = Lexicon()
    lex.add(Entry("BERT", "Method", ("Bidirectional Encoder Representations from Transformers",)))
    lex.add(Entry("ImageNet", "Dataset"))
    lex.add(Entry("LLM", IGNORE, ("large language model",)))
    return lex


@pytest.mark.parametrize(
    ("text", "canonical", "held"),
    [
        ("Bidirectional Encoder Representations from Transformers", "BERT", True),  # canonical
        ("bidirectional encoder representations from transformers", "BiERT", True),  # text
        ("Image-Net", "ImageNet-21k", True),  # the lexicon's name key ignores case and hyphens
        ("ImageNets", "imagenets", True),  # its plural fallback
        ("large language models", "LLM", False),  # an Ignore entry holds no entity
        ("knowledge tracing", "knowledge tracing", False),
    ],
)
def test_in_lexicon_uses_the_lexicon_lookup_on_canonical_and_text(lexicon, text, canonical, held):
    assert in_lexicon({"text": text, "canonical": canonical, "type": "Method"}, lexicon) is held


def test_lexicon_split_keeps_every_paper_in_both_parts(lexicon):
    ents = [
        {"text": "BERT", "type": "Method", "role": "used", "canonical": "BERT"},
        {"text": "slot filling", "type": "Task", "role": "used", "canonical": "slot filling"},
        {"text": "ImageNet", "type": "Dataset", "role": "used", "canonical": "ImageNet"},
    ]
    records = [
        {"id": "aaaaaaaaaaaa", "authors": ["A"], "entities": ents},
        {"id": "bbbbbbbbbbbb", "authors": [], "entities": ents[1:2]},
    ]
    held, missing = lexicon_split(records, lexicon)
    assert [r["id"] for r in held] == [r["id"] for r in missing] == ["aaaaaaaaaaaa", "bbbbbbbbbbbb"]
    assert [[e["canonical"] for e in r["entities"]] for r in held] == [["BERT", "ImageNet"], []]
    assert [[e["canonical"] for e in r["entities"]] for r in missing] == [
        ["slot filling"],
        ["slot filling"],
    ]
    assert held[0]["authors"] == ["A"] and records[0]["entities"] == ents  # input untouched


def half(values):
    """A set_figures-like result whose every class and measure has these resampled values."""
    samples = np.array([[v, v, v] for v in values])
    point = {"value": float(np.mean(values))}
    return {
        "classes": {c: {m: point for m in PRF} for c in CLASSES},
        "samples": {c: samples for c in CLASSES},
    }


def test_gap_is_flagged_only_when_its_interval_lies_below_zero():
    tuning = half([0.80, 0.82, 0.84, 0.86])
    below = gap_figures(tuning, half([0.60, 0.62, 0.64, 0.66]))["Method"]["f1"]
    assert below["value"] == pytest.approx(-0.2) and below["high"] < 0 and below["flagged"]
    near = gap_figures(tuning, half([0.86, 0.84, 0.82, 0.80]))["Method"]["f1"]
    assert near["low"] < 0 < near["high"] and not near["flagged"]


def test_table_aligns_columns_under_a_rule():
    text = table("T", ("set", "F1"), [("unseen", "0.64 [0.55, 0.70]"), ("dev check", "0.7")])
    assert text.splitlines() == [
        "T",
        "set        F1",
        "---------  -----------------",
        "unseen     0.64 [0.55, 0.70]",
        "dev check  0.7",
    ]
