"""kg on damaged and hostile files, as a user runs it: NUL in an abstract, --strict, an empty
build output, a damaged graph file, a graph file of schema 3 (refused by --strict)."""

import json

import pytest

from kg.cli import main

RECORDS = [
    {
        "id": "nul-1",
        "title": "Sparse attention",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "abstract": "We study sparse\u0000 attention in small transformers and report speed.",
    },
    {
        "id": "plain-2",
        "title": "Off-policy evaluation",
        "authors": ["Ada Lovelace"],
        "abstract": "We propose an estimator for off-policy evaluation and test it on tasks.",
    },
]


@pytest.fixture(scope="module")
def listing(tmp_path_factory):
    path = tmp_path_factory.mktemp("integrity") / "nul.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    return path


@pytest.fixture(scope="module")
def built(listing):
    graph = listing.with_name("nul.kg")
    assert main(["build", str(listing), "-o", str(graph), "--fresh", "--quiet"]) == 0
    return graph


def test_nul_in_one_abstract_is_reported_and_every_query_still_runs(built, listing, capsys):
    capsys.readouterr()
    cypher = "MATCH (p:Paper) RETURN p.key AS key, p.abstract AS abstract ORDER BY key"
    assert main(["cypher", cypher, "-g", str(built), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["key"] for r in rows] == ["paper:nul-1", "paper:plain-2"]
    assert "sparse\ufffd attention" in rows[0]["abstract"]
    assert main(["query", "coauthors", "--param", "author=Ada Lovelace", "-g", str(built)]) == 0
    assert "Alan Turing" in capsys.readouterr().out


def test_the_nul_problem_line_and_strict(listing, tmp_path, capsys):
    graph = tmp_path / "g.kg"
    assert main(["build", str(listing), "-o", str(graph), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert f"kg: {listing}:1: field 'abstract' holds NUL (U+0000)" in err
    strict = tmp_path / "strict.kg"
    assert main(["build", str(listing), "-o", str(strict), "--strict", "--quiet"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("kg: error: 1 bad input(s) and --strict given; first: ")
    assert "holds NUL" in err[-1] and not strict.exists()


def test_an_empty_build_output_is_told_about_fresh(listing, tmp_path, capsys):
    empty = tmp_path / "empty.kg"
    empty.write_bytes(b"")
    assert main(["build", str(listing), "-o", str(empty), "--quiet"]) == 1
    assert capsys.readouterr().err == (
        f"kg: error: {empty}: an empty file, not a kg graph; `kg build INPUT -o {empty} "
        "--fresh` replaces it with a new graph\n"
    )


def test_a_damaged_graph_file_is_one_line_and_exit_1(built, tmp_path, capsys):
    damaged = tmp_path / "damaged.kg"
    data = bytearray(built.read_bytes())
    data[len(data) // 2] ^= 0x10
    damaged.write_bytes(bytes(data))
    for command in (["stats"], ["cypher", "RETURN 1 AS n"], ["viz", "-o", str(tmp_path / "p")]):
        assert main([*command, "-g", str(damaged)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"kg: error: {damaged}: graph file is damaged (its ")
        assert err.count("\n") == 1 and "fails its checksum" in err


def test_a_schema_3_graph_file_is_read_with_a_note_and_upgraded_by_a_build(
    built, listing, tmp_path, capsys
):
    import orjson

    from kg.store.graphfile import MAGIC

    old = tmp_path / "old.kg"
    line, _, rest = built.read_bytes()[len(MAGIC) :].partition(b"\n")
    head = orjson.loads(line)
    del head["checksum"]
    head["schema_version"], head["sections"] = 3, [s[:2] for s in head["sections"]]
    old.write_bytes(MAGIC + orjson.dumps(head, option=orjson.OPT_SORT_KEYS) + b"\n" + rest)
    capsys.readouterr()
    assert main(["stats", "-g", str(old), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["nodes"]["Paper"] == 2
    assert err == (
        f"note: {old}: written by a kg before graph files carried checksums (schema 3), so "
        "read unverified; the next build into it adds them\n"
    )
    before = old.read_bytes()
    assert main(["build", str(listing), "-o", str(old), "--quiet", "--strict"]) == 1
    assert capsys.readouterr().err == (
        f"kg: error: {old}: written by a kg before graph files carried checksums (schema 3), "
        "so read unverified; the next build into it adds them; --strict given, so nothing "
        "was added (build once without --strict to upgrade the file)\n"
    )
    assert old.read_bytes() == before
    assert main(["build", str(listing), "-o", str(old), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["stats", "-g", str(old)]) == 0
    assert capsys.readouterr().err == ""
