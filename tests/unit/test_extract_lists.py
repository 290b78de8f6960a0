"""The rules of names typed by where they stand (kg.extractors.rules.lists), the sense of a
measure's short name by its context (kg.extractors.kinds.method_sense), and what they add
to a whole abstract's mentions, on sentences we wrote."""

import pytest

from kg.extractors.kinds import method_sense, method_sense_entry, named_phrase_type
from kg.extractors.nlp import build_nlp, load_lexicon_cached
from kg.extractors.pipeline import extract_mentions
from kg.extractors.records import PaperRecord
from kg.extractors.rules.lists import (
    ends_name,
    list_spans,
    method_headed_spans,
    metric_headed_spans,
    own_name_spans,
    result_subject_spans,
)


def found_in(text):
    """The mentions ``kg extract`` finds in one abstract."""
    [(_, found)] = extract_mentions([PaperRecord(abstract=text, source="t", index=0)])
    return found


def types_in(text):
    """{canonical: type} of the mentions found in one abstract."""
    return {m.canonical: m.type for m in found_in(text)}


def listed(sentence):
    return [
        ([sentence[a:b] for a, b in items], kind, cue) for items, kind, cue in list_spans(sentence)
    ]


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "We release the Plover and Heron-2 datasets.",
            [(["Plover", "Heron-2"], "Dataset", "headed")],
        ),
        (
            "It is tested on benchmarks such as Kestrel, Finch and WrenQA.",
            [(["Kestrel", "Finch", "WrenQA"], "Benchmark", "cued")],
        ),
        (
            "Baselines include models like Osprey and Merlin.",
            [(["Osprey", "Merlin"], "Method", "cued")],
        ),
        (
            "It helps frameworks such as Loom and Weft-2 by 3 points.",
            [(["Loom", "Weft-2"], "Method", "cued")],
        ),
        (
            "Experiments on Plover, Heron-2 and CIFAR-10 confirm it.",
            [(["Plover", "Heron-2", "CIFAR-10"], "Dataset", "evaluation")],
        ),
        (
            "Our model outperforms Osprey, Merlin and BERT by far.",
            [(["Osprey", "Merlin", "BERT"], "Method", "baseline")],
        ),
        # "English" names no collection; the list holds one name only
        (
            "We release the English Plover and Heron corpora.",
            [(["Plover", "Heron"], "Dataset", "headed")],
        ),
    ],
)
def test_list_spans_type_by_place(sentence, expected):
    assert listed(sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "Results on the Omega dataset are strong.",  # one name: the headed-name rule's
        "We evaluate on English, German and Chinese.",  # languages
        "Results on Large Language Models and Vision Models vary.",  # plain capitalised words
        "Three datasets: Document, Paragraph and Sentence level.",  # a noun continues the list
        "We compare our method against Gaussian and Bayesian priors.",  # adjectives, no cue
        "It beats methods such as Smith et al. and Jones.",  # a citation continues the name
    ],
)
def test_list_spans_negative(sentence):
    assert [n for n, _, _ in listed(sentence)] == []


@pytest.mark.parametrize(
    "sentence, names",
    [
        ("Hydra outperforms the strongest baseline.", ["Hydra"]),
        ("Our tests show that Quillon achieves the best recall.", ["Quillon"]),
        ("Split-and-Merge outperforms it.", ["Split-and-Merge"]),
        ("It outperforms all baselines.", []),
        ("This achieves more.", []),
        ("Bayesian inference outperforms it.", []),  # not the subject of the verb
        ("Results achieve more.", []),
    ],
)
def test_result_subject_spans(sentence, names):
    assert [sentence[a:b] for a, b in result_subject_spans(sentence)] == names


@pytest.mark.parametrize(
    "sentence, names",
    [
        ("Our method, Crowbar, is fast.", ["Crowbar"]),
        ("We call our model Sparrow and test it.", ["Sparrow"]),
        ("The proposed Self-Mend recovers faster.", ["Self-Mend"]),
        ("The proposed Gull Net is small.", ["Gull Net"]),
        ("The proposed Gamma by itself helps.", []),  # one plain word, no head word
        ("We estimate the age of our Galaxy.", []),
        ("Our English parser is fast.", []),  # a language
    ],
)
def test_own_name_spans(sentence, names):
    assert [sentence[a:b] for a, b in own_name_spans(sentence)] == names


@pytest.mark.parametrize(
    "sentence, names",
    [
        ("We decode with the Viterbi algorithm.", ["Viterbi algorithm"]),
        (
            "It samples with a Gibbs sampler and the Plackett-Luce model.",
            ["Gibbs sampler", "Plackett-Luce model"],
        ),
        ("The Bayesian model and the Markov model fit.", []),
        ("We train the Transformer model.", ["Transformer model"]),  # the lexicon decides later
        ("An English model fails.", []),
    ],
)
def test_method_headed_spans(sentence, names):
    assert [sentence[a:b] for a, b in method_headed_spans(sentence)] == names


@pytest.mark.parametrize(
    "sentence, names",
    [
        ("We report the QuuxQA score on it.", ["QuuxQA score"]),
        ("Both the ZORB score and the BarNet Score rise.", ["ZORB score", "BarNet Score"]),
        ("A high score and the Final score help.", []),
        ("The FooNet scored well; a FooNet score-based rule fails.", []),
    ],
)
def test_metric_headed_spans(sentence, names):
    assert [sentence[a:b] for a, b in metric_headed_spans(sentence)] == names


@pytest.mark.parametrize(
    "sentence, word, ends",
    [
        ("Highway networks help.", "Highway", False),
        ("We use Hydra, then stop.", "Hydra", True),
        ("We use Hydra and Finch.", "Hydra", True),
        ("As shown by Smith et al. it holds.", "Smith", False),
        ("It ends with Hydra", "Hydra", True),
    ],
)
def test_ends_name(sentence, word, ends):
    assert ends_name(sentence, sentence.index(word) + len(word)) is ends


@pytest.mark.parametrize(
    "sentence, word, method",
    [
        ("We fit the mixture using EM.", "EM", True),
        ("Running EM for ten rounds is slow.", "EM", True),
        ("One EM iteration costs little.", "EM", True),
        ("The model reaches 80 EM on the test set.", "EM", False),
        ("We report EM and F1.", "EM", False),
        ("The EM score improves.", "EM", False),
    ],
)
def test_method_sense(sentence, word, method):
    start = sentence.index(word)
    assert method_sense(sentence, start, start + len(word)) is method


def test_method_sense_entry_names_the_algorithm():
    lexicon = load_lexicon_cached()
    entry = method_sense_entry("EM", lexicon)
    assert entry is not None and entry.canonical == "EM algorithm"
    assert method_sense_entry("F1", lexicon) is None


@pytest.fixture(scope="module")
def nlp():
    return build_nlp()


def found(nlp, text):
    return sorted((m.type, m.text, m.rule, m.role) for m in nlp(text)._.mentions)


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "We test the idea on Plover, Heron-2 and CIFAR-10.",
            [
                ("Dataset", "CIFAR-10", "lexicon", "used"),
                ("Dataset", "Heron-2", "list-name", "used"),
                ("Dataset", "Plover", "list-name", "used"),
            ],
        ),
        (
            "We fit the mixture with variational EM.",
            [("Method", "EM", "sense-by-context", "used")],
        ),
        (
            "We report EM on the test split.",
            [("Metric", "EM", "lexicon", "used")],
        ),
        (
            # A short form the abstract defines is not read by its sentence: no EM algorithm
            # (the corpus resolution then gives the bare EM the paper's own sense).
            "Entity matching (EM) links records. We train a matcher using EM labels.",
            [
                ("Metric", "EM", "lexicon", "used"),
                ("Task", "Entity matching", "abbreviation", "used"),
            ],
        ),
        (
            "The proposed Sparrow achieves more.",
            [("Method", "Sparrow", "own-name", "proposed")],
        ),
        (
            "Hydra outperforms strong baselines.",
            [("Method", "Hydra", "result-subject", "used")],
        ),
        (
            "We decode with the Viterbi algorithm.",
            [("Method", "Viterbi algorithm", "method-headed", "used")],
        ),
        ("We evaluate on English, German and French.", []),
        (
            "We report the ZORB Score.",
            [("Metric", "ZORB Score", "metric-headed", "used")],
        ),
        ("We report the BLEU score.", [("Metric", "BLEU score", "lexicon", "used")]),
        (
            # an item with a lowercase prefix; a cased entry not written with its case
            "We test on the Plover, mini-Heron and Usps datasets.",
            [
                ("Dataset", "Plover", "list-name", "used"),
                ("Dataset", "Usps", "list-name", "used"),
                ("Dataset", "mini-Heron", "list-name", "used"),
            ],
        ),
        (
            # the plural head after a list types its first item too
            "Results on the MNIST and Plover benchmarks.",
            [
                ("Benchmark", "MNIST", "lexicon", "used"),
                ("Benchmark", "Plover", "headed-name", "used"),
            ],
        ),
        (
            # fillers between a proposed name and its head
            "We introduce QuokkaQA, the first manually curated evaluation benchmark for idioms.",
            [("Benchmark", "QuokkaQA", "proposal", "proposed")],
        ),
        ("We report gains in WombatScore.", [("Metric", "WombatScore", "coined-name", "used")]),
        ("We train in FP16 with CUDA.", []),
        (
            # a short form in brackets does not end the list
            "We compare techniques: Wombat Data Augmentation (WDA), Quokka-Prune, and Numbat-Fix.",
            [
                ("Method", "Numbat-Fix", "list-name", "used"),
                ("Method", "Quokka-Prune", "list-name", "used"),
                ("Method", "Wombat Data Augmentation", "abbreviation", "used"),
            ],
        ),
    ],
)
def test_mentions_of_placed_names(nlp, text, expected):
    assert found(nlp, text) == expected


@pytest.mark.parametrize(
    "phrase, kind",
    [
        ("Speech Act Classification", "Task"),
        ("Shallow Discourse Parsing", "Task"),
        ("Connectionist Temporal Classification", "Method"),
        ("Deep Hashing Recognition", "Method"),
        ("Soft Gradient Surgery", "Method"),
        ("Spatial Pyramid Matching", "Method"),
    ],
)
def test_named_phrase_type_by_task_head(phrase, kind):
    assert named_phrase_type(phrase) == kind


def test_a_definition_the_words_around_call_a_task_is_a_task():
    text = (
        "We introduce the task of Patent Claim Rewriting (PCR). Models that do well on "
        "Table Cell Linking (TCL) tasks fail here. Our Sparse Gate Router (SGR) model helps."
    )
    types = types_in(text)
    assert types["PCR"] == types["TCL"] == "Task"
    assert types["SGR"] == "Method"


def test_a_known_lowercase_modifier_name_spans_its_head_noun():
    text = "We train sequence-to-sequence models and Seq2Seq models with self-attention."
    spans = {(m.text, m.canonical) for m in found_in(text)}
    assert ("sequence-to-sequence models", "Seq2Seq") in spans
    assert ("self-attention", "self-attention") in spans


def test_a_short_form_the_abstract_later_calls_a_task_is_a_task():
    text = (
        "Patent Claim Drafting (PCD) matters to lawyers. We study the PCD task with LLMs. "
        "Ordinal Grade Shifting (OGS) is a related task. "
        "In Crowd Adversarial Data Collection (CADC), annotators write hard examples."
    )
    types = types_in(text)
    assert types["PCD"] == types["OGS"] == "Task"
    assert types.get("CADC") not in ("Dataset", "Benchmark")


def test_a_coined_name_after_on_takes_the_head_its_list_shares():
    text = (
        "We ran experiments on the Qorch9 and Zeano frameworks. We report results on "
        "QXOE, QXPE and QXTE subtasks. Results on WSJ45 are strong."
    )
    types = types_in(text)
    assert types["Qorch9"] == "Method"
    assert types["QXOE"] == types["QXTE"] == "Task"
    assert types["WSJ45"] == "Dataset"


def test_a_defined_named_problem_is_a_task():
    text = "We solve the Quadratic Widget Problem (QWP) with a solver, and 7 problems (P@7)."
    types = types_in(text)
    assert types["QWP"] == "Task"
    assert types.get("P@7") != "Task"


def test_a_measure_keeps_its_cut_off_and_a_generalization_gap_is_no_measure():
    found = found_in(
        "Our ranker lifts NDCG@20 by 4% and MRR@k by 2%. The upper bound on the "
        "generalization gap is tight."
    )
    assert [(m.text, m.canonical) for m in found if m.type == "Metric"] == [
        ("NDCG@20", "NDCG"),
        ("MRR@k", "MRR"),
    ]
    assert types_in("The generalization gap shrinks.").get("generalization gap") != "Metric"
    found = found_in("The probe reaches Pearson r = 0.99 and Spearman's correlation 0.9.")
    assert [m.canonical for m in found] == ["Pearson correlation", "Spearman correlation"]


def test_a_generalization_of_something_is_no_task():
    found = types_in(
        "We give a nonlinear generalization of factor analysis and a natural generalization "
        "of PCA. Compositional generalization stays hard."
    )
    assert "nonlinear generalization" not in found and "natural generalization" not in found
    assert found["compositional generalization"] == "Task"


def test_names_typed_by_what_the_text_says_of_them():
    found = types_in(
        "We propose a multi-level Mutual Promotion mechanism for Inference and Interpretation "
        "(MPII); the proposed MPII approach wins. MinWiki is a subset of MinWikiSplit. "
        "Quantizing Llama-2 to W4A16 or W8A8 loses little."
    )
    assert found["MPII"] == "Method" and found["MinWikiSplit"] == "Dataset"
    assert "W4A16" not in found and "W8A8" not in found
    assert types_in("Our CIFAR-10 model reaches 3% error on CIFAR-10.")["CIFAR-10"] == "Dataset"


def test_known_names_of_the_identity_audit():
    found = {
        m.canonical: m.type
        for m in found_in(
            "ChatGPT and GPT-3.5 differ. Data missing not at random (MNAR) hurt. We test on "
            "WMDP (Weapons of Mass Destruction Proxy) and knowledge-based question answering."
        )
    }
    assert found["ChatGPT"] == "Method" and found["GPT-3.5"] == "Method"
    assert found["MNAR"] == "Concept" and found["WMDP"] == "Benchmark"
    assert found["knowledge base question answering"] == "Task"


def test_names_coined_as_x_of_y():
    found = types_in(
        "An untrained Mixture-of-Agents pass and Skeleton-of-Thought lose; it is "
        "state-of-the-art on out-of-distribution data."
    )
    assert found == {"Mixture-of-Agents": "Method", "Skeleton-of-Thought": "Method"}
    assert types_in("LMs become Mixture-of-Expert models.") == {"MoE": "Method"}


def test_a_known_hyphenated_method_spans_the_algorithm_it_names():
    found = found_in("We fit it with an expectation-maximization algorithm.")
    assert [(m.canonical, m.text) for m in found] == [
        ("EM algorithm", "expectation-maximization algorithm")
    ]


def test_a_dimension_is_part_of_the_task_it_precedes():
    found = types_in("We address 3D object detection and 6D pose estimation, not 13D tracking.")
    assert found["3D object detection"] == "Task" and found["6D pose estimation"] == "Task"
    assert "object detection" not in found and "13D tracking" not in found


def test_a_capitalised_head_word_is_part_of_a_name_of_plain_words():
    found = types_in(
        "We evaluate on the Million Song Dataset. We win the Visual Decathlon Challenge. It "
        "tops the FooQA Benchmark and the Barqux benchmark."
    )
    assert found["Million Song Dataset"] == "Dataset"
    assert found["Visual Decathlon Challenge"] == "Benchmark"
    assert found["FooQA"] == "Benchmark" and found["Barqux"] == "Benchmark"


def canonicals_in(text):
    return {m.text: m.canonical for m in found_in(text)}


def test_a_known_dataset_keeps_the_release_after_it():
    found = canonicals_in(
        "We test on MultiWOZ 2.4, LogiQA-v2, MNIST 8M and SQuAD 1.1; MNIST runs 2.5 times faster."
    )
    assert found["MultiWOZ 2.4"] == "MultiWOZ 2.4" and found["LogiQA-v2"] == "LogiQA-v2"
    assert found["MNIST 8M"] == "MNIST8m"  # the lexicon's entry of the longer name
    assert found["SQuAD 1.1"] == "SQuAD"  # a release the lexicon spells as the dataset
    assert found["MNIST"] == "MNIST"
