"""Where graphs are kept: the ``.kg`` graph file and the extraction JSONL."""

from kg.lock import graph_lock
from kg.store.graphfile import load_graph, load_mentions, read_header, save_graph

__all__ = ["graph_lock", "load_graph", "load_mentions", "read_header", "save_graph"]
