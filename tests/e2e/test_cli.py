"""The kg command end to end: exit codes, messages, JSON output."""

import json

import pytest

from kg.cli import main

ABSTRACT = "We propose a tiny method and test it on CIFAR-10 with accuracy as the metric."


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_build_then_stats_json(tmp_path, capsys, seed_files):
    graph = tmp_path / "g.kg"
    code, out, err = run(capsys, "build", *seed_files, "-o", graph)
    assert code == 0 and err == ""
    assert "Read 180 records: 180 new papers" in out
    assert f"Graph saved to {graph}" in out
    code, out, _ = run(capsys, "stats", "-g", graph, "--json")
    stats = json.loads(out)
    assert stats["nodes"]["Paper"] == 180 and stats["nodes"]["Author"] == 296
    assert stats["relationships"]["AUTHORED"] == 306
    assert stats["top_authors"][0] == {
        "name": "Julia Kempe",
        "key": "author:juliakempe",
        "papers": 3,
    }
    assert stats["sources"]["001_f83ffad77a937ed2.txt"] == 120


def test_stats_text(tmp_path, capsys, seed_files):
    graph = tmp_path / "g.kg"
    run(capsys, "build", "-q", *seed_files, "-o", graph)
    code, out, _ = run(capsys, "stats", "-g", graph)
    assert code == 0
    assert "Julia Kempe" in out and "Most prolific authors" in out and "AUTHORED" in out


def test_graph_from_environment(tmp_path, capsys, monkeypatch):
    src = tmp_path / "a.jsonl"
    src.write_text(json.dumps({"abstract": ABSTRACT}) + "\n")
    monkeypatch.setenv("KG_GRAPH", str(tmp_path / "env.kg"))
    assert run(capsys, "build", "-q", src)[0] == 0
    code, out, _ = run(capsys, "stats", "--json")
    assert code == 0 and json.loads(out)["nodes"]["Paper"] == 1


def test_bad_records_are_reported_and_good_ones_land(tmp_path, capsys):
    src = tmp_path / "a.jsonl"
    src.write_text(json.dumps({"abstract": ABSTRACT}) + "\n{oops\n")
    code, out, err = run(capsys, "build", src, "-o", tmp_path / "g.kg")
    assert code == 0
    assert (
        err.strip() == f"kg: skipped {src}:2: not valid JSON (Expecting property name "
        "enclosed in double quotes at column 2); skipped: fix or remove the line"
    )
    assert "1 skipped" in out


def test_strict_fails_on_bad_record_and_keeps_old_graph(tmp_path, capsys):
    src = tmp_path / "a.jsonl"
    src.write_text(json.dumps({"abstract": ABSTRACT}) + "\n{oops\n")
    graph = tmp_path / "g.kg"
    code, _, err = run(capsys, "build", src, "-o", graph, "--strict")
    assert code == 1 and "--strict" in err and not graph.exists()


def test_nothing_readable_exits_non_zero(tmp_path, capsys):
    code, _, err = run(capsys, "build", tmp_path / "missing.txt", "-o", tmp_path / "g.kg")
    assert code == 1
    assert "kg: error: no paper could be read from the inputs" in err
    assert "missing.txt: no such file or directory" in err
    assert not (tmp_path / "g.kg").exists()


def test_stats_on_foreign_file(tmp_path, capsys):
    bad = tmp_path / "x.kg"
    bad.write_text("hello")
    code, _, err = run(capsys, "stats", "-g", bad)
    assert (
        code == 1
        and err.strip() == f"kg: error: {bad}: not a kg graph file; build one with `kg build`"
    )


def test_a_graph_of_an_older_schema_is_rebuilt_only_with_fresh(tmp_path, capsys, seed_files):
    from tests.unit.test_store import older_schema_file

    graph = older_schema_file(tmp_path / "g.kg")
    code, _, err = run(capsys, "build", "-q", *seed_files, "-o", graph)
    assert code == 1 and "written by an older kg" in err
    assert err.strip().endswith("rebuild it with `kg build --fresh`")
    code, _, err = run(capsys, "build", "-q", "--fresh", *seed_files, "-o", graph)
    assert code == 0 and err == ""
    code, out, _ = run(capsys, "stats", "-g", graph, "--json")
    assert code == 0 and json.loads(out)["nodes"]["Paper"] == 180


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("kg ")
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    assert "Example:" in capsys.readouterr().out


def test_no_progress_bar_when_not_a_terminal(tmp_path, seed_files):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "kg.cli", "build", *seed_files, "-o", str(tmp_path / "g.kg")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0 and proc.stderr == ""


def test_the_program_exits_after_a_build_with_its_output_flushed(tmp_path, seed_files):
    """``kg`` ends the process without freeing the graph: the piped (block-buffered) report
    and the file must be complete, also when an extraction worker ran (adding papers)."""
    import subprocess
    import sys

    from kg.store.graphfile import load_graph

    graph = tmp_path / "g.kg"
    for inputs, papers in ((seed_files[:2], None), (seed_files[2:], 180)):  # noqa: B007 (last one checked below)
        proc = subprocess.run(
            [sys.executable, "-m", "kg.cli", "build", *inputs, "-o", str(graph)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0 and proc.stderr == ""
        assert proc.stdout.rstrip().endswith(f"Graph saved to {graph}")
    assert sum(kind == "Paper" for _, kind in load_graph(graph).nodes(data="kind")) == papers


def test_progress_bar_on_a_terminal(tmp_path, seed_files):
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "build", *seed_files, "-o", str(tmp_path / "g.kg")],
        stdout=subprocess.DEVNULL,
        stderr=follower,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert proc.wait() == 0
    text = b"".join(chunks).decode()
    assert "extracting" in text and "180/180" in text


@pytest.mark.parametrize(
    "command",
    [
        ["build", "{seeds}", "-o", "{out}/g.kg"],
        ["extract", "{seeds}", "-o", "{out}/x.jsonl"],
        ["export", "-g", "{graph}", "--format", "graphml", "{out}/g.graphml"],
        ["export", "-g", "{graph}", "--format", "neo4j-csv", "{out}/csv"],
    ],
)
def test_an_unwritable_output_is_one_line_and_leaves_nothing(
    tmp_path, capsys, seed_files, seed_graph, command
):
    """Build, extract and export name the file they cannot write, in one line."""
    from kg.store.graphfile import save_graph

    graph = save_graph(seed_graph, tmp_path / "in" / "g.kg")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    argv = [part.format(seeds=seed_files[0], out=blocker, graph=graph) for part in command]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("kg: error: cannot write the ") and f" {blocker}/" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "in"]
    assert [p.name for p in (tmp_path / "in").iterdir()] == ["g.kg"]


def test_cli_freezes_what_a_load_made_out_of_later_collections():
    import gc

    from kg.cli import frozen_after

    gc.unfreeze()
    try:
        with frozen_after():
            assert not gc.isenabled()
            made = [[i] for i in range(1000)]
        assert gc.isenabled() and gc.get_freeze_count() >= len(made)
        young = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
        assert not any(id(d) in young for d in made)
    finally:
        gc.unfreeze()
