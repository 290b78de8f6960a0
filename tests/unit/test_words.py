"""The word lists (data/words/*.txt): well-formed, without duplicates, and each one used."""

import re
from collections import Counter
from pathlib import Path

import pytest

from kg.extractors.words import USER_DATA_ENV, WORDS_DIR, word_list, word_set

EXTRACTORS = Path(__file__).resolve().parents[2] / "extractors"
FILES = sorted(Path(str(WORDS_DIR)).glob("*.txt"))


def names_in_code():
    """The list names the extraction code loads (``word_set("...")``)."""
    found = set()
    for path in [*EXTRACTORS.rglob("*.py"), *(EXTRACTORS.parent / "kg").rglob("*.py")]:
        found.update(re.findall(r"word_(?:set|list)\(\"(\w+)\"\)", path.read_text()))
    return found


def test_there_are_word_lists():
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_word_list_has_a_header_and_no_duplicates(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ") and len(lines[0]) > 10, "the first line says what it is for"
    entries = word_list(path.stem)
    assert entries, "a list has entries"
    assert [e for e, n in Counter(entries).items() if n > 1] == []
    assert all(e == e.strip() and e for e in entries)


def test_every_list_the_code_names_exists_and_every_file_is_named():
    named = names_in_code()
    assert named == {p.stem for p in FILES}
    for name in named:
        assert word_set(name)


def test_comments_and_blank_lines_are_not_entries():
    assert "#" not in "".join(word_list("dataset_heads"))
    assert word_set("dataset_heads") >= {"dataset", "corpus", "data set"}


def test_a_user_list_in_kg_data_adds_and_removes_entries(tmp_path, monkeypatch):
    (tmp_path / "words").mkdir()
    (tmp_path / "words" / "dataset_heads.txt").write_text("# our heads\ntreebank\n-corpus\n")
    monkeypatch.setenv(USER_DATA_ENV, str(tmp_path))
    word_list.cache_clear()
    word_set.cache_clear()
    try:
        heads = word_set("dataset_heads")
        assert "treebank" in heads and "corpus" not in heads and "dataset" in heads
    finally:
        monkeypatch.delenv(USER_DATA_ENV)
        word_list.cache_clear()
        word_set.cache_clear()
    assert "corpus" in word_set("dataset_heads")
