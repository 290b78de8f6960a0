"""Asking the graph: traversals in Python, forgiving name lookup, named Cypher queries and
the embedded Cypher engine."""
