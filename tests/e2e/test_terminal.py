"""Hostile paper text on a real pseudo-terminal: no escape sequence, bell, C1 control or bidi
override from a paper reaches the screen from any command; JSON and CSV to a pipe keep the
text exact."""

import csv
import fcntl
import io
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

#: Everything a terminal acts on but newline, carriage return (the pty's line ends, progress
#: bars) and tab; undecodable bytes 0x80-0x9f (8-bit C1) show as surrogates \udc80-\udc9f.
CONTROL = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2066-\u2069\udc80-\udcff]"
)

EVE = "Eve\x1b[2J\x1b[H Clear"
MALLORY = "Mallory\x1b]0;owned\x07 Title"
OSCAR = "Oscar\x9b31m Csi"
REX = "Rex \u202eesreveR\u202c Bidi"
RED = "[red]Ruby[/red] Markup"
AUTHORS = [EVE, MALLORY, OSCAR, REX, RED]
#: A file name is shown too (sources, problem lines, pages).
SOURCE = "evil\x1b]0;file\x07\u202e.jsonl"
ABSTRACT = (
    "We propose Clear\x1b[2J, a method \x9b2J trained with \u202eGRPO on ImageNet "
    "\x1b]0;pwned\x07 and report accuracy."
)


def records():
    for i in range(4):
        yield {
            "id": f"hostile-{i}",
            "title": f"Paper {i} \x1b[31mred\x1b[0m \x07\u202e{RED}",
            "abstract": ABSTRACT + f" Variant {i}.",
            "authors": AUTHORS[i:] + AUTHORS[:i],
            "venue": "Venue\x1b[5m",
            "year": 2024,
        }


def on_pty(*args, cwd, timeout=180):
    """Exit code and screen text of ``kg ARGS`` with stdin, stdout and stderr on a pty."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))  # rows, columns
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env=env,
    )
    os.close(slave)
    out = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 1)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer has closed the pty
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
    code = proc.wait(timeout=30)
    return code, out.decode("utf-8", errors="surrogateescape")


def piped(*args, cwd):
    done = subprocess.run(
        [sys.executable, "-m", "kg", *args], cwd=cwd, capture_output=True, check=False
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    lines = [json.dumps(r, ensure_ascii=False) for r in records()]
    lines.append('["not an object \\u001b[2J"]')  # a problem line naming the file
    (folder / SOURCE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def screens(work):
    """What each command showed on the terminal."""
    shown = {"build": on_pty("build", SOURCE, "-o", "g.kg", "--fresh", cwd=work)}
    code, out, _ = piped("stats", "-g", "g.kg", "--json", cwd=work)
    key = json.loads(out)["top_authors"][0]["key"]
    commands = {
        "stats": ["stats", "-g", "g.kg"],
        "stats-json": ["stats", "-g", "g.kg", "--json"],
        "stats-identity": ["stats", "-g", "g.kg", "--identity"],
        "coauthors": ["query", "coauthors", "--param", f"author={key}", "-g", "g.kg"],
        "coauthors-csv": ["query", "coauthors", "--param", f"author={key}", "-g", "g.kg", "--csv"],
        "top-collaborators": ["query", "top_collaborators", "-g", "g.kg"],
        "not-found": ["query", "coauthors", "--param", "author=Eve Clearx", "-g", "g.kg"],
        "cypher": ["cypher", "MATCH (p:Paper) RETURN p.title, p.abstract, p.venue", "-g", "g.kg"],
        "cypher-json": ["cypher", "MATCH (a:Author) RETURN a.name", "-g", "g.kg", "--json"],
        "cypher-csv": ["cypher", "MATCH (a:Author) RETURN a.name", "-g", "g.kg", "--csv"],
        "extract": ["extract", SOURCE, "-o", "mentions.jsonl"],
        "viz": ["viz", "-g", "g.kg", "-o", "pages", "--author", key],
        "export": ["export", "-g", "g.kg", "--format", "graphml", "g.graphml"],
    }
    shown.update({name: on_pty(*argv, cwd=work) for name, argv in commands.items()})
    return shown


def test_no_control_sequence_from_paper_text_reaches_the_screen(screens):
    for name, (code, screen) in screens.items():
        assert code == (1 if name == "not-found" else 0), (name, screen)
        found = sorted({f"U+{ord(c):04X}" for c in CONTROL.findall(screen)})
        assert not found, (name, found, screen)


def test_the_hostile_text_is_shown_escaped_not_dropped(screens):
    assert "Eve\\x1b[2J\\x1b[H Clear" in screens["build"][1]  # top authors of the summary
    assert "skipped evil\\x1b]0;file\\x07\\u202e.jsonl:5" in screens["build"][1]
    assert "Mallory\\x1b]0;owned\\x07 Title" in screens["stats"][1]
    assert "[red]Ruby[/red] Markup" in screens["coauthors"][1]  # markup is text
    assert "Oscar\\x9b31m Csi" in screens["cypher-csv"][1]
    assert "Oscar\\u009b31m Csi" in screens["cypher-json"][1]
    assert "skipped evil\\x1b]0;file\\x07" in screens["extract"][1]


def test_json_and_csv_to_a_pipe_keep_the_text_exact(work, screens):
    titles = sorted(r["title"] for r in records())
    statement = "MATCH (p:Paper) RETURN p.title AS title"
    code, out, _ = piped("cypher", statement, "-g", "g.kg", "--json", cwd=work)
    assert code == 0 and sorted(r["title"] for r in json.loads(out)) == titles
    code, out, _ = piped("cypher", statement, "-g", "g.kg", "--csv", cwd=work)
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == ["title"] and sorted(r[0] for r in rows[1:]) == titles
    code, out, _ = piped("stats", "-g", "g.kg", "--json", cwd=work)
    names = {a["name"] for a in json.loads(out)["top_authors"]}
    assert {EVE, MALLORY, OSCAR, RED} < names  # (names lose bidi marks when read)
    assert json.loads(out)["sources"] == {SOURCE: 4}


def test_csv_with_no_rows_prints_the_header(work, screens):
    statement = "MATCH (a:Author {name: 'nobody'}) RETURN a.name AS name, a.key AS key"
    code, out, _ = piped("cypher", statement, "-g", "g.kg", "--csv", cwd=work)
    assert (code, out) == (0, "name,key\n")
