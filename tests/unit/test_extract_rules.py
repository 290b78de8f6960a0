"""Each context rule as a pure function on tiny sentences we wrote."""

import random
import re

import pytest

from kg.extractors.kinds import collection_type, phrase_type
from kg.extractors.rules.metrics import measured_value_spans, metric_spans
from kg.extractors.rules.names import (
    coined_name_spans,
    headed_name_spans,
    is_name_shaped,
    name_candidates,
    title_case_spans,
)
from kg.extractors.rules.proposals import is_proposal_context, proposal_spans
from kg.extractors.rules.sentences import mask_math, sentence_bounds
from kg.extractors.rules.subjects import opening_subject_span
from kg.extractors.rules.tasks import shared_head_phrases, task_spans


def texts(sentence, spans):
    return [sentence[s[0] : s[1]] for s in spans]


@pytest.mark.parametrize(
    "word, shaped",
    [
        ("OrderDP", True),
        ("SelecMix", True),
        ("CG2A", True),
        ("TALE-EP", True),
        ("Llama-3-8B", True),
        ("Transformer", False),
        ("LLMs", False),
        ("GPU", False),
        ("Block-Recurrent", False),
        ("SWF-based", False),
        ("x2", False),
        ("A", False),
    ],
)
def test_is_name_shaped(word, shaped):
    assert is_name_shaped(word) is shaped


@pytest.mark.parametrize(
    "sentence, names",
    [
        ("We propose OrderDP, a simple method.", ["OrderDP"]),
        ("In this paper we introduce HyFairX for verification.", ["HyFairX"]),
        ("SelecMix, a new augmentation, helps.", ["SelecMix"]),
        ("Our approach, dubbed Raptor, is fast.", ["Raptor"]),
        ("We use ResNet and train it.", []),
        ("We introduce Agon, which pits two models.", ["Agon"]),
        ("We also present results on the ADULT dataset.", []),
        ("We introduce Biased TextRank, a ranker.", ["Biased TextRank"]),
        ("We propose the FooNet model.", ["FooNet"]),
        ('It ignores so-called "fair gerrymandering" among groups (e.g., African-American).', []),
        ("A loss, denoted as FooLoss, helps.", ["FooLoss"]),
        ("It is what we named .", []),  # a trigger with nothing after it
        ("We propose a model based on a GAN that finds relations (DiscoGAN).", ["DiscoGAN"]),
        ("We propose Bayesian, frequentist and other views.", []),
    ],
)
def test_proposal_spans(sentence, names):
    assert texts(sentence, proposal_spans(sentence)) == names


def test_untriggered_sentence_looks_only_for_an_opening_apposition():
    s = "SelecMix, a new augmentation, beats the approach called Raptor."
    assert texts(s, proposal_spans(s)) == ["SelecMix", "Raptor"]
    assert texts(s, proposal_spans(s, [])) == ["SelecMix"]


def test_is_proposal_context_stops_at_used_things():
    s = "We propose FooNet trained with AdamX on BarSet."
    assert is_proposal_context(s, s.index("FooNet"))
    assert not is_proposal_context(s, s.index("AdamX"))


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("We evaluate on the FooQA benchmark.", [("FooQA", "Benchmark")]),
        (
            "Results on the Bar-10 dataset and the Baz corpus.",
            [("Bar-10", "Dataset"), ("Baz", "Dataset")],
        ),
        ("This dataset is large.", []),
        ("Images come from Google Images. Dataset construction is hard.", []),
        ("We use the EN-DE dataset and the English-French corpus.", []),
        # a company, a language or a figure opens a name of words, not a coined one
        ("On the Amazon Product Review datasets.", [("Amazon Product Review", "Dataset")]),
        ("On the 1-Billion Word dataset.", [("1-Billion Word", "Dataset")]),
        ("We annotate a German Sign Language dataset.", [("German Sign Language", "Dataset")]),
        ("We run it on the English ACE corpus.", [("ACE", "Dataset")]),
    ],
)
def test_headed_name_spans(sentence, expected):
    got = [(sentence[a:b], kind) for a, b, kind in headed_name_spans(sentence)]
    assert got == expected


@pytest.mark.parametrize(
    "sentence, name, default, kind",
    [
        (
            "We test on vision benchmarks such as MNIST and CIFAR-10.",
            "MNIST",
            "Dataset",
            "Benchmark",
        ),
        ("We report accuracy on the GLUE datasets.", "GLUE", "Benchmark", "Dataset"),
        ("We report accuracy on MNIST.", "MNIST", "Dataset", "Dataset"),
    ],
)
def test_collection_type(sentence, name, default, kind):
    start = sentence.index(name)
    assert collection_type(sentence, start, start + len(name), default) == kind


@pytest.mark.parametrize(
    "phrase, kind",
    [
        ("Margin-aware Predictive Uncertainty", "Method"),
        ("off-policy evaluation", "Task"),
        ("The Inherent Disagreement - 8 dataset", "Dataset"),
        ("Attack Success Rate", "Metric"),
        ("large model assisted dynamic agent for multi-view clustering", "Method"),
        ("Video Arena benchmark", "Benchmark"),
        ("semi-supervised learning", "Task"),
        ("model spec midtraining", "Method"),
        ("World Values Survey", "Dataset"),
        ("Allen Mouse Brain Connectivity Atlas", "Dataset"),
    ],
)
def test_phrase_type(phrase, kind):
    assert phrase_type(phrase) == kind


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "We study out-of-distribution detection in practice.",
            [("out-of-distribution detection", False)],
        ),
        ("RNNs trained on a delayed serial recall task.", [("delayed serial recall", True)]),
        ("It enhances generalization and improves robustness.", []),
        ("We address multi-view clustering.", [("multi-view clustering", False)]),
        ("Results on regression tasks.", [("regression", True)]),
        ("Gains are largest within numerical reasoning.", [("numerical reasoning", False)]),
        ("The suite is built around four core tasks.", []),
        ("It helps on natural language tasks.", []),
        ("It helps on three subjective NLP tasks.", []),
        ("A challenge in modeling math problems is hard.", []),
        ("It helps on generation tasks and on regression tasks.", [("regression", True)]),
        (
            "It needs nuanced understanding of the original text classification.",
            [("text classification", False)],
        ),
        # a problem suffered is no task, nor a kind of problem ("convex")
        ("Joint models mitigate the error propagation problem.", []),
        ("It is a difficult non convex problem.", []),
        ("So DFC enjoys image segmentation.", [("image segmentation", False)]),  # a verb
        ("We cast it as a constrained optimization problem.", [("constrained optimization", True)]),
        # size words and evaluative adjectives are no part of the task
        ("It suits large scale machine learning problems.", [("machine learning", True)]),
        ("We study high dimensional sparse regression.", [("sparse regression", False)]),
        ("Models show impressive generalization.", []),
        ("There is little understanding of it.", []),
        # a task phrase modifying a noun names a bound or a space, not a task
        ("We obtain a valid generalization bound.", []),
        ("It transforms hyperparameter search spaces.", []),
        # adjectives alone before "tasks" say which kind of task, not which one
        ("It helps with internal and external auxiliary tasks.", []),
        ("Tested on a reverse dictionary task.", [("reverse dictionary", True)]),
        # pronouns and verbs modify no task head
        ("It gives us partial control.", [("partial control", False)]),
        ("Nets that infer prediction uncertainty.", []),
        # an adverb's adjective describes the problem ("computationally intensive")
        ("It solves computationally intensive M-estimation problems.", []),
        ("We study strongly variationally coherent optimization problems.", []),
        ("They consistently outperform random data selection.", []),  # what is beaten
        ("It outperforms the baselines on this task.", []),
        # but a focusing adverb points at the name, and some adverbs are part of it
        (
            "namely unconditional language generation",
            [("unconditional language generation", False)],
        ),
        (
            "It tackles partially observable flow control problems.",
            [("partially observable flow control", False)],
        ),
        # nouns in -ly modify a head; comparatives say only which kind of task
        ("We study video anomaly detection.", [("video anomaly detection", False)]),
        ("It may improve upon broader control tasks.", []),
    ],
)
def test_task_spans(sentence, expected):
    got = [(sentence[a:b], named) for a, b, named in task_spans(sentence)]
    assert got == expected


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("It lowers the refusal rate.", ["refusal rate"]),
        ("The learning rate is tuned.", []),
        ("We close the fairness gap.", ["fairness gap"]),
    ],
)
def test_metric_spans(sentence, expected):
    assert texts(sentence, metric_spans(sentence)) == expected


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("We design the Soft Gradient Surgery and use Adam.", ["Soft Gradient Surgery"]),
        ("Stop Evaluating now.", []),  # sentence start, two words
        ('It is titled "Show Your Work" by them.', []),  # inside quotes
        ("We compare SmolAgent and Flash Searcher Pro here.", ["Flash Searcher Pro"]),
    ],
)
def test_title_case_spans(sentence, expected):
    assert texts(sentence, title_case_spans(sentence)) == expected


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "We train convolutional and recurrent neural networks.",
            [("convolutional", ("convolutional neural networks", "convolutional neural"))],
        ),
        ("It helps both image and text classification.", [("image", ("image classification",))]),
        ("We use an encoder and a decoder.", []),  # "a" is no modifier
        ("It uses the lexicon feature and multi-task learning.", []),  # "feature" ends a phrase
        ("We parse word and word embeddings.", []),  # the same word twice
    ],
)
def test_shared_head_phrases(sentence, expected):
    assert [(sentence[a:b], phrases) for a, b, phrases in shared_head_phrases(sentence)] == expected


def test_coined_name_spans():
    s = "Unlike SelecMix, SWF-based tools and the Transformer, DDPM-CFG is fast."
    assert texts(s, coined_name_spans(s)) == ["SelecMix", "DDPM-CFG"]


def test_name_candidates_are_the_words_with_an_inner_capital_or_digit():
    """The scan finds what the one regex it replaced found, on random text."""
    regex = re.compile(r"(?<![\w\-/.])[A-Za-z][\w\-+./]*?[A-Z0-9][\w\-+./]*")
    rng = random.Random(3)
    for _ in range(20000):
        text = "".join(rng.choice("aB1+-./_ é(,[x+Y") for _ in range(rng.randint(0, 16)))
        assert name_candidates(text) == [m.span() for m in regex.finditer(text)], text


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("Multi-view clustering is a key problem.", "Multi-view clustering"),
        ("Annotator disagreement remains common.", "Annotator disagreement"),
        ("Recent advances have been made.", None),
        ("Prevailing explanations are based on bias.", None),
        ("We study bandits.", None),
    ],
)
def test_opening_subject_span(sentence, expected):
    span = opening_subject_span(sentence)
    assert (sentence[span[0] : span[1]] if span else None) == expected


def test_mask_math_keeps_offsets():
    s = "a $\\mathcal{O}(n)$ bound for FooBar"
    masked = mask_math(s)
    assert len(masked) == len(s) and "mathcal" not in masked and masked.endswith("FooBar")


@pytest.mark.parametrize(
    "text, sentences",
    [
        ("One. Two two. Three!", ["One.", "Two two.", "Three!"]),
        (
            "Shown by Smith et al. in 2020. Next one.",
            ["Shown by Smith et al. in 2020.", "Next one."],
        ),
        ("A. Turing wrote it. Then more.", ["A. Turing wrote it.", "Then more."]),
        ("It ends (see below). $X$ is new.", ["It ends (see below).", "$X$ is new."]),
        ("no final stop", ["no final stop"]),
    ],
)
def test_sentence_bounds(text, sentences):
    assert [text[a:b] for a, b in sentence_bounds(text)] == sentences


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("It raised the worst-group utility (3.20 to 3.90) and speed.", ["worst-group utility"]),
        ("It moves that checkpoint from 84.0% to 8.0% here.", []),
        ("Gains range from 4.7% to 7.6% on the Foo dataset from 60.3% to 60.5%.", []),
        ("It lifts accuracy at equal latency (75% vs. 57%) and in age from 3 to 14.", []),
        ("We cut the toxicity score from 0.41 to 0.12.", ["toxicity score"]),
    ],
)
def test_measured_value_spans(sentence, expected):
    assert texts(sentence, measured_value_spans(sentence)) == expected
