"""Output paths that are symbolic links, whole-number parameters no engine can hold, and the
exit codes the README lists."""

import os
import re
from pathlib import Path

import pytest

from kg.cli_run import Terminated
from kg.errors import KgError, Locked
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


def exit_codes(path):
    """The codes of the exit-code table of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| ", text, flags=re.MULTILINE)
    return [int(code) for code in rows]


def test_the_exit_code_tables_say_what_kg_returns(tmp_path, monkeypatch, capsys):
    from kg import cli

    root = Path(__file__).resolve().parents[2]
    assert exit_codes(root / "README.md") == exit_codes(root / "docs/reliability.md")
    assert exit_codes(root / "README.md") == [0, 1, 2, 75, 130, 143]

    def raising(exc):
        def command(args):
            raise exc

        return command

    assert cli.main(["stats", "-g", str(tmp_path / "none.kg")]) == 1
    assert capsys.readouterr().err.startswith("kg: error: ")
    with pytest.raises(SystemExit) as usage:
        cli.main(["stats", "--top", "many"])
    assert usage.value.code == 2
    monkeypatch.setattr(cli, "cmd_stats", raising(Locked("another kg build holds g.kg.lock")))
    assert cli.main(["stats"]) == 75
    monkeypatch.setattr(cli, "cmd_stats", raising(KeyboardInterrupt()))
    assert cli.main(["stats"]) == 130
    monkeypatch.setattr(cli, "cmd_stats", raising(Terminated()))
    assert cli.main(["stats"]) == 143
    monkeypatch.setattr(cli, "cmd_stats", raising(BrokenPipeError()))
    assert cli.main(["stats"]) == 0
