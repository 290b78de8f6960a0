"""The lexicon of the field: valid entries, unambiguous aliases, patterns that load."""

import json
from collections import Counter

import pytest

from kg.extractors.lexicon import (
    LEXICON_PATH,
    TRAINING_LEXICON_PATH,
    USER_DATA_ENV,
    Entry,
    Lexicon,
    is_cased,
    load_lexicon,
    parse_block,
    parse_entry,
    phrase_patterns,
    read_entries,
)
from kg.extractors.names import name_key
from kg.extractors.records import IGNORE, TYPE_NAMES


@pytest.fixture(scope="module")
def lexicon():
    return load_lexicon()


def test_lexicon_is_large_and_typed(lexicon):
    kinds = Counter(e.type for e in lexicon.entries.values())
    assert sum(n for k, n in kinds.items() if k != IGNORE) >= 1500
    for kind in ("Method", "Dataset", "Benchmark", "Task", "Metric"):
        assert kinds[kind] >= 80, kind


def test_every_alias_names_one_entry(lexicon):
    owners = {}
    for entry in lexicon.entries.values():
        for name in entry.names:
            owners.setdefault(name_key(name), set()).add(entry.canonical)
    clashes = {k: v for k, v in owners.items() if len(v) > 1}
    assert clashes == {}


def test_part_of_points_at_benchmarks_or_datasets(lexicon):
    parents = [(e.canonical, p) for e in lexicon.entries.values() for p in e.part_of]
    assert ("MNLI", "GLUE") in parents
    for child, parent in parents:
        assert lexicon.entries[parent].type in ("Benchmark", "Dataset"), (child, parent)


def test_lookup_unifies_variants(lexicon):
    for surface in ("ImageNet-1k", "ImageNet1K", "imagenet-1K"):
        assert lexicon.lookup(surface).canonical == "ImageNet-1K"
    assert lexicon.lookup("Imagenet").canonical == "ImageNet"
    assert lexicon.lookup("CIFAR10").canonical == "CIFAR-10"
    assert lexicon.lookup("Support Vector Machines").canonical == "SVM"
    assert lexicon.lookup("no such method here") is None


def test_a_capital_s_after_capitals_is_no_plural():
    small = Lexicon()
    small.add(Entry("Gaussian process", "Method", ("GP",)))
    small.add(Entry("MCTS", "Method"))
    assert small.lookup("GPs").canonical == "Gaussian process"
    assert small.lookup("GPS") is None and small.lookup_as_written("GPS") is None
    assert small.lookup("MCTS").canonical == "MCTS" and small.lookup("MCT") is None
    small.add(Entry("GPS", "Ignore"))
    assert small.lookup("GPS").canonical == "GPS"
    assert small.lookup("GPs").canonical == "Gaussian process"


@pytest.mark.parametrize(
    "one, other",
    [
        ("restricted Boltzmann machine", "Boltzmann machine"),
        ("extended Kalman filter", "Kalman filter"),
        ("Kinetics-600", "Kinetics-400"),
        ("WikiText-2", "WikiText-103"),
        ("contextual bandits", "multi-armed bandits"),
        ("Platt scaling", "temperature scaling"),
        ("Nesterov momentum", "heavy-ball momentum"),
        ("Fleiss' kappa", "Cohen's kappa"),
        ("DP-SGD", "differential privacy"),
        ("generalization gap", "generalization error"),
        ("abstractive summarization", "text summarization"),
        ("human pose estimation", "pose estimation"),
        ("ARC-Challenge", "ARC"),
        ("MATH-500", "MATH"),
        ("MMLU-Pro", "MMLU"),
        ("MultiWOZ 2.1", "MultiWOZ 2.0"),
        ("MultiWOZ 2.2", "MultiWOZ"),
        ("MovieLens-1M", "MovieLens-100K"),
        ("Yelp-2", "Yelp-5"),
        ("LSUN Bedroom", "LSUN"),
        ("WGAN-GP", "WGAN"),
        ("AlphaGo Zero", "AlphaGo"),
        ("SDXL", "Stable Diffusion"),
        ("top-1 accuracy", "accuracy"),
        ("ROUGE-L", "ROUGE"),
        ("unsupervised domain adaptation", "domain adaptation"),
        ("quantization-aware training", "post-training quantization"),
        ("random Fourier features", "random features"),
        ("WMT14", "WMT16"),
        ("iNaturalist 2018", "iNaturalist 2017"),
        ("AMR-to-text generation", "AMR parsing"),
        ("representation engineering", "activation steering"),
        ("sparse recovery", "compressed sensing"),
        ("CART", "decision tree"),
        ("PDTB 2.0", "PDTB 3.0"),
        ("bandit problems", "multi-armed bandits"),
        ("test-time training", "test-time adaptation"),
        ("fake news detection", "misinformation detection"),
    ],
)
def test_an_alias_never_names_another_thing(lexicon, one, other):
    # A variant, a sibling or a version is a node of its own: one thing, one node.
    assert lexicon.lookup(one).canonical != lexicon.lookup(other).canonical


def test_lookup_as_written_keeps_the_case_of_cased_names(lexicon):
    assert lexicon.lookup_as_written("RACE").canonical == "RACE"
    assert lexicon.lookup("Race").canonical == "RACE"
    assert lexicon.lookup_as_written("Race") is None
    assert lexicon.lookup_as_written("imagenet-1k").canonical == "ImageNet-1K"
    assert lexicon.lookup_as_written("SVMs").canonical == "SVM"


@pytest.mark.parametrize("path", [LEXICON_PATH, TRAINING_LEXICON_PATH], ids=lambda p: p.name)
def test_every_entry_is_in_a_block_that_says_where_it_comes_from(path):
    with open(path, encoding="utf-8") as fh:
        first = json.loads(fh.readline())
    assert parse_block(first, "line 1") and first["source"]
    for entry in read_entries(path):
        assert entry.type in TYPE_NAMES + (IGNORE,)
        assert entry.canonical == entry.canonical.strip()
        assert entry.block


def test_an_entry_outside_a_block_or_a_block_without_source_is_refused(tmp_path):
    path = tmp_path / "lex.jsonl"
    path.write_text('{"canonical": "A", "type": "Method"}\n')
    with pytest.raises(ValueError, match=r"lex.jsonl:1: an entry before any block"):
        load_lexicon(path)
    path.write_text('{"block": "mine"}\n')
    with pytest.raises(ValueError, match=r"lex.jsonl:1: block 'mine' does not say where"):
        load_lexicon(path)


def test_a_user_lexicon_in_kg_data_adds_and_replaces_entries(tmp_path, monkeypatch):
    (tmp_path / "lexicon.jsonl").write_text(
        '{"block": "lab", "source": "our lab\'s names"}\n'
        '{"canonical": "FrobNet", "type": "Method"}\n'
        '{"canonical": "MNIST", "type": "Benchmark"}\n'
    )
    monkeypatch.setenv(USER_DATA_ENV, str(tmp_path))
    lexicon = load_lexicon()
    assert lexicon.lookup("frobnet").block == "lab"
    assert lexicon.entries["MNIST"].type == "Benchmark"
    monkeypatch.delenv(USER_DATA_ENV)
    assert load_lexicon().entries["MNIST"].type == "Dataset"


def test_phrase_patterns_load_into_span_rulers(lexicon):
    cased, lower = phrase_patterns(lexicon)
    assert {"label": "Benchmark", "pattern": "MATH", "id": "MATH"} in cased
    assert all(not is_cased(p["pattern"]) or p["id"] in lexicon.entries for p in lower)
    assert all(p["id"] in lexicon.entries for p in cased + lower)
    assert len(cased) + len(lower) > 3000


@pytest.mark.parametrize(
    "obj, message",
    [
        ({"type": "Method"}, "no canonical"),
        ({"canonical": "X", "type": "Gadget"}, "type 'Gadget'"),
        ({"canonical": "X", "type": "Method", "aliases": "Y"}, "aliases must be a list"),
        ({"canonical": "X", "type": "Method", "colour": "red"}, "unknown fields colour"),
    ],
)
def test_parse_entry_rejects_bad_entries(obj, message):
    with pytest.raises(ValueError, match=message):
        parse_entry(obj, "lexicon.jsonl:7")


def test_load_lexicon_names_file_and_line(tmp_path):
    path = tmp_path / "lex.jsonl"
    block = '{"block": "b", "source": "tests"}\n'
    path.write_text(
        block + '{"canonical": "A", "type": "Method"}\n{"canonical": "A", "type": "Task"}\n'
    )
    with pytest.raises(ValueError, match=r"lex.jsonl:3: duplicate canonical 'A'"):
        load_lexicon(path)
    path.write_text(block + '{"canonical": "MNLI", "type": "Dataset", "part_of": ["GLUE"]}\n')
    with pytest.raises(ValueError, match="not a canonical name"):
        load_lexicon(path)


def test_british_spellings_name_the_entry_of_the_american_ones(lexicon):
    assert lexicon.lookup("Expectation-Maximisation").canonical == "EM algorithm"
    assert lexicon.lookup("generalisation error").canonical == "generalization error"
    assert lexicon.lookup("behaviour") is None  # a cased name (BEHAVIOR) takes no British form
