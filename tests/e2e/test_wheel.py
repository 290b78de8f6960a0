"""kg as a user without the checkout gets it: the wheel, installed (not editable) into a fresh
virtualenv from wheels only, so no compiler runs, then used from a folder outside the checkout."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(600)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh virtualenv holding kg's wheel and its dependencies, all from wheels."""
    root = tmp_path_factory.mktemp("wheel")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(root / "dist"),
            str(REPO),
        ]
    )
    (wheel,) = (root / "dist").glob("kg_research_graph-*.whl")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    # --only-binary=:all: refuses every source distribution: nothing is compiled.
    env = {**os.environ, "CC": "false", "CXX": "false"}
    run([str(venv / "bin" / "pip"), "install", "-q", "--only-binary=:all:", str(wheel)], env=env)
    return venv


def test_the_wheel_installs_kg_and_its_queries_into_site_packages(installed, tmp_path):
    code = (
        "import kg, kg.queries, kg.extractors.lexicon as lx; from importlib.resources import files;"
        "print(kg.__file__); print(next(p for p in files('kg.queries').iterdir()"
        " if p.name.endswith('.cypher'))); print(lx.LEXICON_PATH)"
    )
    lines = run([str(installed / "bin" / "python"), "-c", code], cwd=tmp_path).splitlines()
    site = str(installed / "lib")
    assert len(lines) == 3 and all(line.startswith(site) for line in lines), lines
    assert "site-packages" in lines[0] and lines[1].endswith(".cypher")


def test_the_installed_kg_lists_queries_and_builds_samples_outside_the_checkout(
    installed, tmp_path
):
    kg = str(installed / "bin" / "kg")
    listing = run([kg, "query", "--list"], cwd=tmp_path)
    assert "coauthors author=<Author>" in listing and "related_papers" in listing
    run([kg, "build", str(REPO / "samples"), "-o", "graph.kg", "--quiet"], cwd=tmp_path)
    assert (tmp_path / "graph.kg").stat().st_size > 0
    rows = run([kg, "query", "top_collaborators", "-g", "graph.kg", "--json"], cwd=tmp_path)
    assert rows.lstrip().startswith("[") and '"author"' in rows
