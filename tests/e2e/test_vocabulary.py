"""A new entity type is one entry in the vocabulary: added to its source alone (in a fresh
process, before the rest of kg is imported), it is a label of the schema, a node kind of a build, a
label in every export and an entry of the pages' legend."""

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    import importlib.util

    # One edit in the vocabulary: a line added to ENTITY_TYPES in records.py's own source,
    # run as kg.extractors.records before any other module reads it.
    spec = importlib.util.find_spec("kg.extractors.records")
    source = Path(spec.origin).read_text(encoding="utf-8")
    anchor = "    EntityType(CONCEPT,"
    assert source.count(anchor) == 1
    source = source.replace(anchor, '    EntityType("Gadget", "USES"),\\n' + anchor)
    records = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = records
    exec(compile(source, spec.origin, "exec"), records.__dict__)
    import kg.extractors
    kg.extractors.records = records

    import kg.extractors.pipeline as pipeline

    def extract_mentions(papers, *, workers=1, problems=None):
        # A stand-in for the rules of the new type: every "Widgetron" is a Gadget.
        for record in papers:
            start = record.abstract.find("Widgetron")
            found = []
            if start >= 0:
                found.append(records.Mention(
                    type="Gadget", text="Widgetron", canonical="Widgetron", start=start,
                    end=start + 9, sentence=record.abstract, rule="lexicon", score=1.0))
            yield record, found

    pipeline.extract_mentions = extract_mentions

    from kg import schema
    from kg.export import export_graph
    from kg.graph.build import build_graph
    from kg.viz import write_pages

    out = Path(sys.argv[1])
    listing = out / "papers.jsonl"
    listing.write_text(json.dumps({
        "id": "w1", "title": "A study of gadgets", "authors": ["Ada Lovelace"],
        "abstract": "We run Widgetron on CIFAR-10 and report accuracy."}) + "\\n")
    G, _ = build_graph([str(listing)])
    export_graph(G, out / "csv", format="neo4j-csv")
    export_graph(G, out / "graph.graphml", format="graphml")
    export_graph(G, out / "graph.gexf", format="gexf")
    write_pages(G, out / "pages")
    gadgets = [k for k, a in G.nodes(data=True) if a.get("kind") == "Gadget"]
    print(json.dumps({
        "node_kinds": list(schema.NODE_KINDS),
        "labels": schema.labels_of("Gadget"),
        "gadgets": gadgets,
        "uses": [rel for _, v, rel in G.edges(keys=True) if v in gadgets],
        "csv_files": sorted(p.name for p in (out / "csv").iterdir()),
        "graphml": "Gadget" in (out / "graph.graphml").read_text(),
        "gexf": "Gadget" in (out / "graph.gexf").read_text(),
        "pages": {p.name: "Gadget" in p.read_text() for p in (out / "pages").glob("*.html")},
    }))
    """
)


def test_an_entity_type_registered_in_the_vocabulary_alone_reaches_every_output(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.splitlines()[-1])
    assert "Gadget" in found["node_kinds"]
    assert found["labels"] == ["Gadget", "Concept"]
    assert found["gadgets"] == ["gadget:widgetron"]
    assert found["uses"] == ["USES"]
    assert any("Gadget" in name for name in found["csv_files"]), found["csv_files"]
    assert found["graphml"] and found["gexf"]
    assert found["pages"]["overview.html"], found["pages"]
