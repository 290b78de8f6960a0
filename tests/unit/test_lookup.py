"""Forgiving name lookup: folding, aliases, variants, keys, suggestions on a miss."""

import pytest

from kg.errors import NotFound
from kg.query.lookup import NameIndex, find_node, fold
from kg.query.traverse import example_graph


@pytest.fixture(scope="module")
def G():
    return example_graph()


@pytest.mark.parametrize(
    "text, folded",
    [
        ("Rémi Munos", "remimunos"),
        ("  REMI   MUNOS ", "remimunos"),
        ("ImageNet-1K", "imagenet1k"),
        ("J. Bagnell", "jbagnell"),
        ("Ǆemal", "dzemal"),
    ],
)
def test_fold_ignores_case_accents_spacing_punctuation(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize(
    "text, kinds, key",
    [
        ("remi munos", ("Author",), "author:rémi munos"),
        ("Rémi Munos", ("Author",), "author:rémi munos"),
        ("RÉMI MUNOS", ("Author",), "author:rémi munos"),
        ("julia  kempe", ("Author",), "author:julia kempe"),
        ("author:julia kempe", ("Author",), "author:julia kempe"),
        ("ImageNet1K", ("Dataset", "Benchmark"), "dataset:imagenet"),
        ("imagenet 1k", ("Dataset", "Benchmark"), "dataset:imagenet"),
        ("MultiNLI", ("Dataset",), "dataset:mnli"),
        ("group relative policy optimization", ("Method",), "method:grpo"),
        ("glue", ("Dataset", "Benchmark"), "benchmark:glue"),
        ("sharper bounds", ("Paper",), None),
    ],
)
def test_find_node_resolves_forgiving_names(G, text, kinds, key):
    found = find_node(G, text, kinds=kinds)
    if key is None:  # a paper by its title
        assert G.nodes[found]["title"] == "Sharper Bounds"
    else:
        assert found == key


def test_find_node_respects_kinds(G):
    with pytest.raises(NotFound):
        find_node(G, "GRPO", kinds=("Dataset",))
    with pytest.raises(NotFound):
        find_node(G, "author:julia kempe", kinds=("Paper",))


def test_miss_raises_not_found_with_suggestions(G):
    with pytest.raises(NotFound) as info:
        find_node(G, "Julia Kemp", kinds=("Author",))
    assert info.value.suggestions[0] == "Julia Kempe"
    assert "did you mean: Julia Kempe" in str(info.value)
    assert "\n" not in str(info.value)


def test_miss_with_nothing_close_has_no_suggestions(G):
    with pytest.raises(NotFound) as info:
        find_node(G, "Zzyzx Qqq", kinds=("Author",))
    assert info.value.suggestions == []
    assert str(info.value) == "no author named 'Zzyzx Qqq'"


def test_same_folded_name_prefers_exact_then_smallest_key():
    index = NameIndex(
        [
            {"key": "author:remi munos", "name": "Remi Munos"},
            {"key": "author:rémi munos", "name": "Rémi Munos"},
        ]
    )
    assert index.find("Rémi Munos") == "author:rémi munos"
    assert index.find("Remi Munos") == "author:remi munos"
    assert index.find("REMI MUNOS") == "author:remi munos"


def test_index_follows_graph_changes(G):
    H = example_graph()
    assert find_node(H, "Julia Kempe", kinds=("Author",)) == "author:julia kempe"
    H.add_node("author:zoe zhang", kind="Author", name="Zoë Zhang", variants=["Zoë Zhang"])
    assert find_node(H, "zoe zhang", kinds=("Author",)) == "author:zoe zhang"
