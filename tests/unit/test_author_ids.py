"""Author ids in listings: author objects, a parallel ``author_ids`` list, CSV, bad ids."""

import json

import pytest

from kg.extractors.read import read_listings
from kg.extractors.read.author_ids import id_of_author, normalise_id

ABSTRACT = "We study how sparse attention changes the training dynamics of small transformers."
ORCID = "0000-0002-1825-0097"


def read(path):
    problems = []
    return list(read_listings([str(path)], problems=problems)), problems


@pytest.mark.parametrize(
    "value, scheme, expected",
    [
        (ORCID, None, f"orcid:{ORCID}"),
        (f"https://orcid.org/{ORCID}", None, f"orcid:{ORCID}"),
        ("0000-0002-1825-009X", "orcid", "orcid:0000-0002-1825-009X"),
        ("https://openalex.org/a5023888391", None, "openalex:A5023888391"),
        ("s2:1741101", None, "s2:1741101"),
        (1741101, "s2", "s2:1741101"),
        ("", None, None),
        ("Ann Lee", None, None),
        ("0000-0002", "orcid", None),
        ("12 34", "s2", None),
    ],
)
def test_normalise_id(value, scheme, expected):
    assert normalise_id(value, scheme) == expected


def test_an_author_object_gives_its_preferred_id():
    assert id_of_author({"name": "A", "authorId": "17", "orcid": ORCID}) == f"orcid:{ORCID}"
    assert id_of_author({"name": "A", "authorId": "17"}) == "s2:17"
    assert id_of_author({"name": "A"}) is None and id_of_author("A") is None


def test_jsonl_author_objects_and_a_parallel_list(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(
        json.dumps(
            {"abstract": ABSTRACT, "authors": [{"name": "Ann Lee", "orcid": ORCID}, {"name": "Bo"}]}
        )
        + "\n"
        + json.dumps(
            {
                "abstract": ABSTRACT + " Again.",
                "authors": ["Ann Lee", "Bo", "Cy"],
                "author_ids": [f"https://orcid.org/{ORCID}", None, "openalex:A12"],
            }
        )
        + "\n"
        + json.dumps({"abstract": ABSTRACT + " Thrice.", "authors": ["Ann Lee", "Bo"]})
        + "\n"
    )
    records, problems = read(path)
    assert [r.author_ids for r in records] == [
        (f"orcid:{ORCID}", None),
        (f"orcid:{ORCID}", None, "openalex:A12"),
        (),
    ]
    assert problems == []


def test_csv_ids_separated_by_semicolons_and_a_wrong_count_is_a_kept_problem(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(
        "abstract,authors,author_ids\n"
        f'"{ABSTRACT}","Ann Lee, Bo","{ORCID};"\n'
        f'"{ABSTRACT} Two.","Ann Lee, Bo","{ORCID}"\n'
    )
    records, problems = read(path)
    assert [r.author_ids for r in records] == [(f"orcid:{ORCID}", None), ()]
    assert [(p.line, p.message, p.kept) for p in problems] == [
        (
            3,
            "author_ids has 1 entries for 2 authors; ids ignored: give one per author "
            "(empty for none)",
            True,
        )
    ]
