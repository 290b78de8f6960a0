"""The traversals, under the name the docs have always used (they live in kg.query.traverse)."""

from kg.query.traverse import *  # noqa: F403  (the public list is kg.query.traverse.__all__)
from kg.query.traverse import __all__ as __all__
