"""``kg build --neo4j-import DIR`` adding to a folder it wrote before: two batches give
the rows of one build of both, a paper read again is a duplicate, another kg's folder is
refused, and ``kg push --import`` of the second batch converges with a push of one build."""

from collections import Counter

import pytest

import kg.neo4j as kn
from kg.cli import main
from kg.errors import KgError
from kg.scale.identity import Identity, this_identity
from kg.scale.import_files import read_import_folder
from kg.scale.imports import build_import
from tests.conftest import REPO

pytestmark = pytest.mark.timeout(300)

OPTIONS = {"size": 16, "buckets": 4}


def rows_of(folder):
    nodes, rels = read_import_folder(folder)
    return Counter(map(repr, nodes)), Counter(map(repr, rels))


@pytest.fixture(scope="module")
def batches(seed_files):
    return [seed_files[:2], [*seed_files[2:], str(REPO / "samples")]]


@pytest.fixture(scope="module")
def at_once(batches, tmp_path_factory):
    out = tmp_path_factory.mktemp("once") / "files"
    build_import([f for batch in batches for f in batch], out, **OPTIONS)
    return out


@pytest.fixture(scope="module")
def in_two(batches, tmp_path_factory):
    out = tmp_path_factory.mktemp("two") / "files"
    first = build_import(batches[0], out, **OPTIONS)
    step = tmp_path_factory.mktemp("step") / "files"
    build_import(batches[0], step, **OPTIONS)
    second = build_import(batches[1], out, **OPTIONS)
    return first, second, step, out


def test_two_batches_give_the_rows_of_one_build(at_once, in_two):
    first, second, _, out = in_two
    assert second.total_papers == first.papers + second.papers == 224
    assert second.partitions > first.partitions
    assert rows_of(out) == rows_of(at_once)


def test_a_paper_read_again_in_a_later_batch_is_a_duplicate(seed_files, tmp_path):
    out = tmp_path / "files"
    build_import(seed_files, out, **OPTIONS)
    written = {p.name: p.stat().st_ino for p in out.glob("*.csv")}
    again = build_import(seed_files[:1], out, **OPTIONS)
    assert (again.papers, again.total_papers) == (0, 180)
    # nothing but duplicates: every CSV file is kept as the first batch wrote it
    assert [name for name in again.changed if name.endswith(".csv")] == []
    assert {p.name: p.stat().st_ino for p in out.glob("*.csv")} == written
    assert again.files == len([p for p in out.iterdir() if p.is_file()])
    assert (again.known, again.duplicates) == (again.records, 0) and again.records > 0
    once = tmp_path / "once"
    build_import([*seed_files, seed_files[0]], once, **OPTIONS)
    assert rows_of(out) == rows_of(once)


def test_a_later_batch_rewrites_only_the_files_it_changes(in_two):
    first, second, step, out = in_two
    assert first.changed and len(first.changed) == first.files  # a new folder: all written
    assert 0 < len(second.changed) < second.files
    for path in out.glob("*.csv"):
        before = step / path.name
        if path.name not in second.changed:
            assert path.read_bytes() == before.read_bytes()
        elif before.exists():
            assert path.read_bytes() != before.read_bytes()


def test_fresh_starts_the_folder_anew_and_another_kgs_folder_is_refused(
    seed_files, tmp_path, monkeypatch, capsys
):
    out = tmp_path / "files"
    build_import(seed_files, out, **OPTIONS)
    assert main(["build", seed_files[0], "--neo4j-import", str(out), "--fresh"]) == 0
    assert "Read 20 records: 20 papers, 0 duplicates, 0 skipped; 1 partition." in (
        capsys.readouterr().out
    )
    own = this_identity()
    monkeypatch.setattr(
        "kg.scale.import_state.this_identity", lambda: Identity("0.0.1", own.lexicon, own.code)
    )
    with pytest.raises(KgError, match=r"extracted by kg .* not by this kg 0\.0\.1 .* --fresh"):
        build_import(seed_files, out)
    (out / "kg-import.json").write_text("{")
    monkeypatch.undo()
    with pytest.raises(KgError, match=r"kg-import.json: damaged .*give --fresh"):
        build_import(seed_files, out)


def test_pushing_the_second_batch_converges_with_a_push_of_one_build(bolt, at_once, in_two, capsys):
    _, _, step, out = in_two
    with kn.connect(uri=bolt.uri, password="") as connection:
        kn.push_rows(*read_import_folder(at_once), connection)
        whole = _counts(connection)
        kn.push_rows(*read_import_folder(step), connection)
        assert _counts(connection) != whole
    assert main(["push", "--import", str(out), "--uri", bolt.uri, "--password", "", "-q"]) == 0
    with kn.connect(uri=bolt.uri, password="") as connection:
        assert _counts(connection) == whole


def _counts(connection):
    nodes = connection.read("MATCH (n) RETURN count(n) AS n")[0]["n"]
    rels = connection.read("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]
    keys = connection.read("MATCH (n) RETURN collect(n.key) AS k")[0]["k"]
    return nodes, rels, sorted(keys)
