"""Records and mentions in, one networkx graph out: the build and its layers.

``build.py`` orchestrates a build; ``papers.py`` adds the paper and author layer and
``entities.py`` the entity layer; ``resolve.py`` names things across the corpus;
``authors.py`` handles author names; ``identity.py``, ``people.py``, ``overrides.py`` and
``rekey.py`` decide who is who among them; ``stats.py`` counts a graph; ``_nx.py`` holds
every fast path into networkx's internals.
"""

from kg.graph.papers import new_graph, set_coauthor_counts

__all__ = ["new_graph", "set_coauthor_counts"]
