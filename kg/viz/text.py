"""What a page says about nodes and edges: display names and plain-text tooltips."""

import networkx as nx

from kg import schema

LABEL_CHARS = 40
TOOLTIP_SENTENCE_CHARS = 300
TOOLTIP_AUTHORS = 8
#: Paper names and evidence sentences in a node's details panel.
DETAIL_ITEMS = 8
DETAIL_EVIDENCE = 3


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1.

    >>> count(1, "paper"), count(2_000, "paper")
    ('1 paper', '2,000 papers')
    """
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word boundary, with an ellipsis when cut.

    >>> shorten("Group relative policy optimisation", 20)
    'Group relative…'
    >>> shorten("short", 20)
    'short'
    """
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut + "\u2026"


def full_name(G: nx.MultiDiGraph, key: str) -> str:
    """What a node is called: a paper's label, title or first sentence; an entity's name."""
    data = G.nodes[key]
    if data["kind"] == schema.PAPER:
        return schema.paper_name(data) or key
    return data.get("name") or key


def display_name(G: nx.MultiDiGraph, key: str) -> str:
    """A node's name cut to fit a label on the canvas."""
    return shorten(full_name(G, key), LABEL_CHARS)


def paper_count(G: nx.MultiDiGraph, key: str) -> int:
    """How many papers point at an entity, author or area node."""
    return sum(1 for p in G.predecessors(key) if G.nodes[p]["kind"] == schema.PAPER) + sum(
        1 for p in G.successors(key) if G.nodes[p]["kind"] == schema.PAPER
    )


def paper_authors(G: nx.MultiDiGraph, key: str) -> list[str]:
    """Display names of a paper's authors in byline order."""
    rows = [
        (G.edges[a, key, schema.AUTHORED].get("position") or 0, G.nodes[a].get("name") or a)
        for a in G.predecessors(key)
        if G.has_edge(a, key, schema.AUTHORED)
    ]
    return [name for _, name in sorted(rows)]


def node_tooltip(G: nx.MultiDiGraph, key: str) -> str:
    """Plain-text tooltip: a paper's label, authors, area and first sentence; an entity's type,
    aliases and paper count."""
    data = G.nodes[key]
    kind = data["kind"]
    if kind == schema.PAPER:
        authors = paper_authors(G, key)
        shown = ", ".join(authors[:TOOLTIP_AUTHORS])
        if len(authors) > TOOLTIP_AUTHORS:
            shown += f" and {len(authors) - TOOLTIP_AUTHORS} more"
        lines = [
            data.get("label") or data.get("title") or key,
            f"Authors: {shown or 'unknown'}",
            f"Area: {data.get('area') or 'unknown'}",
            shorten(schema.first_sentence(data.get("abstract") or ""), TOOLTIP_SENTENCE_CHARS),
        ]
    elif kind == schema.AUTHOR:
        lines = [data.get("name") or key, f"Author of {count(paper_count(G, key), 'paper')}"]
    else:
        lines = [data.get("name") or key, f"Type: {kind}"]
        if data.get("long_form"):
            lines.append(f"Long form: {data['long_form']}")
        if data.get("aliases"):
            lines.append("Aliases: " + ", ".join(data["aliases"]))
        lines.append(f"Papers: {paper_count(G, key)}")
    return "\n".join(lines)


def node_details(G: nx.MultiDiGraph, key: str) -> dict[str, object]:
    """What a click on a node shows: its type, the names of (some of) its papers and how
    many there are, and (some of) the sentences that name it (a paper: its authors and first
    sentence)."""
    data = G.nodes[key]
    kind = data["kind"]
    if kind == schema.PAPER:
        authors = paper_authors(G, key)
        sentence = schema.first_sentence(data.get("abstract") or "")
        return {
            "kind": kind,
            "papers": authors[:DETAIL_ITEMS],
            "paperCount": len(authors),
            "papersHeading": "Authors",
            "evidence": [shorten(sentence, TOOLTIP_SENTENCE_CHARS)] if sentence else [],
        }
    papers = sorted(
        {
            p
            for p in (*G.predecessors(key), *G.successors(key))
            if G.nodes[p]["kind"] == schema.PAPER
        }
    )
    evidence = sorted(
        {
            G.edges[p, key, rel]["evidence"]
            for p in papers
            if G.has_edge(p, key)
            for rel in G[p][key]
            if rel in schema.MENTION_RELS and G.edges[p, key, rel].get("evidence")
        }
    )
    return {
        "kind": kind,
        "papers": sorted(full_name(G, p) for p in papers)[:DETAIL_ITEMS],
        "paperCount": len(papers),
        "papersHeading": "Papers",
        "evidence": [shorten(e, TOOLTIP_SENTENCE_CHARS) for e in evidence[:DETAIL_EVIDENCE]],
    }


def edge_tooltip(G: nx.MultiDiGraph, u: str, v: str, rel: str) -> str:
    """Plain-text tooltip of a graph edge: the evidence sentence of a mention."""
    data = G.edges[u, v, rel]
    if rel in schema.MENTION_RELS:
        return f"{rel}: {data.get('evidence') or ''}"
    if rel == schema.APPLIED_TO:
        return f"{rel} in {count(data.get('papers', 0), 'paper')}"
    if rel == schema.AUTHORED and data.get("position"):
        return f"{rel} (author {data['position']})"
    if rel == schema.VARIANT_OF:
        return f"{rel}: {full_name(G, u)} is a version or size of {full_name(G, v)}"
    return rel
