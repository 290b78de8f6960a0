"""Visualisation pages: self-contained pyvis/vis-network HTML pages of the graph and its traversals.

``write_pages(G, out_dir, ...)`` writes an overview, the co-author network, the
method-dataset bipartite page and any focus pages asked for, plus an ``index.html`` listing
every page in the folder (earlier runs' too), and brings the links of the folder's earlier
pages up to date. Pages work offline, escape all paper text and are byte-for-byte
deterministic for a given graph, options and ``$SOURCE_DATE_EPOCH``.
"""

import html
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any

import jinja2
import networkx as nx

from kg import schema
from kg.errors import OutputError
from kg.files import atomic_output, partly_written
from kg.lock import DEFAULT_WAIT, exclusive
from kg.query.lookup import find_node
from kg.viz import views
from kg.viz.page import relink, render
from kg.viz.views import View

#: Nodes on the overview unless asked (or the folder's overview has another size).
DEFAULT_TOP = 150
#: The pages every run writes, first in the index in this order.
STANDARD = ("overview", "coauthors", "methods-datasets")
#: File names the index lists and nodes may link to (kg's own names are slugs).
PAGE_NAME = re.compile(r"[A-Za-z0-9._-]+\.html")
META = re.compile(r'<meta name="kg-page" content="([^"]*)">')
#: How much of a page's start is read for its meta tag (which comes first in its head).
HEAD_CHARS = 65536

INDEX = jinja2.Environment(autoescape=True).from_string(
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Knowledge graph pages</title>
<style>body { font-family: system-ui, sans-serif; margin: 16px; } li { margin: 6px 0; }
.from { color: #666; font-size: 13px; }</style>
</head>
<body>
<h1>Knowledge graph pages</h1>
<p>{{ pages|length }} pages in this folder; the last written from {{ source }} at {{ when }}.</p>
<ul>
{% for page in pages %}<li><a href="{{ page.file }}">{{ page.title }}</a>: {{ page.note }}
<span class="from">({{ page.graph }}, {{ page.written }})</span></li>
{% endfor %}</ul>
</body>
</html>
"""
)
#: The lock file of a folder of pages: one kg viz at a time writes into a folder.
FOLDER_LOCK = ".kg-viz.lock"


def written_at() -> str:
    """Now (UTC, to the minute), or ``$SOURCE_DATE_EPOCH`` when set, so that runs can be
    reproduced byte for byte."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (
        datetime.fromtimestamp(int(epoch), UTC) if epoch and epoch.isdigit() else datetime.now(UTC)
    )
    return when.strftime("%Y-%m-%d %H:%M UTC")


def read_meta(path: Path) -> dict[str, Any]:
    """What a page written by kg says about itself (title, note, focus, graph, written);
    for another file, its name as the title."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            found = META.search(fh.read(HEAD_CHARS))
        meta = json.loads(html.unescape(found.group(1))) if found else {}
    except (OSError, ValueError):
        meta = {}
    if not isinstance(meta, dict):
        meta = {}
    return {
        "title": str(meta.get("title") or path.name),
        "note": str(meta.get("note") or ""),
        "focus": [str(k) for k in meta.get("focus") or ()],
        "graph": str(meta.get("graph") or "unknown graph"),
        "written": str(meta.get("written") or "unknown time"),
        "file": path.name,
        "top": meta["top"] if type(meta.get("top")) is int else None,
    }


def folder_pages(out_dir: Path) -> dict[str, dict[str, Any]]:
    """{file name: meta} of the pages already in ``out_dir`` (none if it does not exist)."""
    if not out_dir.is_dir():
        return {}
    return {
        path.name: read_meta(path)
        for path in sorted(out_dir.iterdir())
        if PAGE_NAME.fullmatch(path.name) and path.name != "index.html" and path.is_file()
    }


def index_order(meta: dict[str, Any]) -> tuple:
    """Standard pages first, in STANDARD order, then the rest by title and file name."""
    stem = meta["file"][: -len(".html")]
    rank = STANDARD.index(stem) if stem in STANDARD else len(STANDARD)
    return rank, meta["title"].casefold(), meta["file"]


def own_pages(pages: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """{node key: file name of its own page}: a page's focus node (of several pages of one
    node, the first file name)."""
    found: dict[str, str] = {}
    for name in sorted(pages):
        for key in pages[name]["focus"]:
            found.setdefault(key, name)
    return found


def relinked(path: Path, links: Mapping[str, str]) -> str | None:
    """The text of the page kg wrote at ``path`` with its links brought up to date
    (``links``: node key -> file name of its own page); None when they are current, or
    ``path`` is not a page of kg's with a block of links (which is then left as it is)."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except (OSError, ValueError):
        return None
    return relink(text, links, path.name) if META.search(text[:HEAD_CHARS]) else None


def describe_graph(G: nx.MultiDiGraph, source: str) -> str:
    """Which graph pages were written from: its file and paper count."""
    papers = sum(1 for _, kind in G.nodes(data="kind") if kind == schema.PAPER)
    return f"{source or 'a graph in memory'} ({papers:,} papers)"


def write_views(
    G: nx.MultiDiGraph,
    out_dir: str | PathLike[str],
    page_views: Sequence[View],
    *,
    source: str = "",
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
) -> list[Path]:
    """Render each view to ``<out_dir>/<name>.html`` and rewrite ``index.html`` to list every
    page in the folder (earlier runs' too, with the graph and time each came from); return
    the paths written, ``index.html`` first.

    ``source`` names the graph (its file); nodes link to their own pages, of this run or
    an earlier one. The earlier pages of the folder whose links this changes (a node of
    theirs has its page now) get their block of links rewritten, and nothing else of them.
    Each page is moved into place whole once written, the earlier pages after this run's
    and the index last, so no page links a page not written; a failure part way (a full
    disk) says which pages were written. Holds the folder's lock (``FOLDER_LOCK``)
    throughout: while another process writes pages into ``out_dir``, wait up to ``wait``
    seconds (``waiting`` gets one line), then raise ``kg.errors.Locked``.
    """
    out_dir = Path(out_dir)
    page_views = [views.fitted(view) for view in page_views]
    with exclusive(
        out_dir / FOLDER_LOCK,
        f"another kg viz into {out_dir}",
        target=f"the pages folder {out_dir.absolute()}",
        wait=wait,
        waiting=waiting,
    ):
        graph, when = describe_graph(G, source), written_at()
        pages = folder_pages(out_dir)
        earlier = [out_dir / name for name in pages]
        for view in page_views:
            pages[f"{view.name}.html"] = {
                "title": view.title,
                "note": view.note,
                "focus": list(view.highlight),
                "graph": graph,
                "written": when,
                "file": f"{view.name}.html",
                "top": view.top,
            }
        links = own_pages(pages)
        texts = {
            out_dir / f"{view.name}.html": render(
                G, view, pages=links, meta={"graph": graph, "top": view.top, "written": when}
            )
            for view in page_views
        }
        for path in earlier:  # those whose links change
            if path not in texts and (text := relinked(path, links)) is not None:
                texts[path] = text
        texts[out_dir / "index.html"] = INDEX.render(
            pages=sorted(pages.values(), key=index_order), source=graph, when=when
        )
        to_write = list(texts)  # this run's pages, the earlier ones, the index last
        written: list[Path] = []
        try:
            for path in to_write:
                with atomic_output(path, "the page", newline="\n") as fh:
                    fh.write(texts[path])
                written.append(path)
        except OutputError as exc:
            raise partly_written(exc, written, to_write) from None
    return [written[-1], *written[:-1]]


def standard_views(G: nx.MultiDiGraph, *, top: int = DEFAULT_TOP) -> list[View]:
    """The pages every run writes: overview, co-author network, methods and datasets."""
    return [views.overview(G, top=top), views.coauthor_network(G), views.method_dataset(G)]


Names = str | Sequence[str] | None


def names(value: Names) -> list[str]:
    """One name or several as a list (none for None).

    >>> names("Bo Li"), names(["Bo Li", "Ada"]), names(None)
    (['Bo Li'], ['Bo Li', 'Ada'], [])
    """
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def focus_views(
    G: nx.MultiDiGraph,
    *,
    author: Names = None,
    depth: int = 1,
    method: Names = None,
    dataset: Names = None,
    paper: Names = None,
    concept: Names = None,
) -> list[View]:
    """The pages for the names asked for (one name or a list of each); each name is looked
    up forgivingly (``kg.query.lookup``)."""
    found = [
        views.author_neighbourhood(
            G, find_node(G, name, kinds=(schema.AUTHOR,), what="author"), depth=depth
        )
        for name in names(author)
    ]
    found += [
        views.method_page(G, find_node(G, name, kinds=(schema.METHOD,), what="method"))
        for name in names(method)
    ]
    found += [
        views.dataset_page(
            G,
            find_node(
                G, name, kinds=(schema.DATASET, schema.BENCHMARK), what="dataset or benchmark"
            ),
        )
        for name in names(dataset)
    ]
    found += [
        views.related_papers(G, find_node(G, name, kinds=(schema.PAPER,), what="paper"))
        for name in names(paper)
    ]
    found += [
        views.concept_papers(G, find_node(G, name, kinds=schema.CONCEPT_KINDS, what="concept"))
        for name in names(concept)
    ]
    return list({view.name: view for view in found}.values())


def write_pages(
    G: nx.MultiDiGraph,
    out_dir: str | PathLike[str],
    *,
    top: int | None = None,
    author: Names = None,
    depth: int = 1,
    method: Names = None,
    dataset: Names = None,
    paper: Names = None,
    concept: Names = None,
    source: str = "",
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
) -> list[Path]:
    """Write the standard pages, a page per name asked for, and ``index.html`` (listing
    every page in the folder); return the paths written.

    Names that match no node raise ``kg.errors.NotFound`` (with suggestions) before anything
    is written. One process at a time writes into a folder (see :func:`write_views` for
    ``wait`` and ``waiting``). ``source`` names the graph in the index (its file). ``top``
    is the overview's size: by default the size of the overview already in the folder, else
    150.
    """
    if top is None:
        top = folder_pages(Path(out_dir)).get("overview.html", {}).get("top") or DEFAULT_TOP
    focus = focus_views(
        G, author=author, depth=depth, method=method, dataset=dataset, paper=paper, concept=concept
    )
    views = [*standard_views(G, top=top), *focus]
    return write_views(G, out_dir, views, source=source, wait=wait, waiting=waiting)
