"""Output paths that are symbolic links, and whole-number parameters no engine can hold."""

import os

import pytest

from kg.errors import KgError
from kg.files import atomic_output
from kg.query.named import bind, load_query, parse_values


def test_an_output_path_that_is_a_symlink_is_written_through(tmp_path):
    target, link = tmp_path / "real.kg", tmp_path / "link.kg"
    target.write_text("old")
    link.symlink_to(target.name)
    with atomic_output(link, "the graph file") as fh:
        fh.write("new")
    assert os.readlink(link) == target.name and target.read_text() == "new"
    assert sorted(os.listdir(tmp_path)) == ["link.kg", "real.kg"]


def test_a_dangling_symlink_writes_its_target(tmp_path):
    link = tmp_path / "link.kg"
    link.symlink_to(tmp_path / "made.kg")
    with atomic_output(link, "the graph file") as fh:
        fh.write("x")
    assert link.is_symlink() and (tmp_path / "made.kg").read_text() == "x"


@pytest.mark.parametrize(
    "pair",
    ["n=100000000000000000000000", "n=-9223372036854775809", "n=[1, 1e400, 10000000000000000000]"],
)
def test_cypher_parameters_beyond_64_bits_are_refused_in_one_line(pair):
    with pytest.raises(KgError, match=r"^parameter n is -?\d+, outside the 64-bit whole numbers"):
        parse_values([pair])


def test_cypher_parameters_at_the_64_bit_edges_pass():
    assert parse_values(["a=9223372036854775807", "b=-9223372036854775808"]) == {
        "a": 2**63 - 1,
        "b": -(2**63),
    }


def test_a_named_query_limit_beyond_64_bits_is_refused():
    query = load_query("top_collaborators")
    with pytest.raises(KgError, match="parameter limit is 1000000000000000000000, outside"):
        bind(query, {"limit": "1" + "0" * 21}, resolve=lambda labels, text: text)
