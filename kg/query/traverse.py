"""The three traversals over the networkx graph: co-authors, method <-> dataset, shared concepts.

Every function takes the graph first, a forgiving name (see :mod:`kg.query.lookup`) and
keyword-only options, and returns a list of plain dicts whose keys and order are those of the
rows of the named query in ``queries/`` that mirrors it. Ties are broken by name, then key.
A name that matches nothing raises ``kg.errors.NotFound``.

The families live in ``traverse_coauthors``, ``traverse_methods`` and ``traverse_concepts``;
what they derive from a graph is cached per graph (:mod:`kg.query.cache`): call
:func:`forget` after editing a graph in place.
"""

from kg.query.cache import forget
from kg.query.example import example_graph
from kg.query.networks import coauthor_graph, method_dataset_graph
from kg.query.traverse_coauthors import (
    coauthors,
    coauthors_within,
    collaboration_path,
    collaborations,
    top_collaborators,
)
from kg.query.traverse_concepts import (
    concepts_of,
    idf,
    papers_about,
    papers_with,
    related_papers,
    shared_concepts,
)
from kg.query.traverse_methods import datasets_of, methods_on, top_method_dataset_pairs

__all__ = [
    "coauthor_graph",
    "coauthors",
    "coauthors_within",
    "collaboration_path",
    "collaborations",
    "concepts_of",
    "datasets_of",
    "example_graph",
    "forget",
    "idf",
    "method_dataset_graph",
    "methods_on",
    "papers_about",
    "papers_with",
    "related_papers",
    "shared_concepts",
    "top_collaborators",
    "top_method_dataset_pairs",
]
