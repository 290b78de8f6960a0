"""kg.graph.variants: model names parsed into family, version and size; mentions of a version
kept apart from the family; VARIANT_OF links decided over the corpus."""

import pytest

from kg.extractors.records import DATASET, METHOD, Mention
from kg.graph.variants import (
    SIZE,
    VARIANT,
    VERSION,
    ancestors,
    lexicon_families,
    merge_names,
    method_names,
    split_suffix,
    suffix_kind,
    variant_links,
    version_apart,
    versions_apart,
)


@pytest.mark.parametrize(
    "name, parent, suffix, kind",
    [
        ("Llama 3", "Llama", " 3", VERSION),
        ("Llama-3.1", "Llama", "-3.1", VERSION),
        ("Llama-3-8B", "Llama-3", "-8B", SIZE),
        ("Qwen2.5", "Qwen", "2.5", VERSION),
        ("Qwen2.5-7B", "Qwen2.5", "-7B", SIZE),
        ("Qwen2.5-1.5B", "Qwen2.5", "-1.5B", SIZE),
        ("Mixtral-8x7B", "Mixtral", "-8x7B", SIZE),
        ("OPT-350M", "OPT", "-350M", SIZE),
        ("llama-2-13b", "llama-2", "-13b", SIZE),
        ("GPT-2", "GPT", "-2", VERSION),
        ("GPT4", "GPT", "4", VERSION),
        ("GPT-4o", "GPT", "-4o", VERSION),
        ("GPT-4o-mini", "GPT-4o", "-mini", SIZE),
        ("BERT-large", "BERT", "-large", SIZE),
        ("BERT-Base", "BERT", "-Base", SIZE),
        ("BERT large", "BERT", " large", SIZE),
        ("T5-XXL", "T5", "-XXL", SIZE),
        ("ResNet-152", "ResNet", "-152", SIZE),
        ("ResNet50", "ResNet", "50", SIZE),
        ("VGG16", "VGG", "16", SIZE),
        ("ViT-B/16", "ViT", "-B/16", SIZE),
        ("Swin-T", "Swin", "-T", SIZE),
        ("EfficientNet-B0", "EfficientNet", "-B0", VERSION),
        ("DeepSeek-R1", "DeepSeek", "-R1", VERSION),
        ("DeBERTa-v3", "DeBERTa", "-v3", VERSION),
        ("YOLOv8", "YOLO", "v8", VERSION),
        ("MobileNetV2", "MobileNet", "V2", VERSION),
        ("Llama-2-Chat", "Llama-2", "-Chat", VARIANT),
        ("Qwen2.5-7B-Instruct", "Qwen2.5-7B", "-Instruct", VARIANT),
        ("Gemma-2-9b-it", "Gemma-2-9b", "-it", VARIANT),
        ("Claude 3.5 Sonnet", "Claude 3.5", " Sonnet", VARIANT),
        ("Gemini Pro", "Gemini", " Pro", VARIANT),
        ("o1-mini", "o1", "-mini", SIZE),
        ("wav2vec 2.0", "wav2vec", " 2.0", VERSION),
        ("Gemini-1.5-Pro-002", "Gemini-1.5-Pro", "-002", VERSION),
        ("Gemini 1.5 Pro", "Gemini 1.5", " Pro", VARIANT),
        ("CIFAR-10", "CIFAR", "-10", SIZE),
    ],
)
def test_split_suffix_finds_the_last_version_size_or_variant(name, parent, suffix, kind):
    assert split_suffix(name) == (parent, suffix)
    assert suffix_kind(suffix) == kind


@pytest.mark.parametrize(
    "name",
    [
        "ResNet",
        "ResNets",  # a plural is no version
        "BERT 2019",  # nor a year
        "WMT 2014",
        "TD3",  # a glued number after two letters: TD3 is no TD
        "BM25",
        "T5",
        "mT5",
        "Word2Vec",
        "BERT-based",  # any other word
        "Method A",  # a size letter only after a hyphen
        "Model B",
        "XLM-RoBERTa",
        "IBP (Indian Buffet Process 2)",  # a sense's name
        "DA-T5",  # a glued number after one letter: T5 is a name
        "COLT08",  # a two-digit year
        "Natural Language Pro",  # a word after a name of several words without a version
        "3",
        "-large",
        "",
    ],
)
def test_split_suffix_leaves_names_without_one(name):
    assert split_suffix(name) is None


def test_ancestors_shorten_one_suffix_at_a_time():
    assert ancestors("Llama-3.1-70B-Instruct") == ["Llama-3.1-70B", "Llama-3.1", "Llama"]
    assert ancestors("Claude 3.5 Sonnet") == ["Claude 3.5", "Claude"]
    assert ancestors("GPT-4o-mini") == ["GPT-4o", "GPT"]
    assert ancestors("Transformer") == []


def mention(text, canonical, kind=METHOD, rule="lexicon"):
    return Mention(
        type=kind,
        text=text,
        canonical=canonical,
        start=0,
        end=len(text),
        sentence=text,
        rule=rule,
        score=0.9,
    )


FAMILIES = {"llama": "Llama", "gpt4o": "GPT-4o", "swin": "Swin Transformer", "gpt": "GPT"}


@pytest.mark.parametrize(
    "text, canonical, expected",
    [
        ("Llama 3", "Llama", "Llama 3"),
        ("LLaMA-3", "Llama", "Llama-3"),  # the family as the lexicon spells it
        ("llama 3.1", "Llama", "Llama 3.1"),
        ("GPT-4o-mini", "GPT-4o", "GPT-4o-mini"),
        ("Swin-T", "Swin Transformer", "Swin-T"),  # an alias of the family: kept as written
        ("LLaMA", "Llama", "Llama"),  # the family itself
        ("Llamas", "Llama", "Llama"),
        ("ChatGPT", "GPT-3.5", "GPT-3.5"),  # an alias that is no version of the canonical
        ("Llama-3-8B", "Llama-3-8B", "Llama-3-8B"),
        ("Llama 3", "Vicuna", "Vicuna"),  # a version of another entity: not this one's
    ],
)
def test_version_apart_names_the_version(text, canonical, expected):
    assert version_apart(mention(text, canonical), FAMILIES).canonical == expected


def test_version_apart_keeps_everything_else_and_other_types():
    m = mention("Llama 3", "Llama")
    apart = version_apart(m, FAMILIES)
    assert {**apart.__dict__, "canonical": "Llama"} == m.__dict__
    cifar = mention("CIFAR-10", "CIFAR", kind=DATASET)
    assert version_apart(cifar, FAMILIES) is cifar


def test_versions_apart_reads_the_lexicon_families():
    families = lexicon_families()
    assert families["llama"] == "Llama" and families["llama3"] == "Llama"
    assert families["gpt4omini"] == "GPT-4o"
    assert "cifar" not in families  # a Dataset family of the lexicon is no model family
    got = versions_apart([mention("Llama 2", "Llama"), mention("GPT-4o-mini", "GPT-4o")])
    assert [m.canonical for m in got] == ["Llama 2", "GPT-4o-mini"]


def names(*canonicals):
    return method_names([mention(c, c) for c in canonicals])


def test_variant_links_size_to_version_to_family():
    links = variant_links(names("Llama-3-8B", "Llama 3", "Llama", "Llama 2"), {})
    assert links == {"Llama 2": "Llama", "Llama 3": "Llama", "Llama-3-8B": "Llama 3"}


def test_variant_links_skip_a_level_nobody_names():
    assert variant_links(names("Llama-3-8B", "Llama"), {}) == {"Llama-3-8B": "Llama"}


def test_variant_links_bring_in_a_lexicon_family_no_paper_names():
    families = {"gpt4o": "GPT-4o", "gpt": "GPT", "gpt4omini": "GPT-4o"}
    assert variant_links(names("GPT-4o-mini"), families) == {
        "GPT-4o-mini": "GPT-4o",
        "GPT-4o": "GPT",
    }


def test_variant_links_use_the_corpus_spelling_of_a_family():
    families = {"llama": "Llama"}
    assert variant_links(names("LLaMA", "LLaMA-2"), families) == {"LLaMA-2": "LLaMA"}
    # An alias of a family leads to its canonical: Swin-T is a Swin Transformer.
    assert variant_links(names("Swin-T"), {"swin": "Swin Transformer"}) == {
        "Swin-T": "Swin Transformer"
    }


def test_variant_links_need_a_parent_the_corpus_or_lexicon_names():
    assert variant_links(names("ResNet-152", "BERT-large", "TD3", "TD"), {}) == {}
    assert variant_links(names("ResNet-152", "ResNets", "GPT-2", "GPT"), {}) == {
        "GPT-2": "GPT",
        "ResNet-152": "ResNets",
    }


def test_variant_links_never_loop():
    # A lexicon alias may lead a short name to a longer one that shortens to it again.
    assert variant_links(names("Xy-2"), {"xy": "Xy-2-large"}) == {"Xy-2-large": "Xy-2"}


def test_summaries_merge_in_any_order():
    a, b, c = names("Llama 3"), names("Llama-3", "GPT-2"), names("GPT-2", "BERT")
    assert merge_names(merge_names(a, b), c) == merge_names(a, merge_names(b, c))
    assert merge_names(a, b) == merge_names(b, a) == {"Llama 3", "Llama-3", "GPT-2"}
    # Two spellings of one name (a corpus the resolution has not named): the first in order.
    family = {"llama": "Llama"}
    assert variant_links(merge_names(a, b), family) == variant_links(merge_names(b, a), family)
    assert variant_links(merge_names(a, b), family) == {"Llama 3": "Llama"}


def test_the_entity_layer_links_methods_only():
    import networkx as nx

    from kg.graph.entities import add_entity_layer

    G = nx.MultiDiGraph()
    G.add_node("paper:p1", kind="Paper")
    G.add_node("paper:p2", kind="Paper")
    corpus = [
        (
            "paper:p1",
            [mention("CIFAR-10", "CIFAR-10", DATASET), mention("CIFAR", "CIFAR", DATASET)],
        ),
        ("paper:p2", [mention("GPT-2", "GPT-2"), mention("BERT-large", "BERT-large")]),
    ]
    add_entity_layer(G, corpus, families={"gpt": "GPT"})
    assert sorted((u, v) for u, v, k in G.edges(keys=True) if k == "VARIANT_OF") == [
        ("method:gpt-2", "method:gpt")
    ]
    # The family no paper names is a node of its own, with no paper.
    assert G.nodes["method:gpt"] == {
        "kind": "Method",
        "name": "GPT",
        "aliases": [],
        "long_form": None,
    }
    assert list(G.predecessors("method:gpt")) == ["method:gpt-2"]
