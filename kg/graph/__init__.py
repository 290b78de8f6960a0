"""Records and mentions in, one networkx graph out: the build and its layers.

``build.py`` orchestrates a build; ``layers.py`` adds the paper, author and entity layers;
``resolve.py`` names things across the corpus; ``authors.py`` handles author names;
``stats.py`` counts a graph.
"""

from kg.graph.layers import new_graph, set_coauthor_counts

__all__ = ["new_graph", "set_coauthor_counts"]
