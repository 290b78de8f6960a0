"""Author identity: name rules, summaries, and the decide step (merges, splits, ids,
overrides) on tiny corpora written here."""

import pytest

from kg.graph.authors import author_key
from kg.graph.identity import (
    Authorship,
    Overrides,
    commonness,
    compatible,
    merge_summaries,
    name_parts,
    summarise,
)
from kg.graph.overrides import parse_overrides
from kg.graph.people import OverrideError, decide


def ship(printed, author_id=None):
    return Authorship(printed, author_key(printed).removeprefix("author:"), author_id)


def corpus(*papers):
    """Papers as (key, [authors], venue, year, [topics]); authors are names or ships."""
    summary = None
    for key, authors, venue, year, topics in papers:
        one = summarise(
            key,
            authors=[a if isinstance(a, Authorship) else ship(a) for a in authors],
            venue=venue,
            year=year,
            topics=topics,
        )
        summary = one if summary is None else merge_summaries(summary, one)
    return summary


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("A. C. Courville", "Aaron Courville", True),
        ("Aaron C. Courville", "Aaron Courville", True),
        ("A. C. Courville", "Aaron C. Courville", True),
        ("A. Courville", "Aaron Courville", True),
        ("Aaron C. Courville", "Aaron B. Courville", False),
        ("Alice Courville", "Aaron Courville", False),
        ("Yang Liu", "Yi Liu", False),
        ("Yang Liu", "Liu Yang", False),
        ("T.J. Sejnowski", "Terrence J. Sejnowski", True),
        # surname particles are no given names, and listings may drop them
        ("Christopher De Sa", "Christopher M De Sa", True),
        ("Aaron van den Oord", "Aaron Oord", True),
        ("Hado P. van Hasselt", "Hado van Hasselt", True),
        ("Kiet Van Nguyen", "Kiet Nguyen", True),
        ("Kiet Van Nguyen", "Kiet T. Nguyen", False),
    ],
)
def test_compatible_names(a, b, expected):
    assert compatible(name_parts(a), name_parts(b)) is expected


def test_merging_summaries_is_associative_and_commutative():
    parts = [
        summarise(f"paper:{i}", authors=[ship("Ann Lee")], topics=[f"t:{i % 2}"]) for i in range(3)
    ]
    left = merge_summaries(merge_summaries(parts[0], parts[1]), parts[2])
    right = merge_summaries(parts[2], merge_summaries(parts[1], parts[0]))
    assert left.papers == right.papers and left.topic_papers == right.topic_papers
    assert left.topic_papers == {"t:0": 2, "t:1": 1}


COURVILLE = [
    ("paper:1", ["A. C. Courville", "Yoshua Bengio"], "v1", 2010, []),
    ("paper:2", ["Aaron Courville", "Yoshua Bengio"], "v2", 2012, []),
    ("paper:3", ["Aaron C. Courville", "Ian Goodfellow"], "v3", 2014, ["method:gan"]),
    ("paper:4", ["Aaron Courville", "Ian Goodfellow"], "v4", 2015, ["method:gan"]),
]


def test_middle_initial_variants_sharing_a_coauthor_merge_with_the_reason():
    people = decide(corpus(*COURVILLE[:2]))
    assert [(p.key, p.name) for p in people] == [("author:aaroncourville", "Aaron Courville")]
    assert people[0].variants == ("A. C. Courville", "Aaron Courville")
    assert people[0].authorships == (("paper:1", "accourville"), ("paper:2", "aaroncourville"))
    assert people[0].reasons == (
        "merge: 'A. C. Courville' and 'Aaron Courville' share co-author Yoshua Bengio",
    )


def test_a_shared_coauthor_of_a_common_surname_counts_across_middle_initials():
    # "Le" is a common surname: the co-author is told by given name and surname, so
    # "Quoc Le" and "Quoc V. Le" are one co-author, "Quoc Le" and "Qian Le" are not.
    names = {"Quoc Le": "Quoc V. Le", "Qian Le": "Quoc V. Le"}
    for one, other in names.items():
        extra = [
            (f"paper:{i}", [f"Minh Le {i}", f"Ngoc Le {i}"], None, None, []) for i in range(30)
        ]
        people = decide(
            corpus(
                ("paper:a", ["Andrew Dai", one], "v1", 2015, []),
                ("paper:b", ["Andrew M. Dai", other], "v2", 2017, []),
                *extra,
            )
        )
        merged = [p for p in people if p.key == "author:andrewmdai"]
        assert bool(merged) is (one == "Quoc Le"), people


def test_three_variants_merge_on_a_coauthor_and_a_specific_topic():
    (person,) = decide(corpus(*COURVILLE))
    assert person.key == "author:aaronccourville"  # the fullest name keys the person
    assert len(person.authorships) == 4 and len(person.reasons) == 2
    assert any("co-author Ian Goodfellow" in r and "topic method:gan" in r for r in person.reasons)


def test_nothing_merges_without_evidence():
    assert (
        decide(
            corpus(
                ("paper:1", ["A. C. Courville", "Yoshua Bengio"], "v1", 2010, ["t:a"]),
                ("paper:2", ["Aaron Courville", "Ann Lee"], "v2", 2012, ["t:b"]),
            )
        )
        == []
    )


def test_compatible_names_of_a_rare_surname_merge_at_one_venue_however_large():
    papers = [(f"paper:{i}", [f"Person {i}"], "nips", 2000, []) for i in range(10)]
    papers += [
        ("paper:a", ["Hagai Attias", "Ann Lee"], "nips", 1999, []),
        ("paper:b", ["Hagai T. Attias", "Bo Chen"], "nips", 2004, []),
    ]
    (person,) = decide(corpus(*papers))
    assert person.key == "author:hagaitattias"
    assert person.reasons == ("merge: 'Hagai Attias' and 'Hagai T. Attias' share venue nips",)


def test_compatible_names_of_a_rare_surname_merge_on_a_topic_of_one_percent():
    # 400 other papers: a topic of 4 papers is not specific (3 at most) but within 1%.
    papers = [
        (f"paper:{i:03}", [f"Person {i}"], ("icml", "nips")[i % 2], 2000, []) for i in range(400)
    ]
    papers[0] = (*papers[0][:4], ["t:hpo"])
    papers[1] = (*papers[1][:4], ["t:hpo"])
    papers += [
        ("paper:a", ["James Bergstrom"], "icml", 2013, ["t:hpo"]),
        ("paper:b", ["James S. Bergstrom"], "nips", 2011, ["t:hpo"]),
    ]
    (person,) = decide(corpus(*papers))
    assert person.reasons == (
        "merge: 'James Bergstrom' and 'James S. Bergstrom' share topic t:hpo",
    )
    papers[-1] = ("paper:b", ["James S. Bergstrom"], "nips", 2011, ["t:other"])
    assert decide(corpus(*papers)) == []


def test_a_rare_full_name_merges_its_middle_initial_variant_at_one_venue():
    # Five Kulkarnis: the surname is not rare, but few people are named Tejas Kulkarni.
    others = ["Anil Kulkarni", "Bela Kulkarni", "Chitra Kulkarni"]
    papers = [(f"paper:{i}", [name], "nips", 2000 + i, []) for i, name in enumerate(others)]
    papers += [
        ("paper:a", ["Tejas Kulkarni", "Ann Lee"], "nips", 2015, []),
        ("paper:b", ["Tejas D. Kulkarni", "Bo Chen"], "nips", 2016, []),
    ]
    (person,) = decide(corpus(*papers))
    assert person.reasons == ("merge: 'Tejas D. Kulkarni' and 'Tejas Kulkarni' share venue nips",)


def test_a_venue_is_no_evidence_for_a_full_name_many_people_may_carry():
    # 10 Garys and 6 Huongs among 20 names: about 0.06 people expected per Gary Huong.
    names = [f"Gary {c}ang" for c in "BCDEFGHJ"] + [f"{g} Huong" for g in "Ann Bob Cid Dan".split()]
    papers = [(f"paper:{i}", [name], "nips", 2000 + i, []) for i, name in enumerate(names)]
    papers += [
        ("paper:a", ["Gary Huong"], "nips", 2015, []),
        ("paper:b", ["Gary B. Huong"], "nips", 2016, []),
    ]
    assert decide(corpus(*papers)) == []


def test_a_venue_is_no_evidence_for_a_surname_many_names_carry():
    smiths = ["Jamie Smith", "J. David Smith", "Anna Smith", "Ben Smith", "Carl Smith"]
    papers = [(f"paper:{i}", [name], "nips", 2000 + i, []) for i, name in enumerate(smiths)]
    assert decide(corpus(*papers)) == []


def test_a_topic_most_papers_share_is_no_evidence():
    papers = [(f"paper:{i}", [f"Person {i}"], None, 2000, ["t:common"]) for i in range(10)]
    papers += [
        ("paper:a", ["A. C. Courville"], None, 2010, ["t:common"]),
        ("paper:b", ["Aaron Courville"], None, 2012, ["t:common"]),
    ]
    assert decide(corpus(*papers)) == []


def test_a_common_name_merges_on_a_shared_coauthor_not_on_a_topic_alone():
    topic_only = corpus(
        ("paper:1", ["H. Wang"], None, 2010, ["task:optical-flow"]),
        ("paper:2", ["Hao Wang"], None, 2012, ["task:optical-flow"]),
    )
    assert decide(topic_only) == []
    with_coauthor = corpus(
        ("paper:1", ["H. Wang", "Ann Lee"], None, 2010, []),
        ("paper:2", ["Hao Wang", "Ann Lee"], None, 2012, []),
    )
    assert [p.key for p in decide(with_coauthor)] == ["author:haowang"]


def test_incompatible_names_never_merge_even_with_evidence():
    assert (
        decide(
            corpus(
                ("paper:1", ["Aaron B. Courville", "Yoshua Bengio"], None, 2010, []),
                ("paper:2", ["Aaron C. Courville", "Yoshua Bengio"], None, 2012, []),
            )
        )
        == []
    )


def test_an_initial_joins_one_of_two_incompatible_names_only():
    people = decide(
        corpus(
            ("paper:1", ["A. Courville", "Yoshua Bengio", "Ann Lee"], None, 2010, []),
            ("paper:2", ["Aaron Courville", "Yoshua Bengio", "Ann Lee"], None, 2012, []),
            ("paper:3", ["Alice Courville", "Yoshua Bengio"], None, 2013, []),
        )
    )
    assert [p.key for p in people] == ["author:aaroncourville"]  # two shared beat one


SMITH = [
    ("paper:a1", ["J. Smith", "Ann Lee"], "venue a", 2001, ["t:x"]),
    ("paper:a2", ["J. Smith", "Ann Lee", "Carl Diaz"], "venue a", 2003, ["t:x"]),
    ("paper:b1", ["J. Smith", "Bob Stone"], "venue b", 2000, ["t:y"]),
    ("paper:b2", ["J. Smith", "Bob Stone"], "venue b", 2004, ["t:y"]),
]


def test_two_communities_of_a_common_name_split_with_telling_names():
    people = decide(corpus(*SMITH))
    assert [(p.key, p.name, p.split_from) for p in people] == [
        ("author:jsmith@a1", "J. Smith (with Ann Lee)", "jsmith"),
        ("author:jsmith@b1", "J. Smith (with Bob Stone)", "jsmith"),
    ]
    assert [p.authorships for p in people] == [
        (("paper:a1", "jsmith"), ("paper:a2", "jsmith")),
        (("paper:b1", "jsmith"), ("paper:b2", "jsmith")),
    ]
    assert people[0].reasons == (
        "split: 'J. Smith' is initials with a common surname and its papers form 2 groups "
        "sharing no co-author, venue or topic; this group has 2 paper(s)",
    )


@pytest.mark.parametrize(
    "bridge",
    [
        ("paper:c", ["J. Smith", "Ann Lee", "Bob Stone"], None, 2005, []),  # co-authors
        ("paper:c", ["J. Smith"], "venue b", 2005, ["t:x"]),  # a topic and a venue
    ],
)
def test_a_paper_sharing_evidence_with_both_communities_joins_them(bridge):
    assert decide(corpus(*SMITH, bridge)) == []


def test_split_keys_stay_when_later_papers_arrive():
    before = [p.key for p in decide(corpus(*SMITH))]
    later = ("paper:0", ["J. Smith", "Bob Stone"], "venue c", 2009, [])  # smallest key, newest
    other = ("paper:z", ["J. Smith", "Dan Roe"], "venue d", 2010, [])  # a third community
    after = decide(corpus(*SMITH, later, other))
    assert [p.key for p in after] == before + ["author:jsmith@z"]


def test_an_uncommon_full_name_is_not_split():
    assert (
        decide(
            corpus(
                ("paper:1", ["Josef Genabith", "Ann Lee"], None, 2001, []),
                ("paper:2", ["Josef Genabith", "Bob Stone"], None, 2002, []),
            )
        )
        == []
    )


def test_commonness_counts_given_parts_and_surnames():
    parts = {
        f: name_parts(n)
        for f, n in [
            ("yangliu", "Yang Liu"),
            ("yangwu", "Yang Wu"),
            ("weiliu", "Wei Liu"),
            ("xu", "Xu"),
        ]
    }
    assert commonness(parts) == {"yangliu": 4 / 1003, "yangwu": 2 / 1003, "weiliu": 2 / 1003}


def test_an_id_joins_spellings_and_two_ids_are_two_people():
    orcid, other = "orcid:0000-0002-1825-0097", "orcid:0000-0001-5109-3700"
    people = decide(
        corpus(
            ("paper:1", [ship("Wei Chen", orcid), "Ann Lee"], None, 2001, []),
            ("paper:2", [ship("W. Chen", orcid)], None, 2002, []),
            ("paper:3", [ship("Wei Chen", other), "Ann Lee"], None, 2003, []),
        )
    )
    assert [(p.key, p.variants) for p in people] == [
        ("author:orcid:0000-0001-5109-3700", ("Wei Chen",)),
        ("author:orcid:0000-0002-1825-0097", ("W. Chen", "Wei Chen")),
    ]
    assert people[1].reasons == (f"id: {orcid} given by the input ('W. Chen', 'Wei Chen')",)


def test_overrides_merge_keep_apart_split_and_keep_together():
    assert (
        decide(
            corpus(*COURVILLE[:2]),
            Overrides(apart=(("author:accourville", "author:aaroncourville"),)),
        )
        == []
    )
    forced = decide(
        corpus(("paper:1", ["Ann Lee"], None, 1, []), ("paper:2", ["A. Lee"], None, 2, [])),
        Overrides(merge=(("author:alee", "author:annlee"),), lines={"author:alee": 3}),
    )
    assert [(p.key, p.reasons) for p in forced] == [
        ("author:annlee", ("override: merged by line 3",))
    ]
    assert decide(corpus(*SMITH), Overrides(together=("author:jsmith",))) == []
    assert decide(corpus(*SMITH), Overrides(together=("author:J. Smith",))) == []
    split = decide(
        corpus(
            ("paper:1", ["Josef Genabith", "Ann Lee"], None, 2001, []),
            ("paper:2", ["Josef Genabith", "Bob Stone"], None, 2002, []),
        ),
        Overrides(split=("author:josefgenabith",), lines={"author:josefgenabith": 2}),
    )
    assert [p.key for p in split] == ["author:josefgenabith@1", "author:josefgenabith@2"]
    assert split[0].reasons[0].startswith("split: by override (line 2)")


def test_an_override_naming_no_author_is_an_error_naming_its_line():
    overrides = parse_overrides(
        '# people\nmerge = [["author:annlee", "author:nobody"]]\n', source="g.identity.toml"
    )
    with pytest.raises(
        OverrideError, match=r"^g.identity.toml line 2: author:nobody names no author"
    ):
        decide(corpus(("paper:1", ["Ann Lee"], None, 1, [])), overrides)


@pytest.mark.parametrize(
    "text, message",
    [
        ('# a\nsplit = ["author:a",,]', r"^f.toml line 2: .* \(not valid TOML\)$"),
        ("merge = [[", r"^f.toml line 1: Invalid value \(not valid TOML\)$"),
        ("\nmerges = []", r"^f.toml line 2: unknown entry 'merges'"),
        ('split = ["jsmith"]', r"^f.toml line 1: split: 'jsmith' is not an author key"),
        ('\n\napart = ["author:a"]', r"^f.toml line 3: apart holds lists of two or more"),
    ],
)
def test_bad_override_files_are_one_line_naming_the_line(text, message):
    with pytest.raises(Exception, match=message):
        parse_overrides(text, source="f.toml")
