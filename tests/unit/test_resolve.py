"""Corpus-wide resolution: acronyms across abstracts, variants, ambiguity."""

from kg.extractors.records import Mention
from kg.graph.resolve import Resolution, resolve_corpus


def mention(kind, text, canonical, *, rule="lexicon", long_form=None, start=0):
    return Mention(
        type=kind,
        text=text,
        canonical=canonical,
        start=start,
        end=start + len(text),
        sentence=text,
        rule=rule,
        score=0.9,
        long_form=long_form,
    )


def by_paper(resolved):
    return {key: {(m.type, m.canonical) for m in ms} for key, ms in resolved}


def test_acronym_defined_once_resolves_bare_uses_elsewhere():
    items = [
        (
            "p1",
            [mention("Method", "Foo Bar Zap", "FBZ", rule="abbreviation", long_form="Foo Bar Zap")],
        ),
        ("p2", [mention("Concept", "FBZ", "FBZ", rule="coined-name")]),
        ("p3", [mention("Task", "foo bar zap", "foo bar zap", rule="task-phrase")]),
    ]
    resolved = dict(resolve_corpus(items))
    (bare,) = resolved["p2"]
    assert (bare.type, bare.canonical, bare.long_form) == ("Method", "FBZ", "Foo Bar Zap")
    assert [(m.type, m.canonical) for m in resolved["p3"]] == [("Task", "foo bar zap")]


def test_a_definition_elsewhere_is_its_own_sense_and_the_lexicon_the_default():
    items = [
        (
            "p1",
            [
                mention(
                    "Concept",
                    "Cable News Network",
                    "CNN",
                    rule="abbreviation",
                    long_form="Cable News Network",
                )
            ],
        ),
        ("p2", [mention("Method", "CNN", "CNN", rule="lexicon")]),
        ("p3", [mention("Method", "CNN", "CNN", rule="coined-name")]),
    ]
    resolved = by_paper(resolve_corpus(items))
    assert resolved["p1"] == {("Concept", "CNN (Cable News Network)")}
    assert resolved["p2"] == {("Method", "CNN")}
    assert resolved["p3"] == {("Method", "CNN")}


def test_ambiguous_definitions_elsewhere_do_not_rename_a_known_acronym():
    items = [
        (
            "p1",
            [
                mention(
                    "Method",
                    "Relation Learning",
                    "RL",
                    rule="abbreviation",
                    long_form="Relation Learning",
                )
            ],
        ),
        (
            "p2",
            [
                mention(
                    "Method",
                    "Robust Learning",
                    "RL",
                    rule="abbreviation",
                    long_form="Robust Learning",
                )
            ],
        ),
        (
            "p3",
            [
                mention(
                    "Method",
                    "reinforcement learning",
                    "RL",
                    rule="abbreviation+lexicon",
                    long_form="reinforcement learning",
                )
            ],
        ),
    ]
    resolved = by_paper(resolve_corpus(items))
    assert resolved["p1"] == {("Method", "RL (Relation Learning)")}
    assert resolved["p3"] == {("Method", "RL")}


def test_long_form_alone_resolves_to_the_acronym_of_the_same_type():
    items = [
        (
            "p1",
            [mention("Method", "Foo Bar Zap", "FBZ", rule="abbreviation", long_form="Foo Bar Zap")],
        ),
        ("p2", [mention("Method", "foo bar zaps", "foo bar zaps", rule="title-case")]),
    ]
    resolved = dict(resolve_corpus(items))
    (m,) = resolved["p2"]
    assert (m.canonical, m.long_form) == ("FBZ", "Foo Bar Zap")
    assert "foo bar zaps" in m.aliases


def test_ambiguous_short_form_is_not_merged():
    items = [
        ("p1", [mention("Method", "Dual Path", "DP", rule="abbreviation", long_form="Dual Path")]),
        (
            "p2",
            [mention("Method", "Deep Prior", "DP", rule="abbreviation", long_form="Deep Prior")],
        ),
        ("p3", [mention("Method", "DP", "DP", rule="coined-name")]),
    ]
    papers = by_paper(resolve_corpus(items))
    assert papers["p1"] == {("Method", "DP (Dual Path)")}
    assert papers["p2"] == {("Method", "DP (Deep Prior)")}
    assert papers["p3"] == {("Method", "DP")}


def test_variants_get_one_display_name():
    items = [
        ("p1", [mention("Dataset", "ImageNet-1k", "ImageNet-1k")]),
        ("p2", [mention("Dataset", "ImageNet-1K", "ImageNet-1K")]),
        ("p3", [mention("Dataset", "ImageNet 1K", "ImageNet-1K")]),
    ]
    names = {m.canonical for _, ms in resolve_corpus(items) for m in ms}
    assert names == {"ImageNet-1K"}


def test_mentions_of_one_entity_in_a_paper_are_merged():
    items = [
        (
            "p1",
            [
                mention("Method", "Foo Bar", "FB", rule="abbreviation", long_form="Foo Bar"),
                mention("Method", "FB", "FB", rule="proposal", start=40),
            ],
        )
    ]
    (m,) = resolve_corpus(items)[0][1]
    assert (m.canonical, m.start, m.role) == ("FB", 0, "used")
    assert m.aliases == ("Foo Bar",)


def test_order_and_shape_are_kept():
    items = [(f"p{i}", []) for i in range(5)]
    assert resolve_corpus(items) == items


def test_long_form_variants_are_one_meaning():
    items = [
        (
            "p1",
            [mention("Method", "foo thought", "FT", rule="abbreviation", long_form="foo thought")],
        ),
        (
            "p2",
            [
                mention(
                    "Method",
                    "foo thought prompting",
                    "FT",
                    rule="abbreviation",
                    long_form="foo thought prompting",
                )
            ],
        ),
    ]
    assert by_paper(resolve_corpus(items)) == {"p1": {("Method", "FT")}, "p2": {("Method", "FT")}}


def extended(first, *more):
    resolution = Resolution(first)
    for items in more:
        resolution.extend(items)
    return sorted(resolution.items)


def test_a_new_definition_reaches_old_papers_when_a_resolution_is_extended():
    old = [
        ("p1", [mention("Concept", "QRX", "QRX", rule="coined-name")]),
        ("p2", [mention("Method", "quiet rank exchange", "quiet rank exchange", rule="proposal")]),
        ("p3", [mention("Dataset", "CIFAR-10", "CIFAR-10")]),
    ]
    new = [
        (
            "p4",
            [
                mention(
                    "Method",
                    "Quiet Rank Exchange",
                    "QRX",
                    rule="abbreviation",
                    long_form="Quiet Rank Exchange",
                )
            ],
        )
    ]
    assert extended(old, new) == sorted(resolve_corpus(old + new))
    resolved = dict(extended(old, new))
    assert [(m.type, m.canonical) for m in resolved["p1"]] == [("Method", "QRX")]
    assert [(m.canonical, m.long_form) for m in resolved["p2"]] == [("QRX", "Quiet Rank Exchange")]


def test_new_counts_can_change_an_old_papers_display_name_or_make_a_short_form_ambiguous():
    old = [
        ("p1", [mention("Dataset", "Imagenet-1k", "Imagenet-1k")]),
        ("p2", [mention("Method", "Foo Bar", "FB", rule="abbreviation", long_form="Foo Bar")]),
        ("p3", [mention("Method", "FB", "FB", rule="coined-name")]),
    ]
    new = [(f"q{i}", [mention("Dataset", "ImageNet-1K", "ImageNet-1K")]) for i in range(3)]
    new.append(
        ("q9", [mention("Method", "Fast Blur", "FB", rule="abbreviation", long_form="Fast Blur")])
    )
    assert extended(old, new[:2], new[2:]) == sorted(resolve_corpus(old + new))
    resolved = dict(extended(old, new))
    assert [m.canonical for m in resolved["p1"]] == ["ImageNet-1K"]
    assert [m.canonical for m in resolved["p2"]] == ["FB (Foo Bar)"]


def test_british_and_american_spellings_of_a_name_are_one_entity():
    items = [
        ("p1", [mention("Task", "domain generalization", "domain generalization")]),
        ("p2", [mention("Task", "domain generalization", "domain generalization")]),
        ("p3", [mention("Task", "domain generalisation", "domain generalisation")]),
        ("p4", [mention("Task", "noise modelling", "noise modelling")]),
    ]
    assert by_paper(resolve_corpus(items)) == {
        "p1": {("Task", "domain generalization")},
        "p2": {("Task", "domain generalization")},
        "p3": {("Task", "domain generalization")},
        "p4": {("Task", "noise modelling")},  # alone, its spelling stays
    }
