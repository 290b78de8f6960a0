"""Do the paper's own definitions win? Count the short forms a graph resolves against them.

    python -m bench.identity_check GRAPH.kg [--json FILE] [--examples N]

For every paper of the graph, the Schwartz–Hearst definitions of its abstract
(``kg.extractors.abbreviations.find_abbreviations``) are read afresh, as the extraction
reads them (markup outside math blanked). A definition "long form (SHORT)" is *resolved* in
that paper by every entity node the paper links to whose evidence covers the long form and
ends where it ends (a node with a long form, not a longer phrase around the definition), or
is the short form itself. A resolved definition is a **violation** when such a node does not
spell that long form: neither its long form, its name (or the long form in its "SHORT (long
form)" name) nor, for a node the lexicon names, one of the entry's long names is a spelling
of the definition (``kg.graph.long_forms.same_sense``: plural, hyphen, case, word-stem
variants), or the definition with words before it (the extraction may take "open-domain
question answering" as the long form of "(QA)").

Counted apart: definitions no node answers to (the extraction made no entity of them, as
for "large language models (LLMs)"), and those the extraction sets aside for noise in their
long form (LaTeX, Markdown, PDF debris). The same run counts the groups of entity nodes
that share one name but differ in type, and the nodes of split senses.
"""

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import networkx as nx

from kg import schema as S
from kg.extractors.abbreviations import Abbreviation, find_abbreviations
from kg.extractors.names import name_key, singular_short
from kg.extractors.noise import blank, classified_noise, merge_spans, overlaps
from kg.extractors.rules.sentences import mask_math
from kg.graph.long_forms import same_sense, sense_words, spells_word
from kg.graph.senses import lexicon_entry, long_names, shipped_lexicon
from kg.store.graphfile import load_graph


def spellings(attrs: dict[str, Any]) -> list[str]:
    """The long forms an entity node spells: its long form, its name, the long form in a
    "SHORT (long form)" name, and the long names of the lexicon entry it is named by."""
    name = attrs.get("name") or ""
    found = [attrs.get("long_form") or "", name]
    if name.endswith(")") and " (" in name:
        found.append(name[name.index(" (") + 2 : -1])
    entry = shipped_lexicon().entries.get(name)
    if entry is not None and entry.type == attrs.get("kind"):
        found += long_names(entry)
    return [f for f in found if f]


def spelled(definition: str, spelling: str) -> bool:
    """Whether a node's spelling spells a definition: the same sense, or the definition
    with words before it ("question answering" in "open-domain question answering (QA)",
    where the extraction took the longer phrase as the long form)."""
    if same_sense(definition, spelling):
        return True
    words, longer = sense_words(definition), sense_words(spelling)
    return 0 < len(words) < len(longer) and all(
        spells_word(a, b) for a, b in zip(words, longer[-len(words) :], strict=True)
    )


def definitions(abstract: str) -> tuple[list[Abbreviation], int]:
    """The definitions of an abstract as the extraction reads them (markup outside math
    blanked), and how many more it sets aside because noise is in their long form."""
    markup, other = classified_noise(abstract)
    noise = merge_spans(markup + other)
    masked = mask_math(abstract)
    text = blank(abstract, [span for span in markup if masked[span[0]] != " "])
    found = find_abbreviations(text)
    clean = [a for a in found if not overlaps(noise, a.long_start, a.long_end)]
    return clean, len(found) - len(clean)


def paper_definitions(G: nx.MultiDiGraph, paper: str) -> Iterator[dict[str, Any]]:
    """Each definition of one paper's abstract with the nodes that resolve it there (a
    definition with noise in its long form comes as one with ``noisy`` set)."""
    abstract = G.nodes[paper].get("abstract") or ""
    evidence = [
        (n, attrs)
        for _, n, attrs in G.out_edges(paper, data=True)
        if G.nodes[n].get("kind") in S.CONCEPT_KINDS and "start" in attrs
    ]
    found, noisy = definitions(abstract)
    for _ in range(noisy):
        yield {"noisy": True}
    for abbr in found:
        short = singular_short(abbr.short, abbr.long)
        nodes = sorted(
            {
                n
                for n, a in evidence
                if a["start"] <= abbr.long_start
                and a["end"] == abbr.long_end
                and G.nodes[n].get("long_form")
                or name_key(singular_short(a["text"], abbr.long)) == name_key(short)
            }
        )
        wrong = [n for n in nodes if not any(spelled(abbr.long, s) for s in spellings(G.nodes[n]))]
        yield {"paper": paper, "short": short, "long": abbr.long, "nodes": nodes, "wrong": wrong}


def cross_type_groups(G: nx.MultiDiGraph) -> dict[str, list[str]]:
    """Entity nodes (not keyphrase Concepts) that share one exact name, by that name, where
    the group holds more than one kind."""
    by_name = defaultdict(list)
    for n, attrs in G.nodes(data=True):
        if attrs.get("kind") in S.ENTITY_KINDS:
            by_name[attrs["name"]].append(n)
    return {
        name: sorted(keys)
        for name, keys in by_name.items()
        if len({G.nodes[k]["kind"] for k in keys}) > 1
    }


def sense_nodes(G: nx.MultiDiGraph) -> list[str]:
    """Entity nodes named "SHORT (long form)" whose short form another node shares."""
    shorts = Counter()
    named = []
    for n, attrs in G.nodes(data=True):
        name = attrs.get("name") or ""
        if attrs.get("kind") in S.CONCEPT_KINDS and name.endswith(")") and " (" in name:
            shorts[name.split(" (")[0]] += 1
            named.append((n, name.split(" (")[0]))
    lexicon = shipped_lexicon()
    return sorted(
        n for n, short in named if shorts[short] > 1 or lexicon_entry(short, lexicon) is not None
    )


def check(G: nx.MultiDiGraph, *, examples: int = 20) -> dict[str, Any]:
    """The counts of the module docstring for graph ``G``."""
    counts: Counter[str] = Counter()
    shown: list[dict[str, Any]] = []
    for paper, kind in sorted(G.nodes(data="kind")):
        if kind != S.PAPER:
            continue
        for d in paper_definitions(G, paper):
            if d.get("noisy"):
                counts["noisy"] += 1
                continue
            counts["definitions"] += 1
            counts["resolved" if d["nodes"] else "no_node"] += 1
            if d["wrong"]:
                counts["violations"] += 1
                if len(shown) < examples:
                    shown.append(
                        {**d, "wrong": [(n, G.nodes[n].get("long_form")) for n in d["wrong"]]}
                    )
    groups = cross_type_groups(G)
    return {
        **{k: counts[k] for k in ("definitions", "resolved", "no_node", "violations", "noisy")},
        "cross_type_groups": len(groups),
        "cross_type_nodes": sum(len(v) for v in groups.values()),
        "sense_nodes": len(sense_nodes(G)),
        "examples": shown,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph")
    parser.add_argument("--json", help="write every count and the examples to this file")
    parser.add_argument("--examples", type=int, default=20)
    args = parser.parse_args(argv)
    result = check(load_graph(args.graph), examples=args.examples)
    for key, value in result.items():
        if key != "examples":
            print(f"{key:>20}: {value}")
    for d in result["examples"]:
        print(f"  {d['paper']}: {d['short']} = {d['long']!r} -> {d['wrong']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
