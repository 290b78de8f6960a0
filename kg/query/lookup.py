"""Forgiving name lookup: a printed name, alias or key to the key of one node.

Case, accents, spacing and punctuation do not matter ("remi munos" finds "Rémi Munos",
"ImageNet1K" finds the dataset whose alias is "ImageNet-1K"). A name that matches nothing
raises :class:`kg.errors.NotFound` carrying the closest names as suggestions.

The matching works on plain candidate rows (``key``, ``name``, ``aliases``, ``variants``,
``title``, ``label``), so the same code serves a networkx graph and a Cypher runner.
"""

import difflib
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from typing import Any

import networkx as nx

from kg.errors import NotFound
from kg.query.cache import cached

#: A candidate row: ``key`` and whichever of NAME_FIELDS and ALIAS_FIELDS a node has.
Row = Mapping[str, Any]

#: Node attributes whose text names a node.
NAME_FIELDS = ("name", "title", "label")
ALIAS_FIELDS = ("aliases", "variants")
_SUGGESTIONS = 5


def fold(text: str) -> str:
    """The matching form of a name: accents dropped, casefolded, only letters and digits.

    >>> fold("Rémi  Munos") == fold("REMI MUNOS") == fold("remi-munos")
    True
    >>> fold("ImageNet-1K")
    'imagenet1k'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed.casefold() if c.isalnum())


def names_of(row: Row) -> list[str]:
    """Every text that names a candidate row: its names, aliases, variants and key.

    >>> names_of({"key": "dataset:mnli", "name": "MNLI", "aliases": ["MultiNLI"]})
    ['MNLI', 'MultiNLI', 'dataset:mnli', 'mnli']
    """
    names = [row[f] for f in NAME_FIELDS if row.get(f)]
    names += [a for f in ALIAS_FIELDS for a in row.get(f) or ()]
    key = row["key"]
    names += [key, key.partition(":")[2]]
    return names


def display(row: Row) -> str:
    """The name to show for a candidate row."""
    return row.get("name") or row.get("title") or row.get("label") or row["key"]


class NameIndex:
    """Folded names of candidate rows, for exact-ish lookup and suggestions."""

    def __init__(self, rows: Iterable[Row]) -> None:
        self.rows: dict[str, Row] = {}
        self.keys_by_fold: dict[str, set[str]] = {}
        for row in rows:
            self.rows[row["key"]] = row
            for name in names_of(row):
                folded = fold(name)
                if folded:
                    self.keys_by_fold.setdefault(folded, set()).add(row["key"])

    def find(self, text: str, *, what: str = "node") -> str:
        """The key ``text`` names; raises NotFound with suggestions when none does.

        When several nodes share a folded name, the one whose own name matches best wins,
        then the smallest key.

        >>> index = NameIndex([{"key": "author:rémi munos", "name": "Rémi Munos"},
        ...                    {"key": "author:yann ollivier", "name": "Yann Ollivier"}])
        >>> index.find("REMI MUNOS")
        'author:rémi munos'
        >>> index.find("Yan Olivier", what="author")
        Traceback (most recent call last):
        kg.errors.NotFound: no author named 'Yan Olivier'; did you mean: Yann Ollivier?
        """
        if text in self.rows:
            return text
        keys = self.keys_by_fold.get(fold(text), ())
        if keys:
            return min(
                keys,
                key=lambda k: (
                    fold(display(self.rows[k])) != fold(text),
                    display(self.rows[k]) != text,
                    k,
                ),
            )
        suggestions = self.suggest(text)
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        raise NotFound(f"no {what} named {text!r}{hint}", suggestions)

    def suggest(self, text: str, *, n: int = _SUGGESTIONS) -> list[str]:
        """Display names of the nodes whose names come closest to ``text``."""
        close = difflib.get_close_matches(fold(text), self.keys_by_fold, n=n * 2, cutoff=0.6)
        names = []
        for folded in close:
            for key in sorted(self.keys_by_fold[folded]):
                name = display(self.rows[key])
                if name not in names:
                    names.append(name)
        return names[:n]


def node_rows(G: nx.MultiDiGraph, kinds: Collection[str]) -> list[dict[str, Any]]:
    """Candidate rows of the nodes of ``G`` whose kind is one of ``kinds``."""
    fields = NAME_FIELDS + ALIAS_FIELDS
    return [
        {"key": n, **{f: a.get(f) for f in fields}}
        for n, a in G.nodes(data=True)
        if a.get("kind") in kinds
    ]


def graph_index(G: nx.MultiDiGraph, kinds: Collection[str]) -> NameIndex:
    """The NameIndex of ``G``'s nodes of ``kinds`` (cached: :mod:`kg.query.cache`)."""
    kinds = tuple(kinds)
    return cached(G, ("names", kinds), lambda G: NameIndex(node_rows(G, kinds)))


def find_node(
    G: nx.MultiDiGraph, text: str, *, kinds: Collection[str], what: str | None = None
) -> str:
    """The key of the node of one of ``kinds`` that ``text`` names (forgiving, see above).

    >>> from kg.query.example import example_graph
    >>> G = example_graph()
    >>> find_node(G, "remi munos", kinds=("Author",))
    'author:rémi munos'
    >>> find_node(G, "ImageNet1K", kinds=("Dataset", "Benchmark"))
    'dataset:imagenet'
    """
    if text in G and G.nodes[text].get("kind") in kinds:
        return text
    return graph_index(G, kinds).find(text, what=what or "/".join(kinds).lower())


def node_name(G: nx.MultiDiGraph, key: str) -> str:
    """What a node is called: its name, else its key."""
    return G.nodes[key].get("name") or key


def paper_name(G: nx.MultiDiGraph, key: str) -> str:
    """What a paper is called: its title, else its label, else its key."""
    a = G.nodes[key]
    return a.get("title") or a.get("label") or key
