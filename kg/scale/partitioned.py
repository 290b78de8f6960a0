"""One partition of a corpus through the build's passes, without the whole graph.

The functions a ``--neo4j-import`` build runs on each partition (:mod:`kg.scale.imports`):
each pass takes what the previous one left and the decisions taken over the whole corpus
since, and leaves its result where it ran; beside each pass, a summary of the partition
that the driver merges with the others' (associatively, in input order) and decides from.
The decisions are the local build's own functions (:mod:`kg.graph.senses`,
:mod:`kg.graph.resolve`, :mod:`kg.graph.kinds`, :mod:`kg.graph.variants`,
:mod:`kg.graph.people`), so a partition's papers come out as in the local build's graph.

At the end a partition's graph holds its papers and the nodes they point to; its rows split
into those its papers own (Paper nodes, the relationships that start or end at a paper)
and partials of the shared nodes (authors, entities, areas) and of the relationships among
them, sent by key to one of a few buckets where :func:`merged_bucket` makes each whole.
"""

import copy
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg import schema as S
from kg.errors import KgError
from kg.extractors.records import Mention, PaperRecord
from kg.extractors.workers import Found
from kg.graph import kinds, related, resolve, senses, similar
from kg.graph._nx import node_attrs, predecessors, successors
from kg.graph.applied import Evidence
from kg.graph.authors import display_name
from kg.graph.entities import Origins, add_entity_layer, applied_attrs
from kg.graph.identity import IdentitySummary, Person, merge_summaries
from kg.graph.papers import add_paper, new_graph
from kg.graph.rekey import apply_people, identity_summary
from kg.graph.similar import Candidates
from kg.graph.variants import lexicon_families, method_names, variant_links
from kg.rows import NodeRow, RelationshipRow, node_rows, properties, relationship_rows

#: (paper key, content hash, record, its number in the input): a paper as the driver
#: planned it.
Planned = tuple[str, str, PaperRecord, int]
#: Each paper's mentions, in the partition's input order.
Stage = list[list[Mention]]


@dataclass
class Part:
    """A partition as extracted: its papers (first occurrences, in input order) and each
    one's ``(mentions, error)``."""

    papers: list[Planned]
    found: list[Found]
    #: Papers read again later in the input (saved with the partition for a later batch).
    duplicates: list[Planned] = field(default_factory=list)


def mentions_of(part: Part) -> Stage:
    """The partition's unresolved mentions."""
    return [mentions for mentions, _ in part.found]


# ---------------------------------------------------------------- the passes


def definitions(stage: Stage) -> senses.Definitions:
    """Pass 1's summary: the acronym definitions, in order."""
    return _summed(stage, senses.summarise, senses.merge)


def merge_definitions(a: senses.Definitions, b: senses.Definitions) -> senses.Definitions:
    """``senses.merge`` of copies: a task never changes what another task made (the
    scheduler may run it again, or hand the same result to another task)."""
    return senses.merge(copy.deepcopy(a), copy.deepcopy(b))


def first_stage(stage: Stage, table: senses.Senses) -> Stage:
    """Pass 2: each paper's mentions under the corpus's senses."""
    return [resolve.first_stage(mentions, table) for mentions in stage]


def name_counts(stage: Stage) -> tuple[resolve.NameCounts, resolve.NameCounts]:
    """Pass 2's summary: the display-name and long-form counts."""
    return resolve.count_names(stage)


def merge_name_counts(
    a: tuple[resolve.NameCounts, resolve.NameCounts],
    b: tuple[resolve.NameCounts, resolve.NameCounts],
) -> tuple[resolve.NameCounts, resolve.NameCounts]:
    return resolve.merge_counts(a[0], b[0]), resolve.merge_counts(a[1], b[1])


def second_stage(
    stage: Stage, names: dict[resolve.Group, str], long_forms: dict[resolve.Group, str]
) -> Stage:
    """Pass 3: the corpus's display names and long forms."""
    return [resolve.second_stage(mentions, names, long_forms) for mentions in stage]


def votes(stage: Stage) -> kinds.Votes:
    """Pass 3's summary: each name's type votes."""
    return _summed(stage, kinds.summarise, kinds.merge)


def _summed[T](
    stage: Stage, summarise: Callable[[list[Mention]], T], merge: Callable[[T, T], Any]
) -> T:
    """``merge`` into a first empty summary each paper's ``summarise``, in order."""
    total = summarise([])
    for mentions in stage:
        merge(total, summarise(mentions))
    return total


def merge_votes(a: kinds.Votes, b: kinds.Votes) -> kinds.Votes:
    return kinds.merge(copy.deepcopy(a), copy.deepcopy(b))


def display_counts(stage: Stage, decisions: kinds.Decisions) -> kinds.DisplayCounts:
    """Pass 4's summary: the names papers give the nodes of names given several types."""
    return kinds.display_counts((("", ms) for ms in stage), decisions)


def typed_stage(
    stage: Stage, decisions: kinds.Decisions, names: dict[tuple[str, str], str]
) -> Stage:
    """Pass 5: one type per name."""
    return [kinds.typed(ms, decisions, names) for ms in stage]


def methods(stage: Stage) -> set[str]:
    """Pass 5's summary: the Method names, for the corpus's VARIANT_OF links."""
    return set().union(*map(method_names, stage))


def merge_methods(a: set[str], b: set[str]) -> set[str]:
    return a | b


@dataclass
class PartGraph:
    """Pass 6: the graph of a partition's papers and what they point to, the APPLIED_TO
    evidence of its papers, and where its shared nodes' first-come properties came from
    (an area: its first record's number; an entity: its paper; for the merge)."""

    graph: nx.MultiDiGraph
    applied: dict[tuple[str, str], dict[str, Evidence]]
    origins: Origins


def part_graph(
    part: Part,
    stage: Stage,
    duplicates: Sequence[Planned],
    other_types: Mapping[str, list[str]],
    variants: Mapping[str, str],
) -> PartGraph:
    """Pass 6: the partition's graph, its papers added in input order and then the
    ``duplicates`` of them that came later in the input, its entity layer as the local
    build lays it (papers in key order)."""
    G = new_graph()
    areas: dict[str, str] = {}
    for key, digest, record, number in [*part.papers, *part.duplicates, *duplicates]:
        add_paper(G, record, key, digest)
        if record.area:
            areas.setdefault(S.area_key(record.area), f"{number:012d}")
    resolved = sorted(zip((key for key, *_ in part.papers), stage, strict=True))
    applied: dict[tuple[str, str], dict[str, Evidence]] = {}
    origins = Origins(node=areas)
    add_entity_layer(
        G,
        resolved,
        other_types=other_types,
        variants=variants,
        applied=applied,
        origins=origins,
    )
    return PartGraph(G, applied, origins)


def people_summary(part: PartGraph) -> IdentitySummary:
    """Pass 6's summary: what author identity reads of the partition's papers."""
    return identity_summary(part.graph)


def merge_people(a: IdentitySummary, b: IdentitySummary) -> IdentitySummary:
    return merge_summaries(a, b)


# ---------------------------------------------------------------- rows


@dataclass
class Rows:
    """Node rows by kind and relationship rows by type, each in key order."""

    nodes: dict[str, list[NodeRow]] = field(default_factory=dict)
    relationships: dict[str, list[RelationshipRow]] = field(default_factory=dict)


@dataclass
class Partial:
    """Part of a shared node: its row as one partition sees it, with the co-authors it has
    there (Authors), and where its name and long form came from there (the first, in the
    order the whole build reads, wins; ``""`` when nothing there made it)."""

    row: NodeRow
    partners: frozenset[str] = frozenset()
    origin: str = ""
    long_origin: str = ""
    spellings: frozenset[str] = frozenset()


#: One bucket's share of a partition: its shared nodes' partials by key, its relationships
#: among shared nodes by (type, start, end), APPLIED_TO as each paper's evidence.
Bucket = tuple[dict[str, Partial], dict[tuple[str, str, str], Any]]


def bucket_of(key: str, buckets: int) -> int:
    """The bucket a shared node's key (or a relationship's start key) goes to, the same in
    every process."""
    return zlib.crc32(key.encode("utf-8")) % buckets


def part_rows(part: PartGraph, people: Sequence[Person], buckets: int) -> tuple[Rows, list]:
    """Pass 7: the partition's people laid onto its authors; its own rows, and its
    ``buckets`` buckets of partials. Changes ``part``'s graph: give it one read from its
    file for this call (a task run again reads the file again)."""
    G = part.graph
    papers = {n for n, kind in G.nodes(data="kind") if kind == S.PAPER}
    apply_people(G, [p for p in people if any(pk in papers for pk, _ in p.authorships)])
    own = Rows()
    shared: list[Bucket] = [({}, {}) for _ in range(buckets)]
    partners = _partners(G)
    for row in node_rows(G):
        if row.kind == S.PAPER:
            own.nodes.setdefault(row.kind, []).append(row)
        else:
            partial = Partial(
                row,
                frozenset(partners.get(row.key, ())),
                part.origins.node.get(row.key, ""),
                part.origins.long_form.get(row.key, ""),
                frozenset(part.origins.spellings.get(row.key, ())),
            )
            shared[bucket_of(row.key, buckets)][0][row.key] = partial
    for rel in relationship_rows(G):
        if S.PAPER in (rel.start_kind, rel.end_kind):
            own.relationships.setdefault(rel.type, []).append(rel)
        else:
            shared[bucket_of(rel.start, buckets)][1][(rel.type, rel.start, rel.end)] = rel
    kind_of = dict(G.nodes(data="kind"))
    for (method, target), evidence in part.applied.items():
        rel = RelationshipRow(S.APPLIED_TO, method, kind_of[method], target, kind_of[target], {})
        shared[bucket_of(method, buckets)][1][(S.APPLIED_TO, method, target)] = (rel, evidence)
    for node_list in own.nodes.values():
        node_list.sort(key=_row_order)
    for rel_list in own.relationships.values():
        rel_list.sort(key=_row_order)
    return own, shared


def _partners(G: nx.MultiDiGraph) -> dict[str, set[str]]:
    """Each author's co-authors in ``G``."""
    node, pred, succ = node_attrs(G), predecessors(G), successors(G)
    found: dict[str, set[str]] = {}
    for a, attrs in node.items():
        if attrs["kind"] == S.AUTHOR:
            found[a] = {
                b
                for paper, rels in succ[a].items()
                if S.AUTHORED in rels
                for b, r in pred[paper].items()
                if S.AUTHORED in r and b != a
            }
    return found


def _row_order(row: NodeRow | RelationshipRow) -> tuple[str, ...]:
    return (row.key,) if isinstance(row, NodeRow) else (row.start, row.end)


def merged_bucket(shares: Sequence[Bucket]) -> Rows:
    """One bucket made whole from every partition's share (in input order): each shared
    node's row and each relationship among shared nodes, as the local build makes them."""
    nodes: dict[str, list[Partial]] = {}
    rels: dict[tuple[str, str, str], list[Any]] = {}
    for share_nodes, share_rels in shares:
        for key, partial in share_nodes.items():
            nodes.setdefault(key, []).append(partial)
        for rel_key, rel in share_rels.items():
            rels.setdefault(rel_key, []).append(rel)
    out = Rows()
    for key in sorted(nodes):
        row = _merged_node(nodes[key])
        out.nodes.setdefault(row.kind, []).append(row)
    for rel_type, start, end in sorted(rels):
        parts = rels[(rel_type, start, end)]
        if rel_type == S.APPLIED_TO:
            evidence: dict[str, Evidence] = {}
            for _, papers in parts:
                evidence.update(papers)
            rel = parts[0][0]._replace(props=_stored(applied_attrs(evidence)))
        else:
            rel = parts[0]
        out.relationships.setdefault(rel_type, []).append(rel)
    return out


def _stored(attrs: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in attrs.items() if value is not None}


#: Properties of shared nodes whose parts may differ: united lists, and those the first
#: part (in the whole build's order) gives or that are counted anew.
_UNITED = frozenset(("variants", "aliases"))  # aliases: then from the parts' spellings
_FIRST_COME = frozenset(("name", "long_form", "coauthors"))


def _merged_node(partials: list[Partial]) -> NodeRow:
    """A shared node's row from its partials: name lists united, an author's co-authors
    counted over all of them, an entity's long form the one of its first paper by key."""
    first = partials[0].row
    props: dict[str, Any] = {}
    for partial in partials:
        for name, value in partial.row.props.items():
            if name in _UNITED and isinstance(value, list):
                props[name] = sorted({*props.get(name, ()), *value})
            elif name in _FIRST_COME:
                continue
            elif props.setdefault(name, value) != value:
                raise KgError(
                    f"the partitions disagree on {first.key!r}'s {name}: "
                    f"{props[name]!r} and {value!r}; please report this as a bug"
                )
    if first.kind == S.AUTHOR:
        partners = frozenset().union(*(p.partners for p in partials))
        props["coauthors"] = len(partners)
        identity = "identity" in first.props
        props["name"] = first.props["name"] if identity else display_name(props["variants"])
    else:
        named = min(partials, key=lambda p: (p.origin == "", p.origin))
        props["name"] = named.row.props["name"]
        spellings = frozenset().union(*(p.spellings for p in partials))
        if aliases := sorted(spellings - {props["name"], ""}):
            props["aliases"] = aliases
        else:
            props.pop("aliases", None)
        longs = [p for p in partials if p.long_origin]
        if longs:
            props["long_form"] = min(longs, key=lambda p: p.long_origin).row.props["long_form"]
    return first._replace(props=dict(sorted(props.items())))


def decided_senses(defs: senses.Definitions) -> senses.Senses:
    """The senses of the corpus's merged acronym definitions, the shipped lexicon's
    defaults beside them."""
    return senses.decide(defs, senses.shipped_lexicon())


def display_names(counted: tuple[resolve.NameCounts, resolve.NameCounts]) -> dict[Any, str]:
    """Each name's display name, from the merged (spelling, long-form) counts."""
    return resolve.display_names(counted[0])


def chosen(counted: tuple[resolve.NameCounts, resolve.NameCounts]) -> dict[Any, str]:
    """Each name's long form, from the merged (spelling, long-form) counts."""
    return resolve.chosen(counted[1])


def variants(methods: Iterable[str]) -> dict[str, str]:
    """The VARIANT_OF links of the corpus's merged Method names."""
    return variant_links(methods, lexicon_families())


#: One paper for SIMILAR_TO: key, title, title and abstract, the concepts it points to
#: (key, whether it proposes it).
SimilarPaper = tuple[str, str | None, str, list[tuple[str, bool]]]


def similar_papers(part: PartGraph) -> list[SimilarPaper]:
    """What SIMILAR_TO needs of a partition's papers (beside pass 7); the concepts' names
    are left out: the merged buckets decide them."""
    G = part.graph
    papers = []
    for key, attrs in node_attrs(G).items():
        if attrs["kind"] == S.PAPER:
            concepts = [(c, proposed) for c, _, proposed in related.pointed(G, key)]
            papers.append((key, attrs.get("title"), related.paper_text(attrs), concepts))
    return papers


def _by_key(parts: Sequence[list[SimilarPaper]]) -> list[SimilarPaper]:
    """Every partition's papers, in key order (the order SIMILAR_TO ranks them in)."""
    return sorted((p for part in parts for p in part), key=lambda p: p[0])


def similar_text(parts: Iterable[list[SimilarPaper]]) -> Candidates:
    """The text part of SIMILAR_TO over every partition's papers (by key): what they say
    alone, so it can run while the names are still being decided. ``parts`` is read once,
    a partition at a time: only the terms' counts of the papers read are kept."""
    keys: list[str] = []

    def texts() -> Iterator[str]:
        for part in parts:
            keys.extend(key for key, *_ in part)
            yield from (text for _, _, text, _ in part)

    counts = similar.count_terms(texts())
    by_key = similar.reordered(counts, sorted(range(len(keys)), key=keys.__getitem__))
    return related.counted_text_part(by_key, related.DEFAULTS)


def concept_names(bucket: Rows) -> dict[str, str]:
    """The names of a merged bucket's concepts, by key (what SIMILAR_TO shows of them)."""
    return {
        row.key: str(row.props["name"])
        for kind, rows in bucket.nodes.items()
        if kind in S.CONCEPT_KINDS
        for row in rows
    }


def similar_rows(
    parts: Sequence[list[SimilarPaper]], names: Mapping[str, str], text: Candidates
) -> Iterator[Rows]:
    """SIMILAR_TO over every partition's papers, as the local build makes it, from their
    :func:`similar_text`, the concepts named as the merged buckets name them (``names``):
    each partition's rows, those that start at its papers, made one partition at a time."""
    papers = _by_key(parts)
    settings = related.DEFAULTS
    keys = [key for key, *_ in papers]
    found = related.similar_found(
        [],  # the text part is given
        [
            related.roles(title, [(c, names[c], p) for c, p in concepts], settings)
            for _, title, _, concepts in papers
        ],
        settings=settings,
        text=text,
    )
    del papers
    position = {key: i for i, key in enumerate(keys)}
    for part in parts:
        own = sorted(position[key] for key, *_ in part)
        rows = [
            RelationshipRow(S.SIMILAR_TO, u, S.PAPER, v, S.PAPER, properties(attrs))
            for u, v, attrs in related.similar_edges(keys, found, names, own)
        ]
        yield Rows(relationships={S.SIMILAR_TO: rows} if rows else {})
