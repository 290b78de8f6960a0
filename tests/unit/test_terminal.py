"""Text made safe for a terminal, and the renderers and summaries that use it."""

import csv
import io
import json
import re

import pytest

from kg.graph.stats import format_stats
from kg.query.render import Rows, format_csv, format_table, render
from kg.terminal import print_json, safe_json, safe_text, say

#: What a terminal acts on: C0 but newline and tab, DEL, C1, bidi controls, lone surrogates.
CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff]"
)

HOSTILE = [
    "Eve\x1b[2J\x1b[H",  # clear the screen
    "Mallory\x1b]0;owned\x07",  # set the window title (OSC ... BEL)
    "Trudy\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",  # OSC 8 hyperlink, ST-terminated
    "Oscar\x9b31m",  # the one-character CSI (C1)
    "\u202eesreveR\u202c Rex \u2066iso\u2069 \u200fmark",  # bidi overrides and isolates
    "Carl\rovertyped\x08\x7f",
    "Lone \ud800 surrogate",
    "[red]not markup[/red]",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_safe_text_leaves_nothing_a_terminal_acts_on(text):
    assert not CONTROL.search(safe_text(text, keep=""))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Eve\x1b[2J", "Eve\\x1b[2J"),
        ("Oscar\x9b31m", "Oscar\\x9b31m"),
        ("a\u202eb", "a\\u202eb"),
        ("Rémi Munos 等 [red]", "Rémi Munos 等 [red]"),  # letters and brackets are text
        ("line\nnext\ttab", "line\nnext\ttab"),
    ],
)
def test_safe_text_shows_controls_as_escapes(text, expected):
    assert safe_text(text) == expected


def test_safe_text_escapes_newline_and_tab_unless_kept():
    assert safe_text("a\nb\tc", keep="") == "a\\x0ab\\x09c"


@pytest.mark.parametrize("text", HOSTILE)
def test_safe_json_keeps_the_values(text):
    dumped = json.dumps([{"name": text}], ensure_ascii=False, indent=1)
    shown = safe_json(dumped)
    assert not CONTROL.search(shown.replace("\n", ""))
    assert json.loads(shown) == [{"name": text}]


def test_table_cells_and_columns_are_always_safe():
    rows = [{"name\x1b[2J": name, "n": 1} for name in HOSTILE]
    table = format_table(rows)
    assert not CONTROL.search(table.replace("\n", ""))
    assert "Eve\\x1b[2J\\x1b[H" in table and "[red]not markup[/red]" in table
    assert table.splitlines()[0].startswith("name\\x1b[2J")


def test_render_keeps_json_and_csv_exact_off_a_terminal():
    rows = [{"name": name, "papers": [name]} for name in HOSTILE]
    assert json.loads(render(rows, "json")) == rows
    parsed = list(csv.reader(io.StringIO(render(rows, "csv"))))
    assert parsed == [["name", "papers"]] + [[name, name] for name in HOSTILE]


def test_render_makes_json_and_csv_safe_on_a_terminal():
    rows = [{"name": name} for name in HOSTILE]
    as_json = render(rows, "json", terminal=True)
    assert json.loads(as_json) == rows  # same values, escaped
    as_csv = render(rows, "csv", terminal=True)
    for text in (as_json, as_csv):
        assert not CONTROL.search(text.replace("\n", ""))
    assert "Mallory\\x1b]0;owned\\x07" in as_csv


def test_csv_of_no_rows_prints_the_header():
    assert render(Rows(["name", "papers"]), "csv") == "name,papers\n"
    assert render(Rows(["name"]), "table") == "(no rows)\n"
    assert render(Rows(["name"]), "json") == "[]\n"


def test_rows_keep_columns_in_return_order_beside_the_row_keys():
    rows = Rows(["b", "a"], [{"b": 1, "a": 2}])
    assert rows == [{"b": 1, "a": 2}] and format_csv(rows) == "b,a\n1,2\n"


def test_format_stats_shows_hostile_names_on_one_line_each():
    authors = [{"name": name, "papers": 2, "coauthors": 3} for name in HOSTILE]
    stats = {
        "nodes": {"Paper": 2},
        "relationships": {},
        "papers": 2,
        "papers_with_authors": 2,
        "sources": {"evil\x1b]0;t\x07.jsonl": 2},
        "top_authors": authors,
        "most_connected_authors": authors,
    }
    text = format_stats(stats)
    assert not CONTROL.search(text.replace("\n", ""))
    assert len(text.splitlines()) == 7 + 2 * len(HOSTILE)


def test_say_and_print_json_write_safe_text(capsys):
    say("kg: Eve\x1b[2J\nnext")
    assert capsys.readouterr().out == "kg: Eve\\x1b[2J\nnext\n"
    print_json('["\u202e"]')  # not a terminal: exact
    assert capsys.readouterr().out == '["\u202e"]\n'
