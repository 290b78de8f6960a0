"""The three traversals over the networkx graph: co-authors, method <-> dataset, shared concepts.

Every function takes the graph first, a forgiving name (see :mod:`kg.query.lookup`) and keyword-only
options, and returns a list of plain dicts whose keys and order are those of the rows of the
named query in ``queries/`` that mirrors it. Ties are broken by name, then key.
Lookups go through ``kg.query.lookup``; a name that matches nothing raises ``kg.errors.NotFound``.
"""

import math
import weakref

import networkx as nx

from kg.graph.layers import set_coauthor_counts
from kg.query.lookup import find_node
from kg.query.lookup import forget as _forget_names
from kg.schema import (
    APPLIED_TO,
    AREA,
    AUTHOR,
    AUTHORED,
    BENCHMARK,
    CONCEPT_KINDS,
    DATASET,
    IN_AREA,
    MENTION_RELS,
    METHOD,
    PAPER,
    PART_OF,
    SCHEMA_VERSION,
    content_hash,
)

#: Decimal places of a related-paper score (the Cypher engines print doubles to 15 digits).
SCORE_DIGITS = 6


def rounded(x):
    """``x`` rounded half up to SCORE_DIGITS places, as Cypher's ``round(x * 1e6) / 1e6``.

    >>> rounded(1.0986122886681098)
    1.098612
    """
    scale = 10**SCORE_DIGITS
    return math.floor(x * scale + 0.5) / scale


def paper_name(G, key):
    """What a paper is called: its title, else its label, else its key."""
    a = G.nodes[key]
    return a.get("title") or a.get("label") or key


def node_name(G, key):
    return G.nodes[key].get("name") or key


def _by_name(rows, name="name"):
    return sorted(rows, key=lambda r: (r[name], r["key"]))


# ----------------------------------------------------------------------------- co-authors


def papers_of(G, author):
    return [p for p in G.successors(author) if AUTHORED in G[author][p]]


def authors_of(G, paper):
    return [a for a in G.predecessors(paper) if AUTHORED in G[a][paper]]


_CACHE = weakref.WeakKeyDictionary()


def cached(G, name, build):
    """``build(G)``, computed once per graph and again when its node count changes.

    (Counting a MultiDiGraph's edges takes a second on a large graph, so edges added between
    existing nodes go unnoticed: call :func:`forget` after such an edit.)
    """
    stamp = G.number_of_nodes()
    per_graph = _CACHE.setdefault(G, {})
    if name not in per_graph or per_graph[name][0] != stamp:
        per_graph[name] = (stamp, build(G))
    return per_graph[name][1]


def forget(G):
    """Drop everything cached about ``G`` (after editing it in place)."""
    _CACHE.pop(G, None)
    _forget_names(G)


def collaborations(G):
    """{author key: {co-author key: [shared paper keys]}} for every author with a co-author.

    Built once per graph (see :func:`cached`) for the traversals that walk many authors.
    """

    def build(G):
        authors = {}
        for a, p, rel in G.edges(keys=True):
            if rel == AUTHORED:
                authors.setdefault(p, []).append(a)
        index = {}
        for p, names in authors.items():
            for a in names if len(names) > 1 else ():
                shared = index.setdefault(a, {})
                for b in names:
                    if a != b:
                        shared.setdefault(b, []).append(p)
        return index

    return cached(G, "collaborations", build)


def _collaborators(G, author):
    """{co-author key: [shared paper keys]} of one author key."""
    shared = {}
    for p in papers_of(G, author):
        for b in authors_of(G, p):
            if b != author:
                shared.setdefault(b, []).append(p)
    return shared


def coauthors(G, author, *, limit=None):
    """An author's co-authors, most shared papers first, each with the papers they share.

    Examples
    --------
    >>> G = example_graph()
    >>> for row in coauthors(G, "julia kempe"):
    ...     print(row["coauthor"], row["shared"], row["papers"])
    Rémi Munos 2 ['Bandits Again', 'Sharper Bounds']
    Yann Ollivier 2 ['Quantum Walks', 'Sharper Bounds']
    >>> coauthors(G, "Ada Lovelace")
    []
    """
    a = find_node(G, author, kinds=(AUTHOR,))
    rows = [
        {
            "coauthor": node_name(G, b),
            "key": b,
            "shared": len(ps),
            "papers": sorted(paper_name(G, p) for p in ps),
        }
        for b, ps in _collaborators(G, a).items()
    ]
    rows.sort(key=lambda r: (-r["shared"], r["coauthor"], r["key"]))
    return rows[:limit]


def coauthors_within(G, author, *, hops=2):
    """Authors within ``hops`` co-authorship steps, with their distance (1 = co-author).

    >>> for row in coauthors_within(example_graph(), "Julia Kempe", hops=2):
    ...     print(row["distance"], row["author"])
    1 Rémi Munos
    1 Yann Ollivier
    2 Carol Chen
    """
    if hops < 1:
        raise ValueError("hops must be at least 1")
    a = find_node(G, author, kinds=(AUTHOR,))
    distance = {a: 0}
    frontier = [a]
    for d in range(1, hops + 1):
        ring = {b for x in frontier for b in _collaborators(G, x) if b not in distance}
        distance.update(dict.fromkeys(ring, d))
        frontier = ring
    rows = [{"author": node_name(G, b), "key": b, "distance": d} for b, d in distance.items() if d]
    rows.sort(key=lambda r: (r["distance"], r["author"], r["key"]))
    return rows


def _bfs_level(index, frontier, seen):
    """The next breadth-first level from ``frontier``; records distances in ``seen``."""
    level = set()
    depth = seen[next(iter(frontier))] + 1
    for x in frontier:
        for y in index.get(x, ()):
            if y not in seen:
                seen[y] = depth
                level.add(y)
    return level


def shortest_chain_layers(index, a, b):
    """The authors on shortest chains from ``a`` to ``b``, position by position, or None.

    Breadth first from both ends (always the smaller frontier) until the searches meet at
    length ``d``; the layers are then pruned outwards from a position both searches reached,
    so that layer ``i`` holds exactly the authors at position ``i`` of some shortest chain.

    >>> index = {"a": {"x": 1, "y": 1}, "x": {"a": 1, "b": 1}, "y": {"a": 1, "z": 1},
    ...          "z": {"y": 1, "b": 1}, "b": {"x": 1, "z": 1}}
    >>> [sorted(layer) for layer in shortest_chain_layers(index, "a", "b")]
    [['a'], ['x'], ['b']]
    >>> shortest_chain_layers({"a": {}, "b": {}}, "a", "b") is None
    True
    """
    from_a, from_b = {a: 0}, {b: 0}
    levels_a, levels_b = [{a}], [{b}]
    while True:
        meet = [x for x in levels_a[-1] if x in from_b] + [x for x in levels_b[-1] if x in from_a]
        if meet:
            d = min(from_a[x] + from_b[x] for x in meet)
            break
        levels, seen = min((levels_a, from_a), (levels_b, from_b), key=lambda s: len(s[0][-1]))
        level = _bfs_level(index, levels[-1], seen)
        if not level:
            return None
        levels.append(level)
    k = max(0, d - (len(levels_b) - 1))
    layers = {k: {x for x in levels_a[k] if from_b.get(x) == d - k}}
    for i in range(k - 1, -1, -1):
        layers[i] = {x for y in layers[i + 1] for x in index.get(y, ()) if from_a.get(x) == i}
    for i in range(k + 1, d + 1):
        layers[i] = {x for y in layers[i - 1] for x in index.get(y, ()) if from_b.get(x) == d - i}
    return [layers[i] for i in range(d + 1)]


def collaboration_path(G, source, target):
    """The shortest chain of co-authors from ``source`` to ``target``, with linking papers.

    Each row is one author on the path with the papers it shares with the previous one.
    Of several shortest chains, the one whose author keys come first in order wins.
    No chain (or ``source`` is ``target``) gives ``[]``.

    >>> for row in collaboration_path(example_graph(), "Julia Kempe", "Carol Chen"):
    ...     print(row["step"], row["author"], row["papers"])
    0 Julia Kempe []
    1 Rémi Munos ['Bandits Again', 'Sharper Bounds']
    2 Carol Chen ['Edge Case']
    >>> collaboration_path(example_graph(), "Julia Kempe", "Dan Diaz")
    []
    """
    a = find_node(G, source, kinds=(AUTHOR,))
    b = find_node(G, target, kinds=(AUTHOR,))
    index = collaborations(G)
    layers = shortest_chain_layers(index, a, b) if a != b else None
    if not layers:
        return []
    chain = [a]
    for layer in layers[1:]:
        chain.append(min(x for x in index[chain[-1]] if x in layer))
    rows = []
    for step, x in enumerate(chain):
        shared = index[x][chain[step - 1]] if step else []
        rows.append(
            {
                "step": step,
                "author": node_name(G, x),
                "key": x,
                "papers": sorted(paper_name(G, p) for p in shared),
            }
        )
    return rows


def top_collaborators(G, *, limit=10):
    """The authors with the most distinct co-authors, with their paper counts.

    >>> for row in top_collaborators(example_graph(), limit=2):
    ...     print(row["author"], row["coauthors"], row["papers"])
    Rémi Munos 3 3
    Julia Kempe 2 3
    """
    index = collaborations(G)
    ranking = cached(
        G,
        "collaborator_ranking",
        lambda G: sorted(index, key=lambda a: (-len(index[a]), node_name(G, a), a)),
    )
    return [
        {
            "author": node_name(G, a),
            "key": a,
            "coauthors": len(index[a]),
            "papers": len(papers_of(G, a)),
        }
        for a in ranking[:limit]
    ]


# ------------------------------------------------------------------- method <-> dataset


def _evidence(G, papers, entity):
    """The distinct sentences in which ``papers`` name ``entity``, in text order."""
    return sorted(
        {
            attrs["evidence"]
            for p in papers
            for rel, attrs in G.get_edge_data(p, entity, default={}).items()
            if rel in MENTION_RELS and attrs.get("evidence")
        }
    )


def _applied_row(G, method, target, attrs):
    papers = attrs.get("paper_keys") or []
    return {
        "method": node_name(G, method),
        "method_key": method,
        "target": node_name(G, target),
        "target_key": target,
        "target_kind": G.nodes[target]["kind"],
        "count": attrs.get("papers", len(papers)),
        "papers": sorted(paper_name(G, p) for p in papers),
        "evidence": _evidence(G, papers, target),
    }


def datasets_of(G, method):
    """The datasets and benchmarks a method was applied to, most supporting papers first.

    Each row has the supporting paper count, the papers, and the sentences in which those
    papers name the dataset.

    >>> for row in datasets_of(example_graph(), "Group Relative Policy Optimization"):
    ...     print(row["target"], row["target_kind"], row["count"], row["papers"])
    GLUE Benchmark 1 ['Bandits Again']
    MNLI Dataset 1 ['Sharper Bounds']
    """
    m = find_node(G, method, kinds=(METHOD,))
    rows = [
        _applied_row(G, m, t, G.edges[m, t, APPLIED_TO])
        for t in G.successors(m)
        if APPLIED_TO in G[m][t]
    ]
    rows.sort(key=lambda r: (-r["count"], r["target"], r["target_key"]))
    return rows


def parts_of(G, whole):
    """``whole`` and every node that is PART_OF it, directly or through other parts.

    >>> sorted(parts_of(example_graph(), "benchmark:glue"))
    ['benchmark:glue', 'dataset:mnli']
    """
    found = {whole}
    queue = [whole]
    while queue:
        x = queue.pop()
        for part in G.predecessors(x):
            if PART_OF in G[part][x] and part not in found:
                found.add(part)
                queue.append(part)
    return found


def methods_on(G, dataset, *, include_parts=False):
    """The methods applied to a dataset or benchmark, most supporting papers first.

    With ``include_parts`` a benchmark answers for its member datasets too; ``target``
    says which one each row is about.

    >>> for row in methods_on(example_graph(), "glue", include_parts=True):
    ...     print(row["method"], row["target"], row["count"])
    GRPO GLUE 1
    GRPO MNLI 1
    """
    d = find_node(G, dataset, kinds=(DATASET, BENCHMARK))
    targets = parts_of(G, d) if include_parts else {d}
    rows = [
        _applied_row(G, m, t, G.edges[m, t, APPLIED_TO])
        for t in targets
        for m in G.predecessors(t)
        if APPLIED_TO in G[m][t]
    ]
    rows.sort(
        key=lambda r: (-r["count"], r["method"], r["method_key"], r["target"], r["target_key"])
    )
    return rows


def top_method_dataset_pairs(G, *, limit=10):
    """The method-dataset (or benchmark) pairs with the most supporting papers.

    >>> for row in top_method_dataset_pairs(example_graph(), limit=2):
    ...     print(row["method"], row["target"], row["count"])
    PPO ImageNet 2
    GRPO GLUE 1
    """

    def rank(G):
        rows = [
            {
                "method": node_name(G, m),
                "method_key": m,
                "target": node_name(G, t),
                "target_key": t,
                "count": d.get("papers", len(d.get("paper_keys") or [])),
            }
            for m, t, k, d in G.edges(keys=True, data=True)
            if k == APPLIED_TO
        ]
        rows.sort(
            key=lambda r: (-r["count"], r["method"], r["target"], r["method_key"], r["target_key"])
        )
        return rows

    return [dict(row) for row in cached(G, "method_dataset_ranking", rank)[:limit]]


# ------------------------------------------------------------------ papers sharing concepts


def paper_count(G):
    """Number of Paper nodes (cached until the graph's size changes)."""
    return cached(G, "paper_count", lambda G: len(_nodes_of_kind(G, PAPER)))


def _nodes_of_kind(G, kind):
    return [n for n, k in G.nodes(data="kind") if k == kind]


def concepts_of(G, paper):
    """Concept nodes (any Method/Dataset/Benchmark/Task/Metric/Concept) a paper points to."""
    return {c for c in G.successors(paper) if G.nodes[c].get("kind") in CONCEPT_KINDS}


def papers_about(G, concept):
    """Paper keys that point to a concept node."""
    return {p for p in G.predecessors(concept) if G.nodes[p].get("kind") == PAPER}


def idf(G, concept):
    """How rare a concept is: ln(number of papers / number of papers pointing to it)."""
    return math.log(paper_count(G) / len(papers_about(G, concept)))


def related_papers(G, paper, *, limit=10):
    """Papers sharing concepts with a paper, ranked by the summed IDF of what they share.

    A concept few papers name counts more than one many papers name; ``shared`` lists the
    shared concepts (by name) as the explanation.

    >>> for row in related_papers(example_graph(), "Sharper Bounds"):
    ...     print(row["paper"], row["score"], row["shared"])
    Bandits Again 1.791759 ['GRPO', 'bounds']
    Lonely Paper 1.098612 ['regret']
    Quantum Walks 0.693147 ['bounds']
    """
    p = find_node(G, paper, kinds=(PAPER,))
    shared = {}
    for c in concepts_of(G, p):
        for q in papers_about(G, c):
            if q != p:
                shared.setdefault(q, []).append(c)
    weight = {c: idf(G, c) for c in concepts_of(G, p)}
    rows = [
        {
            "paper": paper_name(G, q),
            "key": q,
            "score": rounded(sum(weight[c] for c in cs)),
            "shared": sorted(node_name(G, c) for c in cs),
        }
        for q, cs in shared.items()
    ]
    rows.sort(key=lambda r: (-r["score"], r["paper"], r["key"]))
    return rows[:limit]


def papers_with(G, concept):
    """Every paper that points to a concept, with how (the relationship types), by name.

    >>> for row in papers_with(example_graph(), "grpo"):
    ...     print(row["paper"], row["relations"])
    Bandits Again ['USES']
    Sharper Bounds ['PROPOSES']
    """
    c = find_node(G, concept, kinds=CONCEPT_KINDS)
    rows = [
        {
            "paper": paper_name(G, p),
            "key": p,
            "relations": sorted(r for r in G[p][c] if r in MENTION_RELS),
        }
        for p in papers_about(G, c)
    ]
    rows.sort(key=lambda r: (r["paper"], r["key"]))
    return rows


def shared_concepts(G, paper, other):
    """What two papers share: the concepts both point to, rarest first, with their IDF.

    A paper compared with itself gives ``[]``.

    >>> for row in shared_concepts(example_graph(), "Sharper Bounds", "Bandits Again"):
    ...     print(row["concept"], row["kind"], row["idf"])
    GRPO Method 1.098612
    bounds Concept 0.693147
    """
    p = find_node(G, paper, kinds=(PAPER,))
    q = find_node(G, other, kinds=(PAPER,))
    if p == q:
        return []
    rows = [
        {
            "concept": node_name(G, c),
            "key": c,
            "kind": G.nodes[c]["kind"],
            "idf": rounded(idf(G, c)),
        }
        for c in concepts_of(G, p) & concepts_of(G, q)
    ]
    rows.sort(key=lambda r: (-r["idf"], r["concept"], r["key"]))
    return rows


# ------------------------------------------------------------------------- example graph


def example_graph():
    """A small hand-made graph following the graph conventions, for examples and tests.

    Six papers; Julia Kempe shares two papers each with Rémi Munos and Yann Ollivier (a tie),
    Ada Lovelace has no co-author, Dan Diaz and Eve Evans are cut off from everyone else.
    GRPO is applied to MNLI, which is PART_OF GLUE.
    """
    G = nx.MultiDiGraph(schema_version=SCHEMA_VERSION)
    entities = [
        ("method:grpo", METHOD, "GRPO", ["Group Relative Policy Optimization"]),
        ("method:ppo", METHOD, "PPO", ["Proximal Policy Optimization"]),
        ("dataset:mnli", DATASET, "MNLI", ["MultiNLI"]),
        ("dataset:imagenet", DATASET, "ImageNet", ["ImageNet-1K", "ImageNet1K"]),
        ("benchmark:glue", BENCHMARK, "GLUE", []),
    ]
    for key, kind, name, aliases in entities:
        G.add_node(
            key, kind=kind, name=name, aliases=aliases, long_form=aliases[0] if aliases else None
        )
    for name in ("regret", "bounds"):
        G.add_node(f"concept:{name}", kind="Concept", name=name)
    G.add_node("area:theory", kind=AREA, name="Theory")
    G.add_edge("dataset:mnli", "benchmark:glue", PART_OF)
    papers = [
        (
            "Sharper Bounds",
            ["Julia Kempe", "Yann Ollivier", "RÉMI MUNOS|Rémi Munos"],
            [
                ("PROPOSES", "method:grpo", "We propose GRPO."),
                ("EVALUATED_ON", "dataset:mnli", "GRPO is tested on MNLI."),
                ("MENTIONS", "concept:regret", "Regret is bounded."),
                ("MENTIONS", "concept:bounds", "Bounds are sharp."),
            ],
        ),
        (
            "Quantum Walks",
            ["Julia Kempe", "Yann Ollivier"],
            [
                ("USES", "method:ppo", "PPO runs on ImageNet."),
                ("EVALUATED_ON", "dataset:imagenet", "PPO runs on ImageNet."),
                ("MENTIONS", "concept:bounds", "Bounds hold."),
            ],
        ),
        (
            "Bandits Again",
            ["Julia Kempe", "Rémi Munos"],
            [
                ("USES", "method:grpo", "GRPO helps on GLUE."),
                ("EVALUATED_ON", "benchmark:glue", "GRPO helps on GLUE."),
                ("MENTIONS", "concept:bounds", "New bounds."),
            ],
        ),
        ("Lonely Paper", ["Ada Lovelace"], [("MENTIONS", "concept:regret", "Regret again.")]),
        (
            "Edge Case",
            ["Rémi Munos", "Carol Chen"],
            [
                ("USES", "method:ppo", "We use PPO."),
                ("EVALUATED_ON", "dataset:imagenet", "ImageNet results."),
            ],
        ),
        ("Far Away", ["Dan Diaz", "Eve Evans"], []),
    ]
    for index, (title, authors, mentions) in enumerate(papers):
        abstract = " ".join(sentence for _, _, sentence in mentions) or title
        key = f"paper:{content_hash(title + ' ' + abstract)}"
        G.add_node(
            key,
            kind=PAPER,
            abstract=abstract,
            title=title,
            label=None,
            area="Theory",
            sources=[f"example.txt#{index}"],
            hash=key[6:],
            venue=None,
            year=None,
        )
        G.add_edge(key, "area:theory", IN_AREA)
        for position, printed in enumerate(authors, 1):
            variants = sorted(printed.split("|"))
            name = printed.split("|")[-1]
            author = f"author:{name.casefold()}"
            known = G.nodes[author]["variants"] if author in G else []
            G.add_node(author, kind=AUTHOR, name=name, variants=sorted({*known, *variants}))
            G.add_edge(author, key, AUTHORED, position=position, truncated_list=False)
        for rel, entity, sentence in mentions:
            start = abstract.index(sentence)
            G.add_edge(
                key,
                entity,
                rel,
                evidence=sentence,
                start=start,
                end=start + len(sentence),
                text=G.nodes[entity]["name"],
                rule="example",
                score=1.0,
            )
    for method, target, titles in [
        ("method:grpo", "dataset:mnli", ["Sharper Bounds"]),
        ("method:grpo", "benchmark:glue", ["Bandits Again"]),
        ("method:ppo", "dataset:imagenet", ["Quantum Walks", "Edge Case"]),
    ]:
        keys = sorted(p for p, t in G.nodes(data="title") if t in titles)
        G.add_edge(method, target, APPLIED_TO, papers=len(keys), paper_keys=keys, score=1.0)
    set_coauthor_counts(G)
    return G
