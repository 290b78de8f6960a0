"""Every named query returns the same rows on the Bolt server as embedded and in Python."""

import pytest

import kg.neo4j as kn
from kg.query.engine import open_graph
from kg.query.named import list_queries, load_query, run_query
from kg.query.traverse import example_graph
from tests.unit.test_queries import CASES, python_rows, with_second_route

pytestmark = pytest.mark.timeout(300)


def pushed(bolt_server, G):
    """A read-mode runner on the test server holding exactly ``G``."""
    connection = kn.connect(uri=bolt_server.uri)
    connection.write("MATCH (n) DETACH DELETE n")
    kn.push(G, connection)
    return kn.BoltRunner(connection)


@pytest.fixture(scope="module")
def example(bolt_server):
    G = with_second_route(example_graph())
    with pushed(bolt_server, G) as bolt, open_graph(G) as embedded:
        yield G, bolt, embedded


@pytest.mark.parametrize("name, given", [(n, g) for n, cases in CASES.items() for g in cases])
def test_example_graph_rows_match_everywhere(example, name, given):
    G, bolt, embedded = example
    query = load_query(name)
    rows = run_query(query, bolt, given)
    assert rows == run_query(query, embedded, given) == python_rows(G, query, given)


def seed_cases(G):
    """Parameters (node keys) for every named query, picked from the busiest parts of G."""

    def busiest(kind, rel=None, incoming=False):
        nodes = [n for n, k in G.nodes(data="kind") if k == kind]
        edges = G.in_edges if incoming else G.out_edges
        return max(
            sorted(nodes),
            key=lambda n: sum(1 for *_, t in edges(n, keys=True) if rel is None or t == rel),
        )

    author = busiest("Author", "AUTHORED")
    coauthors = sorted(
        {
            a
            for p in G.successors(author)
            for a in G.predecessors(p)
            if G.nodes[a]["kind"] == "Author"
        }
        - {author}
    )
    far = sorted(n for n, k in G.nodes(data="kind") if k == "Author")[-1]
    paper = busiest("Paper")
    concept = (
        busiest("Concept", incoming=True)
        if any(k == "Concept" for _, k in G.nodes(data="kind"))
        else busiest("Method", incoming=True)
    )
    other = next(
        (
            q
            for c in G.successors(paper)
            for q in sorted(G.predecessors(c))
            if q != paper and G.nodes[q]["kind"] == "Paper"
        ),
        paper,
    )
    method = busiest("Method", "APPLIED_TO")
    family = busiest("Method", "VARIANT_OF", incoming=True)
    dataset = busiest("Dataset", "APPLIED_TO", incoming=True)
    return {
        "coauthors": [{"author": author}],
        "coauthors_within": [{"author": author, "hops": "2"}],
        "collaboration_path": [
            {"source": author, "target": coauthors[-1] if coauthors else far},
            {"source": author, "target": far},
        ],
        "top_collaborators": [{}, {"limit": "3"}],
        "datasets_of": [{"method": method}, {"method": family, "include_variants": "true"}],
        "methods_on": [{"dataset": dataset}, {"dataset": dataset, "include_parts": "true"}],
        "top_method_dataset_pairs": [{}],
        "related_papers": [{"paper": paper}],
        "papers_with": [{"concept": concept}],
        "shared_concepts": [{"paper": paper, "other": other}],
    }


@pytest.fixture(scope="module")
def seed(bolt_server, seed_graph):
    with pushed(bolt_server, seed_graph) as bolt, open_graph(seed_graph) as embedded:
        yield seed_graph, bolt, embedded


def test_seed_graph_rows_match_everywhere(seed):
    G, bolt, embedded = seed
    cases = seed_cases(G)
    assert sorted(cases) == sorted(q.name for q in list_queries())
    answered = 0
    for name, givens in cases.items():
        query = load_query(name)
        for given in givens:
            rows = run_query(query, bolt, given)
            assert rows == run_query(query, embedded, given), (name, given)
            assert rows == python_rows(G, query, given), (name, given)
            answered += bool(rows)
    assert answered >= 8


@pytest.fixture
def twin(bolt_server, seed_graph):
    from tests.e2e.test_queries_engine import with_empty_twin

    G = with_empty_twin(seed_graph)
    with pushed(bolt_server, G) as bolt, open_graph(G) as embedded:
        yield G, bolt, embedded


def test_a_name_with_an_empty_twin_answers_the_same_everywhere(twin):
    """ "ImageNet" names an empty Benchmark and the Dataset its papers evaluate on: Bolt, the
    embedded engine and Python all answer from the Dataset and note the same choice."""
    from tests.e2e.test_queries_engine import SEED_NOTE
    from tests.unit.test_lookup import quietly

    G, bolt, embedded = twin
    query, given = load_query("methods_on"), {"dataset": "ImageNet"}
    over_bolt, bolt_notes = quietly(run_query, query, bolt, given)
    embedded_rows, embedded_notes = quietly(run_query, query, embedded, given)
    python, python_notes = quietly(python_rows, G, query, given)
    assert over_bolt == embedded_rows == python and len(python) >= 3
    assert {r["target_key"] for r in python} == {"dataset:imagenet"}
    assert [str(n) for n in bolt_notes] == [str(n) for n in embedded_notes] == [SEED_NOTE]
    assert [str(n) for n in python_notes] == [SEED_NOTE]
