"""kg: knowledge graphs of research papers.

The main API is importable from here (loaded on first use, so ``import kg`` stays cheap)::

    import kg
    G = kg.load_graph("graph.kg")
    kg.coauthors(G, "julia kempe")
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_API = {
    "build": "kg.graph.build",
    "build_graph": "kg.graph.build",
    "load_graph": "kg.store",
    "save_graph": "kg.store",
    "coauthor_graph": "kg.query.traverse",
    "coauthors": "kg.query.traverse",
    "coauthors_within": "kg.query.traverse",
    "collaboration_path": "kg.query.traverse",
    "top_collaborators": "kg.query.traverse",
    "datasets_of": "kg.query.traverse",
    "method_dataset_graph": "kg.query.traverse",
    "methods_on": "kg.query.traverse",
    "top_method_dataset_pairs": "kg.query.traverse",
    "related_papers": "kg.query.traverse",
    "papers_with": "kg.query.traverse",
    "shared_concepts": "kg.query.traverse",
    "identity_report": "kg.graph.rekey",
    "KgError": "kg.errors",
}

__all__ = [
    "__version__",
    "KgError",
    "build",
    "build_graph",
    "coauthor_graph",
    "coauthors",
    "coauthors_within",
    "collaboration_path",
    "datasets_of",
    "identity_report",
    "load_graph",
    "method_dataset_graph",
    "methods_on",
    "papers_with",
    "related_papers",
    "save_graph",
    "shared_concepts",
    "top_collaborators",
    "top_method_dataset_pairs",
]

if TYPE_CHECKING:
    from kg.errors import KgError
    from kg.graph.build import build, build_graph
    from kg.graph.rekey import identity_report
    from kg.query.traverse import (
        coauthor_graph,
        coauthors,
        coauthors_within,
        collaboration_path,
        datasets_of,
        method_dataset_graph,
        methods_on,
        papers_with,
        related_papers,
        shared_concepts,
        top_collaborators,
        top_method_dataset_pairs,
    )
    from kg.store import load_graph, save_graph


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name in _API:
        return getattr(import_module(_API[name]), name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
