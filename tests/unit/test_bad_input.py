"""Bad input, one row per case: a file's content, the records that must land and the one
line each problem gets. To cover a new case, add a row to CASES."""

import json
import os
from dataclasses import dataclass, field
from typing import Any

import pytest

from kg.extractors.read import read_listings

GOOD = "We study sparse attention in small transformers and report faster training."
OTHER = "We propose an estimator for off-policy evaluation and test it on three tasks."


def jsonl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


@dataclass(frozen=True)
class Case:
    """``content`` written to ``file``; ``landed`` holds, per record that must land, the
    fields it must have; ``problems`` one fragment per problem line, in order."""

    id: str
    file: str
    content: str | bytes
    landed: list[dict[str, Any]]
    problems: list[str] = field(default_factory=list)
    format: str | None = None


CASES = [
    # ---- field types in JSON records
    Case(
        "authors-number",
        "a.jsonl",
        jsonl({"abstract": GOOD, "authors": 42}, {"abstract": OTHER, "authors": ["Ada Lovelace"]}),
        [{"authors": ()}, {"authors": ("Ada Lovelace",)}],
        ["a.jsonl:1: field 'authors' is a number (42), not a list of names or text"],
    ),
    Case(
        "authors-bool",
        "a.jsonl",
        jsonl({"abstract": GOOD, "authors": True}, {"abstract": OTHER}),
        [{"authors": ()}, {}],
        ["a.jsonl:1: field 'authors' is a boolean (true)"],
    ),
    Case(
        "authors-object-without-name",
        "a.jsonl",
        jsonl({"abstract": GOOD, "authors": {"aff": "MIT", "n": 2}}, {"abstract": OTHER}),
        [{"authors": ()}, {}],
        ["a.jsonl:1: field 'authors' is an object"],
    ),
    Case(
        "authors-one-object-with-name",
        "a.jsonl",
        jsonl({"abstract": GOOD, "authors": {"name": "Ada Lovelace", "aff": "X"}}),
        [{"authors": ("Ada Lovelace",)}],
    ),
    Case(
        "authors-nested-and-numbers",
        "a.jsonl",
        jsonl({"abstract": GOOD, "authors": [["Ada Lovelace", "Alan Turing"], 1, True, "Grace"]}),
        [{"authors": ("Grace",)}],
        ["a.jsonl:1: field 'authors' item 1 (a list), 2 (a number (1)), 3 (a boolean (true))"],
    ),
    Case(
        "author-objects-with-ids-stay-valid",
        "a.jsonl",
        jsonl(
            {
                "abstract": GOOD,
                "authors": [{"name": "Ada Lovelace", "orcid": "0000-0002-1825-0097"}],
            }
        ),
        [{"authors": ("Ada Lovelace",), "author_ids": ("orcid:0000-0002-1825-0097",)}],
    ),
    Case(
        "author-ids-number",
        "a.jsonl",
        jsonl({"abstract": GOOD, "authors": ["Ada Lovelace"], "author_ids": 7}),
        [{"authors": ("Ada Lovelace",), "author_ids": ()}],
        ["a.jsonl:1: field 'author_ids' is a number (7), not a list of ids or text"],
    ),
    Case(
        "year-too-big",
        "a.jsonl",
        jsonl({"abstract": GOOD, "year": 10**30}, {"abstract": OTHER, "year": 2021}),
        [{"year": None}, {"year": 2021}],
        ["a.jsonl:1: field 'year' is a number (10000000000000000...), not a year from 1 to 9999"],
    ),
    Case(
        "year-text-and-bool",
        "a.jsonl",
        jsonl({"abstract": GOOD, "year": "n.d."}, {"abstract": OTHER, "year": False}),
        [{"year": None}, {"year": None}],
        ["a.jsonl:1: field 'year' is text", "a.jsonl:2: field 'year' is a boolean (false)"],
    ),
    Case(
        "id-list",
        "a.jsonl",
        jsonl({"abstract": GOOD, "id": ["list-id"]}, {"abstract": OTHER, "id": 1234}),
        [{"external_id": None}, {"external_id": "1234"}],
        ["a.jsonl:1: field 'id' is a list, not text; the record lands without it"],
    ),
    Case(
        "title-venue-object-bool",
        "a.jsonl",
        jsonl({"abstract": GOOD, "title": {"en": "T"}, "venue": True}),
        [{"title": None, "venue": None}],
        ["a.jsonl:1: field 'title' is an object", "a.jsonl:1: field 'venue' is a boolean"],
    ),
    Case(
        "abstract-object",
        "a.jsonl",
        jsonl({"abstract": {"text": GOOD}}, {"abstract": OTHER}),
        [{"abstract": OTHER}],
        ["a.jsonl:1: record 1 has an abstract that is an object, not text; skipped"],
    ),
    Case(
        "json-array-names-the-record",
        "a.json",
        json.dumps([{"abstract": GOOD}, {"abstract": OTHER, "year": [2020]}]),
        [{}, {"year": None}],
        ["a.json: record 2: field 'year' is a list"],
    ),
    Case(
        "json-number-too-long",
        "a.jsonl",
        '{"abstract": "x y", "year": ' + "9" * 5000 + "}\n" + jsonl({"abstract": OTHER}),
        [{"abstract": OTHER}],
        ["a.jsonl:1: JSON holds a number with over 4,300 digits; skipped: fix the line"],
    ),
    Case(
        "json-nested-too-deep",
        "a.jsonl",
        '{"abstract": "x y", "authors": '
        + "[" * 100_000
        + "]" * 100_000
        + "}\n"
        + jsonl({"abstract": OTHER}),
        [{"abstract": OTHER}],
        ["a.jsonl:1: JSON nested too deep to read; skipped: fix the line"],
    ),
    Case(
        "json-document-nested-too-deep",
        "a.json",
        "[" * 100_000 + "]" * 100_000,
        [],
        ["a.json: JSON nested too deep to read; fix the file"],
    ),
    # ---- line endings and author lines
    Case(
        "cr-only-line-endings",
        "d.txt",
        f"Daily Papers\r\r{GOOD}\r\r{OTHER}\r",
        [{"abstract": GOOD, "line": 3}, {"abstract": OTHER, "line": 5}],
    ),
    Case(
        "cr-only-csv-and-jsonl",
        "p.csv",
        f'id,abstract\r1,{OTHER.replace(",", "")}\r2,"{GOOD}"\r',
        [{"external_id": "1", "line": 2}, {"external_id": "2", "abstract": GOOD, "line": 3}],
    ),
    Case(
        "crlf-jsonl",
        "a.jsonl",
        jsonl({"abstract": GOOD}, {"abstract": OTHER, "year": "x"}).replace("\n", "\r\n"),
        [{}, {"year": None}],
        ["a.jsonl:2: field 'year' is text"],
    ),
    Case(
        "csv-lone-cr-in-header",
        "p.csv",
        f"id,abstract\rx\n1,{OTHER.replace(',', '')}\n",
        [],
        ["p.csv:1: CSV header cannot be read (a carriage return (CR) inside a line"],
    ),
    Case(
        "csv-lone-cr-in-a-row",
        "p.csv",
        f"id,abstract\n1,{OTHER.replace(',', '')}\r 2\n2,{GOOD}\n",
        [{"external_id": "2"}],
        ["p.csv:2: bad CSV row (a carriage return (CR) inside a line"],
    ),
    Case(
        "glued-truncation-mark",
        "c.txt",
        f"论文检索\n\nAda Lovelace, Alan Turing等\n\n{GOOD}\n",
        [{"authors": ("Ada Lovelace", "Alan Turing"), "authors_truncated": True}],
    ),
    # ---- CSV
    Case(
        "csv-unclosed-quote-swallows-next",
        "p.csv",
        f'id,abstract,year\n1,"{GOOD},2020\n2,"{OTHER}",2021\n3,third paper abstract,2022\n',
        [{"external_id": "2", "abstract": OTHER}, {"external_id": "3"}],
        ["p.csv:2: a quoted field runs on into line 3, a record of its own; skipped"],
    ),
    Case(
        "csv-unclosed-quote-to-the-end",
        "p.csv",
        f'id,abstract\n1,{OTHER}\n2,"{GOOD}\nand more\n',
        [{"external_id": "1"}],
        ["p.csv:3: a quoted field is never closed (it runs to line 5); skipped"],
    ),
    Case(
        "csv-quoted-newline-keeps-words-apart",
        "p.csv",
        'id,abstract\n1,"We study sparse\nattention, and more."\n',
        [{"abstract": "We study sparse attention, and more."}],
    ),
    Case(
        "csv-semicolons",
        "p.csv",
        f"id;abstract;year\n1;{GOOD.replace(',', '')};2020\n",
        [{"external_id": "1", "year": 2020}],
    ),
    Case(
        "csv-tabs",
        "p.csv",
        f"title\tabstract\nT\t{GOOD}\n",
        [{"title": "T", "abstract": GOOD}],
    ),
    Case(
        "csv-no-abstract-column-says-what-it-found",
        "p.csv",
        "name,text_body\nx,y\n",
        [],
        [
            "p.csv:1: CSV header has no abstract column (one of abstract, summary, text); its "
            "first line reads as the columns 'name', 'text_body': add a header row"
        ],
    ),
    Case(
        "csv-duplicate-header",
        "p.csv",
        f"title,abstract,title\nfirst,{GOOD.replace(',', '')},second\n",
        [{"title": "second"}],
        ["p.csv:1: CSV header names the column 'title' 2 times; the last one is read"],
    ),
    # ---- BibTeX
    Case(
        "bibtex-unclosed-brace-costs-only-its-entry",
        "r.bib",
        f"@article{{a, title = {{Broken, abstract = {{{GOOD}}}}}\n"
        f"@article{{b, title = {{Fine}}, abstract = {{{OTHER}}}}}\n",
        [{"title": "Fine", "line": 2}],
        ["r.bib:1: entry is never closed before the next one; fix its braces"],
    ),
    Case(
        "bibtex-string-macros-and-concatenation",
        "r.bib",
        '@string{nips = "NeurIPS"}\n'
        f'@inproceedings{{a, booktitle = nips # " 2024", abstract = "{GOOD}", month = may}}\n',
        [{"venue": "NeurIPS 2024", "line": 2}],
    ),
    Case(
        "bibtex-escaped-quote-in-quoted-value",
        "r.bib",
        f'@article{{a, title = "The \\"Quoted\\" Word", abstract = "{GOOD}"}}\n',
        [{"title": 'The \\"Quoted\\" Word', "abstract": GOOD}],
    ),
    Case(
        "bibtex-bad-year-is-kept-without-it",
        "r.bib",
        f"@article{{a, year = {{forthcoming}}, abstract = {{{GOOD}}}}}\n",
        [{"year": None}],
        ["r.bib:1: field 'year' is text, not a year"],
    ),
    # ---- NUL, which no store of the graph carries: U+FFFD in its place, the key says so
    Case(
        "nul-in-abstract",
        "n.jsonl",
        jsonl({"abstract": "We study\u0000 sparse attention."}, {"abstract": OTHER}),
        [{"abstract": "We study\ufffd sparse attention."}, {"abstract": OTHER}],
        [
            "n.jsonl:1: field 'abstract' holds NUL (U+0000), which the graph cannot store; "
            "replaced by U+FFFD, so the paper's key is the hash of the cleaned abstract"
        ],
    ),
    Case(
        "nul-in-id-title-and-author",
        "n.jsonl",
        jsonl({"id": "x\u0000", "title": "T\u0000", "authors": ["A\u0000da"], "abstract": GOOD}),
        [{"external_id": "x\ufffd", "title": "T\ufffd", "authors": ("A\ufffdda",)}],
        [
            "n.jsonl:1: fields 'title', 'external_id', 'authors' hold NUL (U+0000), which the "
            "graph cannot store; replaced by U+FFFD, so the paper's key is made of the cleaned id"
        ],
    ),
    Case(
        "lone-surrogate-in-abstract",
        "n.jsonl",
        '{"abstract": "We study \\ud800 sparse attention."}\n',
        [{"abstract": "We study \ufffd sparse attention."}],
        ["n.jsonl:1: field 'abstract' holds a lone surrogate (U+D800-U+DFFF), which the graph"],
    ),
    Case(
        "other-control-characters-stay-data",
        "n.jsonl",
        jsonl({"title": "Bell\u0007 esc\u001b[2J", "abstract": GOOD}),
        [{"title": "Bell\x07 esc\x1b[2J"}],
    ),
    # ---- encodings
    Case(
        "utf16-with-bom",
        "u.txt",
        f"Daily Papers\n\n{GOOD}\n".encode("utf-16"),
        [],
        ["u.txt: is UTF-16 text, not UTF-8; convert it: iconv -f UTF-16 -t UTF-8"],
    ),
    Case(
        "utf16-without-bom",
        "u.jsonl",
        jsonl({"abstract": GOOD}, {"abstract": OTHER}).encode("utf-16-le"),
        [],
        ["u.jsonl: is UTF-16 text"],
    ),
]


def _read(path: str, format: str | None = None) -> tuple[list[Any], list[str]]:
    problems: list[Any] = []
    records = list(read_listings([path], format=format, problems=problems))
    return records, [p.report for p in problems]


def check(records: list[Any], lines: list[str], case: Case) -> None:
    assert len(records) == len(case.landed), (records, lines)
    for record, expected in zip(records, case.landed, strict=True):
        for name, value in expected.items():
            assert getattr(record, name) == value, (name, record)
    assert len(lines) == len(case.problems), lines
    for fragment in case.problems:
        assert any(fragment in line for line in lines), (fragment, lines)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(tmp_path, case):
    path = tmp_path / case.file
    if isinstance(case.content, bytes):
        path.write_bytes(case.content)
    else:
        path.write_text(case.content, encoding="utf-8", newline="")
    records, lines = _read(str(path), case.format)
    check(records, lines, case)


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    good = tmp_path / "g.jsonl"
    good.write_text(jsonl({"abstract": GOOD}, {"abstract": OTHER}))
    problems: list[Any] = []
    records = list(read_listings([str(fifo), str(good)], problems=problems))
    assert len(records) == 2
    assert [p.report for p in problems] == [
        f"skipped {fifo}: is a named pipe (FIFO), not a file; refused: save the listing "
        "to a file and pass that"
    ]


def test_symlink_loop_and_dangling_link_say_so(tmp_path):
    loop, dangling = tmp_path / "loop.jsonl", tmp_path / "gone.jsonl"
    loop.symlink_to(loop)
    dangling.symlink_to(tmp_path / "missing.jsonl")
    problems: list[Any] = []
    assert list(read_listings([str(loop), str(dangling)], problems=problems)) == []
    assert "is a symbolic link loop" in problems[0].message
    assert "is a symbolic link to" in problems[1].message and "missing.jsonl" in problems[1].message
