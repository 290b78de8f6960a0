"""Bad field values through ``kg build``: the graph is saved with every record, each bad
field gets one warning line, and ``--strict`` fails on those warnings as on the others."""

import json

from kg.cli import main

ABSTRACTS = (
    "We propose a tiny method and test it on CIFAR-10 with accuracy as the metric.",
    "We study sparse attention in small transformers on ImageNet.",
)


def _listing(tmp_path):
    src = tmp_path / "a.jsonl"
    src.write_text(
        json.dumps({"abstract": ABSTRACTS[0], "authors": 42, "year": 10**30})
        + "\n"
        + json.dumps({"abstract": ABSTRACTS[1], "authors": ["Ada Lovelace"], "year": 2020})
        + "\n"
    )
    return src


def test_bad_fields_warn_and_the_build_saves_every_record(tmp_path, capsys):
    graph = tmp_path / "g.kg"
    code = main(["build", str(_listing(tmp_path)), "-o", str(graph), "--workers", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and graph.exists()
    assert "Read 2 records: 2 new papers" in out and "0 skipped" in out
    assert err.splitlines() == [
        f"kg: {tmp_path}/a.jsonl:1: field 'authors' is a number (42), not a list of names "
        "or text; the record lands without it",
        f"kg: {tmp_path}/a.jsonl:1: field 'year' is a number (10000000000000000...), not a "
        "year from 1 to 9999; the record lands without it",
    ]


def test_strict_fails_on_a_bad_field(tmp_path, capsys):
    graph = tmp_path / "g.kg"
    code = main(["build", str(_listing(tmp_path)), "-o", str(graph), "--strict"])
    _, err = capsys.readouterr()
    assert code == 1 and "2 bad input(s) and --strict given" in err and not graph.exists()
