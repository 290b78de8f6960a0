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
from functools import cache
from importlib.resources import files
from typing import Any

import jinja2
import networkx as nx
from pyvis.network import Network

from kg import schema
from kg.viz.text import display_name, full_name, node_tooltip
from kg.viz.views import View, degree

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
        "nodes": {"font": {"size": 14}},
        "edges": {"color": {"inherit": False, "color": "#a0a0a0"}, "smooth": False},
    }


def build_network(G: nx.MultiDiGraph, view: View) -> Network:
    """The pyvis Network of a view: nodes styled by kind and sized by degree, edges by weight."""
    net = Network(directed=True, cdn_resources="in_line")
    highlighted = set(view.highlight)
    for key in view.nodes:
        colour, shape, _ = style_of(G.nodes[key]["kind"])
        net.add_node(
            key,
            label=display_name(G, key),
            name=full_name(G, key),
            title=node_tooltip(G, key),
            shape=shape,
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
    """(kind, colour, glyph) for each kind of node on the page, in schema order."""
    kinds = {G.nodes[key]["kind"] for key in view.nodes}
    return [
        (kind, style_of(kind)[0], style_of(kind)[2]) for kind in schema.NODE_KINDS if kind in kinds
    ]


def render(G: nx.MultiDiGraph, view: View) -> str:
    """The HTML text of one page."""
    template, vis_js, vis_css = _assets()
    net = build_network(G, view)
    nodes, edges, _, _, _, _ = net.get_network_data()
    return template.render(
        title=view.title,
        note=view.note,
        legend=legend(G, view),
        vis_js=vis_js,
        vis_css=vis_css,
        nodes_json=script_json(nodes),
        edges_json=script_json(edges),
        options_json=script_json(net.options),
        highlight_json=script_json(list(view.highlight)),
    )
