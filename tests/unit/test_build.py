"""Building graphs: identity, de-duplication, authors, areas, re-ingest."""

import json

from kg import schema as S
from kg.extractors.records import Mention, PaperRecord
from kg.graph.authors import author_key
from kg.graph.build import assemble_mentions, build_graph, plan_records
from kg.graph.papers import authored_by, new_graph

ABSTRACT = "We apply a small model on CIFAR-10. It reaches good accuracy."


def record(abstract=ABSTRACT, **kw):
    kw.setdefault("source", "s.txt")
    kw.setdefault("index", 0)
    return PaperRecord(abstract=abstract, **kw)


def test_author_positions_follow_listing_order():
    G = new_graph()
    plan_records(G, [record(authors=("B Two", "A One", "C Three"))])
    paper = S.paper_key(ABSTRACT)
    assert [G.nodes[a]["name"] for a in authored_by(G, paper)] == ["B Two", "A One", "C Three"]
    assert G.edges[author_key("A One"), paper, S.AUTHORED]["position"] == 2


def test_same_abstract_in_two_files_is_one_paper_with_both_sources():
    G = new_graph()
    to_extract, report, _ = plan_records(
        G,
        [
            record(source="daily.txt", index=3),
            record(source="conf.txt", index=0, authors=("Ada Lovelace",), area="Theory · X"),
            record(
                abstract=ABSTRACT,
                source="conf.txt",
                index=1,
                external_id="other-id",
            ),
        ],
    )
    paper = S.paper_key(ABSTRACT)
    assert list(G.nodes).count(paper) == 1 and len(to_extract) == 1
    assert G.nodes[paper]["sources"] == ["conf.txt#0", "conf.txt#1", "daily.txt#3"]
    assert G.nodes[paper]["area"] == "Theory · X"
    assert [G.nodes[a]["name"] for a in authored_by(G, paper)] == ["Ada Lovelace"]
    assert (report.new_papers, report.duplicates) == (1, 2)


def test_external_id_is_the_key_and_hash_still_dedupes():
    G = new_graph()
    plan_records(G, [record(external_id="2401.00001"), record(source="other.txt")])
    assert [n for n in G if n.startswith("paper:")] == ["paper:2401.00001"]


def test_building_into_existing_graph_adds_only_what_is_new(tmp_path):
    first = tmp_path / "a.jsonl"
    first.write_text(json.dumps({"abstract": ABSTRACT}) + "\n")
    second = tmp_path / "b.jsonl"
    second.write_text(
        json.dumps({"abstract": ABSTRACT})
        + "\n"
        + json.dumps({"abstract": "Another abstract about MNLI."})
        + "\n"
    )
    G, report = build_graph([first])
    G, report = build_graph([second], graph=G)
    assert (report.new_papers, report.known_papers) == (1, 1)
    assert sum(1 for _, k in G.nodes(data="kind") if k == S.PAPER) == 2


def mention(type_, canonical, start, *, role="used", sentence="s", part_of=()):
    return Mention(
        type=type_,
        text=canonical,
        canonical=canonical,
        start=start,
        end=start + len(canonical),
        sentence=sentence,
        rule="test",
        score=0.9,
        role=role,
        part_of=part_of,
    )


def test_mentions_become_edges_label_applied_to_and_part_of():
    G = new_graph()
    plan_records(G, [record()])
    paper = S.paper_key(ABSTRACT)
    assemble_mentions(
        G,
        {
            paper: [
                mention("Method", "SparseNet", 0, role="proposed", sentence="a"),
                mention("Dataset", "MNLI", 10, sentence="a", part_of=("GLUE",)),
                mention("Metric", "accuracy", 20, sentence="b"),
                mention("Method", "SparseNet", 30, sentence="b"),
            ]
        },
    )
    assert G.edges[paper, "method:sparsenet", S.PROPOSES]["start"] == 0
    assert G.edges[paper, "dataset:mnli", S.EVALUATED_ON]["evidence"] == "a"
    assert (paper, "metric:accuracy", S.MEASURES) in G.edges
    assert G.nodes[paper]["label"] == "SparseNet"
    assert G.edges["dataset:mnli", "benchmark:glue", S.PART_OF] == {}
    applied = G.edges["method:sparsenet", "dataset:mnli", S.APPLIED_TO]
    assert applied == {
        "papers": 1,
        "paper_keys": [paper],
        "score": 1.0,
        "evidence": ["We apply a small model on CIFAR-10."],
        "evidence_at": ["0:35"],
    }


def test_reingesting_a_changed_paper_replaces_its_edges_and_prunes_orphans():
    G = new_graph()
    old = record(external_id="p1", authors=("Ada Lovelace",), area="A · B")
    to_extract, _, _ = plan_records(G, [old])
    mentions = {"paper:p1": [mention("Method", "OldNet", 0), mention("Dataset", "CIFAR-10", 9)]}
    assemble_mentions(G, mentions)
    assert "method:oldnet" in G and (("method:oldnet", "dataset:cifar-10", S.APPLIED_TO) in G.edges)
    new = record(
        abstract="A different abstract using NewNet.", external_id="p1", authors=("Alan Turing",)
    )
    to_extract, report, _ = plan_records(G, [new])
    assert report.updated_papers == 1 and [k for k, _ in to_extract] == ["paper:p1"]
    mentions["paper:p1"] = [mention("Method", "NewNet", 20)]
    assemble_mentions(G, mentions)
    assert "method:oldnet" not in G and "dataset:cifar-10" not in G
    assert "method:newnet" in G
    assert author_key("Ada Lovelace") not in G and author_key("Alan Turing") in G
    assert "area:a-b" not in G and G.nodes["paper:p1"]["area"] is None
    assert G.nodes["paper:p1"]["hash"] == S.content_hash(new.abstract)


def test_shipped_samples_build():
    from pathlib import Path

    samples = Path(__file__).resolve().parents[2] / "samples"
    G, report = build_graph([samples])
    assert report.problems == []
    assert (report.records, report.new_papers, report.duplicates) == (46, 44, 2)
    okonkwo = G.nodes[author_key("Marta Okonkwo")]
    assert okonkwo["variants"] == ["MARTA OKONKWO", "Marta Okonkwo"]
    assert okonkwo["name"] == "Marta Okonkwo"


def test_a_paper_the_extractors_fail_on_lands_without_entities_and_is_reported(
    tmp_path, monkeypatch
):
    from kg.extractors import find

    real = find.find_mentions
    monkeypatch.setattr(
        find,
        "find_mentions",
        lambda doc, *args: 1 / 0 if "MNLI" in doc.user_data["text"] else real(doc, *args),
    )
    listing = tmp_path / "a.jsonl"
    listing.write_text(
        json.dumps({"abstract": ABSTRACT})
        + "\n"
        + json.dumps({"abstract": "Another abstract about MNLI."})
        + "\n"
    )
    G, report = build_graph([listing])
    assert sum(1 for _, k in G.nodes(data="kind") if k == S.PAPER) == 2
    assert [str(p) for p in report.problems] == [
        "a.jsonl:2: extraction failed (ZeroDivisionError: division by zero); the paper is "
        "kept without entities; please report this as a bug"
    ]
    assert any(k == S.DATASET and G.nodes[n]["name"] == "CIFAR-10" for n, k in G.nodes(data="kind"))


def test_a_failed_extraction_is_a_kept_problem_not_a_skipped_record():
    from kg.extractors.read import Problem

    assert Problem("a.txt", 3, "bad line").report == "skipped a.txt:3: bad line"
    assert (
        Problem("a.txt", 3, "extraction failed", kept=True).report == "a.txt:3: extraction failed"
    )


def test_a_name_called_dataset_and_benchmark_is_one_node_of_its_majority_kind_and_name(tmp_path):
    listing = tmp_path / "a.jsonl"
    listing.write_text(
        "".join(
            json.dumps({"abstract": text}) + "\n"
            for text in (
                "We train a ResNet on the FooSet dataset.",
                "We fine-tune BERT on the FooSet dataset.",
                "We evaluate GPT-4 on the Foo-Set benchmark.",
            )
        )
    )
    G, _ = build_graph([listing])
    nodes = [
        (k, a["name"])
        for n, a in G.nodes(data=True)
        if (k := a["kind"]) in (S.DATASET, S.BENCHMARK)
    ]
    assert nodes == [(S.DATASET, "FooSet")]
    assert len(list(G.predecessors(S.entity_key(S.DATASET, "FooSet")))) >= 3
