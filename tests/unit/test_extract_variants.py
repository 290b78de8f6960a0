"""kg.extractors.variants: model names parsed into family, version, size and variant; the
name of the version a surface form of a lexicon family names."""

import pytest

from kg.extractors.lexicon import Entry
from kg.extractors.variants import (
    SIZE,
    VARIANT,
    VERSION,
    ancestors,
    spelled_alike,
    split_suffix,
    suffix_kind,
    version_name,
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


LLAMA = Entry("Llama", "Method", ("LLaMA", "Llama 2", "Llama-3", "Llama 3.1"), family=True)
GPT4O = Entry("GPT-4o", "Method", ("GPT-4o-mini",), family=True)
SWIN = Entry("Swin Transformer", "Method", ("Swin", "Swin-T"), family=True)
GPT35 = Entry("GPT-3.5", "Method", ("GPT-3.5-Turbo", "ChatGPT"), family=True)


@pytest.mark.parametrize(
    "surface, entry, expected",
    [
        ("Llama 3", LLAMA, "Llama 3"),
        ("LLaMA-3", LLAMA, "Llama-3"),  # the family as the lexicon spells it
        ("llama 3.1", LLAMA, "Llama 3.1"),
        ("Llama  2", LLAMA, "Llama 2"),  # spaces collapsed
        ("Llama3-", LLAMA, "Llama3"),  # a separator left at the end
        ("LLaMA-2-7B-Chat", LLAMA, "Llama-2-7B-Chat"),
        ("GPT-4o-mini", GPT4O, "GPT-4o-mini"),
        ("Swin-T", SWIN, "Swin-T"),  # after an alias of the family: kept as written
        ("gpt-3.5-turbo", GPT35, "GPT-3.5-turbo"),
        ("LLaMA", LLAMA, None),  # the family itself
        ("Llamas", LLAMA, None),
        ("GPT-4o", GPT4O, None),  # a family whose own name is a version of another's
        ("ChatGPT", GPT35, None),  # an alias that is no version
        ("Vicuna-7B", LLAMA, None),  # a version of something else
    ],
)
def test_version_name_names_the_version(surface, entry, expected):
    assert version_name(surface, entry) == expected


@pytest.mark.parametrize(
    "written, name, alike",
    [
        ("gpt-3.5-turbo", "GPT-3.5-Turbo", True),
        ("Qwen-2.5", "Qwen2.5", True),
        ("ResNet", "ResNets", True),
        ("Llama", "Llama", True),
        ("Topical", "TOPICAL", False),
        ("Safer", "SAFER", False),
        ("inF", "INF", False),
        ("ReST", "Rest", False),
    ],
)
def test_spelled_alike(written, name, alike):
    assert spelled_alike(written, name) is alike
