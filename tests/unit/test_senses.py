"""Acronym senses (kg/graph/senses.py through kg/graph/resolve.py): the paper's own
definition wins, one node per sense, bare uses decided by evidence or left alone."""

import random

import pytest

from kg.extractors.lexicon import Entry, Lexicon
from kg.extractors.records import Mention
from kg.graph.long_forms import same_sense
from kg.graph.resolve import Resolution, resolve_corpus


def lexicon_of(*entries):
    lexicon = Lexicon()
    for entry in entries:
        lexicon.add(entry)
    return lexicon


#: A lexicon of our own: the defaults the corpus below disagrees with.
LEXICON = lexicon_of(
    Entry("interval bound propagation", "Method", ("IBP",)),
    Entry("batch normalization", "Method", ("BN", "batch norm")),
    Entry("SNN", "Method", ("spiking neural network", "SNNs")),
    Entry("differential privacy", "Method", ("DP",)),
    Entry("ImageNet", "Dataset"),
)


def m(kind, text, canonical, rule, *, long_form=None, sentence=None, aliases=()):
    return Mention(
        type=kind,
        text=text,
        canonical=canonical,
        start=0,
        end=len(text),
        sentence=sentence or text,
        rule=rule,
        score=0.9,
        long_form=long_form,
        aliases=aliases,
    )


def defined(kind, long_form, short, *, lexicon_canonical=None):
    """A definition "long form (SHORT)": the lexicon's name when the extraction gave one."""
    sentence = f"We use {long_form} ({short}) here."
    if lexicon_canonical:
        return m(
            kind,
            long_form,
            lexicon_canonical,
            "abbreviation+lexicon",
            long_form=long_form,
            sentence=sentence,
            aliases=(long_form,),
        )
    return m(kind, long_form, short, "abbreviation", long_form=long_form, sentence=sentence)


def known(kind, text, canonical):
    return m(kind, text, canonical, "lexicon")


def bare(kind, short):
    return m(kind, short, short, "coined-name")


def context(*names):
    return [known("Method", n, n) for n in names]


CORPUS = [
    # IBP: the lexicon's interval bound propagation, and the Indian Buffet Process
    (
        "ibp1",
        [
            defined(
                "Method",
                "Indian Buffet Process",
                "IBP",
                lexicon_canonical="interval bound propagation",
            )
        ],
    ),
    (
        "ibp2",
        [
            defined(
                "Method",
                "Indian buffet processes",
                "IBP",
                lexicon_canonical="interval bound propagation",
            )
        ],
    ),
    (
        "ibp3",
        [
            defined(
                "Method",
                "interval bound propagation",
                "IBP",
                lexicon_canonical="interval bound propagation",
            )
        ],
    ),
    # BN: a Bayesian network, its bare use in the same paper named by the lexicon
    (
        "bn1",
        [
            defined("Method", "Bayesian network", "BN", lexicon_canonical="batch normalization"),
            known("Method", "BN", "batch normalization"),
        ],
    ),
    ("bn2", [known("Method", "BN", "batch normalization")]),
    # SNN: four networks behind one short form, one of them the lexicon's
    ("snn1", [defined("Method", "spiking neural networks", "SNN", lexicon_canonical="SNN")]),
    ("snn2", [defined("Method", "Siamese neural network", "SNN")]),
    ("snn3", [defined("Method", "self-normalizing neural networks", "SNN")]),
    ("snn4", [defined("Method", "segmental neural network", "SNN")]),
    # MIC: a corpus and a cardinality measure; two bare uses
    ("mic1", [defined("Dataset", "Multilingual Image Corpus", "MIC"), *context("CLIP", "ViT")]),
    (
        "mic2",
        [
            defined("Metric", "maximal induced cardinality", "MIC"),
            *context("submodular maximization", "greedy algorithm"),
        ],
    ),
    ("mic3", [bare("Metric", "MIC"), *context("submodular maximization", "greedy algorithm")]),
    ("mic4", [bare("Method", "MIC")]),
    # DP: the lexicon's differential privacy, Dirichlet processes, dynamic programming
    ("dp1", [defined("Method", "Dirichlet process", "DP"), *context("Gibbs sampling", "LDA")]),
    ("dp2", [defined("Method", "dynamic programming", "DP")]),
    (
        "dp3",
        [defined("Method", "differential privacy", "DP", lexicon_canonical="differential privacy")],
    ),
    ("dp4", [known("Method", "DP", "differential privacy")]),
    ("dp5", [known("Method", "DP", "differential privacy"), *context("Gibbs sampling", "LDA")]),
]


def named(resolved):
    """{paper: {(type, name, long form)}} of the short forms' mentions (context aside)."""
    names = {"CLIP", "ViT", "submodular maximization", "greedy algorithm", "Gibbs sampling", "LDA"}
    return {
        paper: {(x.type, x.canonical, x.long_form) for x in ms if x.canonical not in names}
        for paper, ms in resolved
    }


@pytest.fixture(scope="module")
def resolved():
    return named(resolve_corpus(CORPUS, lexicon=LEXICON))


def test_a_definition_the_lexicon_names_otherwise_is_its_own_sense(resolved):
    assert resolved["ibp1"] == {("Method", "IBP (Indian Buffet Process)", "Indian Buffet Process")}
    assert resolved["ibp3"] == {
        ("Method", "interval bound propagation", "interval bound propagation")
    }


def test_spelling_variants_of_a_long_form_are_one_sense(resolved):
    assert {name for _, name, _ in resolved["ibp2"]} == {"IBP (Indian Buffet Process)"}


def test_a_bare_short_form_follows_its_own_papers_definition(resolved):
    assert resolved["bn1"] == {("Method", "BN (Bayesian network)", "Bayesian network")}
    assert resolved["bn2"] == {("Method", "batch normalization", None)}


def test_each_sense_of_a_short_form_is_one_node_named_apart(resolved):
    names = {name for p in ("snn1", "snn2", "snn3", "snn4") for _, name, _ in resolved[p]}
    assert names == {
        "SNN",
        "SNN (Siamese neural network)",
        "SNN (self-normalizing neural networks)",
        "SNN (segmental neural network)",
    }


def test_a_bare_use_is_resolved_by_the_names_beside_it_or_left_alone(resolved):
    assert resolved["mic1"] == {
        ("Dataset", "MIC (Multilingual Image Corpus)", "Multilingual Image Corpus")
    }
    assert resolved["mic3"] == {
        ("Metric", "MIC (maximal induced cardinality)", "maximal induced cardinality")
    }
    assert resolved["mic4"] == {("Method", "MIC", None)}  # nothing decides: its own node


def test_the_lexicon_is_the_default_but_never_overrides_evidence(resolved):
    assert resolved["dp1"] == {("Method", "DP (Dirichlet process)", "Dirichlet process")}
    assert resolved["dp2"] == {("Method", "DP (dynamic programming)", "dynamic programming")}
    assert {name for _, name, _ in resolved["dp3"]} == {"differential privacy"}
    assert resolved["dp4"] == {("Method", "differential privacy", "differential privacy")}
    assert resolved["dp5"] == {("Method", "DP (Dirichlet process)", "Dirichlet process")}


def test_a_commonest_sense_decides_only_when_it_clearly_dominates():
    many = [(f"a{i}", [defined("Method", "alpha beta gamma", "ABG")]) for i in range(3)]
    one = [("b0", [defined("Method", "another big graph", "ABG")])]
    use = [("c0", [bare("Method", "ABG")])]
    assert named(resolve_corpus(many + one + use, lexicon=LEXICON))["c0"] == {
        ("Method", "ABG (alpha beta gamma)", "alpha beta gamma")
    }
    assert named(resolve_corpus(many[:2] + one + use, lexicon=LEXICON))["c0"] == {
        ("Method", "ABG", None)
    }


def test_a_bare_short_form_in_the_lexicons_mixed_case_is_the_lexicons_sense():
    lexicon = lexicon_of(Entry("mAP", "Metric", ("mean average precision",)))
    # "MAP" defined as maximum a posteriori beside names a detection paper also writes
    maxpost = [
        (f"a{i}", [defined("Method", "maximum a posteriori", "MAP"), *context("COCO", "SSD")])
        for i in range(3)
    ]
    detection = [("b0", [known("Metric", "mAP", "mAP"), *context("COCO", "SSD")])]
    upper = [("c0", [bare("Method", "MAP"), *context("COCO", "SSD")])]
    got = named(resolve_corpus(maxpost + detection + upper, lexicon=lexicon))
    assert ("Metric", "mAP", None) in got["b0"]  # its case says which sense it is
    assert ("Method", "MAP (maximum a posteriori)", "maximum a posteriori") in got["c0"]


def test_a_bare_use_follows_the_sense_whose_long_form_its_paper_writes():
    senses = [
        ("a0", [defined("Method", "Markov networks", "MN")]),
        ("a1", [defined("Method", "memory networks", "MN")]),
    ]
    writes = [
        (
            "b0",
            [m("Method", "Markov Network", "Markov Network", "title-case"), bare("Method", "MN")],
        )
    ]
    alone = [("c0", [bare("Method", "MN")])]
    got = named(resolve_corpus(senses + writes + alone, lexicon=LEXICON))
    assert got["b0"] == {("Method", "MN (Markov networks)", "Markov networks")}
    assert got["c0"] == {("Method", "MN", None)}  # nothing decides: its own node


def test_a_definition_the_extraction_kept_only_in_a_sentence_still_wins():
    paper = [
        known("Method", "Value iteration", "value iteration"),
        m(
            "Method",
            "VI",
            "variational inference",
            "lexicon",
            sentence="Value iteration (VI) plans over the model.",
        ),
    ]
    lexicon = lexicon_of(
        Entry("variational inference", "Method", ("VI",)), Entry("value iteration", "Method")
    )
    resolved = named(resolve_corpus([("p", paper)], lexicon=lexicon))
    assert {name for _, name, _ in resolved["p"]} == {"value iteration"}


def test_a_quoted_long_form_still_defines_its_short_form():
    quoted = m(
        "Method",
        "Segmental Neural Net",
        "SNN",
        "abbreviation+lexicon",
        long_form="Segmental Neural Net",
        sentence='We present a "Segmental Neural Net" (SNN) for phonetic modeling.',
        aliases=("Segmental Neural Net",),
    )
    corpus = [("q", [quoted]), *[(p, ms) for p, ms in CORPUS if p.startswith("snn")]]
    resolved = named(resolve_corpus(corpus, lexicon=LEXICON))
    # Its own sense, with the unquoted segmental network; the spiking sense keeps its name.
    assert {name for _, name, _ in resolved["q"]} == {"SNN (Segmental Neural Net)"}
    assert {name for _, name, _ in resolved["snn4"]} == {"SNN (Segmental Neural Net)"}
    assert resolved["snn1"] == {("Method", "SNN", "spiking neural networks")}


def test_resolving_in_steps_equals_resolving_at_once_with_conflicting_senses():
    whole = sorted(resolve_corpus(CORPUS, lexicon=LEXICON))
    rng = random.Random(17)
    for _ in range(25):
        shuffled = rng.sample(CORPUS, len(CORPUS))
        a, b = sorted(rng.sample(range(len(CORPUS) + 1), 2))
        resolution = Resolution(shuffled[:a], lexicon=LEXICON)
        resolution.extend(shuffled[a:b])
        resolution.extend(shuffled[b:])
        assert sorted(resolution.items) == whole


@pytest.mark.parametrize(
    "a, b, same",
    [
        ("Deep Convolutional Neural Networks", "deep convolution neural network", True),
        ("Dynamic Convolutional Neural Network", "Dynamic Convolutional Neural Networks", True),
        ("sup- port vector machines", "support vector machine", True),
        (
            "multilingual pre-trained language models",
            "multilingual pretrained language model",
            True,
        ),
        ("generative adversarial net", "Generative Adversarial Networks", True),
        ("Bayesian network", "batch normalization", False),
        ("Indian Buffet Process", "interval bound propagation", False),
        ("spiking neural network", "Siamese neural network", False),
        ("Dirichlet process", "dynamic programming", False),
        # an acronym inside a long form stands for the words the other spells out
        ("kernel CCA", "kernel canonical correlation analysis", True),
        ("decentralized PSGD", "decentralized parallel SGD", True),
        ("admixture of Poisson MRFs", "Admixture of Poisson Markov Random Fields", True),
        ("distantly supervised NER", "distantly-supervised named entity recognition", True),
        ("hierarchical DP", "hierarchical Dirichlet process", True),
        ("sparse PCA", "sensible principal component analysis", False),
        # one letter missing from a later word: a misspelling, not another thing
        ("Stein variational gradient decent", "Stein variational gradient descent", True),
        ("Reinforcement Leaning", "reinforcement learning", True),
        ("online mirror descent", "optimistic mirror descent", False),
        ("projected gradient descent", "prioritized gradient descent", False),
        ("generalized BP", "guided backpropagation", False),
        # a final "e" gives way to -ing, -ed, -er, -ion
        ("error correcting output codes", "error correcting output coding", True),
        ("locality sensitive hashes", "locality sensitive hashing", True),
        ("spike-time dependent plasticity", "spike timing dependent plasticity", True),
        # the same words in another order
        (
            "alternating direction multiplier method",
            "Alternating Direction Method of Multipliers",
            True,
        ),
    ],
)
def test_same_sense(a, b, same):
    assert same_sense(a, b) is same
    assert same_sense(b, a) is same


def test_a_long_form_the_lexicon_lacks_joins_the_entry_another_long_form_names():
    lexicon = lexicon_of(
        Entry("mAP", "Metric", ("mean average precision",)),
        Entry("MAP estimation", "Method", ("maximum a posteriori", "MAP")),
    )
    corpus = [
        (
            "a",
            [defined("Method", "maximum a posteriori", "MAP", lexicon_canonical="MAP estimation")],
        ),
        ("b", [defined("Method", "Maximum A posteriori Probability", "MAP")]),
        ("c", [defined("Method", "Multi-Agent Planning", "MAP")]),
    ]
    resolved = named(resolve_corpus(corpus, lexicon=lexicon))
    assert {name for _, name, _ in resolved["b"]} == {"MAP estimation"}
    # Not a spelling of the entry's long names: a sense of its own.
    assert {name for _, name, _ in resolved["c"]} == {"MAP (Multi-Agent Planning)"}


def test_an_entry_without_long_form_takes_a_group_some_paper_types_as_it_is():
    lexicon = lexicon_of(Entry("ADNI", "Dataset", ()))
    corpus = [
        ("a", [defined("Dataset", "Alzheimer's Disease Neuroimaging Initiative", "ADNI")]),
        ("b", [defined("Concept", "Alzheimer's Disease Neuroimaging Initiative", "ADNI")]),
        ("c", [bare("Dataset", "ADNI")]),
    ]
    resolved = named(resolve_corpus(corpus, lexicon=lexicon))
    assert {name for _, name, _ in resolved["a"] | resolved["c"]} == {"ADNI"}


def test_a_bare_use_follows_the_one_sense_its_sentences_spell_out():
    senses = [
        ("a0", [defined("Concept", "long term potentiation", "LTP")]),
        ("a1", [defined("Task", "learning with target priors", "LTP")]),
    ]
    spelled = m(
        "Method", "LTP", "LTP", "coined-name",
        sentence="LTP stores covariances by associative long-term potentiation.",
    )  # fmt: skip
    alone = [("c0", [bare("Method", "LTP")])]
    got = named(resolve_corpus([*senses, ("b0", [spelled]), *alone], lexicon=LEXICON))
    assert got["b0"] == {("Concept", "LTP (long term potentiation)", "long term potentiation")}
    assert got["c0"] == {("Method", "LTP", None)}  # nothing decides: its own node
