"""Neo4j's Cypher linter over the named queries (scripts/cypher-lint/, run by `make
cypher-lint` in CI): the shipped queries pass, and what it must catch fails the run."""

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from kg.query.named import list_queries

LINTER = Path(__file__).resolve().parents[2] / "scripts" / "cypher-lint"
spec = importlib.util.spec_from_file_location("cypher_lint_schema", LINTER / "schema.py")
assert spec and spec.loader
schema = importlib.util.module_from_spec(spec)
spec.loader.exec_module(schema)

HEADER = """// bad: a query with what the linter must report.
// Parameters:
//   $author: Author - an author's key
//   $hops: int = 2 (1..3) - how far
// Returns: key.
"""


@pytest.fixture(scope="module")
def lint():
    if shutil.which("node") is None:
        pytest.skip("node is not installed (sh .ci/debian.sh)")
    if not (LINTER / "node_modules").is_dir():
        pytest.skip("the Cypher linter is not installed (make test runs npm ci for it)")

    def run(directory, allowed=None, tmp=None):
        source = tmp / "input.json"
        source.write_text(json.dumps(schema.lint_input(Path(directory))))
        args = ["node", str(LINTER / "lint.mjs"), str(source)]
        if allowed is not None:
            (tmp / "allowed.json").write_text(json.dumps(allowed))
            args.append(str(tmp / "allowed.json"))
        done = subprocess.run(args, capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout.splitlines()

    return run


def test_lint_input_declares_each_files_parameters_with_their_types():
    data = schema.lint_input(Path(list_queries()[0].path).parent)
    by_name = {Path(q["path"]).stem: q for q in data["queries"]}
    assert sorted(by_name) == [q.name for q in list_queries()]
    assert by_name["coauthors_within"]["parameters"] == {"author": "key", "hops": 2}
    assert by_name["datasets_of"]["parameters"]["include_variants"] is False
    assert by_name["related_papers"]["parameters"]["limit"] == 10
    ends = {(e["from"], e["relType"], e["to"]) for e in data["schema"]["graphSchema"]}
    assert ("Method", "APPLIED_TO", "Concept") in ends  # a Dataset is also a Concept
    assert ("Author", "AUTHORED", "Paper") in ends
    assert "SIMILAR_TO" in data["schema"]["relationshipTypes"]


def test_the_named_queries_pass(lint, tmp_path):
    code, lines = lint(Path(list_queries()[0].path).parent, tmp=tmp_path)
    assert code == 0, lines
    assert lines[-1] == f"cypher lint: {len(list_queries())} files, 0 problems"


def test_warnings_and_errors_fail_with_file_and_line(lint, tmp_path):
    queries = tmp_path / "queries"
    queries.mkdir()
    (queries / "bad.cypher").write_text(
        HEADER
        + "MATCH (a:Author {key: $author}), (b:Author)\n"
        + "MATCH p = shortestPath((a)-[:AUTHORED*]-(b))\n"
        + "MATCH (b)-[:WROTE]->(:Book)\n"
        + "RETURN b.key AS key, $missing AS x\n"
    )
    code, lines = lint(queries, tmp=tmp_path)
    assert code == 1
    problems = [line for line in lines if line.startswith(str(queries / "bad.cypher"))]
    text = "\n".join(problems)
    assert ":7:" in text and "unbounded" in text
    assert ":8:" in text and "WROTE" in text and "Book" in text
    assert ":9:" in text and "$missing" in text
    assert "$hops" not in text and "$author" not in text
    assert lines[-1] == f"cypher lint: 1 files, {len(problems)} problems"


def test_the_allow_list_takes_a_problem_and_reports_stale_entries(lint, tmp_path):
    queries = tmp_path / "queries"
    queries.mkdir()
    (queries / "bad.cypher").write_text(
        HEADER + "MATCH p = shortestPath((:Author {key: $author})-[:AUTHORED*]-(:Author))\n"
        "RETURN length(p) AS key\n"
    )
    allowed = [
        {"file": "bad.cypher", "message": "unbounded pattern", "reason": "a test"},
        {"file": "other.cypher", "message": "anything", "reason": "allows nothing"},
        {"file": "bad.cypher", "message": "length"},
    ]
    code, lines = lint(queries, allowed=allowed, tmp=tmp_path)
    assert code == 1
    assert not any("unbounded" in line for line in lines)
    assert any("entry 2 (other.cypher) allows nothing" in line for line in lines)
    assert any("entry 3 (bad.cypher) gives no reason" in line for line in lines)
    code, lines = lint(queries, allowed=allowed[:1], tmp=tmp_path)
    assert code == 0, lines
