"""Sentence kinds (evaluation, background, other) and generic method names."""

import pytest

from kg.extractors.rules.evaluations import (
    BACKGROUND,
    EVALUATION,
    OTHER,
    is_generic_method,
    sentence_kind,
)


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("We evaluate our parser on three treebanks.", EVALUATION),
        ("Experiments on two corpora show consistent gains.", EVALUATION),
        ("The model is fine-tuned on a small corpus.", OTHER),
        ("Fine-tuned on a small corpus, the model outperforms larger ones.", EVALUATION),
        ("Our approach outperforms prior work on both benchmarks.", EVALUATION),
        ("It achieves a new state of the art on the leaderboard.", EVALUATION),
        ("We illustrate the approach on two treebanks.", EVALUATION),
        ("Previous studies tested parsers on treebanks.", BACKGROUND),
        ("Such models have achieved strong results on many corpora.", BACKGROUND),
        ("Existing methods fail on long documents and noisy corpora.", OTHER),
        ("Existing methods are tested on long documents only.", BACKGROUND),
        ("Parsers are usually tested on treebanks [4, 7].", BACKGROUND),
        ("Parsers are usually tested on treebanks (Lee and Kim, 2021).", BACKGROUND),
        ("We propose a parser for treebanks.", OTHER),
        ("Treebanks are expensive to annotate.", OTHER),
    ],
)
def test_sentence_kind(sentence, kind):
    assert sentence_kind(sentence) == kind


def test_sentence_kind_cues_start_words():
    # "test" starts "tested" but not "contest"; "we" is a whole word, not "well".
    assert sentence_kind("The contest was held in spring.") == OTHER
    assert sentence_kind("Well-known parsers were tested on treebanks.") == BACKGROUND


@pytest.mark.parametrize(
    ("name", "long_form", "generic"),
    [
        ("CNN", None, True),
        ("Convolutional Neural Networks", None, True),
        ("LSTMs", None, True),
        ("stochastic gradient descent", None, True),
        ("DRL", "deep reinforcement learning", True),
        ("X", "multi-head attention", True),
        ("SNN", "spiking neural networks", True),
        ("dictionary learning", None, True),
        ("ResNet-50", None, False),
        ("GRPO", "Group Relative Policy Optimization", False),
        ("SAE", "sparse autoencoder", False),
    ],
)
def test_is_generic_method(name, long_form, generic):
    assert is_generic_method(name, long_form) is generic


def test_sentence_kind_a_year_in_a_name_is_no_citation():
    assert sentence_kind("It scores 30 BLEU on the news test set (WMT 2014).") == EVALUATION
