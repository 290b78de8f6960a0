"""Corpus terms: candidate phrases, statistics that merge, C-value, typing, the inventory
file and its use in extraction (on small corpora and abstracts we wrote)."""

from collections import Counter

import pytest

from kg.extractors import term_inventory
from kg.extractors.records import CONCEPT, METHOD, METRIC, TASK
from kg.extractors.term_cues import cues_at
from kg.extractors.term_inventory import (
    find_terms,
    format_inventory,
    inventory_of,
    parse_inventory,
)
from kg.extractors.terms import (
    Term,
    TermStats,
    cvalues,
    decide,
    paper_terms,
    phrase_runs,
    summarise,
    term_type,
)


def words(runs):
    return [[w for w, _, _ in run] for run in runs]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("We study slot filling.", [["slot", "filling"]]),
        # stop words, function words and verbs end a run; one word is no run
        ("the proposed graph kernel is fast", [["graph", "kernel"]]),
        ("a novel contrastive framework for image retrieval", [["image", "retrieval"]]),
        # a capitalised word inside a sentence ends a run; one opening a sentence does not
        ("Knowledge tracing with Deep Models.", [["knowledge", "tracing"]]),
        ("slot filling, intent detection", [["slot", "filling"], ["intent", "detection"]]),
        ("clearly better results", []),
    ],
)
def test_phrase_runs_stop_at_boundaries(text, expected):
    assert words(phrase_runs(text)) == expected


def test_a_title_lowers_its_capitalised_words_but_not_acronyms():
    assert words(phrase_runs("Kernel Ridge Regression for BERT", title=True)) == [
        ["kernel", "ridge", "regression"]
    ]


def test_paper_terms_hold_every_candidate_with_its_cues_and_whole_run():
    terms = paper_terms("We tackle kernel ridge regression tasks.")
    assert set(terms) == {"kernel ridge regression", "kernel ridge", "ridge regression"}
    form, cues, whole = terms["kernel ridge regression"]
    assert (form, whole) == ("kernel ridge regression", True)
    assert TASK in cues
    assert terms["ridge regression"][2] is False


@pytest.mark.parametrize(
    "text, span, expected",
    [
        ("the problem of weight pruning", (15, 29), {TASK}),
        ("accuracy in terms of calibration error", (21, 38), {METRIC}),
        ("a label smoothing-based method", (2, 17), {METHOD}),
        ("results for weight pruning", (12, 26), {"for "}),
        ("results on weight pruning", (11, 25), set()),
        ("the shortest path problem", (4, 17), {"problem"}),
    ],
)
def test_cues_around_a_span(text, span, expected):
    assert set(cues_at(text, *span)) == expected


def corpus_stats(abstracts):
    stats = TermStats()
    for text in abstracts:
        stats.merge(summarise(paper_terms(text)))
    return stats


CORPUS = [
    "We tackle weight pruning for compact networks.",
    "The problem of weight pruning is old.",
    "Weight pruning helps. We use kernel ridge regression here.",
    "We use kernel ridge regression and grid search.",
    "A kernel ridge regression method is fast.",
    "Grid search again, with grid search.",
]


def test_statistics_merge_associatively_and_count_papers_once():
    stats = [summarise(paper_terms(text)) for text in CORPUS]
    left = TermStats()
    for s in stats:
        left.merge(s)
    right = TermStats().merge(stats[3]).merge(stats[4]).merge(stats[5])
    right = TermStats().merge(stats[0]).merge(stats[1]).merge(stats[2]).merge(right)
    assert left == right
    assert left.df["grid search"] == 2  # twice in the last paper, one paper


def test_decide_keeps_terms_of_three_papers_and_discounts_nested_ones():
    terms = decide(corpus_stats(CORPUS))
    assert set(terms) == {"weight pruning", "kernel ridge regression"}  # grid search: 2 papers
    assert terms["weight pruning"].df == 3
    # "ridge regression" occurs only inside "kernel ridge regression": C-value 0
    assert cvalues(corpus_stats(CORPUS).df)["ridge regression"] == 0.0
    assert terms["weight pruning"].type == TASK  # a task head ("pruning")
    assert terms["kernel ridge regression"].type == METHOD  # a method head ("regression")


def test_cvalue_discounts_by_the_mean_of_the_longer_terms():
    df = Counter({"neural network": 30, "deep neural network": 10, "graph neural network": 6})
    assert cvalues(df)["neural network"] == 22.0
    assert cvalues(df, min_df=7) == {"deep neural network": 15.85, "neural network": 20.0}


def test_a_fragment_of_a_longer_name_is_no_term():
    corpus = [f"the relevance vector machine of paper {n}" for n in "abcd"]
    corpus += ["a vector machine alone"]
    assert "vector machine" not in decide(corpus_stats(corpus), min_whole=0)


@pytest.mark.parametrize(
    "key, cues, df, expected",
    [
        ("slot filling", {}, 5, CONCEPT),  # no head, no cue
        ("slot filling", {TASK: 4}, 10, TASK),  # cues alone type a Task
        ("weather data", {METHOD: 5}, 10, CONCEPT),  # but not a Method ("using X")
        ("image segmentation", {}, 50, TASK),  # a task head
        ("label smoothing", {}, 9, CONCEPT),
        ("policy search", {}, 9, METHOD),  # a method head
        ("baseline model", {}, 150, CONCEPT),  # a generic head needs the cues' agreement
        ("topic model", {METHOD: 40}, 100, METHOD),
        ("reconstruction error", {}, 40, CONCEPT),  # a metric head needs a metric cue
        ("reconstruction error", {METRIC: 2}, 40, CONCEPT),  # generic "error": cues must be clear
        ("edit distance", {METRIC: 1}, 7, METRIC),
        ("kernel regression", {METHOD: 6, "for ": 1}, 8, METHOD),  # regression: task or method
        ("symbolic regression", {TASK: 5, "for ": 2}, 8, TASK),
        ("optimality principle", {}, 8, CONCEPT),  # a concept head
        # "X problem" types only a term with a typed head (a difficulty or an object else)
        ("shortest path", {"problem": 5}, 10, CONCEPT),
        ("constrained optimization", {"problem": 5}, 10, TASK),
    ],
)
def test_term_type_by_head_and_cues(key, cues, df, expected):
    assert term_type(key, Counter(cues), df) == expected


def test_inventory_file_round_trips_with_its_provenance():
    terms = [
        Term("weight pruning", TASK, "weight pruning", 3, 3.0, (("Task", 1),)),
        Term("edit distance", METRIC, "edit distance", 7, 7.0, ()),
    ]
    text = format_inventory(terms, {"source": "ours", "min_df": 3})
    assert text.splitlines()[0] == '# provenance: {"min_df": 3, "source": "ours"}'
    provenance, parsed = parse_inventory(text)
    assert provenance == {"source": "ours", "min_df": 3}
    assert parsed == {t.key: t for t in terms}
    with pytest.raises(ValueError):
        parse_inventory(text.split("\n", 1)[1])


def test_find_terms_takes_the_longest_term_at_each_word():
    inventory = inventory_of(
        {
            key: Term(key, TASK, key, 3, 3.0)
            for key in ("ridge regression", "kernel ridge regression", "weight pruning")
        }
    )
    text = "Kernel ridge regressions and ridge regression, then (weight pruning)."
    assert [(text[a:b], t.key) for a, b, t in find_terms(text, inventory)] == [
        ("Kernel ridge regressions", "kernel ridge regression"),
        ("ridge regression", "ridge regression"),
        ("weight pruning", "weight pruning"),
    ]
    # punctuation inside a term breaks it
    assert find_terms("weight, pruning and ridge (regression)", inventory) == []


def test_an_inventory_term_in_an_abstract_becomes_a_typed_mention(monkeypatch):
    from kg.extractors import candidates
    from kg.extractors.pipeline import build_nlp

    terms = {
        "quokka census": Term("quokka census", TASK, "quokka census", 4, 4.0),
        "burrow density": Term("burrow density", METRIC, "burrow density", 5, 5.0),
        "dune survey": Term("dune survey", CONCEPT, "dune survey", 3, 3.0),
    }
    monkeypatch.setattr(candidates, "load_inventory", lambda: inventory_of(terms))
    text = "We study Quokka censuses with a dune survey and report burrow density."
    found = {(m.type, m.canonical, m.rule, m.text) for m in build_nlp()(text)._.mentions}
    assert {
        (TASK, "quokka census", "corpus-term", "Quokka censuses"),
        (METRIC, "burrow density", "corpus-term", "burrow density"),
        (CONCEPT, "dune survey", "corpus-term", "dune survey"),
    } <= found


def test_the_shipped_inventory_is_loaded_once_with_its_typed_terms_only():
    terms = term_inventory.load_inventory().terms
    assert terms is term_inventory.load_inventory().terms
    assert len(terms) > 1000
    assert {t.type for t in terms.values()} == {METHOD, METRIC, TASK}
    _, shipped = parse_inventory(term_inventory.TERMS_PATH.read_text(encoding="utf-8"))
    assert {k for k, t in shipped.items() if t.type != CONCEPT} == set(terms)


def test_a_term_suffered_or_avoided_is_a_difficulty_and_a_collection_no_task():
    text = "Pipelines suffer from error propagation; we avoid error propagation."
    assert "trouble" in cues_at(text, 22, 39)
    assert term_type("error propagation", Counter({"problem": 3, "trouble": 3}), 20) == CONCEPT
    assert term_type("slot filling", Counter({"Task": 3, "trouble": 1}), 10) == TASK
    assert term_type("continuous control benchmark", Counter({"Task": 5}), 12) == CONCEPT
