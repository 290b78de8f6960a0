"""Render a view of the graph as one self-contained, offline, escaped HTML page.

pyvis assembles the vis-network nodes, edges and options; the page template is ours
(``page.html``, Jinja with autoescaping) because pyvis's own template links Bootstrap from a
CDN and inserts its heading unescaped. vis-network's script and styles, shipped inside pyvis,
are inlined. Paper text reaches the page only as autoescaped HTML or as JSON inside a script
whose ``<``, ``>``, ``&`` and line separators are escaped; tooltips are plain strings, which
vis-network shows as text.
"""

import json
import math
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.resources import files
from typing import Any

import jinja2
import networkx as nx
from pyvis.network import Network

from kg import schema
from kg.extractors.names import fold
from kg.viz.text import display_name, full_name, node_details, node_tooltip
from kg.viz.views import View, by_degree, degree

#: Stabilisation iterations before physics stops: 2,000 nodes lay out in seconds, not minutes.
STABILIZATION_ITERATIONS = 150
LAYOUT_SEED = 7

#: (colour, vis shape, legend glyph) per node kind.
STYLE = {
    schema.PAPER: ("#4e79a7", "dot", "\u25cf"),
    schema.AUTHOR: ("#f28e2b", "diamond", "\u25c6"),
    schema.METHOD: ("#e15759", "square", "\u25a0"),
    schema.DATASET: ("#59a14f", "triangle", "\u25b2"),
    schema.BENCHMARK: ("#2f7d32", "triangleDown", "\u25bc"),
    schema.TASK: ("#b07aa1", "star", "\u2605"),
    schema.METRIC: ("#9c755f", "hexagon", "\u2b22"),
    schema.CONCEPT: ("#76b7b2", "dot", "\u25cf"),
    schema.AREA: ("#bab0ac", "square", "\u25a0"),
}
#: The style of a kind STYLE does not list (an entity type new to the vocabulary).
DEFAULT_STYLE = ("#8c8c8c", "dot", "\u25cf")
HIGHLIGHT_BORDER = "#000000"
#: Community colours of the co-author page, largest community first; the rest share the last.
COMMUNITY_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#59a14f",
    "#b07aa1",
    "#edc948",
    "#76b7b2",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)
#: The best connected nodes of a page, whose labels stay readable at every zoom.
TOP_LABELS = 30
#: Screen size (px) of the top nodes' labels; other labels show once they are this big.
LABEL_PX = 14
#: A page's block of links (``page.html``): each node of the page and the file of its own page,
#: or null. Its JSON holds no ``<`` (``script_json``), so the block ends at the first ``</script>``.
LINKS_BLOCK = re.compile(r'<script id="kg-own-pages" type="application/json">([^<]*)</script>')


def style_of(kind: str) -> tuple[str, str, str]:
    """(colour, vis shape, legend glyph) of a node kind; DEFAULT_STYLE for unlisted kinds.

    >>> style_of("Paper") == STYLE["Paper"], style_of("Software") == DEFAULT_STYLE
    (True, True)
    """
    return STYLE.get(kind, DEFAULT_STYLE)


def node_size(degree: int) -> float:
    """Node radius by degree, on a square-root scale so hubs stay readable.

    >>> node_size(0), node_size(4), node_size(10_000)
    (8.0, 16.0, 48.0)
    """
    return min(48.0, 8.0 + 4.0 * math.sqrt(degree))


def edge_width(weight: float) -> float:
    """Edge width by weight (shared papers, papers applying a method), logarithmic.

    >>> edge_width(1), edge_width(4), edge_width(10**6)
    (1.0, 4.0, 10.0)
    """
    return min(10.0, 1.0 + 1.5 * math.log2(max(weight, 1)))


def script_json(value: object) -> str:
    """JSON safe to place inside a <script> element: no ``</script>``, ``<!--`` or line separators.

    >>> script_json(["</script><img src=x onerror=alert(1)>"])
    '["\\\\u003c/script\\\\u003e\\\\u003cimg src=x onerror=alert(1)\\\\u003e"]'
    """
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char, escape in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def network_options() -> dict[str, Any]:
    """vis-network options: seeded layout, physics that stops after the stabilisation."""
    return {
        "layout": {"randomSeed": LAYOUT_SEED, "improvedLayout": False},
        "physics": {
            "solver": "forceAtlas2Based",
            "forceAtlas2Based": {
                "gravitationalConstant": -60,
                "springLength": 90,
                "avoidOverlap": 0.2,
            },
            "stabilization": {
                "enabled": True,
                "iterations": STABILIZATION_ITERATIONS,
                "updateInterval": 25,
                "fit": True,
            },
        },
        "interaction": {"hover": True, "tooltipDelay": 150, "hideEdgesOnDrag": True},
        "nodes": {
            "font": {"size": LABEL_PX, "strokeWidth": 3, "strokeColor": "#ffffff"},
            "scaling": {"label": {"drawThreshold": LABEL_PX}},
        },
        "edges": {"color": {"inherit": False, "color": "#a0a0a0"}, "smooth": False},
    }


def community_colour(community: int) -> str:
    """The colour of a community by its number (0 the largest).

    >>> community_colour(0), community_colour(99) == COMMUNITY_COLOURS[-1]
    ('#4e79a7', True)
    """
    return COMMUNITY_COLOURS[min(community, len(COMMUNITY_COLOURS) - 1)]


def top_nodes(G: nx.MultiDiGraph, view: View) -> list[str]:
    """The nodes whose labels are always shown: the highlighted ones and the ``TOP_LABELS``
    best connected."""
    return list(dict.fromkeys([*view.highlight, *by_degree(G, view.nodes)]))[:TOP_LABELS]


def search_names(G: nx.MultiDiGraph, key: str) -> list[str]:
    """The folded names (as the CLI lookup compares them) a node is found by in the page.

    >>> G = nx.MultiDiGraph()
    >>> G.add_node("author:bs", kind="Author", name="Bernhard Schölkopf")
    >>> search_names(G, "author:bs")
    ['bernhardscholkopf']
    """
    names = [full_name(G, key), *(G.nodes[key].get("aliases") or ())]
    return list(dict.fromkeys(f for f in map(fold, names) if f))


def page_links(keys: Iterable[str], pages: Mapping[str, str], name: str) -> dict[str, str | None]:
    """{node key: file name of its own page, or None} for the nodes ``keys`` of the page
    ``name``; ``pages`` maps node keys to their own pages' file names. A node's own page that is
    this page is not linked.

    >>> page_links(["a", "b", "c"], {"a": "a.html", "b": "p.html", "d": "d.html"}, "p.html")
    {'a': 'a.html', 'b': None, 'c': None}
    """
    return {key: None if pages.get(key) == name else pages.get(key) for key in keys}


def relink(text: str, pages: Mapping[str, str], name: str) -> str | None:
    """``text``, the page ``name`` as kg wrote it, with its block of links (``LINKS_BLOCK``)
    rewritten for ``pages`` (node key -> file name of its own page), keeping the nodes the
    block lists; None when the links are current or ``text`` has no readable block (a page
    not kg's, or of an older kg).

    >>> page = '<script id="kg-own-pages" type="application/json">{"a":null}</script>'
    >>> relink(page, {"a": "a.html"}, "v.html")
    '<script id="kg-own-pages" type="application/json">{"a":"a.html"}</script>'
    >>> relink(page, {"b": "b.html"}, "v.html") is None
    True
    """
    found = LINKS_BLOCK.search(text)
    if found is None:
        return None
    try:
        keys = json.loads(found.group(1))
    except ValueError:
        return None
    if not isinstance(keys, dict):
        return None
    block = script_json(page_links(keys, pages, name))
    if block == found.group(1):
        return None
    return f"{text[: found.start(1)]}{block}{text[found.end(1) :]}"


def build_network(G: nx.MultiDiGraph, view: View) -> Network:
    """The pyvis Network of a view: nodes styled by kind (or community) and sized by degree,
    edges by weight; the top nodes flagged and each node's details in its data."""
    net = Network(directed=True, cdn_resources="in_line")
    highlighted = set(view.highlight)
    top = set(top_nodes(G, view))
    community = dict(view.communities)
    for key in view.nodes:
        colour, shape, _ = style_of(G.nodes[key]["kind"])
        if key in community:
            colour = community_colour(community[key])
        extra: dict[str, Any] = {"top": True} if key in top else {}
        net.add_node(
            key,
            label=display_name(G, key),
            name=full_name(G, key),
            search=search_names(G, key),
            details=node_details(G, key),
            title=node_tooltip(G, key),
            shape=shape,
            **extra,
            color={"background": colour, "border": HIGHLIGHT_BORDER}
            if key in highlighted
            else colour,
            borderWidth=4 if key in highlighted else 1,
            size=node_size(degree(G, key)),
        )
    for index, edge in enumerate(view.edges):
        net.add_edge(
            edge.source,
            edge.target,
            id=f"e{index}",
            width=edge_width(edge.weight),
            title=edge.tooltip,
            arrows=edge.arrows,
        )
    net.options = network_options()
    return net


@cache
def _assets() -> tuple[jinja2.Template, str, str]:
    lib = files("pyvis") / "templates" / "lib" / "vis-9.1.2"
    env = jinja2.Environment(
        autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True
    )
    template = env.from_string((files("kg.viz") / "page.html").read_text(encoding="utf-8"))
    return (
        template,
        (lib / "vis-network.min.js").read_text(encoding="utf-8"),
        (lib / "vis-network.css").read_text(encoding="utf-8"),
    )


def legend(G: nx.MultiDiGraph, view: View) -> list[tuple[str, str, str]]:
    """(what, colour, glyph) for each kind of node on the page, in schema order; on a page
    coloured by community, each community named by its best connected member."""
    if view.communities:
        members: dict[int, list[str]] = {}
        for key, community in view.communities:
            members.setdefault(min(community, len(COMMUNITY_COLOURS) - 1), []).append(key)
        glyph = style_of(schema.AUTHOR)[2]
        return [
            (
                f"{display_name(G, by_degree(G, keys)[0])} and {len(keys) - 1:,} more"
                if n < len(COMMUNITY_COLOURS) - 1
                else f"smaller communities ({len(keys):,} authors)",
                community_colour(n),
                glyph,
            )
            for n, keys in sorted(members.items())
        ]
    kinds = {G.nodes[key]["kind"] for key in view.nodes}
    return [
        (kind, style_of(kind)[0], style_of(kind)[2]) for kind in schema.NODE_KINDS if kind in kinds
    ]


def render(
    G: nx.MultiDiGraph,
    view: View,
    *,
    pages: Mapping[str, str] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> str:
    """The HTML text of one page; ``pages`` maps node keys to the file names of their own
    pages (its block of links, which :func:`relink` rewrites), ``meta`` is what the index reads
    back (which graph, when)."""
    template, vis_js, vis_css = _assets()
    net = build_network(G, view)
    nodes, edges, _, _, _, _ = net.get_network_data()
    return template.render(
        links_json=script_json(page_links(view.nodes, pages or {}, f"{view.name}.html")),
        title=view.title,
        note=view.note,
        legend=legend(G, view),
        vis_js=vis_js,
        vis_css=vis_css,
        nodes_json=script_json(nodes),
        edges_json=script_json(edges),
        options_json=script_json(net.options),
        highlight_json=script_json(list(view.highlight)),
        label_px=LABEL_PX,
        meta_json=json.dumps(
            {"title": view.title, "note": view.note, "focus": list(view.highlight), **(meta or {})},
            ensure_ascii=False,
            sort_keys=True,
        ),
    )
