"""Author identity through ``kg build`` and ``kg stats --identity``: splits and merges
decided across build steps equal a full build byte for byte; the override file."""

import json

from kg.cli import main
from kg.graph.build import build
from kg.graph.rekey import identity_report
from kg.store import load_graph

STEP_1 = [
    {
        "id": "a1",
        "abstract": "We colour sparse graphs with few colours using a greedy rule.",
        "authors": ["J. Smith", "Ann Lee"],
        "venue": "Graph Days",
        "year": 2001,
    },
    {
        "id": "a2",
        "abstract": "Planar graphs admit a short proof of the five colour bound.",
        "authors": ["J. Smith", "Ann Lee"],
        "venue": "Graph Days",
        "year": 2003,
    },
    {
        "id": "c1",
        "abstract": "Deep belief nets learn features layer by layer from unlabeled images.",
        "authors": ["A. C. Courville", "Yoshua Bengio"],
        "year": 2007,
    },
]
STEP_2 = [
    {
        "id": "b1",
        "abstract": "Soil moisture sensors predict river floods a week ahead.",
        "authors": ["J. Smith", "Bob Stone"],
        "venue": "Hydrology Letters",
        "year": 2000,
    },
    {
        "id": "c2",
        "abstract": "Curriculum schedules order training examples from easy to hard.",
        "authors": ["Aaron Courville", "Yoshua Bengio"],
        "year": 2009,
    },
]
BRIDGE = [
    {
        "id": "x1",
        "abstract": "A survey of sensor placement by a colouring theorist and a hydrologist.",
        "authors": ["J. Smith", "Ann Lee", "Bob Stone"],
        "year": 2005,
    }
]


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_splits_and_merges_across_build_steps_equal_a_full_build(tmp_path):
    one, two, three = (
        write(tmp_path / "one.jsonl", STEP_1),
        write(tmp_path / "two.jsonl", STEP_2),
        write(tmp_path / "three.jsonl", BRIDGE),
    )
    inc, full = tmp_path / "inc.kg", tmp_path / "full.kg"
    build([one], inc)
    G, _ = build([two], inc)
    build([one, two], full)
    assert inc.read_bytes() == full.read_bytes()
    report = identity_report(G)
    assert [m["key"] for m in report["merges"]] == ["author:aaroncourville"]
    assert [p["key"] for s in report["splits"] for p in s["people"]] == [
        "author:jsmith@a1",
        "author:jsmith@b1",
    ]
    # a paper sharing co-authors with both groups joins them again
    G, _ = build([three], inc)
    build([one, two, three], full, fresh=True)
    assert inc.read_bytes() == full.read_bytes()
    assert identity_report(G)["splits"] == [] and "author:jsmith" in G


def test_the_override_file_beside_the_graph_is_read_and_the_report_lists_it(tmp_path, capsys):
    graph = tmp_path / "g.kg"
    (tmp_path / "g.identity.toml").write_text(
        "# the evidence joined two people\n"
        'apart = [["author:accourville", "author:aaroncourville"]]\n'
        'together = ["author:jsmith"]\n'
    )
    inputs = [write(tmp_path / "one.jsonl", STEP_1), write(tmp_path / "two.jsonl", STEP_2)]
    assert main(["build", *map(str, inputs), "-o", str(graph), "-q"]) == 0
    assert main(["stats", "-g", str(graph), "--identity"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "Merges (0 people)",
        "Splits (0 names into 0 people)",
        "Author ids (0 people)",
    ]
    (tmp_path / "g.identity.toml").write_text('merge = [["author:jsmith", "author:nobody"]]\n')
    assert main(["build", *map(str, inputs), "-o", str(graph), "-q", "--fresh"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"kg: error: {tmp_path / 'g.identity.toml'} line 1: "
        "author:nobody names no author of the graph"
    )


def test_an_explicit_override_file_is_used_and_must_exist(tmp_path, capsys):
    graph, rules = tmp_path / "g.kg", tmp_path / "rules.toml"
    rules.write_text('together = ["author:jsmith"]\n')
    inputs = [
        str(write(tmp_path / "one.jsonl", STEP_1)),
        str(write(tmp_path / "two.jsonl", STEP_2)),
    ]
    assert main(["build", *inputs, "-o", str(graph), "-q", "--identity", str(rules)]) == 0
    assert identity_report(load_graph(graph))["splits"] == []
    missing = tmp_path / "missing.toml"
    assert main(["build", *inputs, "-o", str(graph), "-q", "--identity", str(missing)]) == 1
    assert capsys.readouterr().err.strip() == (
        f"kg: error: {missing}: no such identity override file"
    )


def test_stats_identity_lists_each_merge_and_split_with_its_reason(tmp_path, capsys):
    graph = tmp_path / "g.kg"
    inputs = [write(tmp_path / "one.jsonl", STEP_1), write(tmp_path / "two.jsonl", STEP_2)]
    assert main(["build", *map(str, inputs), "-o", str(graph), "-q"]) == 0
    assert main(["stats", "-g", str(graph), "--identity"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "Merges (1 people)",
        "  Aaron Courville [author:aaroncourville], 2 paper(s)",
        "    merge: 'A. C. Courville' and 'Aaron Courville' share co-author Yoshua Bengio",
    ]
    assert lines[3:7] == [
        "Splits (1 names into 2 people)",
        "  author:jsmith: split: 'J. Smith' is initials with a common surname and its papers "
        "form 2 groups sharing no co-author, venue or topic",
        "    J. Smith (with Ann Lee) [author:jsmith@a1], 2 paper(s)",
        "    J. Smith (with Bob Stone) [author:jsmith@b1], 1 paper(s)",
    ]
    assert main(["stats", "-g", str(graph), "--identity", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["splits"][0]["people"][1]["reasons"] == [
        "split: 'J. Smith' is initials with a common surname and its papers form 2 groups "
        "sharing no co-author, venue or topic; this group has 1 paper(s)"
    ]
