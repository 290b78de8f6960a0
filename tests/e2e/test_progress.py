"""What long commands show as they work, on a real pseudo-terminal: the build's steps, the
engine loading on the first query after a build (and where its cache is), where kg viz
wrote index.html; and nothing of the kind when stderr is not a terminal."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.e2e.test_terminal import on_pty

PAPERS = [
    {
        "id": f"p{i}",
        "abstract": f"We evaluate BERT and GRPO on ImageNet and GLUE, variant {i}.",
        "authors": ["Ada Lovelace", f"Author {i}"],
    }
    for i in range(6)
]
STEPS = ["reading listings", "resolving names and author identity", "finding related papers"]


def seconds(what):
    return re.compile(rf"kg: {re.escape(what)} \.\.\. \d+\.\d s")


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    folder = tmp_path_factory.mktemp("progress")
    lines = [json.dumps(p) for p in PAPERS]
    (folder / "a.jsonl").write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    (folder / "b.jsonl").write_text("\n".join(lines[3:]) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def screens(work):
    """Screens of a fresh build, a build that adds, the first and second query, viz."""
    shown = {"build": on_pty("build", "a.jsonl", "-o", "g.kg", "--fresh", cwd=work)}
    shown["add"] = on_pty("build", "b.jsonl", "-o", "g.kg", cwd=work)
    shown["first-query"] = on_pty(
        "cypher", "MATCH (p:Paper) RETURN count(p) AS n", "-g", "g.kg", cwd=work
    )
    shown["second-query"] = on_pty("query", "top_collaborators", "-g", "g.kg", cwd=work)
    shutil.rmtree(work / "g.kg.falkordb")  # as after a library build: the query loads it
    shown["uncached-query"] = on_pty(
        "cypher", "MATCH (p:Paper) RETURN count(p) AS n", "-g", "g.kg", cwd=work
    )
    shown["viz"] = on_pty("viz", "-g", "g.kg", "-o", "pages", cwd=work)
    for name, (code, screen) in shown.items():
        assert code == 0, (name, screen)
    return {name: screen for name, (_, screen) in shown.items()}


def test_a_build_shows_each_step_with_its_time(screens, work):
    build = screens["build"]
    for what in [*STEPS, "saving g.kg"]:
        assert seconds(what).search(build), (what, build)
    assert "extracting" in build  # the bar between reading and resolving
    assert build.index("reading listings") < build.index("extracting") < build.index("resolving")
    assert "loading g.kg" not in build  # a fresh build loads nothing
    assert seconds("loading g.kg").search(screens["add"])


def test_the_build_prepares_the_engine_and_a_query_without_it_says_it_loads(screens, work):
    cache = os.path.join(str(work), "g.kg.falkordb") + os.sep
    built = screens["add"]
    assert "preparing the embedded Cypher engine" in built and cache in built, built
    assert "embedded engine" not in screens["first-query"]  # the build prepared it
    assert "embedded engine" not in screens["second-query"]
    uncached = screens["uncached-query"]
    assert "loading the graph into the embedded engine" in uncached and cache in uncached
    assert os.path.isdir(cache)


def test_viz_says_where_index_html_is(screens, work):
    assert os.path.join(str(work), "pages", "index.html") in screens["viz"]


def test_nothing_of_this_when_not_a_terminal(work):
    done = subprocess.run(
        [sys.executable, "-m", "kg", "build", "a.jsonl", "-o", "piped.kg"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "kg: reading" not in done.stderr and "extracting" not in done.stderr
    assert done.stderr == "", done.stderr
