"""Tables of ``kg query``, ``kg cypher`` and ``kg stats`` fit an 80-column terminal (cells
counted with wcwidth: CJK names take two), name papers readably, hide key columns unless
asked; JSON and CSV keep the data exact and complete; nodes keep their labels."""

import csv
import io
import json
import os
import re
import subprocess
import sys

import pytest
from wcwidth import wcswidth

from kg.query.named import list_queries

LONG = (
    "A very long first sentence about reinforcement learning from human feedback that goes "
    "on and on about policies, rewards, preference models and evaluation protocols on "
    "ImageNet and GLUE without stopping for a long while. Then we use BERT."
)
PAPERS = [
    {
        "id": "p1",
        "abstract": "We propose GRPO-Zh, a reinforcement learning method for reasoning in "
        "Chinese, and evaluate it on ImageNet and GLUE with BERT as a baseline, improving "
        "accuracy by four points over PPO.",
        "authors": ["王小明", "李华 等", "Bernhard Schölkopf"],
    },
    {
        "id": "p2",
        "title": "面向大规模语言模型的强化学习推理方法研究：以数学推理与代码生成为例的系统性评测",
        "abstract": "We study PPO and GRPO for mathematical reasoning on GSM8K and MATH, and "
        "report accuracy and pass@1 for BERT and T5 models trained with DPO.",
        "authors": ["李华 等", "Ada Lovelace"],
    },
    {"id": "p3", "abstract": LONG, "authors": ["Ada Lovelace", "Bernhard Schölkopf"]},
]
#: Parameters for every named query on this graph.
PARAMS = {
    "coauthors": ["author=李华 等"],
    "coauthors_within": ["author=王小明"],
    "collaboration_path": ["source=王小明", "target=Ada Lovelace"],
    "datasets_of": ["method=BERT"],
    "methods_on": ["dataset=ImageNet"],
    "papers_with": ["concept=BERT"],
    "related_papers": ["paper=paper:p1"],
    "shared_concepts": ["paper=paper:p1", "other=paper:p3"],
    "top_collaborators": [],
    "top_method_dataset_pairs": [],
}
CYPHER = [
    "MATCH (p:Paper) RETURN p",
    "MATCH (p:Paper)-[r]->(c:Concept) RETURN p, r, c",
    "MATCH (p:Paper) RETURN p.key, p.title, p.abstract",
    "MATCH (a:Author)-[:AUTHORED]->(p:Paper) RETURN a.name, a.key, p.key, p.abstract, "
    "p.sources, p.hash, p.year, p.venue, p.area",
]


def kg(*args, cwd, columns="80"):
    env = dict(os.environ, COLUMNS=columns, PYTHONIOENCODING="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "kg", *args], cwd=cwd, env=env, capture_output=True, check=False
    )
    assert done.returncode == 0, (args, done.stderr.decode())
    return done.stdout.decode("utf-8")


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    lines = [json.dumps(p, ensure_ascii=False) for p in PAPERS]
    (folder / "papers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg("build", "papers.jsonl", "-o", "g.kg", "-q", cwd=folder)
    return folder


def query(name, *extra, cwd):
    params = [a for p in PARAMS[name] for a in ("--param", p)]
    return kg("query", name, *params, "-g", "g.kg", *extra, cwd=cwd)


def widest(text):
    return max(wcswidth(line) for line in text.splitlines())


def test_every_query_has_parameters_here():
    assert sorted(PARAMS) == sorted(q.name for q in list_queries())


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_query_tables_fit_80_columns(work, name):
    table = query(name, cwd=work)
    assert "(no rows)" not in table, name
    assert widest(table) <= 80, (name, table)
    assert widest(query(name, "--keys", cwd=work)) <= 80, name


@pytest.mark.parametrize("statement", CYPHER)
def test_cypher_tables_fit_80_columns(work, statement):
    table = kg("cypher", statement, "-g", "g.kg", cwd=work)
    assert widest(table) <= 80, table
    assert widest(kg("cypher", statement, "-g", "g.kg", cwd=work, columns="40")) <= 40


def test_stats_fit_80_columns(work):
    text = kg("stats", "-g", "g.kg", cwd=work)
    assert "李华 等" in text and widest(text) <= 80, text
    prolific = [line for line in text.splitlines() if line.endswith(" papers")]
    assert len({wcswidth(line) for line in prolific}) == 1, prolific  # aligned by cells


def test_wide_names_are_aligned_by_cells(work):
    rows = query("top_collaborators", cwd=work).splitlines()[2:-1]
    assert any("等" in row for row in rows)
    starts = {wcswidth(row[: re.search(r"\d", row).start()]) for row in rows}
    assert len(starts) == 1, rows  # the count column starts at one cell on every line


def test_keys_are_hidden_unless_asked(work):
    table = query("coauthors", cwd=work).splitlines()
    assert table[0].split() == ["coauthor", "shared", "papers"]
    assert "author:" not in "\n".join(table)
    with_keys = query("coauthors", "--keys", cwd=work).splitlines()
    assert with_keys[0].split() == ["coauthor", "key", "shared", "papers"]


def test_papers_without_a_title_are_named_by_their_abstract(work):
    table = " ".join(query("papers_with", cwd=work).split())
    assert "paper:p1" not in table and "paper:p3" not in table
    assert "GRPO-Zh USES" in table  # p1's label: the method it proposes
    assert "A very long first sentence about reinforcement learning… USES" in table
    cypher = " ".join(kg("cypher", "MATCH (p:Paper) RETURN p", "-g", "g.kg", cwd=work).split())
    assert "(:Paper) GRPO-Zh" in cypher and "(:Paper) A very long first sentence" in cypher


def test_json_and_csv_keep_the_data_exact_and_complete(work):
    rows = json.loads(query("papers_with", "--json", cwd=work))
    assert sorted(r["key"] for r in rows) == ["paper:p1", "paper:p2", "paper:p3"]
    assert {r["paper"] for r in rows} == {"GRPO-Zh", PAPERS[1]["title"], "paper:p3"}
    lines = list(csv.reader(io.StringIO(query("papers_with", "--csv", cwd=work))))
    assert lines[0] == ["paper", "key", "relations"] and len(lines) == 4
    statement = "MATCH (p:Paper {key: 'paper:p3'}) RETURN p.abstract AS abstract"
    [row] = json.loads(kg("cypher", statement, "-g", "g.kg", "--json", cwd=work))
    assert row["abstract"] == LONG


def test_cypher_nodes_and_relationships_keep_labels_and_type(work):
    statement = (
        "MATCH (p:Paper {key: 'paper:p2'})-[r:USES]->(m:Method {key: 'method:t5'}) RETURN p, r, m"
    )
    [row] = json.loads(kg("cypher", statement, "-g", "g.kg", "--json", cwd=work))
    assert row["p"]["_labels"] == ["Paper"] and row["p"]["title"] == PAPERS[1]["title"]
    assert row["m"]["_labels"] == ["Method", "Concept"] and row["m"]["name"] == "T5"
    assert row["r"]["_type"] == "USES" and row["r"]["text"] == "T5"
    table = kg("cypher", statement, "-g", "g.kg", cwd=work)
    assert "(:Method:Concept) T5" in table and "[:USES] T5" in table
