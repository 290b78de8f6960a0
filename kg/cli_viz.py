"""The ``kg viz`` command (arguments and the one call), registered by :mod:`kg.cli`."""

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kg.cli_run import add_wait_option, wait_options
from kg.terminal import say

if TYPE_CHECKING:
    import networkx as nx

#: The bound of --depth as its help says it (kg.viz.views.MAX_DEPTH decides; a test checks
#: they agree): the CLI does not import kg.viz before a command runs.
DEPTH_HELP = "co-authorship steps for --author, 1 to 3 (default: 1)"


def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


def depth(text: str) -> int:
    """argparse type: co-authorship steps, 1 to ``kg.viz.views.MAX_DEPTH``."""
    from kg.viz.views import MAX_DEPTH

    if not text.isdigit() or not 1 <= int(text) <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 1 to {MAX_DEPTH}, got {text!r} "
            f"(three steps already reach thousands of authors of a large corpus)"
        )
    return int(text)


def add_viz_parser(
    sub: Any,
    add_graph_option: Callable[[argparse.ArgumentParser], None],
    load: Callable[[argparse.Namespace], "nx.MultiDiGraph"],
    graph_path: Callable[[argparse.Namespace], str],
) -> None:
    """Register ``kg viz``; ``load`` and ``graph_path`` are the CLI's graph loading."""

    def cmd_viz(args: argparse.Namespace) -> int:
        from kg.viz import write_pages

        paths = write_pages(
            load(args),
            args.output,
            top=args.top,
            author=args.author,
            depth=args.depth,
            method=args.method,
            dataset=args.dataset,
            paper=args.paper,
            concept=args.concept,
            source=os.path.abspath(graph_path(args)),
            **wait_options(args),
        )
        say(f"Wrote {len(paths)} pages; open {os.path.abspath(paths[0])}")
        return 0

    p = sub.add_parser(
        "viz",
        help="write self-contained HTML pages of the graph",
        description="Write offline HTML pages (pyvis/vis-network) to a folder: an overview of "
        "the most connected nodes, the co-author network, methods and the datasets "
        "they were applied to, a page per name asked for, and index.html (listing every page "
        "in the folder, earlier runs' too). Each name option can be repeated.",
        epilog='Example: kg viz -g graph.kg -o pages/ --author "Julia Kempe" --depth 2',
    )
    add_graph_option(p)
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write pages to")
    p.add_argument(
        "--top",
        type=positive_int,
        default=None,
        metavar="N",
        help="nodes on the overview, by degree (default: the folder's overview's, else 150)",
    )
    many: dict[str, Any] = {"action": "append", "default": None}
    p.add_argument(
        "--author", metavar="NAME", help="page of an author's co-author neighbourhood", **many
    )
    p.add_argument(
        "--depth",
        type=depth,
        default=1,
        metavar="K",
        help=DEPTH_HELP,
    )
    p.add_argument("--method", metavar="NAME", help="page of a method and its datasets", **many)
    p.add_argument(
        "--dataset", metavar="NAME", help="page of a dataset or benchmark and its methods", **many
    )
    p.add_argument(
        "--paper",
        metavar="KEY|TITLE",
        help="page of a paper (by key, title or label) and the papers sharing concepts",
        **many,
    )
    p.add_argument("--concept", metavar="NAME", help="page of a concept and its papers", **many)
    add_wait_option(p, "another kg viz into the folder")
    p.set_defaults(func=cmd_viz)
