"""The scaling harness works on a tiny corpus (how fast is for bench/, not for tests)."""

import json
from pathlib import Path

from bench import scale

REPO = Path(__file__).resolve().parents[2]
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
    results = scale.measure_incremental(tmp_path, base=8, added=(2, 4), runs=2, source=SAMPLES)
    assert [r["added"] for r in results] == [2, 4]
    for result in results:
        assert result["same_as_full_rebuild"] is True
        assert (
            result["runs"] == 2
            and result["seconds_min"] <= result["seconds"] <= result["seconds_max"]
        )


def test_suite_table_names_every_figure_and_target():
    from bench import run

    results = {
        "scale": {
            "builds": [
                {
                    "papers": 5,
                    "workers": 1,
                    "seconds": 1.5,
                    "papers_per_s": 3,
                    "peak_rss_mb": 90,
                    "file_mb": 0.1,
                    "load_s": 0.01,
                    "replicated": False,
                }
            ],
            "incremental": {
                "base": 8,
                "added": 4,
                "runs": 3,
                "seconds": 1.0,
                "seconds_min": 0.9,
                "seconds_max": 1.2,
                "same_as_full_rebuild": True,
            },
        },
        "extract": {
            "tokenizer_per_s": 7000,
            "one_process_per_s": 1600,
            "workers": 2,
            "workers_per_s": 2600,
        },
        "traverse": {
            "python": {"coauthors": {"median_ms": 0.4}},
            "cypher": {"coauthors": {"median_ms": 3.0}, "top_collaborators": {"median_ms": 700.0}},
            "first_query_after_build_s": 1.5,
            "prepare_s": 3.25,
            "first_query_loading_s": 6.5,
        },
        "push": {"runs": {"full": {"relationships_per_s": 18000}}, "batched_vs_per_row": 28.0},
    }
    table = run.format_table(run.rows_of(results))
    assert "build 5 papers, 1 workers" in table and "same as rebuild: True" in table
    assert "3.0..700.0 ms (top_collaborators)" in table and "18,000 rels/s" in table
    assert "1.5 s" in table and "3.25 s / 6.5 s" in table and "<= 2.5 s" in table
    assert len(table.splitlines()) == 2 + 12


def test_stage_times_cover_each_stage_of_the_pipeline():
    from bench import extract_speed

    times = extract_speed.stage_times(["We fine-tune BERT on GLUE and report accuracy."] * 30)
    assert list(times) == ["tokenizer", "gazetteers", "rules"]
    assert sum(times.values()) > 0
