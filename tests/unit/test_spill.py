"""Partition state in files between the passes of an import build (kg.scale.spill)."""

import pytest

from kg.errors import KgError
from kg.scale import spill


def test_a_pass_reads_its_state_from_one_file_and_writes_its_result_to_another(tmp_path):
    src, dst = str(tmp_path / "a.pickle.zst"), str(tmp_path / "b.pickle.zst")
    assert spill.dump([["GRPO"], []], src) == src
    written, _ = spill.saved_summarised(
        lambda stage, extra: [*stage, [extra]], len, src, dst, "DPO"
    )
    assert written == dst
    assert spill.load(dst) == [["GRPO"], [], ["DPO"]]
    assert spill.load(src) == [["GRPO"], []]  # a task run again finds its input unchanged


def test_a_pass_gives_the_summary_of_what_it_wrote_without_reading_it_back(tmp_path, monkeypatch):
    src, dst = str(tmp_path / "a.pickle.zst"), str(tmp_path / "b.pickle.zst")
    spill.dump([["GRPO"], []], src)
    read = []
    load = spill.load
    monkeypatch.setattr(spill, "load", lambda path: read.append(path) or load(path))
    path, summary = spill.saved_summarised(
        lambda stage, extra: [*stage, [extra]], lambda stage: sum(map(len, stage)), src, dst, "DPO"
    )
    assert (path, summary) == (dst, 2)
    assert read == [src]  # the summary was taken from the state in hand
    assert load(dst) == [["GRPO"], [], ["DPO"]]


def test_summaries_read_one_state_or_several_one_at_a_time(tmp_path):
    paths = [spill.dump({"n": i}, str(tmp_path / f"{i}.pickle.zst")) for i in range(3)]
    assert spill.on_saved(lambda s, k: s[k], paths[2], "n") == 2
    loaded = []

    def first_two(states):
        for _, state in zip(range(2), states, strict=False):
            loaded.append(state["n"])
        return loaded

    assert spill.on_each_saved(first_two, paths) == [0, 1]  # the third is never read


def test_a_damaged_state_file_is_named_with_what_to_do(tmp_path):
    bad = tmp_path / "p00001.pickle.zst"
    bad.write_bytes(b"not zstd")
    with pytest.raises(KgError, match=r"p00001\.pickle\.zst: damaged .*--fresh"):
        spill.load(str(bad))
