"""Atomic output files: the old file survives a failure, nothing half-written is left."""

import os

import pytest

from kg.errors import OutputError
from kg.files import atomic_output


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
