"""The property-graph schema: the closed lists of labels and relationship types, and keys.

Every node of the graph is keyed by a string ``key`` (its networkx node id) and carries
its primary label in the attribute ``kind``. Entity kinds (Method, Dataset, ...) also
carry the Neo4j label ``Concept``; keyphrase concepts have ``kind == "Concept"``.
Edges are keyed by their relationship type (``G.edges[u, v, "AUTHORED"]``).

The entity kinds and the relationships that point to them are built on the entity-type
vocabulary of :mod:`kg.extractors.records`: a new ``EntityType`` there is a label here, a
node kind in a build, columns in the exports and an entry of the pages' legend.
"""

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from kg.extractors.records import (
    BENCHMARK,
    CONCEPT,
    DATASET,
    ENTITY_TYPES,
    METHOD,
    METRIC,
    TASK,
)

#: 2: author keys are folded names (accents, invisible characters, case, spaces and
#: punctuation dropped), see docs/graph.md; files of schema 1 are refused (rebuild them).
#: 3: model versions and sizes are nodes of their own, VARIANT_OF their family; author
#:    identity (docs/identity.md): merged and split people, ids, AUTHORED.printed; APPLIED_TO
#:    means "evaluated on / applied to" and keeps each paper's evidence sentence; entity
#:    keys follow acronym senses ("IBP (Indian Buffet Process)") and one type per name;
#:    papers point to their related papers (SIMILAR_TO).
#: 4: the graph file carries a checksum of its header and of each section; files of schema
#:    3 (the same graph) load unverified, with a note, and the next write upgrades them.
SCHEMA_VERSION = 4
#: The graph file commands read and write when none is given.
DEFAULT_GRAPH = "graph.kg"

PAPER, AUTHOR, AREA = "Paper", "Author", "Area"

#: Every kind an entity node can have, in vocabulary order; CONCEPT (keyphrases) is also
#: the Neo4j label all of them carry.
CONCEPT_KINDS: tuple[str, ...] = tuple(t.name for t in ENTITY_TYPES)
#: The entity kinds other than the keyphrase Concept.
ENTITY_KINDS: tuple[str, ...] = tuple(k for k in CONCEPT_KINDS if k != CONCEPT)
NODE_KINDS: tuple[str, ...] = (PAPER, AUTHOR) + CONCEPT_KINDS + (AREA,)
#: Kinds a paper can propose (PROPOSES) and kinds whose mentions the extraction JSONL keeps.
PROPOSABLE: frozenset[str] = frozenset(t.name for t in ENTITY_TYPES if t.proposable)
SCORED_TYPES: tuple[str, ...] = tuple(t.name for t in ENTITY_TYPES if t.scored)
#: Relationship type of a "used" mention, by entity kind.
USED_REL: dict[str, str] = {t.name: t.relationship for t in ENTITY_TYPES}
#: Kinds that are collections of data: what a method is APPLIED_TO, what can be PART_OF.
COLLECTION_KINDS: tuple[str, ...] = (DATASET, BENCHMARK)

AUTHORED, IN_AREA, PART_OF, APPLIED_TO = "AUTHORED", "IN_AREA", "PART_OF", "APPLIED_TO"
#: A model's version or size -> the version or family it is one of (Llama-3-8B -> Llama 3).
VARIANT_OF = "VARIANT_OF"
PROPOSES = "PROPOSES"
#: Paper -> one of its most related papers (score, text score, rank, shared concepts).
SIMILAR_TO = "SIMILAR_TO"
# The vocabulary names these; here they get the names code uses.
USES, EVALUATED_ON, ADDRESSES = USED_REL[METHOD], USED_REL[DATASET], USED_REL[TASK]
MEASURES, MENTIONS = USED_REL[METRIC], USED_REL[CONCEPT]

#: Paper -> entity relationships; each carries evidence (sentence, offsets, rule, score).
MENTION_RELS: tuple[str, ...] = (PROPOSES,) + tuple(dict.fromkeys(USED_REL.values()))
REL_TYPES: tuple[str, ...] = (
    (AUTHORED,)
    + MENTION_RELS
    + (
        APPLIED_TO,
        IN_AREA,
        PART_OF,
        VARIANT_OF,
        SIMILAR_TO,
    )
)


def _endpoints() -> dict[str, set[tuple[str, str]]]:
    """(from kind, to kind) pairs of each relationship type, in REL_TYPES order."""
    ends: dict[str, set[tuple[str, str]]] = {rel: set() for rel in REL_TYPES}
    ends[AUTHORED].add((AUTHOR, PAPER))
    ends[PROPOSES].update((PAPER, kind) for kind in CONCEPT_KINDS if kind in PROPOSABLE)
    for kind, rel in USED_REL.items():
        ends[rel].add((PAPER, kind))
    ends[APPLIED_TO].update((METHOD, kind) for kind in COLLECTION_KINDS)
    ends[IN_AREA].add((PAPER, AREA))
    ends[PART_OF].update({(DATASET, BENCHMARK), (BENCHMARK, BENCHMARK), (DATASET, DATASET)})
    ends[VARIANT_OF].add((METHOD, METHOD))
    ends[SIMILAR_TO].add((PAPER, PAPER))
    return ends


#: (from kind, to kind) pairs each relationship type may join.
REL_ENDPOINTS: dict[str, set[tuple[str, str]]] = _endpoints()


def labels_of(kind: str) -> list[str]:
    """Neo4j labels of a node of this kind.

    >>> labels_of("Method")
    ['Method', 'Concept']
    >>> labels_of("Author")
    ['Author']
    """
    if kind not in NODE_KINDS:
        raise ValueError(f"unknown node kind {kind!r}")
    return [kind, CONCEPT] if kind in ENTITY_KINDS else [kind]


def collapse_whitespace(text: str) -> str:
    """Collapse runs of whitespace to one space and strip the ends."""
    return " ".join(text.split())


def content_hash(abstract: str) -> str:
    """First 12 hex digits of the sha1 of the whitespace-collapsed abstract.

    >>> content_hash("  a \\n b\\tc ")
    '6b3f339c67bb'
    """
    return hashlib.sha1(collapse_whitespace(abstract).encode("utf-8")).hexdigest()[:12]


@lru_cache(maxsize=1 << 16)
def slug(text: str) -> str:
    """A stable, readable key fragment: NFKC, casefolded, runs of non-word characters to '-'.

    >>> slug("Theory · Reinforcement Learning")
    'theory-reinforcement-learning'
    >>> slug("ImageNet-1K")
    'imagenet-1k'
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\W_]+", "-", text).strip("-")


def paper_key(abstract: str, external_id: object = None) -> str:
    """``paper:<id>`` from the input's id when it has one, else from the content hash."""
    if external_id:
        return f"paper:{collapse_whitespace(str(external_id))}"
    return f"paper:{content_hash(abstract)}"


def first_sentence(text: str) -> str:
    """The first sentence of an abstract (up to the first ., ! or ? followed by a space).

    >>> first_sentence("We study X. It works.")
    'We study X.'
    >>> first_sentence("No full stop")
    'No full stop'
    """
    text = collapse_whitespace(text)
    match = re.search(r"[.!?](?=\s)", text)
    return text[: match.end()] if match else text


def paper_name(props: Mapping[str, Any]) -> str:
    """What a paper is called, from its properties: its label, its title, else its
    abstract's first sentence (pages and tables show this), else its key.

    >>> paper_name({"key": "paper:1", "title": None, "abstract": "We study X. It works."})
    'We study X.'
    """
    return (
        props.get("label")
        or props.get("title")
        or first_sentence(props.get("abstract") or "")
        or props.get("key")
        or ""
    )


def area_key(name: str) -> str:
    """``area:<slug>``."""
    return f"area:{slug(name)}"


def entity_key(kind: str, canonical: str) -> str:
    """``<kind>:<slug>``, e.g. ``method:grpo``; keyphrase concepts use ``concept:``."""
    if kind not in CONCEPT_KINDS:
        raise ValueError(f"unknown entity kind {kind!r}")
    return f"{kind.lower()}:{slug(canonical)}"
