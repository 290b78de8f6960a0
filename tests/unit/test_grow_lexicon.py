"""scripts/grow_lexicon.py: which training-split names become lexicon entries."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "grow_lexicon.py"
spec = importlib.util.spec_from_file_location("grow_lexicon", SCRIPT)
assert spec and spec.loader
grow = importlib.util.module_from_spec(spec)
spec.loader.exec_module(grow)


@pytest.mark.parametrize(
    "span, kind, names",
    [
        ("the Gov2 collections", "Dataset", ["Gov2"]),
        ("Robust04 and Gov2 collections", "Dataset", ["Robust04", "Gov2"]),
        ("PASCAL VOC validation set", "Dataset", ["PASCAL VOC"]),
        ("SMT models", "Method", ["SMT"]),
        ("syntactic parsing.", "Task", ["syntactic parsing"]),
    ],
)
def test_clean_takes_off_articles_heads_and_splits_coordinations(span, kind, names):
    assert grow.clean(span, kind) == names


@pytest.mark.parametrize(
    "name, kind, ok",
    [
        ("MegaFace", "Dataset", True),
        ("Reuters RCV1", "Dataset", True),
        ("Time Series", "Dataset", False),
        ("2015", "Dataset", False),
        ("NEWS", "Dataset", True),
        ("AMT", "Dataset", False),
        ("Chi-nese Treebank", "Dataset", False),
        ("LMs", "Method", False),
        ("LSTM-based", "Method", False),
        ("relation classification", "Task", True),
        ("classification", "Task", False),
        ("retrieval accuracy", "Metric", True),
        ("BLEU", "Metric", True),
    ],
)
def test_trusted_names(name, kind, ok):
    assert grow.trusted(name, kind) is ok
