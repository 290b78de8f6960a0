"""The entity layer of the graph: entity nodes, the papers' mention edges (with evidence),
paper labels, PART_OF, and the APPLIED_TO edges derived from them.
"""

from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

import networkx as nx

from kg import schema as S
from kg.extractors.records import Mention
from kg.graph._nx import insert_edges, insert_nodes, node_attrs

#: (from key, to key, relationship type, attributes).
Edge = tuple[str, str, str, dict[str, Any]]


def add_entity_layer(
    G: nx.MultiDiGraph,
    resolved: Iterable[tuple[str, Sequence[Mention]]],
    *,
    other_types: Mapping[str, list[str]] | None = None,
) -> None:
    """Add entity nodes, mention edges, paper labels and the derived APPLIED_TO edges for
    resolved mentions.

    ``resolved`` is ``[(paper key, [Mention])]`` with corpus-wide canonical names; the graph
    must not hold entities yet. ``other_types`` gives the nodes whose name the corpus also
    typed otherwise those types (:mod:`kg.graph.kinds`), kept as the property ``other_types``.
    One edge per paper and entity: the earliest mention is the
    evidence, and the paper PROPOSES the entity if any mention of it is proposed.
    """
    entities: dict[str, dict[str, Any]] = {}
    edges: list[Edge] = []
    aliases: dict[str, set[str]] = {}
    keys: dict[tuple[str, str], str] = {}
    applied: dict[tuple[str, str], dict[str, float]] = {}
    absorbed = {k for k, kinds in (other_types or {}).items() if S.BENCHMARK in kinds}
    for paper, mentions in resolved:
        by_entity: dict[str, tuple[Mention, bool]] = {}
        for m in sorted(mentions, key=_text_order):
            key = keys.get((m.type, m.canonical))
            if key is None:
                key = keys[(m.type, m.canonical)] = S.entity_key(m.type, m.canonical)
            if key not in entities:
                _new_entity(entities, edges, aliases, key, m, absorbed)
            if m.long_form and entities[key].get("long_form") is None:
                entities[key]["long_form"] = m.long_form
            if m.type != S.CONCEPT:
                names = aliases[key]
                names.add(m.text)
                names.update(m.aliases)
            first, proposed = by_entity.get(key, (m, False))
            by_entity[key] = (first, proposed or m.role == "proposed")
        label: tuple[int, str] | None = None
        for key, (m, proposed) in by_entity.items():
            rel = S.PROPOSES if proposed and m.type in S.PROPOSABLE else S.USED_REL[m.type]
            edges.append(
                (
                    paper,
                    key,
                    rel,
                    {
                        "evidence": m.sentence,
                        "start": m.start,
                        "end": m.end,
                        "text": m.text,
                        "rule": m.rule,
                        "score": round(float(m.score), 4),
                    },
                )
            )
            if rel == S.PROPOSES and m.type == S.METHOD and (label is None or m.start < label[0]):
                label = (m.start, entities[key]["name"])
        node_attrs(G)[paper]["label"] = label[1] if label else None
        _count_applied_to(applied, paper, by_entity)
    for key, names in aliases.items():
        entities[key]["aliases"] = sorted(names - {entities[key]["name"], ""})
    for key, kinds in (other_types or {}).items():
        if key in entities:
            entities[key]["other_types"] = kinds
    insert_nodes(G, entities.items())
    insert_edges(G, edges)
    insert_edges(
        G,
        (
            (
                method,
                target,
                S.APPLIED_TO,
                {
                    "papers": len(papers),
                    "paper_keys": sorted(papers),
                    "score": sum(papers.values()),
                },
            )
            for (method, target), papers in applied.items()
        ),
    )


_text_order = attrgetter("start", "end")


def _new_entity(
    entities: dict[str, dict[str, Any]],
    edges: list[Edge],
    aliases: dict[str, set[str]],
    key: str,
    m: Mention,
    absorbed: set[str],
) -> None:
    """Record the node of a new entity (and the benchmarks a dataset is PART_OF; a
    benchmark whose name the corpus makes a Dataset, in ``absorbed``, is that Dataset)."""
    if m.type == S.CONCEPT:
        entities[key] = {"kind": S.CONCEPT, "name": m.canonical}
        return
    entities[key] = {"kind": m.type, "name": m.canonical, "aliases": [], "long_form": None}
    aliases[key] = set()
    for benchmark in m.part_of:
        kind = S.DATASET if S.entity_key(S.DATASET, benchmark) in absorbed else S.BENCHMARK
        bkey = S.entity_key(kind, benchmark)
        if bkey == key:
            continue
        if bkey not in entities:
            entities[bkey] = {
                "kind": kind,
                "name": benchmark,
                "aliases": [],
                "long_form": None,
            }
            aliases[bkey] = set()
        edges.append((key, bkey, S.PART_OF, {}))


def _count_applied_to(
    applied: dict[tuple[str, str], dict[str, float]],
    paper: str,
    by_entity: dict[str, tuple[Mention, bool]],
) -> None:
    """Record in ``applied`` the APPLIED_TO pairs of one paper: a method is applied to a
    dataset or benchmark when one paper mentions both; a paper where they share a sentence
    (their evidence) scores 1.0, others 0.5."""
    methods: list[tuple[str, str]] = []
    targets: list[tuple[str, str]] = []
    for key, (m, _) in by_entity.items():
        if m.type == S.METHOD:
            methods.append((key, m.sentence))
        elif m.type in S.COLLECTION_KINDS:
            targets.append((key, m.sentence))
    for method, sentence in methods:
        for target, other in targets:
            papers = applied.setdefault((method, target), {})
            papers[paper] = max(papers.get(paper, 0.0), 1.0 if sentence == other else 0.5)
