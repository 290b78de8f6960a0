"""The Schwartz–Hearst abbreviation detector, on tiny inputs of our own."""

import random

import pytest

from kg.extractors.abbreviations import (
    _REVERSED,
    _reversed_matches,
    best_long_form,
    find_abbreviations,
    is_short_form,
)


def pairs(text):
    return [(a.long, a.short) for a in find_abbreviations(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "We use Group Relative Policy Optimization (GRPO) here.",
            [("Group Relative Policy Optimization", "GRPO")],
        ),
        ("Off-policy evaluation (OPE) is hard.", [("Off-policy evaluation", "OPE")]),
        ("A toy Spiking Neural Networks (SNNs) study.", [("Spiking Neural Networks", "SNNs")]),
        (
            "so the Conflict-aware Gradient Agreement Augmentation (CG2A) wins",
            [("Conflict-aware Gradient Agreement Augmentation", "CG2A")],
        ),
        (
            "we build The Inherent Disagreement - 8 dataset (TID-8).",
            [("The Inherent Disagreement - 8 dataset", "TID-8")],
        ),
        (
            "a measure, \\emph{Margin-aware Predictive Uncertainty (MPU)}, works",
            [("Margin-aware Predictive Uncertainty", "MPU")],
        ),
        (
            "we propose PROBE (Probing Robustness via Boundary Exploration), a tool",
            [("Probing Robustness via Boundary Exploration", "PROBE")],
        ),
        (
            "we solve the Accuracy and Group Fairness Problem (AGFP) exactly",
            [("Accuracy and Group Fairness Problem", "AGFP")],
        ),
        ("we build StagNet (Staggered Network), which is fast", [("Staggered Network", "StagNet")]),
    ],
)
def test_find_abbreviations_pairs(text, expected):
    assert pairs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The results (see Table 2) hold.",  # not a short form
        "We measure it (in seconds).",  # lower case
        "Our Method is good (XYZ).",  # letters do not match
        "a number (e.g. 5) and a year (2020).",
    ],
)
def test_find_abbreviations_rejects_non_definitions(text):
    assert pairs(text) == []


def test_find_abbreviations_offsets_slice_the_text():
    text = "Intro. We adopt Direct Preference Optimization (DPO) and mixup."
    (a,) = find_abbreviations(text)
    assert text[a.long_start : a.long_end] == "Direct Preference Optimization"
    assert text[a.short_start : a.short_end] == "DPO"


def test_long_form_stops_at_clause_boundary():
    assert pairs("Beyond that, reinforcement learning (RL) helps.") == [
        ("reinforcement learning", "RL")
    ]


def test_best_long_form_requires_word_initial_first_letter():
    assert best_long_form("RL", ["reinforcement", "learning"]) == 0
    assert best_long_form("QR", ["aqr"]) is None


@pytest.mark.parametrize(
    "candidate, ok",
    [
        ("GRPO", True),
        ("ViT", True),
        ("RAT SNN", True),
        ("a", False),
        ("e.g.", False),
        ("Table 2 and 3", False),
        ("2020", False),
        ("r n^K-1", False),
        ("M^3K", True),
        ("x<y", False),
    ],
)
def test_is_short_form(candidate, ok):
    assert is_short_form(candidate) is ok


def test_long_form_crosses_a_comma_only_when_it_must():
    assert pairs("We propose the Evidence-Grounded, Social-Weighted Persona Panel (ESPP).") == [
        ("Evidence-Grounded, Social-Weighted Persona Panel", "ESPP")
    ]
    assert pairs("The Facial Action Coding System, (FACS), is old.") == [
        ("Facial Action Coding System", "FACS")
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("on three alignment paradigms (DPA, DPO, and SFT) it helps", []),  # a list of names
        ("methods using TD algorithms (Sutton, 1988) are", []),  # a citation
        (
            "the popular Generalized Cross-validation (GCV, Wahba, 1990) is",
            [("Generalized Cross-validation", "GCV")],
        ),  # a definition, cited
        (
            "our Robust Estimation Of Mixtures (REOM}) helps",
            [("Robust Estimation Of Mixtures", "REOM")],
        ),
        ("8% on commonsense reasoning (Story Test), 5% on question answering (RACE).", []),
    ],
)
def test_bracketed_lists_and_citations(text, expected):
    assert pairs(text) == expected


def test_reversed_definitions_are_found_where_a_regex_scan_finds_them():
    rng = random.Random(4)
    pieces = ["A", "b", "-", "_", " (", ")", "B", "x", " ", "é", "(", "Ab", " (Abcdefghij)"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 24))) for _ in range(20000)]
    texts.append("We use SOTA-X (State Of The Art X) and AB-CD (Another Big CD) here.")
    for text in texts:
        assert [m.span() for m in _reversed_matches(text)] == [
            m.span() for m in _REVERSED.finditer(text)
        ], text
    assert len(_reversed_matches(texts[-1])) == 2


def test_a_long_form_in_quotes_ends_before_its_closing_quote():
    (found,) = find_abbreviations("An alternative we name ‘metaphorical polysemy detection’ (MPD).")
    assert found.long == "metaphorical polysemy detection"


def test_words_whose_initials_spell_the_short_form_are_its_long_form():
    # Letters matched inside words would give "Policy Optimization" (the p of "Optimization").
    found = find_abbreviations("Algorithms such as Proximal Policy Optimization (PPO) clip.")
    assert [(a.long, a.short) for a in found] == [("Proximal Policy Optimization", "PPO")]
    found = find_abbreviations("It follows a Stale Synchronous Parallel (SSP) model.")
    assert [(a.long, a.short) for a in found] == [("Stale Synchronous Parallel", "SSP")]


def test_a_digit_after_a_letter_repeats_it_in_the_initials():
    found = find_abbreviations("The semi-supervised support vector machine (S3VM) is old.")
    assert [(a.long, a.short) for a in found] == [
        ("semi-supervised support vector machine", "S3VM")
    ]
    found = find_abbreviations("We run Asynchronous Advantage Actor Critic (A3C) on Atari.")
    assert [(a.long, a.short) for a in found] == [("Asynchronous Advantage Actor Critic", "A3C")]


def test_a_long_form_never_spans_another_bracket():
    text = "gains in picture captioning (Flickr Set) and semi-supervised (CIFAR-10) tasks"
    assert pairs(text) == []
    text = "its memory (the cache) and Key Value Store (KVS)"
    assert pairs(text) == [("Key Value Store", "KVS")]


def test_a_three_that_repeats_a_capital_needs_as_many_words():
    text = "is designated as Procedural Multimodal Machine Comprehension (M3C); we run "
    text += "Asynchronous Advantage Actor-Critic (A3C) and Adversary Robust A3C (AR-A3C)."
    assert pairs(text) == [
        ("Asynchronous Advantage Actor-Critic", "A3C"),
        ("Adversary Robust A3C", "AR-A3C"),
    ]
