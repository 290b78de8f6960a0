"""The scaling harness works on a tiny corpus (how fast is for bench/, not for tests)."""

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
scale = pytest.importorskip("scale")
SAMPLES = REPO / "samples"


def test_write_corpus_replicates_with_new_ids_and_abstracts(tmp_path):
    path = tmp_path / "c.jsonl"
    scale.write_corpus(23, path, source=SAMPLES)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 23
    assert len({r["id"] for r in rows}) == 23 and len({r["abstract"] for r in rows}) == 23
    assert rows[20]["id"].endswith("~r2") and rows[20]["abstract"].endswith("(Replica 2.)")


def test_measure_build_series(tmp_path):
    small = scale.measure_build(5, tmp_path, workers=1, source=SAMPLES)
    large = scale.measure_build(25, tmp_path, workers=1, source=SAMPLES)
    assert (small["papers"], small["replicated"]) == (5, False)
    assert (large["papers"], large["replicated"]) == (25, True)
    assert large["peak_rss_mb"] > 0 and large["load_s"] >= 0 and large["file_mb"] >= 0


def test_incremental_equals_full_rebuild(tmp_path):
    result = scale.measure_incremental(tmp_path, base=8, extra=4, source=SAMPLES)
    assert result["same_as_full_rebuild"] is True
