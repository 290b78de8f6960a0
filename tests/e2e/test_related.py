"""Related papers of a text not in the graph (loads the extractors), from Python and the CLI."""

import json

from kg.cli import main
from kg.query.example import example_graph
from kg.store.graphfile import save_graph
from kg.traverse import related_papers


def test_related_papers_of_a_text_not_in_the_graph():
    rows = related_papers(example_graph(), text="Sharper bounds on regret for GRPO.", limit=2)
    assert [(r["paper"], r["shared"]) for r in rows] == [
        ("Sharper Bounds", ["GRPO"]),
        ("Bandits Again", ["GRPO"]),
    ]
    assert all(r["score"] > r["text_score"] > 0 for r in rows)


def test_cli_query_related_papers_of_a_text(tmp_path, capsys):
    graph = str(save_graph(example_graph(), tmp_path / "g.kg"))
    argv = ["query", "related_papers", "--text", "Regret again.", "--param", "limit=1"]
    assert main(argv + ["-g", graph, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["paper"] for r in rows] == ["Lonely Paper"]
    assert main(["query", "coauthors", "--text", "x", "-g", graph]) == 1
    assert "--text goes with the query related_papers" in capsys.readouterr().err
