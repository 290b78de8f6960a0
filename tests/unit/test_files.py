"""Atomic output files: the old file survives a failure, nothing half-written is left."""

import os

import pytest

from kg.errors import OutputError
from kg.files import atomic_output, remove_stale_temp_files


def test_the_file_appears_whole_and_keeps_its_mode(tmp_path):
    path = tmp_path / "sub" / "out.txt"
    with atomic_output(path, "the test file") as fh:
        fh.write("one\n")
        assert not path.exists()
    assert path.read_text() == "one\n"
    os.chmod(path, 0o640)
    with atomic_output(path, "the test file", binary=True, durable=True) as fh:
        fh.write(b"two\n")
    assert path.read_bytes() == b"two\n" and os.stat(path).st_mode & 0o777 == 0o640


def test_a_failure_inside_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    with pytest.raises(ValueError):
        with atomic_output(path, "the test file") as fh:
            fh.write("half")
            raise ValueError("stop")
    with pytest.raises(OutputError, match=f"cannot write the test file {path}: disk full"):
        with atomic_output(path, "the test file") as fh:
            raise OSError("disk full")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["out.txt"]


def dead_pid():
    """The process id of a process that has ended."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_temporary_files_carry_the_writers_pid(tmp_path):
    path = tmp_path / "g.kg"
    with atomic_output(path, "the test file") as fh:
        (name,) = os.listdir(tmp_path)
        assert name.startswith(f".g.kg.{os.getpid()}.") and name.endswith(".tmp")
        fh.write("x")
    assert os.listdir(tmp_path) == ["g.kg"]


def test_the_next_write_removes_a_dead_writers_temporary_file_only(tmp_path):
    dead = dead_pid()
    stale = tmp_path / f".g.kg.{dead}.abc123.tmp"
    live = tmp_path / f".g.kg.{os.getpid()}.def456.tmp"  # a writer still at work
    other = tmp_path / f".g.kg.bak.{dead}.abc123.tmp"  # another file's (g.kg.bak)
    old_style = tmp_path / ".g.kg.abc123.tmp"
    for p in (stale, live, other, old_style):
        p.write_text("half")
    with atomic_output(tmp_path / "g.kg", "the test file") as fh:
        fh.write("whole")
    assert sorted(os.listdir(tmp_path)) == sorted(["g.kg", live.name, other.name, old_style.name])


def test_remove_stale_temp_files_reads_the_pid_from_the_name(tmp_path):
    dead = dead_pid()
    for name in [f"temp-{dead}.rdb", f"temp-{os.getpid()}.rdb", "temp-x.rdb", "temp-0.rdb"]:
        (tmp_path / name).write_text("")
    assert remove_stale_temp_files(tmp_path, "temp-", ".rdb") == [f"temp-{dead}.rdb"]
    assert len(os.listdir(tmp_path)) == 3
