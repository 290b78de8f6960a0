"""Forgiving name lookup: a printed name, alias or key to the key of one node.

Case, accents, invisible characters, spacing and punctuation do not matter ("remi munos"
finds "Rémi Munos", "ImageNet1K" finds the dataset whose alias is "ImageNet-1K"): names are
compared by :func:`fold`, the fold author keys are made of. A name that matches nothing
raises :class:`kg.errors.NotFound` carrying the closest names as suggestions.

A name can match several nodes (a Dataset and a Benchmark both called "ImageNet"). The
lookup never picks a node no paper links to when a matching node has papers: an empty node
is chosen only when none has any. Among the rest, a node whose own name matches beats one
matched by an alias, then the most papers win, then the exact spelling, then the smallest
key. The choice is reported as a :class:`kg.errors.AmbiguousNameWarning` (a ``warnings``
warning, naming the nodes not used; the CLI prints it as one ``note:`` line on stderr).

The matching works on plain candidate rows (``key``, ``name``, ``aliases``, ``variants``,
``title``, ``label``), so the same code serves a networkx graph and a Cypher runner.
"""

import difflib
import os
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

import networkx as nx

from kg.errors import AmbiguousNameWarning, NotFound
from kg.extractors.names import fold
from kg.graph.authors import normalise_name
from kg.query.cache import cached
from kg.schema import PAPER

__all__ = ["NameIndex", "display", "find_node", "fold", "names_of", "paper_counts"]

#: A candidate row: ``key`` and whichever of NAME_FIELDS and ALIAS_FIELDS a node has.
Row = Mapping[str, Any]
#: ``papers(keys) -> {key: number of papers linked to it}``, for choosing among matches.
PaperCounts = Callable[[Sequence[str]], Mapping[str, int]]

#: Node attributes whose text names a node.
NAME_FIELDS = ("name", "title", "label")
ALIAS_FIELDS = ("aliases", "variants")
_SUGGESTIONS = 5
#: Frames in kg's own files are skipped, so a warning points at the caller's line.
_KG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lookup_form(name: str) -> str:
    """What a name is matched by: its fold, or, for a name of no letter or digit ("!!!"),
    its normalised form (as :func:`kg.graph.authors.author_key` keys it).

    >>> lookup_form("Rémi  Munos"), lookup_form("!!!")
    ('remimunos', '!!!')
    """
    return fold(name) or normalise_name(name)


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
                folded = lookup_form(name)
                if folded:
                    self.keys_by_fold.setdefault(folded, set()).add(row["key"])

    def matches(self, text: str) -> list[str]:
        """Keys of the nodes one of whose names folds like ``text``, sorted."""
        return sorted(self.keys_by_fold.get(lookup_form(text), ()))

    def find(self, text: str, *, what: str = "node", papers: PaperCounts | None = None) -> str:
        """The key ``text`` names; raises NotFound with suggestions when none does.

        When several nodes match, ``papers`` (if given) counts each one's papers and the
        rule of the module docstring chooses (without it: own name, exact spelling, smallest
        key); the choice is reported as an AmbiguousNameWarning.

        >>> index = NameIndex([{"key": "author:remimunos", "name": "Rémi Munos"},
        ...                    {"key": "author:yannollivier", "name": "Yann Ollivier"}])
        >>> index.find("REMI MUNOS")
        'author:remimunos'
        >>> index.find("Yan Olivier", what="author")
        Traceback (most recent call last):
        kg.errors.NotFound: no author named 'Yan Olivier'; did you mean: Yann Ollivier?
        """
        if text in self.rows:
            return text
        keys = self.matches(text)
        if not keys:
            suggestions = self.suggest(text)
            hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
            raise NotFound(f"no {what} named {text!r}{hint}", suggestions)
        if len(keys) == 1:
            return keys[0]
        counts = dict(papers(keys)) if papers is not None else None
        folded = lookup_form(text)

        def preference(k: str) -> tuple[bool, bool, int, bool, str]:
            name, n = display(self.rows[k]), (counts or {}).get(k, 0)
            return (counts is not None and n == 0, lookup_form(name) != folded, -n, name != text, k)

        ranked = [
            (k, None if counts is None else counts.get(k, 0)) for k in sorted(keys, key=preference)
        ]
        warnings.warn(
            AmbiguousNameWarning(text, ranked[0][0], ranked[0][1], ranked[1:]),
            skip_file_prefixes=(_KG_DIR,),
        )
        return ranked[0][0]

    def suggest(self, text: str, *, n: int = _SUGGESTIONS) -> list[str]:
        """Display names of the nodes whose names come closest to ``text``."""
        close = difflib.get_close_matches(lookup_form(text), self.keys_by_fold, n=n * 2, cutoff=0.6)
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


def paper_counts(G: nx.MultiDiGraph, keys: Iterable[str]) -> dict[str, int]:
    """How many distinct papers each of ``keys`` is linked to (any relationship, either way).

    >>> from kg.query.example import example_graph
    >>> paper_counts(example_graph(), ["dataset:imagenet", "author:juliakempe"])
    {'dataset:imagenet': 2, 'author:juliakempe': 3}
    """
    nodes = G.nodes
    return {
        k: len({p for p in (*G.pred[k], *G.succ[k]) if nodes[p].get("kind") == PAPER}) for k in keys
    }


def find_node(
    G: nx.MultiDiGraph, text: str, *, kinds: Collection[str], what: str | None = None
) -> str:
    """The key of the node of one of ``kinds`` that ``text`` names (forgiving, see above).

    When several nodes match, one with papers wins (the rule of the module docstring) and an
    :class:`kg.errors.AmbiguousNameWarning` names the others.

    >>> from kg.query.example import example_graph
    >>> G = example_graph()
    >>> find_node(G, "remi munos", kinds=("Author",))
    'author:remimunos'
    >>> find_node(G, "ImageNet1K", kinds=("Dataset", "Benchmark"))
    'dataset:imagenet'
    """
    if text in G and G.nodes[text].get("kind") in kinds:
        return text
    return graph_index(G, kinds).find(
        text, what=what or "/".join(kinds).lower(), papers=lambda keys: paper_counts(G, keys)
    )


def node_name(G: nx.MultiDiGraph, key: str) -> str:
    """What a node is called: its name, else its key."""
    return G.nodes[key].get("name") or key


def paper_name(G: nx.MultiDiGraph, key: str) -> str:
    """What a paper is called: its title, else its label, else its key."""
    a = G.nodes[key]
    return a.get("title") or a.get("label") or key
