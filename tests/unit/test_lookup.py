"""Forgiving name lookup: folding, aliases, variants, keys, suggestions on a miss, and the
choice among nodes that match one name (never an empty twin)."""

import warnings

import pytest

from kg.errors import AmbiguousNameWarning, NotFound, user_notes
from kg.query.lookup import NameIndex, find_node, fold, paper_counts
from kg.query.traverse import example_graph, methods_on
from kg.schema import BENCHMARK, COLLECTION_KINDS, PART_OF


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
        ("Çağlar Gülçehre", "caglargulcehre"),
        ("T. J. Sejnowski", "tjsejnowski"),
        ("T.J.\u00a0Sejnowski", "tjsejnowski"),
        ("Yann\u200b Le\u200dCun", "yannlecun"),
        ("\u202eAnna\u202c Lee", "annalee"),
        ("Conan O\u2019Brien", "conanobrien"),
        ("江常皓", "江常皓"),
    ],
)
def test_fold_ignores_case_accents_spacing_punctuation(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize(
    "text, kinds, key",
    [
        ("remi munos", ("Author",), "author:remimunos"),
        ("Rémi Munos", ("Author",), "author:remimunos"),
        ("RÉMI MUNOS", ("Author",), "author:remimunos"),
        ("julia  kempe", ("Author",), "author:juliakempe"),
        ("author:juliakempe", ("Author",), "author:juliakempe"),
        ("author:julia kempe", ("Author",), "author:juliakempe"),
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
        find_node(G, "author:juliakempe", kinds=("Paper",))


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
    with pytest.warns(AmbiguousNameWarning):
        assert index.find("Rémi Munos") == "author:rémi munos"
    with pytest.warns(AmbiguousNameWarning) as caught:
        assert index.find("Remi Munos") == "author:remi munos"
    assert (
        str(caught[0].message) == "'Remi Munos' matched author:remi munos; also author:rémi munos"
    )
    with pytest.warns(AmbiguousNameWarning):
        assert index.find("REMI MUNOS") == "author:remi munos"


def test_index_follows_graph_changes(G):
    H = example_graph()
    assert find_node(H, "Julia Kempe", kinds=("Author",)) == "author:juliakempe"
    H.add_node("author:zoezhang", kind="Author", name="Zoë Zhang", variants=["Zoë Zhang"])
    assert find_node(H, "zoe zhang", kinds=("Author",)) == "author:zoezhang"


# ----------------------------------------------------------------- twins: one name, several nodes


def with_empty_twin(G):
    """The example graph plus ``benchmark:imagenet``: named "ImageNet" like the dataset (whose
    two papers evaluate on it) but linked to no paper, only by a PART_OF from the dataset, as
    in the 19,456-paper graph. Its key sorts before the dataset's."""
    G.add_node("benchmark:imagenet", kind=BENCHMARK, name="ImageNet", aliases=[], long_form=None)
    G.add_edge("dataset:imagenet", "benchmark:imagenet", PART_OF)
    return G


@pytest.fixture
def T():
    return with_empty_twin(example_graph())


def quietly(function, *args, **kwargs):
    """Call ``function`` and return (its result, the AmbiguousNameWarnings it gave)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, [w.message for w in caught if issubclass(w.category, AmbiguousNameWarning)]


def test_paper_counts_count_distinct_linked_papers(T):
    assert paper_counts(T, ["dataset:imagenet", "benchmark:imagenet", "author:remimunos"]) == {
        "dataset:imagenet": 2,
        "benchmark:imagenet": 0,
        "author:remimunos": 3,
    }


@pytest.mark.parametrize("text", ["ImageNet", "imagenet", "IMAGENET", "Image-Net"])
def test_a_name_never_resolves_to_an_empty_twin(T, text):
    key, notes = quietly(find_node, T, text, kinds=COLLECTION_KINDS)
    assert key == "dataset:imagenet"
    [note] = notes
    assert (note.text, note.key, note.papers, note.others) == (
        text,
        "dataset:imagenet",
        2,
        [("benchmark:imagenet", 0)],
    )
    assert str(note) == (
        f"{text!r} matched dataset:imagenet (2 papers); also benchmark:imagenet (0 papers)"
    )


def test_methods_on_answers_from_the_twin_with_papers(T):
    rows, notes = quietly(methods_on, T, "ImageNet")
    assert [(r["method"], r["target_key"], r["count"]) for r in rows] == [
        ("PPO", "dataset:imagenet", 2)
    ]
    assert len(notes) == 1


def test_an_exact_key_is_taken_as_asked(T):
    key, notes = quietly(find_node, T, "benchmark:imagenet", kinds=COLLECTION_KINDS)
    assert key == "benchmark:imagenet" and notes == []


def test_one_match_gives_no_note(T):
    key, notes = quietly(find_node, T, "MNLI", kinds=COLLECTION_KINDS)
    assert key == "dataset:mnli" and notes == []


def test_the_empty_twin_loses_even_when_only_it_has_the_name():
    # The dataset is "ImageNet-1K" with the alias "ImageNet"; the benchmark's own name is
    # "ImageNet": a better name match, but no paper links to it.
    index = NameIndex(
        [
            {"key": "benchmark:imagenet", "name": "ImageNet"},
            {"key": "dataset:imagenet-1k", "name": "ImageNet-1K", "aliases": ["ImageNet"]},
        ]
    )
    papers = {"benchmark:imagenet": 0, "dataset:imagenet-1k": 5}
    key, notes = quietly(index.find, "ImageNet", papers=lambda keys: papers)
    assert key == "dataset:imagenet-1k"
    assert str(notes[0]) == (
        "'ImageNet' matched dataset:imagenet-1k (5 papers); also benchmark:imagenet (0 papers)"
    )


@pytest.mark.parametrize(
    "papers, chosen",
    [
        ({"a:x": 1, "b:x": 7, "c:x": 3}, "b:x"),  # most papers
        ({"a:x": 2, "b:x": 2, "c:x": 0}, "a:x"),  # a tie: exact spelling, then smallest key
        ({"a:x": 0, "b:x": 0, "c:x": 0}, "a:x"),  # none has papers: an empty one after all
        ({"a:x": 0, "b:x": 0, "c:x": 1}, "c:x"),  # the only one with papers
    ],
)
def test_most_papers_first_and_an_empty_node_only_when_none_has_any(papers, chosen):
    index = NameIndex([{"key": k, "name": "X"} for k in ("c:x", "b:x", "a:x")])
    key, notes = quietly(index.find, "x", papers=lambda keys: papers)
    assert key == chosen
    others = [k for k, _ in notes[0].others]
    assert sorted(others) == sorted({"a:x", "b:x", "c:x"} - {chosen})
    assert [papers[k] for k in others] == sorted((papers[k] for k in others), reverse=True)


def test_own_name_beats_an_alias_among_nodes_with_papers():
    index = NameIndex(
        [
            {"key": "dataset:big", "name": "Big Set", "aliases": ["BS"]},
            {"key": "method:bs", "name": "BS"},
        ]
    )
    papers = {"dataset:big": 40, "method:bs": 2}
    key, _ = quietly(index.find, "BS", papers=lambda keys: papers)
    assert key == "method:bs"


def test_the_viz_draws_the_twin_with_papers(T):
    from kg.viz import focus_views

    [view], notes = quietly(focus_views, T, dataset="imagenet")
    assert "dataset:imagenet" in view.nodes and "benchmark:imagenet" not in view.nodes
    assert notes and notes[0].key == "dataset:imagenet"


def test_user_notes_hands_each_choice_to_show_and_lets_other_warnings_through(T):
    shown = []
    with user_notes(shown.append), pytest.warns(DeprecationWarning):
        find_node(T, "ImageNet", kinds=COLLECTION_KINDS)
        find_node(T, "ImageNet", kinds=COLLECTION_KINDS)
        warnings.warn("old", DeprecationWarning, stacklevel=1)
    assert (
        shown
        == ["'ImageNet' matched dataset:imagenet (2 papers); also benchmark:imagenet (0 papers)"]
        * 2
    )
