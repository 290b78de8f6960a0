"""Named queries run on the embedded engine (a FalkorDB server process) return the Python
API's rows, on the example graph and on the seed graph; ``kg query`` end to end (moved from
tests/unit/test_queries.py)."""

import pytest

from kg import schema as S
from kg.errors import NotFound
from kg.query import traverse
from kg.query.engine import open_graph
from kg.query.named import load_query, node_resolver, run_query
from kg.query.traverse import example_graph
from tests.unit.test_queries import CASES, python_rows, with_second_route


@pytest.fixture(scope="module")
def G():
    return with_second_route(example_graph())


@pytest.fixture(scope="module")
def run(G):
    with open_graph(G) as engine:
        yield engine


@pytest.mark.parametrize("name, given", [(n, g) for n, cases in CASES.items() for g in cases])
def test_query_returns_the_python_api_rows(G, run, name, given):
    query = load_query(name)
    rows = run_query(query, run, given)
    assert rows == python_rows(G, query, given)


def test_collaboration_path_bound_matches_the_python_api():
    """Chains of MAX_CHAIN_STEPS and one step more: the engine answers as Python does."""
    from kg.query.traverse_coauthors import MAX_CHAIN_STEPS as k
    from tests.unit.test_traverse import chain_graph

    chain = chain_graph(k + 1)
    query = load_query("collaboration_path")
    with open_graph(chain) as engine:
        for target in (k, k + 1):
            given = {"source": "C00", "target": f"author:c{target:02d}"}
            rows = run_query(query, engine, given)
            assert rows == python_rows(chain, query, given)
            assert len(rows) == (k + 1 if target == k else 0)


def test_cases_have_answers(G, run):
    """The cases above are not all empty: most return rows, some ties, some none."""
    counts = [len(run_query(load_query(n), run, g)) for n, cases in CASES.items() for g in cases]
    assert sum(1 for c in counts if c) >= 20 and 0 in counts


def test_node_resolver_through_the_runner(run):
    resolve = node_resolver(run)
    assert resolve(("Author",), "author:juliakempe") == "author:juliakempe"
    assert resolve(("Author",), "Julia  Kempe") == "author:juliakempe"
    assert resolve(("Author",), "remi munos") == "author:remimunos"
    assert resolve(("Dataset", "Benchmark"), "ImageNet1K") == "dataset:imagenet"
    assert resolve(("Concept",), "regret") == "concept:regret"
    with pytest.raises(NotFound) as info:
        resolve(("Author",), "Julia Kemp")
    assert info.value.suggestions == ["Julia Kempe"]


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory):
    from kg.store.graphfile import save_graph

    path = tmp_path_factory.mktemp("graph") / "g.kg"
    save_graph(example_graph(), path)
    return str(path)


def test_cli_query_table(graph_file, capsys):
    from kg.cli import main

    assert main(["query", "coauthors", "--param", "author=julia kempe", "-g", graph_file]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["coauthor", "shared", "papers"]  # keys only with --keys
    assert lines[2].startswith("Rémi Munos") and lines[-1] == "(2 rows)"


def test_cli_query_json_and_csv(graph_file, capsys):
    import json

    from kg.cli import main

    assert (
        main(
            [
                "query",
                "methods_on",
                "--param",
                "dataset=GLUE",
                "--param",
                "include_parts=true",
                "-g",
                graph_file,
                "--json",
            ]
        )
        == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert rows == traverse.methods_on(example_graph(), "GLUE", include_parts=True)
    assert (
        main(["query", "top_collaborators", "--param", "limit=1", "-g", graph_file, "--csv"]) == 0
    )
    assert (
        capsys.readouterr().out == "author,key,coauthors,papers\nRémi Munos,author:remimunos,3,3\n"
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["query", "coauthors", "--param", "author=Julia Kemp"], "did you mean: Julia Kempe?"),
        (["query", "coauthor"], "no query named 'coauthor'; did you mean: coauthors"),
        (["query", "coauthors"], "needs --param author="),
        (
            ["query", "coauthors_within", "--param", "author=Ada Lovelace", "--param", "hops=9"],
            "must be in 1..3",
        ),
    ],
)
def test_cli_query_errors_are_one_line(graph_file, capsys, argv, message):
    from kg.cli import main

    assert main(argv + ["-g", graph_file]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kg: error: ") and message in err and err.count("\n") == 1


def families(G):
    """The Methods others are VARIANT_OF, those with the most variants first."""
    parents = [v for _, v, k in G.edges(keys=True) if k == "VARIANT_OF"]
    return sorted(set(parents), key=lambda v: (-parents.count(v), v))


def seed_cases(G):
    """Anchors on the seed graph for every query: hubs, a method with datasets, a paper."""
    kinds = dict(G.nodes(data="kind"))
    applied = sorted((u, v) for u, v, k in G.edges(keys=True) if k == "APPLIED_TO")
    papers = sorted(
        (p for p, k in kinds.items() if k == "Paper"),
        key=lambda p: (-len(traverse.concepts_of(G, p)), p),
    )
    related = traverse.related_papers(G, papers[0], limit=1)
    cases = {
        "coauthors": [{"author": "Julia Kempe"}, {"author": "Remi Munos"}],
        "coauthors_within": [{"author": "Julia Kempe", "hops": "2"}],
        "collaboration_path": [{"source": "Yann Ollivier", "target": "Remi Munos"}],
        "top_collaborators": [{"limit": "15"}],
        "top_method_dataset_pairs": [{"limit": "15"}],
        "related_papers": [{"paper": p, "limit": "10"} for p in papers[:3]],
        "papers_with": [{"concept": c} for c in sorted(traverse.concepts_of(G, papers[0]))],
        "shared_concepts": [{"paper": papers[0], "other": r["key"]} for r in related],
        "datasets_of": [{"method": m} for m in sorted({u for u, _ in applied})[:5]]
        + [{"method": f, "include_variants": "true"} for f in families(G)[:3]],
        "methods_on": [
            {"dataset": d, "include_parts": "true"} for d in sorted({v for _, v in applied})[:5]
        ],
    }
    return cases


def test_queries_match_python_on_the_seed_graph(seed_graph):
    cases = seed_cases(seed_graph)
    assert cases["datasets_of"] and cases["related_papers"] and cases["shared_concepts"]
    with open_graph(seed_graph) as run:
        for name, given_list in cases.items():
            query = load_query(name)
            for given in given_list:
                rows = run_query(query, run, given)
                assert rows == python_rows(seed_graph, query, given), (name, given)


# ------------------------------------------------- a name with an empty twin (issue 17, slice 1)

SEED_NOTE = "'ImageNet' matched dataset:imagenet (6 papers); also benchmark:imagenet (0 papers)"


def with_empty_twin(G):
    """A copy of ``G`` with the empty Benchmark "ImageNet" that builds made before one name
    got one type (docs/identity.md): lookups must still never answer from such a node."""
    T = G.copy()
    T.add_node("benchmark:imagenet", kind=S.BENCHMARK, name="ImageNet", aliases=[], long_form=None)
    return T


def test_the_seed_graph_has_no_empty_imagenet_twin(seed_graph):
    from kg.query.lookup import paper_counts

    assert "benchmark:imagenet" not in seed_graph
    assert paper_counts(seed_graph, ["dataset:imagenet"]) == {"dataset:imagenet": 6}
    assert paper_counts(with_empty_twin(seed_graph), ["benchmark:imagenet"]) == {
        "benchmark:imagenet": 0
    }


def test_methods_on_a_name_with_an_empty_twin_embedded_equals_python(seed_graph):
    from tests.unit.test_lookup import quietly

    seed_graph = with_empty_twin(seed_graph)
    query = load_query("methods_on")
    with open_graph(seed_graph) as run:
        rows, notes = quietly(run_query, query, run, {"dataset": "ImageNet"})
    expected, python_notes = quietly(traverse.methods_on, seed_graph, "ImageNet")
    assert rows == expected and len(rows) >= 3
    assert {r["target_key"] for r in rows} == {"dataset:imagenet"}
    assert [str(n) for n in notes] == [str(n) for n in python_notes] == [SEED_NOTE]


def test_cli_query_notes_which_twin_it_used(tmp_path, seed_graph, capsys):
    import json

    from kg.cli import main
    from kg.store.graphfile import save_graph

    seed_graph = with_empty_twin(seed_graph)
    path = save_graph(seed_graph, tmp_path / "seeds.kg")
    argv = ["query", "methods_on", "--param", "dataset=ImageNet", "-g", str(path), "--json"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == f"note: {SEED_NOTE}\n"
    assert json.loads(out) == traverse.methods_on(seed_graph, "dataset:imagenet")
    argv[3] = "dataset=dataset:imagenet"  # a key is taken as asked: nothing to note
    assert main(argv) == 0 and capsys.readouterr().err == ""
