"""The shipped training-split lexicon is what scripts/grow_lexicon.py makes from ../shared."""

import importlib.util
from pathlib import Path

from kg.extractors.lexicon import TRAINING_LEXICON_PATH

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "grow_lexicon.py"


def test_shipped_training_lexicon_is_reproducible(tmp_path):
    spec = importlib.util.spec_from_file_location("grow_lexicon", SCRIPT)
    assert spec and spec.loader
    grow = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(grow)
    out = tmp_path / "lexicon_training.jsonl"
    grow.write(grow.mine(), out)
    assert out.read_text(encoding="utf-8") == TRAINING_LEXICON_PATH.read_text(encoding="utf-8")
    for _, name, _ in grow.SOURCES:
        assert "train" in name and "test" not in name
