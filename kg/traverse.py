"""The traversals, under the name the docs have always used (they live in kg.query.traverse)."""

from kg.query.traverse import (
    coauthors,
    coauthors_within,
    collaboration_path,
    collaborations,
    concepts_of,
    datasets_of,
    example_graph,
    forget,
    idf,
    methods_on,
    papers_about,
    papers_with,
    related_papers,
    shared_concepts,
    top_collaborators,
    top_method_dataset_pairs,
)

__all__ = [
    "coauthors",
    "coauthors_within",
    "collaboration_path",
    "collaborations",
    "concepts_of",
    "datasets_of",
    "example_graph",
    "forget",
    "idf",
    "methods_on",
    "papers_about",
    "papers_with",
    "related_papers",
    "shared_concepts",
    "top_collaborators",
    "top_method_dataset_pairs",
]
