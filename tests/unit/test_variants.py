"""kg.graph.variants: the VARIANT_OF links decided over the corpus's Methods, and the
entity layer that lays them out."""

import networkx as nx

from kg.extractors.records import DATASET, METHOD, Mention
from kg.graph.entities import add_entity_layer
from kg.graph.variants import lexicon_families, merge_names, method_names, variant_links


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


def test_lexicon_families_are_the_model_families():
    families = lexicon_families()
    assert families["llama"] == "Llama" and families["llama3"] == "Llama"
    assert families["gpt4omini"] == "GPT-4o"
    assert "wmt" not in families  # a Dataset family of the lexicon is no model family


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
