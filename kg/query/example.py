"""A small hand-made graph following the graph conventions, for examples and tests."""

import networkx as nx

from kg.graph.authors import author_key
from kg.graph.papers import set_coauthor_counts
from kg.graph.related import add_similar_edges
from kg.schema import (
    APPLIED_TO,
    AREA,
    AUTHOR,
    AUTHORED,
    BENCHMARK,
    CONCEPT,
    DATASET,
    EVALUATED_ON,
    IN_AREA,
    MENTIONS,
    METHOD,
    PAPER,
    PART_OF,
    PROPOSES,
    SCHEMA_VERSION,
    USES,
    content_hash,
)


def example_graph() -> nx.MultiDiGraph:
    """A small hand-made graph following the graph conventions, for examples and tests.

    Six papers; Julia Kempe shares two papers each with Rémi Munos and Yann Ollivier (a tie),
    Ada Lovelace has no co-author, Dan Diaz and Eve Evans are cut off from everyone else.
    GRPO is applied to MNLI, which is PART_OF GLUE.
    """
    G: nx.MultiDiGraph = nx.MultiDiGraph(schema_version=SCHEMA_VERSION)
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
        G.add_node(f"concept:{name}", kind=CONCEPT, name=name)
    G.add_node("area:theory", kind=AREA, name="Theory")
    G.add_edge("dataset:mnli", "benchmark:glue", PART_OF)
    papers = [
        (
            "Sharper Bounds",
            ["Julia Kempe", "Yann Ollivier", "RÉMI MUNOS|Rémi Munos"],
            [
                (PROPOSES, "method:grpo", "We propose GRPO."),
                (EVALUATED_ON, "dataset:mnli", "GRPO is tested on MNLI."),
                (MENTIONS, "concept:regret", "Regret is bounded."),
                (MENTIONS, "concept:bounds", "Bounds are sharp."),
            ],
        ),
        (
            "Quantum Walks",
            ["Julia Kempe", "Yann Ollivier"],
            [
                (USES, "method:ppo", "PPO runs on ImageNet."),
                (EVALUATED_ON, "dataset:imagenet", "PPO runs on ImageNet."),
                (MENTIONS, "concept:bounds", "Bounds hold."),
            ],
        ),
        (
            "Bandits Again",
            ["Julia Kempe", "Rémi Munos"],
            [
                (USES, "method:grpo", "GRPO helps on GLUE."),
                (EVALUATED_ON, "benchmark:glue", "GRPO helps on GLUE."),
                (MENTIONS, "concept:bounds", "New bounds."),
            ],
        ),
        ("Lonely Paper", ["Ada Lovelace"], [(MENTIONS, "concept:regret", "Regret again.")]),
        (
            "Edge Case",
            ["Rémi Munos", "Carol Chen"],
            [
                (USES, "method:ppo", "We use PPO."),
                (EVALUATED_ON, "dataset:imagenet", "ImageNet results."),
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
            author = author_key(name)
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
        evidence = [G.edges[p, target, EVALUATED_ON] for p in keys]
        G.add_edge(
            method,
            target,
            APPLIED_TO,
            papers=len(keys),
            paper_keys=keys,
            score=1.0,
            evidence=[e["evidence"] for e in evidence],
            evidence_at=[f"{e['start']}:{e['end']}" for e in evidence],
        )
    set_coauthor_counts(G)
    add_similar_edges(G)
    return G
