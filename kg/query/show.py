"""Rows as ``kg query`` and ``kg cypher`` print them: a table fitted to the terminal that
names papers readably (a paper without a title by its abstract's first sentence, as the
pages do), or JSON and CSV with the data exact."""

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kg.cells import shorten, terminal_width
from kg.query.render import PAPER_CELLS, is_key_column, render
from kg.schema import PAPER, paper_name
from kg.terminal import is_terminal

if TYPE_CHECKING:
    import networkx as nx

    from kg.query.named import Runner

#: Readable names of the paper keys given (keys that are no paper are left out).
Names = Callable[[Sequence[str]], Mapping[str, str]]

PAPER_PREFIX = PAPER.lower() + ":"


def paper_keys(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The strings that may be paper keys in the rows' cells, key columns left out.

    >>> paper_keys([{"paper": "paper:1", "key": "paper:1", "papers": ["SOAR", "paper:2"]}])
    ['paper:1', 'paper:2']
    """
    found: dict[str, None] = {}
    for row in rows:
        for column, value in row.items():
            if is_key_column(column):
                continue
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and v.startswith(PAPER_PREFIX):
                    found[v] = None
    return list(found)


def runner_names(run: "Runner") -> Names:
    """Names of papers looked up with one query on ``run`` (the engine or a Bolt server)."""

    def names(keys: Sequence[str]) -> dict[str, str]:
        rows = run(
            f"UNWIND $keys AS k MATCH (p:{PAPER} {{key: k}}) "
            "RETURN p.key AS key, p.label AS label, p.title AS title, p.abstract AS abstract",
            {"keys": list(keys)},
        )
        return {row["key"]: shorten(paper_name(row), PAPER_CELLS) for row in rows}

    return names


def graph_names(G: "nx.MultiDiGraph") -> Names:
    """Names of papers read from the graph ``G``."""

    def names(keys: Sequence[str]) -> dict[str, str]:
        return {
            k: shorten(paper_name({"key": k, **G.nodes[k]}), PAPER_CELLS) for k in keys if k in G
        }

    return names


def query_list() -> str:
    """``kg query --list``: each named query, its parameters and what it answers, wrapped
    to the terminal's width."""
    from kg.query.named import describe, list_queries

    return "\n".join(describe(q, width=terminal_width()) for q in list_queries())


def print_rows(
    rows: Sequence[Mapping[str, Any]], fmt: str, *, names: Names | None = None, keys: bool = True
) -> None:
    """Write :func:`show_rows` to stdout."""
    sys.stdout.write(show_rows(rows, fmt, names=names, keys=keys))


def show_rows(
    rows: Sequence[Mapping[str, Any]], fmt: str, *, names: Names | None = None, keys: bool = True
) -> str:
    """The text to print for ``rows`` in ``fmt``: a table fits ``$COLUMNS`` (else the
    terminal, else 80 cells), shows papers by ``names`` and key columns only with ``keys``;
    JSON and CSV keep the data exact (escaped only when stdout is a terminal)."""
    if fmt != "table":
        return render(rows, fmt, terminal=is_terminal(sys.stdout))
    wanted = paper_keys(rows) if names is not None else []
    return render(
        rows,
        "table",
        width=terminal_width(),
        keys=keys,
        names=names(wanted) if names is not None and wanted else None,
    )
