"""The identity step on graphs: re-keyed Author nodes, moving back, the report, its text."""

from kg import schema as S
from kg.extractors.records import PaperRecord
from kg.graph.build import plan_records
from kg.graph.papers import authored_by, new_graph, set_coauthor_counts
from kg.graph.rekey import format_identity_report, identity_report, resolve_authors


def paper(n, authors, *, venue=None, year=2020, ids=()):
    return PaperRecord(
        abstract=f"Paper number {n} studies a problem.",
        source="t.jsonl",
        index=n,
        external_id=f"p{n}",
        authors=tuple(authors),
        venue=venue,
        year=year,
        author_ids=tuple(ids),
    )


SMITH = [
    paper(1, ["J. Smith", "Ann Lee"], venue="Venue A", year=2001),
    paper(2, ["J. Smith", "Ann Lee"], venue="Venue A", year=2002),
    paper(3, ["J. Smith", "Bob Stone"], venue="Venue B", year=2000),
    paper(4, ["A. C. Courville", "Yoshua Bengio"], venue="Venue C"),
    paper(5, ["Aaron Courville", "Yoshua Bengio"], venue="Venue D"),
]


def graph(records):
    G = new_graph()
    plan_records(G, records)
    return G


def authors_of(G):
    return sorted(n for n, kind in G.nodes(data="kind") if kind == S.AUTHOR)


def test_splits_and_merges_re_key_the_author_nodes():
    G = graph(SMITH)
    resolve_authors(G)
    assert authors_of(G) == [
        "author:aaroncourville",
        "author:annlee",
        "author:bobstone",
        "author:jsmith@p1",
        "author:jsmith@p3",
        "author:yoshuabengio",
    ]
    merged = G.nodes["author:aaroncourville"]
    assert merged["variants"] == ["A. C. Courville", "Aaron Courville"]
    assert merged["coauthors"] == 1 and G.nodes["author:yoshuabengio"]["coauthors"] == 1
    assert G.nodes["author:jsmith@p1"]["name"] == "J. Smith (with Ann Lee)"
    assert G.nodes["author:jsmith@p1"]["split_from"] == "author:jsmith"
    assert authored_by(G, "paper:p4") == ["author:aaroncourville", "author:yoshuabengio"]
    assert G.edges["author:aaroncourville", "paper:p4", S.AUTHORED]["printed"] == "A. C. Courville"


def test_no_two_author_nodes_fold_alike_unless_split_on_recorded_evidence():
    G = graph(SMITH)
    resolve_authors(G)
    by_fold: dict[str, list[str]] = {}
    for n, attrs in G.nodes(data=True):
        if attrs["kind"] == S.AUTHOR:
            for v in attrs["variants"]:
                by_fold.setdefault(v.replace(".", "").replace(" ", "").lower(), []).append(n)
    shared = {f: ns for f, ns in by_fold.items() if len(set(ns)) > 1}
    assert shared == {"jsmith": ["author:jsmith@p1", "author:jsmith@p3"]}
    assert all(G.nodes[n]["identity"][0].startswith("split:") for n in shared["jsmith"])


def test_deciding_again_after_a_bridging_paper_puts_authorships_back():
    G = graph(SMITH)
    resolve_authors(G)
    plan_records(G, [paper(6, ["J. Smith", "Ann Lee", "Bob Stone"], year=2005)])
    resolve_authors(G)
    fresh = graph(SMITH + [paper(6, ["J. Smith", "Ann Lee", "Bob Stone"], year=2005)])
    resolve_authors(fresh)
    set_coauthor_counts(G)
    set_coauthor_counts(fresh)
    assert "author:jsmith" in G and "author:jsmith@p1" not in G
    assert "identity" not in G.nodes["author:jsmith"]
    assert {n: G.nodes[n] for n in authors_of(G)} == {n: fresh.nodes[n] for n in authors_of(fresh)}
    assert sorted(G.edges(keys=True, data=True)) == sorted(fresh.edges(keys=True, data=True))


def test_an_id_decides_across_spellings():
    orcid = "orcid:0000-0002-1825-0097"
    G = graph(
        [
            paper(1, ["Wei Chen", "Ann Lee"], ids=[orcid, None]),
            paper(2, ["W. Chen"], ids=[orcid]),
            paper(3, ["Wei Chen", "Ann Lee"]),
            paper(4, ["Wei Chen", "Bob Stone"], ids=["orcid:0000-0001-5109-3700"]),
        ]
    )
    resolve_authors(G)
    assert G.nodes[f"author:{orcid}"]["variants"] == ["W. Chen", "Wei Chen"]
    # without an id: joins an id's person on shared evidence (Ann Lee); two ids stay two
    assert authored_by(G, "paper:p3")[0] == f"author:{orcid}"
    assert authored_by(G, "paper:p4")[0] == "author:orcid:0000-0001-5109-3700"


def test_the_report_lists_each_merge_and_split_with_its_reason():
    G = graph(SMITH)
    resolve_authors(G)
    report = identity_report(G)
    assert [(m["key"], m["reasons"]) for m in report["merges"]] == [
        (
            "author:aaroncourville",
            ["merge: 'A. C. Courville' and 'Aaron Courville' share co-author Yoshua Bengio"],
        )
    ]
    assert [s["name"] for s in report["splits"]] == ["author:jsmith"]
    assert [(p["key"], p["papers"]) for p in report["splits"][0]["people"]] == [
        ("author:jsmith@p1", 2),
        ("author:jsmith@p3", 1),
    ]
    text = format_identity_report(report)
    assert text.splitlines()[:3] == [
        "Merges (1 people)",
        "  Aaron Courville [author:aaroncourville], 2 paper(s)",
        "    merge: 'A. C. Courville' and 'Aaron Courville' share co-author Yoshua Bengio",
    ]
    assert (
        "  author:jsmith: split: 'J. Smith' is initials with a common surname and its papers form "
        "2 groups sharing no co-author, venue or topic"
    ) in text
    assert "    J. Smith (with Bob Stone) [author:jsmith@p3], 1 paper(s)" in text
