"""Listing readers: formats, detection, authors, and every kind of bad input."""

import json

import pytest

from kg.extractors.read import FORMATS, LISTING_SUFFIXES, detect_format, read_listings
from kg.extractors.read.bibtex import parse_bibtex
from kg.extractors.read.files import ReadError
from kg.extractors.read.text import is_author_line, split_author_names

ABSTRACT_A = (
    "We study how sparse attention changes the training dynamics of small "
    "transformers. Experiments on CIFAR-10 show faster convergence."
)
ABSTRACT_B = (
    "We propose a new method for off-policy evaluation. It is evaluated with "
    "accuracy on three benchmarks."
)


def read(paths, **kw):
    problems = []
    records = list(read_listings([str(p) for p in paths], problems=problems, **kw))
    return records, problems


def write(tmp_path, name, text, mode="w"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


CONFERENCE = f"""论文检索

Theory · Learning Theory

Ada Lovelace, Alan Turing

{ABSTRACT_A}

Grace Hopper, Edsger W. Dijkstra, Barbara Liskov 等

{ABSTRACT_B}
"""


def test_read_conference_areas_authors_and_truncation(tmp_path):
    records, problems = read([write(tmp_path, "conf.txt", CONFERENCE)])
    assert problems == []
    assert [r.area for r in records] == ["Theory · Learning Theory", None]
    assert records[0].authors == ("Ada Lovelace", "Alan Turing")
    assert records[1].authors == ("Grace Hopper", "Edsger W. Dijkstra", "Barbara Liskov")
    assert [r.authors_truncated for r in records] == [False, True]
    assert [(r.source, r.index, r.line) for r in records] == [
        ("conf.txt", 0, 7),
        ("conf.txt", 1, 11),
    ]


def test_read_daily_paragraphs(tmp_path):
    text = f"Daily Papers\n\n{ABSTRACT_A}\n\n{ABSTRACT_B[:40]}\n{ABSTRACT_B[40:]}\n"
    records, problems = read([write(tmp_path, "daily.txt", text)])
    assert problems == []
    assert [r.abstract for r in records] == [ABSTRACT_A, ABSTRACT_B[:40] + " " + ABSTRACT_B[40:]]
    assert all(r.authors == () for r in records)


@pytest.mark.parametrize(
    "text, names, truncated",
    [
        ("Lisa Titus, Maya Okawa 等", ["Lisa Titus", "Maya Okawa"], True),
        ("Maya Okawa", ["Maya Okawa"], False),
        ("A. Smith; B. Jones; C. Wu et al.", ["A. Smith", "B. Jones", "C. Wu"], True),
        ("Ada Lovelace and Alan Turing and others", ["Ada Lovelace", "Alan Turing"], True),
        ("Gengrui (Edward) Zhang, Benz", ["Gengrui (Edward) Zhang", "Benz"], False),
    ],
)
def test_split_author_names(text, names, truncated):
    assert split_author_names(text) == (names, truncated)


@pytest.mark.parametrize(
    "line, expected",
    [
        ("Mihaela van der Schaar, T. Anderson Keller", True),
        ("Fan JIA, Olivier VO VAN", True),
        ("In this paper, we study bandits.", False),
        ("Experiments on CIFAR-10, ImageNet and COCO", False),
    ],
)
def test_is_author_line(line, expected):
    assert is_author_line(line) is expected


def test_read_jsonl_fields(tmp_path):
    rows = [
        {
            "id": "2401.00001",
            "title": "T1",
            "abstract": ABSTRACT_A,
            "authors": ["Ada Lovelace", "Alan Turing"],
            "categories": ["cs.LG", "cs.AI"],
            "year": 2024,
        },
        {
            "arxiv_id": "x2",
            "summary": ABSTRACT_B,
            "authors": "Grace Hopper and Barbara Liskov",
            "venue": "icml",
        },
        {"text": ABSTRACT_A + " More.", "authors": [{"name": "Edsger Dijkstra"}]},
    ]
    path = write(tmp_path, "p.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    records, problems = read([path])
    assert problems == []
    assert [r.external_id for r in records] == ["2401.00001", "x2", None]
    assert records[0].area == "cs.LG" and records[0].year == 2024 and records[0].title == "T1"
    assert records[1].authors == ("Grace Hopper", "Barbara Liskov")
    assert records[1].venue == "icml"
    assert records[2].authors == ("Edsger Dijkstra",)


def test_read_json_array_and_csv(tmp_path):
    js = write(tmp_path, "p.json", json.dumps([{"abstract": ABSTRACT_A, "title": "J"}]))
    csv_text = (
        f'title,authors,abstract,year\n"C, one","Ada Lovelace, Alan Turing","{ABSTRACT_B}",2023\n'
    )
    cs = write(tmp_path, "p.csv", csv_text)
    records, problems = read([js, cs])
    assert problems == []
    assert [r.title for r in records] == ["J", "C, one"]
    assert records[1].authors == ("Ada Lovelace", "Alan Turing") and records[1].year == 2023


def test_read_bibtex(tmp_path):
    bib = (
        "@comment{ignored}\n"
        "@inproceedings{lovelace2024,\n"
        "  title = {Sparse {Attention} Dynamics},\n"
        "  author = {Lovelace, Ada and Turing, Alan and others},\n"
        f"  abstract = {{{ABSTRACT_A}}},\n"
        "  booktitle = {Proc. Something},\n  year = 2024,\n  doi = {10.1/abc}\n}\n"
        '@article{nobody, title = "No abstract here"}\n'
    )
    records, problems = read([write(tmp_path, "refs.bib", bib)])
    assert len(records) == 1
    r = records[0]
    assert r.title == "Sparse Attention Dynamics" and r.authors == ("Ada Lovelace", "Alan Turing")
    assert r.authors_truncated and r.external_id == "10.1/abc" and r.year == 2024
    assert (
        len(problems) == 1
        and "refs.bib:10" in str(problems[0])
        and "no abstract" in str(problems[0])
    )


def test_parse_bibtex_unclosed_entry_names_line():
    with pytest.raises(ReadError) as err:
        list(parse_bibtex("\n\n@article{k, title={x}"))
    assert err.value.line == 3


def test_detect_format_by_content(tmp_path):
    assert detect_format("x.txt", ["论文检索", "", "A B, C D"]) == "conference"
    assert detect_format("x", ["Daily Papers"]) == "daily"
    assert detect_format("x", ['{"a": 1}', '{"a": 2}']) == "jsonl"
    assert detect_format("x", ["[", "]"]) == "json"
    assert detect_format("x", ["@article{k,"]) == "bibtex"
    assert detect_format("x.csv", ["a,b"]) == "csv"


def test_forced_format(tmp_path):
    path = write(tmp_path, "listing.dat", f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n")
    records, problems = read([path], format="daily")
    assert len(records) == 2 and problems == []


def test_directories_globs_and_repeated_files(tmp_path):
    sub = tmp_path / "in"
    sub.mkdir()
    a = write(sub, "a.txt", f"Daily Papers\n\n{ABSTRACT_A}\n")
    write(sub, "b.jsonl", json.dumps({"abstract": ABSTRACT_B}) + "\n")
    write(sub, "notes.log", "ignored")
    write(sub, "README.md", "# About these listings\n\nNot a paper, so not read.\n")
    records, problems = read([sub, a, str(sub / "*.jsonl")])
    assert problems == []
    assert sorted(r.source for r in records) == ["a.txt", "b.jsonl"]


# ---------------------------------------------------------------- bad input


def test_missing_path_is_reported_and_rest_lands(tmp_path):
    good = write(tmp_path, "good.txt", f"Daily Papers\n\n{ABSTRACT_A}\n")
    records, problems = read([tmp_path / "nope.txt", good])
    assert len(records) == 1
    assert len(problems) == 1 and "nope.txt: no such file or directory" in str(problems[0])


def test_empty_and_binary_files(tmp_path):
    empty = write(tmp_path, "empty.txt", "")
    binary = write(tmp_path, "blob.jsonl", b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    records, problems = read([empty, binary])
    assert records == []
    messages = [str(p) for p in problems]
    assert messages[0].endswith("empty.txt: file is empty; nothing to read")
    assert "blob.jsonl: looks like a binary file" in messages[1]


def test_non_utf8_line_skips_only_its_record(tmp_path):
    data = (
        ("Daily Papers\n\n" + ABSTRACT_A + "\n\n").encode()
        + b"caf\xe9 abstract.\n\n"
        + ABSTRACT_B.encode()
        + b"\n"
    )
    records, problems = read([write(tmp_path, "latin.txt", data)])
    assert [r.abstract for r in records] == [ABSTRACT_A, ABSTRACT_B]
    assert [r.index for r in records] == [0, 2]
    assert len(problems) == 1 and "latin.txt:5: not valid UTF-8" in str(problems[0])


def test_bad_jsonl_lines(tmp_path):
    lines = [
        json.dumps({"abstract": ABSTRACT_A}),
        "{not json",
        json.dumps({"title": "x"}),
        json.dumps(["a list"]),
        json.dumps({"abstract": ABSTRACT_B}),
    ]
    records, problems = read([write(tmp_path, "p.jsonl", "\n".join(lines))])
    assert [r.abstract for r in records] == [ABSTRACT_A, ABSTRACT_B]
    assert [p.line for p in problems] == [2, 3, 4]
    assert "not valid JSON" in problems[0].message
    assert "has no abstract" in problems[1].message
    assert "not an object" in problems[2].message


def test_huge_single_line(tmp_path):
    big = "word " * 10_000_000  # 50 MB on one line
    path = write(
        tmp_path,
        "huge.jsonl",
        json.dumps({"abstract": ABSTRACT_A}) + "\n" + json.dumps({"abstract": big}) + "\n",
    )
    records, problems = read([path])
    assert [r.abstract for r in records] == [ABSTRACT_A]
    assert len(problems) == 1 and problems[0].line == 2 and "too long" in problems[0].message


def test_huge_paragraph_in_text_listing(tmp_path):
    path = write(tmp_path, "huge.txt", "Daily Papers\n\n" + "x " * 200_000 + "\n\n" + ABSTRACT_A)
    records, problems = read([path])
    assert [r.abstract for r in records] == [ABSTRACT_A]
    assert "over the 100,000" in problems[0].message


def test_bad_json_document_and_csv_without_abstract(tmp_path):
    bad = write(tmp_path, "bad.json", '[{"abstract": "x"},')
    nocol = write(tmp_path, "n.csv", "title,year\nT,2020\n")
    records, problems = read([bad, nocol])
    assert records == []
    assert "bad.json" in str(problems[0]) and "not valid JSON" in str(problems[0])
    assert "n.csv:1: CSV header has no abstract column" in str(problems[1])


def test_the_format_registry_names_each_format_once_in_its_order():
    assert FORMATS == ("conference", "daily", "jsonl", "json", "csv", "bibtex")
    assert LISTING_SUFFIXES == {".txt", ".jsonl", ".ndjson", ".json", ".csv", ".bib"}


@pytest.mark.parametrize(
    "path, lines, expected",
    [
        ("x.json", ['{"a": 1}', '{"a": 2}'], "jsonl"),
        ("x.json", ['{"a": 1}'], "json"),
        ("x.json", ["not json"], "json"),
        ("x.jsonl", ["[]"], "jsonl"),
        ("x.txt", ["Daily Papers", "", "Theory · Optimization"], "daily"),
        ("x.txt", ["A paper.", "", "Theory · Optimization"], "conference"),
        ("x.bib", ["% a comment"], "bibtex"),
    ],
)
def test_detect_format_by_suffix_then_content(path, lines, expected):
    assert detect_format(path, lines) == expected
