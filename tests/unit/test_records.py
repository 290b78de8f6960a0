"""The entity-type vocabulary and the Mention rows."""

from kg.extractors.records import (
    BENCHMARK,
    CONCEPT,
    DATASET,
    ENTITY_TYPES,
    METHOD,
    METRIC,
    PROPOSABLE_TYPES,
    SCORED_TYPES,
    TASK,
    TYPE_NAMES,
    Mention,
    mention_from_fields,
    mention_from_row,
)


def test_the_entity_types_in_their_fixed_order_with_their_relationships():
    assert [(t.name, t.relationship) for t in ENTITY_TYPES] == [
        ("Method", "USES"),
        ("Dataset", "EVALUATED_ON"),
        ("Benchmark", "EVALUATED_ON"),
        ("Task", "ADDRESSES"),
        ("Metric", "MEASURES"),
        ("Concept", "MENTIONS"),
    ]
    assert TYPE_NAMES == (METHOD, DATASET, BENCHMARK, TASK, METRIC, CONCEPT)


def test_concepts_are_neither_scored_nor_proposed():
    assert SCORED_TYPES == PROPOSABLE_TYPES == (METHOD, DATASET, BENCHMARK, TASK, METRIC)


def test_a_mention_from_its_row_or_fields_equals_the_constructed_one():
    m = Mention("Method", "BERT", "BERT", 0, 4, "BERT.", "lexicon", 0.9, aliases=("Bert",))
    assert mention_from_row(tuple(m.__dict__.values())) == m
    assert mention_from_fields(dict(m.__dict__)) == m


def test_a_row_of_the_wrong_length_is_refused():
    import pytest

    with pytest.raises(ValueError, match="a Mention has 12 fields, not 2"):
        mention_from_row(("Method", "BERT"))
