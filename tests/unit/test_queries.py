"""Named queries: every file parses, runs embedded, and returns the Python API's rows."""

import inspect

import pytest

from kg.errors import KgError, NotFound
from kg.graph.papers import set_coauthor_counts
from kg.query import traverse
from kg.query.named import (
    QUERY_DIR,
    bind,
    list_queries,
    load_query,
    parse_assignments,
    parse_query,
)
from kg.query.render import format_csv, format_json, format_table
from kg.schema import AUTHORED, content_hash

#: Parameters (as typed on the command line) for each query, covering ties, misses, loners.
CASES = {
    "coauthors": [{"author": "Julia Kempe"}, {"author": "ada lovelace"}, {"author": "RÉMI MUNOS"}],
    "coauthors_within": [
        {"author": "Julia Kempe", "hops": "1"},
        {"author": "Julia Kempe"},
        {"author": "Carol Chen", "hops": "3"},
        {"author": "Dan Diaz"},
        {"author": "Ada Lovelace", "hops": "3"},
    ],
    "collaboration_path": [
        {"source": "Julia Kempe", "target": "Carol Chen"},
        {"source": "Carol Chen", "target": "Julia Kempe"},
        {"source": "Julia Kempe", "target": "Dan Diaz"},
        {"source": "Ada Lovelace", "target": "Julia Kempe"},
        {"source": "Julia Kempe", "target": "julia kempe"},
    ],
    "top_collaborators": [{}, {"limit": "2"}],
    "datasets_of": [
        {"method": "grpo"},
        {"method": "Proximal Policy Optimization"},
        {"method": "grpo", "include_variants": "true"},
    ],
    "methods_on": [
        {"dataset": "GLUE"},
        {"dataset": "glue", "include_parts": "true"},
        {"dataset": "MNLI", "include_parts": "yes"},
        {"dataset": "ImageNet1K"},
    ],
    "top_method_dataset_pairs": [{}, {"limit": "1"}],
    "related_papers": [
        {"paper": "Sharper Bounds"},
        {"paper": "quantum walks"},
        {"paper": "Far Away"},
        {"paper": "Sharper Bounds", "limit": "1"},
    ],
    "papers_with": [{"concept": "GRPO"}, {"concept": "bounds"}, {"concept": "imagenet-1k"}],
    "shared_concepts": [
        {"paper": "Sharper Bounds", "other": "Bandits Again"},
        {"paper": "Quantum Walks", "other": "Edge Case"},
        {"paper": "Lonely Paper", "other": "Lonely Paper"},
    ],
}


def with_second_route(G):
    """The example graph plus a paper making two shortest chains Julia Kempe -> Carol Chen."""
    key = f"paper:{content_hash('Second Route')}"
    G.add_node(
        key,
        kind="Paper",
        abstract="Second Route",
        title="Second Route",
        label=None,
        area=None,
        sources=["extra.txt#0"],
        hash=key[6:],
        venue=None,
        year=None,
    )
    for position, author in enumerate(["author:yannollivier", "author:carolchen"], 1):
        G.add_edge(author, key, AUTHORED, position=position, truncated_list=False)
    set_coauthor_counts(G)
    return G


def python_rows(G, query, given):
    """Call the kg.query.traverse function a query mirrors with the same (untyped) parameters."""
    function = getattr(traverse, query.name)
    signature = inspect.signature(function)
    args, kwargs = [], {}
    for p in query.params:
        text = given.get(p.name, p.default)
        if p.labels:
            args.append(text)
        elif p.name in signature.parameters:
            kwargs[p.name] = int(text) if p.type == "int" else text in ("true", "yes", "1")
    return function(G, *args, **kwargs)


def test_every_query_file_has_cases_and_a_mirror():
    names = [q.name for q in list_queries()]
    assert names == sorted(CASES)
    for name in names:
        assert callable(getattr(traverse, name))


def test_query_headers():
    for query in list_queries():
        assert query.summary and query.params or query.name.startswith("top_")
        assert "Returns:" in query.text and f"kg.traverse.{query.name}" in query.text
        for p in query.params:
            assert f"${p.name}" in query.text.split("Returns:")[1]
    hops = {p.name: p for p in load_query("coauthors_within").params}["hops"]
    assert (hops.type, hops.default, hops.low, hops.high) == ("int", "2", 1, 3)
    dataset = load_query("methods_on").params[0]
    assert dataset.labels == ("Dataset", "Benchmark") and dataset.default is None


def test_queries_are_plain_neo4j_cypher():
    """No engine-specific procedures or syntax; text from data never spliced in."""
    for query in list_queries():
        body = "\n".join(line for line in query.text.splitlines() if not line.startswith("//"))
        for word in ("CALL ", "algo.", "db.idx", "apoc.", "{{", "%s", "COUNT {"):
            assert word not in body, (query.name, word)
        assert "$" in body


def test_bind_types_and_defaults():
    query = load_query("coauthors_within")
    resolve = lambda labels, text: f"author:{text.lower()}"  # noqa: E731
    assert bind(query, {"author": "Ada"}, resolve=resolve) == {"author": "author:ada", "hops": 2}
    assert bind(query, {"author": "Ada", "hops": "3"}, resolve=resolve)["hops"] == 3


@pytest.mark.parametrize(
    "given, message",
    [
        ({}, "needs --param author="),
        ({"author": "Ada", "hops": "4"}, "must be in 1..3"),
        ({"author": "Ada", "hops": "two"}, "whole number"),
        ({"author": "Ada", "depth": "2"}, "has no parameter 'depth'"),
    ],
)
def test_bind_rejects_bad_parameters(given, message):
    with pytest.raises(KgError, match=message):
        bind(load_query("coauthors_within"), given, resolve=lambda labels, text: text)


def test_bool_parameter():
    query = load_query("methods_on")
    with pytest.raises(KgError, match="true or false"):
        bind(query, {"dataset": "x", "include_parts": "maybe"}, resolve=lambda labels, t: t)


def test_unknown_query_suggests():
    with pytest.raises(NotFound) as info:
        load_query("coauthor")
    assert info.value.suggestions[0] == "coauthors"


def test_bad_query_header(tmp_path):
    path = tmp_path / "broken.cypher"
    path.write_text("// broken: a query.\n// Parameters:\n//   $x int\nRETURN $x\n")
    with pytest.raises(KgError, match=r"broken.cypher:3: parameter lines"):
        parse_query(path)
    path.write_text("RETURN 1\n")
    with pytest.raises(KgError, match=r"broken.cypher:1:"):
        parse_query(path)
    path.write_text("// broken: a query.\n//   $x: Person - who\nRETURN $x\n")
    with pytest.raises(KgError, match="unknown parameter type 'Person'"):
        parse_query(path)


def test_parse_assignments():
    assert parse_assignments(["author=Julia Kempe", "q=a=b"]) == {
        "author": "Julia Kempe",
        "q": "a=b",
    }
    with pytest.raises(KgError, match="name=value"):
        parse_assignments(["author"])


ROWS = [
    {"coauthor": "Rémi Munos", "shared": 2, "papers": ["A", "B, C"], "none": None},
    {"coauthor": "Yann", "shared": 10, "papers": [], "none": True},
]


def test_format_table():
    assert format_table(ROWS).splitlines() == [
        "coauthor    shared  papers   none",
        "----------  ------  -------  ----",
        "Rémi Munos  2       A; B, C",
        "Yann        10               true",
        "(2 rows)",
    ]
    assert format_table([]) == "(no rows)"
    assert format_table([{"x": "y" * 100}]).splitlines()[2] == "y" * 100  # no width: as is
    wrapped = format_table([{"x": "y" * 200}], width=60).splitlines()[2:-1]
    assert wrapped == ["y" * 60, "y" * 60, "y" * 59 + "…"]


def test_format_json_and_csv():
    import csv
    import io
    import json

    assert json.loads(format_json(ROWS)) == ROWS
    assert list(json.loads(format_json(ROWS))[0]) == ["coauthor", "shared", "papers", "none"]
    assert json.loads(format_json([])) == []
    assert list(csv.reader(io.StringIO(format_csv(ROWS)))) == [
        ["coauthor", "shared", "papers", "none"],
        ["Rémi Munos", "2", "A; B, C", ""],
        ["Yann", "10", "", "true"],
    ]


def test_query_dir_is_in_the_repo():
    assert QUERY_DIR.name == "queries" and len(list(QUERY_DIR.glob("*.cypher"))) == 10


# ------------------------------------------------------------------------------- kg query


def test_cli_query_list(capsys):
    from kg.cli import main

    assert main(["query", "--list"]) == 0
    out = capsys.readouterr().out
    assert "coauthors_within author=<Author> [hops=2]" in out
    assert out.count("\n    ") >= 10


def test_cli_query_list_keeps_each_summary_whole(capsys, monkeypatch):
    from kg.cli import main
    from kg.query.named import list_queries

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["query", "--list"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    words = " ".join(out.split())
    for query in list_queries():
        assert query.summary.endswith(".") and query.summary in words
    assert "or keyphrase Concept), with how it names it." in words  # papers_with's 2nd line
