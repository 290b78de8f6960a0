"""The property-graph schema: the closed lists of labels and relationship types, and keys.

Every node of the graph is keyed by a string ``key`` (its networkx node id) and carries
its primary label in the attribute ``kind``. Entity kinds (Method, Dataset, ...) also
carry the Neo4j label ``Concept``; keyphrase concepts have ``kind == "Concept"``.
Edges are keyed by their relationship type (``G.edges[u, v, "AUTHORED"]``).
"""

import hashlib
import re
import unicodedata
from functools import lru_cache

SCHEMA_VERSION = 1
#: The graph file commands read and write when none is given.
DEFAULT_GRAPH = "graph.kg"

PAPER, AUTHOR, AREA, CONCEPT = "Paper", "Author", "Area", "Concept"
METHOD, DATASET, BENCHMARK, TASK, METRIC = "Method", "Dataset", "Benchmark", "Task", "Metric"

ENTITY_KINDS = (METHOD, DATASET, BENCHMARK, TASK, METRIC)
CONCEPT_KINDS = ENTITY_KINDS + (CONCEPT,)
NODE_KINDS = (PAPER, AUTHOR) + CONCEPT_KINDS + (AREA,)

AUTHORED, IN_AREA, PART_OF, APPLIED_TO = "AUTHORED", "IN_AREA", "PART_OF", "APPLIED_TO"
PROPOSES, USES, EVALUATED_ON = "PROPOSES", "USES", "EVALUATED_ON"
ADDRESSES, MEASURES, MENTIONS = "ADDRESSES", "MEASURES", "MENTIONS"

#: Paper -> entity relationships; each carries evidence (sentence, offsets, rule, score).
MENTION_RELS = (PROPOSES, USES, EVALUATED_ON, ADDRESSES, MEASURES, MENTIONS)
REL_TYPES = (AUTHORED,) + MENTION_RELS + (APPLIED_TO, IN_AREA, PART_OF)

#: (from kind, to kind) pairs each relationship type may join.
REL_ENDPOINTS = {
    AUTHORED: {(AUTHOR, PAPER)},
    PROPOSES: {(PAPER, k) for k in (METHOD, DATASET, BENCHMARK, METRIC, TASK)},
    USES: {(PAPER, METHOD)},
    EVALUATED_ON: {(PAPER, DATASET), (PAPER, BENCHMARK)},
    ADDRESSES: {(PAPER, TASK)},
    MEASURES: {(PAPER, METRIC)},
    MENTIONS: {(PAPER, CONCEPT)},
    APPLIED_TO: {(METHOD, DATASET), (METHOD, BENCHMARK)},
    IN_AREA: {(PAPER, AREA)},
    PART_OF: {(DATASET, BENCHMARK), (BENCHMARK, BENCHMARK), (DATASET, DATASET)},
}


def labels_of(kind):
    """Neo4j labels of a node of this kind.

    >>> labels_of("Method")
    ['Method', 'Concept']
    >>> labels_of("Author")
    ['Author']
    """
    if kind not in NODE_KINDS:
        raise ValueError(f"unknown node kind {kind!r}")
    return [kind, CONCEPT] if kind in ENTITY_KINDS else [kind]


def collapse_whitespace(text):
    """Collapse runs of whitespace to one space and strip the ends."""
    return " ".join(text.split())


def content_hash(abstract):
    """First 12 hex digits of the sha1 of the whitespace-collapsed abstract.

    >>> content_hash("  a \\n b\\tc ")
    '6b3f339c67bb'
    """
    return hashlib.sha1(collapse_whitespace(abstract).encode("utf-8")).hexdigest()[:12]


@lru_cache(maxsize=1 << 16)
def slug(text):
    """A stable, readable key fragment: NFKC, casefolded, runs of non-word characters to '-'.

    >>> slug("Theory · Reinforcement Learning")
    'theory-reinforcement-learning'
    >>> slug("ImageNet-1K")
    'imagenet-1k'
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\W_]+", "-", text).strip("-")


def paper_key(abstract, external_id=None):
    """``paper:<id>`` from the input's id when it has one, else from the content hash."""
    if external_id:
        return f"paper:{collapse_whitespace(str(external_id))}"
    return f"paper:{content_hash(abstract)}"


def area_key(name):
    return f"area:{slug(name)}"


def entity_key(kind, canonical):
    """``<kind>:<slug>``, e.g. ``method:grpo``; keyphrase concepts use ``concept:``."""
    if kind not in CONCEPT_KINDS:
        raise ValueError(f"unknown entity kind {kind!r}")
    return f"{kind.lower()}:{slug(canonical)}"
