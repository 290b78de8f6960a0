"""kg.export: neo4j-admin CSV files, GraphML and GEXF from a hand-built graph."""

import csv
import errno
import os
import warnings
from xml.etree import ElementTree

import networkx as nx
import pytest

from kg.errors import KgError, KgNote, OutputError
from kg.export import ARRAY_DELIMITER, export_graph
from tests.helpers.neo4j_graphs import paper, small_graph


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_neo4j_csv_headers_and_rows(tmp_path):
    G = small_graph()
    command = export_graph(G, tmp_path, format="neo4j-csv")
    files = sorted(p.name for p in tmp_path.iterdir())
    assert "nodes-Paper.csv" in files and "relationships-AUTHORED.csv" in files
    assert len([f for f in files if f.startswith("nodes-")]) == 8
    methods = read_csv(tmp_path / "nodes-Method.csv")
    assert methods[0] == ["key:ID", "aliases:string[]", "long_form", "name", ":LABEL"]
    lora = next(row for row in methods if row[0] == "method:lora")
    assert lora == [
        "method:lora",
        "Low-Rank Adaptation",
        "",
        "LoRA",
        f"Method{ARRAY_DELIMITER}Concept",
    ]
    papers = read_csv(tmp_path / "nodes-Paper.csv")
    assert papers[0] == [
        "key:ID",
        "abstract",
        "area",
        "hash",
        "label",
        "sources:string[]",
        "title",
        "venue",
        "year:int",
        ":LABEL",
    ]
    assert len(papers) == 4
    mix = next(row for row in papers if row[0] == paper("mix"))
    assert mix[1] == G.nodes[paper("mix")]["abstract"]
    authored = read_csv(tmp_path / "relationships-AUTHORED.csv")
    assert authored[0] == [
        ":START_ID",
        ":END_ID",
        ":TYPE",
        "position:int",
        "truncated_list:boolean",
    ]
    assert len(authored) == 1 + 7 and authored[1][2:] in (
        ["AUTHORED", "1", "false"],
        ["AUTHORED", "2", "false"],
        ["AUTHORED", "3", "false"],
    )
    uses = read_csv(tmp_path / "relationships-USES.csv")
    assert uses[0][3:] == ["end:int", "evidence", "rule", "score:float", "start:int", "text"]
    assert command.startswith("neo4j-admin database import full neo4j --nodes=")
    assert f"--relationships={tmp_path}/relationships-USES.csv" in command
    assert command.endswith(
        "--array-delimiter=U+001F --multiline-fields=true --overwrite-destination=true"
    )
    assert (tmp_path / "import-command.txt").read_text() == command + "\n"
    assert "REQUIRE n.key IS UNIQUE" in (tmp_path / "constraints.cypher").read_text()


HOSTILE = "nul \x00 bell \x07 esc \x1b[2J unit \x1f ffff \uffff tab\tnewline\nend"
CLEANED = "nul \ufffd bell \ufffd esc \ufffd[2J unit \ufffd ffff \ufffd tab\tnewline\nend"


def hostile_graph():
    G = small_graph()
    G.nodes["method:lora"]["aliases"] = ["a\x1fb", "c\x00"]
    G.nodes[paper("mix")]["abstract"] = HOSTILE
    G.graph["note"] = "graph \x01"
    return G


def test_neo4j_csv_writes_control_characters_as_u_fffd_and_says_so_once(tmp_path):
    with pytest.warns(KgNote) as notes:
        export_graph(hostile_graph(), tmp_path, format="neo4j-csv")
    assert [str(n.message) for n in notes] == [
        "3 values held control characters (such as NUL) that the neo4j-admin CSV files cannot "
        "carry; written with U+FFFD in their place"
    ]
    methods = read_csv(tmp_path / "nodes-Method.csv")
    lora = next(row for row in methods if row[0] == "method:lora")
    assert lora[1].split(ARRAY_DELIMITER) == ["a\ufffdb", "c\ufffd"]
    papers = read_csv(tmp_path / "nodes-Paper.csv")
    assert CLEANED in [cell for row in papers for cell in row]


@pytest.mark.parametrize("format", ["graphml", "gexf"])
def test_xml_exports_are_well_formed_under_control_characters(tmp_path, format):
    path = tmp_path / f"graph.{format}"
    with pytest.warns(KgNote, match=f"that {format} \\(XML 1.0\\) cannot carry") as notes:
        export_graph(hostile_graph(), path, format=format)
    assert len(notes) == 1 and str(notes[0].message).startswith(
        "2 values held"
    )  # lists go as JSON text, escaped
    ElementTree.parse(path)  # expat: a strict parser, which refuses any of those characters
    H = (nx.read_graphml if format == "graphml" else nx.read_gexf)(path)
    assert H.nodes[paper("mix")]["abstract"] == CLEANED


def test_an_export_without_control_characters_gives_no_note(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        export_graph(small_graph(), tmp_path / "g.graphml", format="graphml")


@pytest.mark.parametrize("format, reader", [("graphml", nx.read_graphml), ("gexf", nx.read_gexf)])
def test_graphml_and_gexf_read_back(tmp_path, format, reader):
    G = small_graph()
    path = tmp_path / f"graph.{format}"
    export_graph(G, path, format=format)
    H = reader(path)
    assert (H.number_of_nodes(), H.number_of_edges()) == (17, 30)
    assert H.nodes["method:lora"]["aliases"] == '["Low-Rank Adaptation"]'
    assert H.nodes[paper("mix")]["abstract"] == G.nodes[paper("mix")]["abstract"]


def test_unknown_format_is_refused(tmp_path):
    with pytest.raises(KgError, match="unknown export format 'dot'"):
        export_graph(small_graph(), tmp_path / "g.dot", format="dot")


def test_neo4j_csv_on_a_full_disk_says_which_files_were_written(tmp_path, monkeypatch):
    from kg import files

    real_replace, calls = os.replace, []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(OutputError) as info:
        export_graph(small_graph(), tmp_path, format="neo4j-csv")
    message = str(info.value)
    written, _, left = message.partition("; written (each whole): ")[2].partition("; not written: ")
    assert written.split(", ") == sorted(os.listdir(tmp_path)) and len(written.split(", ")) == 2
    assert left.split(", ")[0] == os.path.basename(calls[2])
    assert left.endswith("constraints.cypher, import-command.txt") and "\n" not in message


@pytest.mark.parametrize("format, reader", [("graphml", nx.read_graphml), ("gexf", nx.read_gexf)])
def test_labels_are_names_and_offsets_are_named(tmp_path, format, reader):
    G = small_graph()
    path = tmp_path / f"graph.{format}"
    export_graph(G, path, format=format)
    H = reader(path)
    assert H.nodes["method:lora"]["label"] == "LoRA"
    author = next(k for k, kind in G.nodes(data="kind") if kind == "Author")
    assert H.nodes[author]["label"] == G.nodes[author]["name"]
    mix = G.nodes[paper("mix")]
    assert H.nodes[paper("mix")]["label"] == (mix.get("title") or mix.get("label"))
    if mix.get("label"):
        assert H.nodes[paper("mix")]["paper_label"] == mix["label"]
    uses = [d for _, _, d in H.edges(data=True) if d.get("label") == "USES"]
    assert uses and all("start" not in d and "end" not in d for d in uses)
    u, v, k = next((u, v, k) for u, v, k in G.edges(keys=True) if k == "USES")
    original = G.edges[u, v, k]
    assert {(d["evidence_start"], d["evidence_end"]) for d in uses} >= {
        (original["start"], original["end"])
    }


def test_gexf_is_static_strict_xml(tmp_path):
    path = tmp_path / "graph.gexf"
    export_graph(small_graph(), path, format="gexf")
    root = ElementTree.parse(path).getroot()
    ns = {"g": root.tag[1:].split("}")[0]}
    graph = root.find("g:graph", ns)
    assert graph.get("mode") == "static" and graph.get("timeformat") is None
    for element in root.iter():
        assert "start" not in element.attrib and "end" not in element.attrib, element.tag
    assert {a.get("mode") for a in root.iter(f"{{{ns['g']}}}attributes")} == {"static"}
    titles = {a.get("title") for a in root.iter(f"{{{ns['g']}}}attribute")}
    assert {"evidence_start", "evidence_end"} <= titles and not {"start", "end"} & titles
    labels = {n.get("id"): n.get("label") for n in root.iter(f"{{{ns['g']}}}node")}
    assert labels["method:lora"] == "LoRA"


def test_graphml_is_strict_xml_with_label_key(tmp_path):
    path = tmp_path / "graph.graphml"
    export_graph(small_graph(), path, format="graphml")
    root = ElementTree.parse(path).getroot()
    keys = {(k.get("for"), k.get("attr.name")) for k in root.iter() if k.tag.endswith("key")}
    assert {("node", "label"), ("edge", "evidence_start"), ("edge", "evidence_end")} <= keys
    assert ("edge", "start") not in keys
