"""Compounds: a modifier the corpus writes before a method the lexicon knows names a variant."""

from collections import Counter

import pytest

from kg.extractors.compounds import (
    compound_start,
    decide,
    format_compounds,
    load_compounds,
    modifier_before,
    paper_compounds,
)


@pytest.mark.parametrize(
    "before, expected",
    [
        ("We run the latent", "latent"),
        ("We run the", None),  # a stop word
        ("We run a linear-time", "linear-time"),
        ("We run it quickly", None),  # an adverb
        ("The proposed", None),  # a participle
        ("the trained models", None),  # a plural
        ("an off-policy", None),  # a learning setting stays beside the method
    ],
)
def test_modifier_before(before, expected):
    assert modifier_before(before + " SVM", len(before) + 1) == expected


def test_a_paper_counts_a_compound_once_and_not_inside_a_longer_name():
    text = (
        "We use the latent SVM. A latent SVM again. Then stochastic gradient HMC, "
        "and Stein variational GD."
    )
    names = [
        (text.index("SVM"), "SVM"),
        (text.rindex("SVM"), "SVM"),
        (text.index("HMC"), "HMC"),
        (text.index("GD"), "GD"),
    ]
    found = paper_compounds(text, names)
    assert found["latent svm"] == 1
    assert "gradient hmc" not in found and "variational gd" not in found
    assert found["verb:use"] == 1


def test_summaries_add_up_in_any_grouping_and_verbs_are_no_modifiers():
    papers = [
        paper_compounds("We use the latent SVM and train GANs.", [(18, "SVM"), (34, "GAN")]),
        paper_compounds("A latent SVM. We train the model.", [(9, "SVM")]),
        paper_compounds("The latent SVM; to train GANs.", [(11, "SVM"), (26, "GAN")]),
        paper_compounds("We train it; they train GANs.", [(24, "GAN")]),
    ]
    left = (papers[0] + papers[1]) + (papers[2] + papers[3])
    right = papers[0] + (papers[1] + (papers[2] + papers[3]))
    assert left == right
    assert decide(left) == [("latent svm", 3)]


def test_compound_start_extends_a_name_by_its_known_modifier_only():
    known = frozenset({"latent svm"})
    text = "It uses the latent SVM, a linear SVM and Stein latent SVM."
    starts = [m for m in range(len(text)) if text.startswith("SVM", m)]
    assert [compound_start(text, s, "SVM", known) for s in starts] == [12, None, None]


def test_the_shipped_compounds_read_back_as_written():
    shipped = load_compounds()
    assert "loopy belief propagation" in shipped and "latent svm" in shipped
    text = format_compounds([("latent svm", 3)], {"script": "x"})
    assert text.splitlines()[1:] == ["compound\tpapers", "latent svm\t3"]


def test_counts_are_counters():
    assert isinstance(paper_compounds("x", []), Counter)
