"""Visualisation pages: self-contained pyvis/vis-network HTML pages of the graph and its traversals.

``write_pages(G, out_dir, ...)`` writes an overview, the co-author network, the
method-dataset bipartite page and any focus pages asked for, plus an ``index.html`` linking
them. Pages work offline, escape all paper text and are byte-for-byte deterministic.
"""

from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path

import jinja2
import networkx as nx

from kg import schema
from kg.errors import OutputError
from kg.files import atomic_output, partly_written
from kg.lock import DEFAULT_WAIT, exclusive
from kg.query.lookup import find_node
from kg.viz import views
from kg.viz.page import render
from kg.viz.views import View

INDEX = jinja2.Environment(autoescape=True).from_string(
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Knowledge graph pages</title>
<style>body { font-family: system-ui, sans-serif; margin: 16px; } li { margin: 6px 0; }</style>
</head>
<body>
<h1>Knowledge graph pages</h1>
<ul>
{% for view in views %}<li><a href="{{ view.name }}.html">{{ view.title }}</a>: {{ view.note }}</li>
{% endfor %}</ul>
</body>
</html>
"""
)
#: The lock file of a folder of pages: one kg viz at a time writes into a folder.
FOLDER_LOCK = ".kg-viz.lock"


def write_views(
    G: nx.MultiDiGraph,
    out_dir: str | PathLike[str],
    page_views: Sequence[View],
    *,
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
) -> list[Path]:
    """Render each view to ``<out_dir>/<name>.html`` and an ``index.html`` linking them;
    return the paths (the index first).

    Each page is moved into place whole once written, and the index last, so it never links
    a page not written; a failure part way (a full disk) says which pages were written.
    Holds the folder's lock (``FOLDER_LOCK``) throughout: while another process writes pages
    into ``out_dir``, wait up to ``wait`` seconds (``waiting`` gets one line), then raise
    ``kg.errors.Locked``.
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
        pages = [(out_dir / f"{view.name}.html", render(G, view)) for view in page_views]
        pages.append((out_dir / "index.html", INDEX.render(views=page_views)))
        written: list[Path] = []
        try:
            for path, text in pages:
                with atomic_output(path, "the page", newline="\n") as fh:
                    fh.write(text)
                written.append(path)
        except OutputError as exc:
            raise partly_written(exc, written, [path for path, _ in pages]) from None
    return [written[-1], *written[:-1]]


def standard_views(G: nx.MultiDiGraph, *, top: int = 150) -> list[View]:
    """The pages every run writes: overview, co-author network, methods and datasets."""
    return [views.overview(G, top=top), views.coauthor_network(G), views.method_dataset(G)]


def focus_views(
    G: nx.MultiDiGraph,
    *,
    author: str | None = None,
    depth: int = 1,
    method: str | None = None,
    dataset: str | None = None,
    paper: str | None = None,
    concept: str | None = None,
) -> list[View]:
    """The pages for the names asked for; each name is looked up forgivingly
    (``kg.query.lookup``)."""
    found = []
    if author is not None:
        key = find_node(G, author, kinds=(schema.AUTHOR,), what="author")
        found.append(views.author_neighbourhood(G, key, depth=depth))
    if method is not None:
        found.append(
            views.method_page(G, find_node(G, method, kinds=(schema.METHOD,), what="method"))
        )
    if dataset is not None:
        key = find_node(
            G, dataset, kinds=(schema.DATASET, schema.BENCHMARK), what="dataset or benchmark"
        )
        found.append(views.dataset_page(G, key))
    if paper is not None:
        found.append(
            views.related_papers(G, find_node(G, paper, kinds=(schema.PAPER,), what="paper"))
        )
    if concept is not None:
        found.append(
            views.concept_papers(
                G, find_node(G, concept, kinds=schema.CONCEPT_KINDS, what="concept")
            )
        )
    return found


def write_pages(
    G: nx.MultiDiGraph,
    out_dir: str | PathLike[str],
    *,
    top: int = 150,
    author: str | None = None,
    depth: int = 1,
    method: str | None = None,
    dataset: str | None = None,
    paper: str | None = None,
    concept: str | None = None,
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
) -> list[Path]:
    """Write the standard pages, a page per name asked for, and ``index.html``; return the paths.

    Names that match no node raise ``kg.errors.NotFound`` (with suggestions) before anything
    is written. One process at a time writes into a folder (see :func:`write_views` for
    ``wait`` and ``waiting``).
    """
    focus = focus_views(
        G, author=author, depth=depth, method=method, dataset=dataset, paper=paper, concept=concept
    )
    views = [*standard_views(G, top=top), *focus]
    return write_views(G, out_dir, views, wait=wait, waiting=waiting)
