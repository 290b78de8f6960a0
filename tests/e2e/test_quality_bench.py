"""bench.quality end to end on the real sets (../shared): every section is printed, the JSON
holds every figure with its interval, and the dev figures are score.py's own."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import daily_gold, quality, unseen_sample
from bench.external_eval import SCIREX_LABELS, SPAN_CORPORA
from bench.unseen_gold import SECOND_TUNING_GOLD, TUNING_GOLD, read_stored
from kg.cli import main as kg_main

REPO = Path(__file__).resolve().parents[2]

if not (unseen_sample.PAPERLISTS.is_dir() and quality.DEV_GOLD.exists()):
    pytest.skip(f"../shared not found at {unseen_sample.SHARED}", allow_module_level=True)

SECTIONS = (
    "1. unseen",
    "2. dev gold",
    "2. dev gap: check minus tuning",
    "3. external corpora",
    "4. recall by lexicon",
)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("quality") / "quality.json"
    proc = subprocess.run(
        [sys.executable, "-m", "bench.quality", "--bootstrap", "20", "--json", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, json.loads(out.read_text(encoding="utf-8"))


def is_figure(fig):
    return set(fig) >= {"value", "low", "high"} and 0 <= fig["low"] <= fig["high"] <= 1


def test_every_section_is_printed(run):
    text, _ = run
    starts = [text.index(title) for title in SECTIONS]
    assert starts == sorted(starts)
    assert quality.SPLIT_RULE in text
    for corpus in SPAN_CORPORA:
        assert f"{corpus.name} (" in text
    assert "TASK -> Task" in text and "Material -> Dataset or Benchmark" in text


def test_the_json_holds_every_set_class_and_measure(run):
    _, res = run
    assert set(res) == {"meta", "sets", "gap", "external", "lexicon"}
    assert res["meta"]["bootstrap"] == 20 and res["meta"]["seed"] == quality.SEED
    assert set(res["sets"]) == {
        "unseen",
        "paperlists tuning",
        "paperlists tuning 2",
        "daily unseen",
        "daily tuning",
        "dev tuning",
        "dev check",
        "dev all",
    }
    for name, s in res["sets"].items():
        assert set(s["classes"]) == set(quality.CLASSES), name
        for c in s["classes"].values():
            assert all(is_figure(c[m]) for m in quality.PRF)
            assert {"tp", "n_sys", "n_gold"} <= set(c)
    assert res["sets"]["unseen"]["papers"] == 50
    assert res["sets"]["paperlists tuning"]["papers"] == len(read_stored(TUNING_GOLD))
    assert res["sets"]["paperlists tuning 2"]["papers"] == len(read_stored(SECOND_TUNING_GOLD))
    for name, path in (("daily unseen", daily_gold.UNSEEN), ("daily tuning", daily_gold.TUNING)):
        assert res["sets"][name]["papers"] == len(read_stored(path))
    tuning, check = res["sets"]["dev tuning"]["papers"], res["sets"]["dev check"]["papers"]
    assert tuning + check == res["sets"]["dev all"]["papers"] == 100
    assert 40 <= tuning <= 60  # the split rule gives about half and half
    for cls, gap in res["gap"].items():
        for m in quality.PRF:
            assert gap[m]["low"] <= gap[m]["high"] and gap[m]["flagged"] == (gap[m]["high"] < 0)
            expected = (
                res["sets"]["dev check"]["classes"][cls][m]["value"]
                - res["sets"]["dev tuning"]["classes"][cls][m]["value"]
            )
            assert gap[m]["value"] == pytest.approx(expected)


def test_the_json_holds_the_external_corpora_and_the_lexicon_split(run):
    _, res = run
    assert set(res["external"]) == {c.name for c in SPAN_CORPORA} | {"scirex-abstracts"}
    for corpus in SPAN_CORPORA:
        ext = res["external"][corpus.name]
        assert ext["unit"] == "sentence" and ext["matching"] and ext["units"] > 0
        assert set(ext["labels"]) == set(corpus.labels)
        for c in ext["labels"].values():
            assert all(is_figure(c[m]) for m in quality.PRF + ("exact_f1",))
    scirex = res["external"]["scirex-abstracts"]
    assert scirex["unit"] == "paper" and set(scirex["labels"]) == set(SCIREX_LABELS.values())
    assert all(is_figure(c["recall"]) for c in scirex["labels"].values())
    assert set(res["lexicon"]) == set(res["sets"]) - {"dev all"}
    for lx in res["lexicon"].values():
        assert is_figure(lx["share_held"]) and lx["gold_held"] > 0 and lx["gold_not_held"] > 0
        for key in ("micro recall in", "micro recall out", "type-blind recall in"):
            assert is_figure(lx[key])
        assert lx["type-blind recall in"]["n_gold"] == lx["gold_held"]


def test_the_dev_figures_are_score_py_on_kg_extract(run, seed_files, tmp_path):
    _, res = run
    out = tmp_path / "seeds.jsonl"
    assert kg_main(["extract", *seed_files, "-o", str(out), "-q"]) == 0
    proc = subprocess.run(
        [sys.executable, str(quality.SHARED / "eval" / "score.py"), str(quality.DEV_GOLD),
         str(out), "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    expected = json.loads(proc.stdout)
    got = res["sets"]["dev all"]["classes"]
    for cls in quality.TYPES:
        assert got[cls]["f1"]["value"] == expected["per_type"][cls]["f1"], cls
    assert got["Dataset+Benchmark"]["f1"]["value"] == expected["dataset_benchmark_merged"]["f1"]
    assert got["micro"]["tp"] == expected["micro_typed"]["tp"]
    assert got["type-blind"]["f1"]["value"] == expected["type_blind"]["f1"]
