"""The rule table and the choice among overlapping candidates."""

from kg.extractors.choose import (
    COINED_NAME,
    CORPUS_TERM,
    LEXICON,
    RULE_NAMES,
    RULE_SCORES,
    RULES,
    TASK_PHRASE,
    TITLE_CASE,
    Candidate,
    choose,
)
from kg.extractors.records import METHOD, TASK


def test_every_rule_is_named_once_with_a_score_in_0_1():
    assert len(set(RULE_NAMES)) == len(RULES) == 25
    assert all(0.0 <= r.score <= 1.0 for r in RULES)
    assert RULE_SCORES[LEXICON] == 0.9


def test_the_higher_priority_rule_wins_an_overlap_though_shorter():
    text = "We use BERTology here."
    known = Candidate(7, 11, METHOD, "BERT", LEXICON)
    coined = Candidate(7, 16, METHOD, "BERTology", COINED_NAME)
    assert [c.canonical for c in choose(text, [coined, known])] == ["BERT"]


def test_a_corpus_term_has_the_lowest_priority_and_gives_way_on_overlap():
    assert max(r.priority for r in RULES) == RULES[RULE_NAMES.index(CORPUS_TERM)].priority
    assert [r.name for r in RULES if r.priority == RULES[-1].priority] == [CORPUS_TERM]
    text = "We study multi-view subspace clustering."
    term = Candidate(20, 39, TASK, "subspace clustering", CORPUS_TERM)
    phrase = Candidate(9, 39, TASK, "multi-view subspace clustering", TASK_PHRASE)
    assert [c.canonical for c in choose(text, [term, phrase])] == ["multi-view subspace clustering"]


def test_a_known_method_ending_a_longer_capitalised_name_gives_way_to_it():
    text = "We use Soft Gradient Surgery here."
    known = Candidate(12, 28, METHOD, "gradient surgery", LEXICON)
    capitalised = Candidate(7, 28, METHOD, "Soft Gradient Surgery", TITLE_CASE)
    assert [c.canonical for c in choose(text, [capitalised, known])] == ["Soft Gradient Surgery"]


def test_a_task_phrase_around_task_mentions_is_kept_beside_them():
    text = "rectangular matrix denoising"
    inner = Candidate(12, 28, TASK, "matrix denoising", LEXICON)
    outer = Candidate(0, 28, TASK, "rectangular matrix denoising", TASK_PHRASE)
    assert [c.canonical for c in choose(text, [inner, outer])] == [
        "rectangular matrix denoising",
        "matrix denoising",
    ]
