"""The entity layer of the graph: entity nodes, the papers' mention edges (with evidence),
paper labels, PART_OF, VARIANT_OF, and the APPLIED_TO edges derived from them.
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import networkx as nx

from kg import schema as S
from kg.extractors.choose import SHARED_HEAD
from kg.extractors.records import Mention
from kg.graph._nx import insert_edges, insert_nodes, node_attrs
from kg.graph.applied import Evidence, paper_pairs
from kg.graph.variants import lexicon_families, variant_links

#: (from key, to key, relationship type, attributes).
Edge = tuple[str, str, str, dict[str, Any]]


def add_entity_layer(
    G: nx.MultiDiGraph,
    resolved: Iterable[tuple[str, Sequence[Mention]]],
    *,
    families: Mapping[str, str] | None = None,
    other_types: Mapping[str, list[str]] | None = None,
    variants: Mapping[str, str] | None = None,
    applied: dict[tuple[str, str], dict[str, Evidence]] | None = None,
    origins: "Origins | None" = None,
) -> None:
    """Add entity nodes, mention edges, paper labels and the derived APPLIED_TO edges for
    resolved mentions, and the VARIANT_OF edges among the Methods.

    ``resolved`` is ``[(paper key, [Mention])]`` with corpus-wide canonical names; the graph
    must not hold entities yet. ``other_types`` gives the nodes whose name the corpus also
    typed otherwise those types (:mod:`kg.graph.kinds`), kept as the property ``other_types``.
    One edge per paper and entity: the earliest mention is the
    evidence, and the paper PROPOSES the entity if any mention of it is proposed.
    A Method's parent (:func:`kg.graph.variants.variant_links`, with ``families``, by default
    the lexicon's model families) that no paper names gets a node of its own.

    For a part of a corpus (:mod:`kg.scale.partitioned`): ``variants`` gives the links
    decided over the whole corpus instead, and ``applied``, if given, receives each
    APPLIED_TO pair's evidence by paper instead of the graph receiving the edges, and
    ``origins`` which paper each node and each long form came from.
    """
    entities: dict[str, dict[str, Any]] = {}
    edges: list[Edge] = []
    aliases: dict[str, set[str]] = {}
    keys: dict[tuple[str, str], str] = {}
    pairs: dict[tuple[str, str], dict[str, Evidence]] = {} if applied is None else applied
    absorbed = {k for k, kinds in (other_types or {}).items() if S.BENCHMARK in kinds}
    made: list[tuple[int, str]] = []  # (entities made so far, paper), for the origins
    for paper, mentions in resolved:
        by_entity: dict[str, tuple[Mention, bool]] = {}
        # The method, dataset and benchmark mentions, for APPLIED_TO.
        keyed: list[tuple[str, Mention]] = []
        for m in sorted(mentions, key=_text_order):
            key = keys.get((m.type, m.canonical))
            if key is None:
                key = keys[(m.type, m.canonical)] = S.entity_key(m.type, m.canonical)
            if m.type in _APPLIED_KINDS:
                keyed.append((key, m))
            if key not in entities:
                _new_entity(entities, edges, aliases, key, m, absorbed)
            if m.long_form and entities[key].get("long_form") is None:
                entities[key]["long_form"] = m.long_form
                if origins is not None:
                    origins.long_form[key] = paper
            if m.type != S.CONCEPT:
                names = aliases[key]
                if m.rule != SHARED_HEAD:  # "binary" of "binary and multiclass classification"
                    names.update(t for t in (m.text, *m.aliases) if not _NO_ALIAS.fullmatch(t))
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
        attrs = node_attrs(G)[paper]
        attrs["label"] = label[1] if label else None
        abstract = attrs.get("abstract") or ""
        for pair, evidence in (paper_pairs(abstract, keyed) if keyed else {}).items():
            pairs.setdefault(pair, {})[paper] = evidence
        made.append((len(entities), paper))
    if variants is None:
        methods = (e["name"] for e in entities.values() if e["kind"] == S.METHOD)
        variants = variant_links(methods, lexicon_families() if families is None else families)
    edges += _variant_edges(entities, aliases, variants)
    if origins is not None:
        in_order, start = list(entities), 0
        for end, paper in made:  # the nodes made while reading each paper
            origins.node.update(dict.fromkeys(in_order[start:end], paper))
            start = end
        origins.node.update(dict.fromkeys(in_order[start:], ""))  # VARIANT_OF parents
    for key, names in aliases.items():
        entities[key]["aliases"] = sorted(names - {entities[key]["name"], ""})
    if origins is not None:
        origins.spellings.update(aliases)
    for key, kinds in (other_types or {}).items():
        if key in entities:
            entities[key]["other_types"] = kinds
    insert_nodes(G, entities.items())
    insert_edges(G, edges)
    if applied is None:
        insert_edges(
            G,
            (
                (method, target, S.APPLIED_TO, applied_attrs(papers))
                for (method, target), papers in pairs.items()
            ),
        )


@dataclass
class Origins:
    """Where a part of a corpus made its entity nodes (:func:`add_entity_layer`): the paper
    whose mentions made each (``""``: a parent brought in for VARIANT_OF), and the paper
    each long form came from. The graph of the whole corpus takes both from the first
    paper by key."""

    node: dict[str, str] = field(default_factory=dict)
    long_form: dict[str, str] = field(default_factory=dict)
    #: Each node's spellings in the part, its name in the part among them if written so
    #: (its aliases in the whole corpus: all parts' spellings but the whole's name).
    spellings: dict[str, set[str]] = field(default_factory=dict)


def applied_attrs(papers: dict[str, Evidence]) -> dict[str, Any]:
    """An APPLIED_TO edge's properties: its papers (sorted by key), the summed score, and
    each paper's evidence sentence and its offsets in the abstract as "start:end" (lists
    parallel to ``paper_keys``; Neo4j lists hold one type, and the others are strings)."""
    keys = sorted(papers)
    return {
        "papers": len(keys),
        "paper_keys": keys,
        "score": round(sum(papers[p].score for p in keys), 4),
        "evidence": [papers[p].sentence for p in keys],
        "evidence_at": [f"{papers[p].start}:{papers[p].end}" for p in keys],
    }


_text_order = attrgetter("start", "end")
_APPLIED_KINDS = frozenset((S.METHOD, *S.COLLECTION_KINDS))
#: A number or size alone ("13B" of "Llama 2 7B and 13B", "100" of "CIFAR-10 and 100"): the
#: name before it in the sentence names it, but it spells no name.
#: Texts that name nothing alone: a number or size ("13B"), a word cut at a line-break
#: hyphen or an underscore ("PAC-" of "PAC- Bayesian", "TTT_").
_NO_ALIAS = re.compile(r"[\d.,]+[A-Za-z]?|.*[-_]")


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


def _variant_edges(
    entities: dict[str, dict[str, Any]], aliases: dict[str, set[str]], variants: Mapping[str, str]
) -> list[Edge]:
    """The VARIANT_OF edges of ``variants`` whose child is an entity (or a parent brought
    in), adding the parents that are not entities yet."""
    keys = {name: S.entity_key(S.METHOD, name) for name in {*variants, *variants.values()}}
    for parent in sorted(set(variants.values())):
        key = keys[parent]
        if key not in entities:
            entities[key] = {"kind": S.METHOD, "name": parent, "aliases": [], "long_form": None}
            aliases[key] = set()
    return [
        (keys[child], keys[parent], S.VARIANT_OF, {})
        for child, parent in sorted(variants.items())
        if keys[child] in entities and keys[child] != keys[parent]
    ]
