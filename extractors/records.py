"""Typed boundaries between the steps: what the readers produce and what extraction produces,
and the one vocabulary of entity types."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

# ---------------------------------------------------------------- entity types

METHOD, DATASET, BENCHMARK, TASK, METRIC, CONCEPT = (
    "Method",
    "Dataset",
    "Benchmark",
    "Task",
    "Metric",
    "Concept",
)
#: The marker type of lexicon names the rules must not turn into entities (LLM, GPU).
IGNORE = "Ignore"


@dataclass(frozen=True)
class EntityType:
    """One entity type: its ``name``, the relationship a paper that uses it has to it,
    whether extraction records score it and whether a paper may propose it."""

    name: str
    relationship: str
    scored: bool = True
    proposable: bool = True


#: Every entity type, in a fixed order (graph labels are built on this order).
ENTITY_TYPES = (
    EntityType(METHOD, "USES"),
    EntityType(DATASET, "EVALUATED_ON"),
    EntityType(BENCHMARK, "EVALUATED_ON"),
    EntityType(TASK, "ADDRESSES"),
    EntityType(METRIC, "MEASURES"),
    EntityType(CONCEPT, "MENTIONS", scored=False, proposable=False),
)
#: The names of the entity types, in order.
TYPE_NAMES = tuple(t.name for t in ENTITY_TYPES)
#: The types written to extraction records (keyphrase Concepts are graph-only).
SCORED_TYPES = tuple(t.name for t in ENTITY_TYPES if t.scored)
#: The types a paper may propose.
PROPOSABLE_TYPES = tuple(t.name for t in ENTITY_TYPES if t.proposable)
#: Dataset and Benchmark: the types of named collections of data.
COLLECTION_TYPES = (DATASET, BENCHMARK)


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class PaperRecord:
    """One paper as read from a listing; ``abstract`` has its whitespace collapsed.

    ``authors`` are the names as printed, in order; ``authors_truncated`` is true where the
    listing cut the list ("等", "et al."); ``author_ids``, when the listing gives any, holds
    one id (``orcid:...``, ``s2:...``, ``openalex:...``) or None per author. ``source`` is
    the file the record came from and ``index`` its 0-based position among that file's
    records; ``line`` its first line.
    """

    abstract: str
    source: str
    index: int
    line: int | None = 0
    title: str | None = None
    authors: tuple[str, ...] = ()
    authors_truncated: bool = False
    area: str | None = None
    external_id: str | None = None
    venue: str | None = None
    year: int | None = None
    author_ids: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class Problem:
    """A bad file or record: where it is and what to do about it. ``kept`` says the record
    still landed (without what failed), rather than being skipped."""

    source: str
    line: int | None
    message: str
    kept: bool = False

    @property
    def report(self) -> str:
        """The one-line warning for the user."""
        return str(self) if self.kept else f"skipped {self}"

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Mention:
    """One entity mention found in an abstract, with its evidence.

    ``type`` is one of :data:`TYPE_NAMES`; ``canonical`` is the name the graph should key
    it by; ``role`` is "proposed" or "used"; ``start``/``end`` are character offsets into
    the abstract (``abstract[start:end] == text``); ``sentence`` is the sentence it occurs
    in; ``rule`` names the rule that fired and ``score`` is its confidence in [0, 1].
    ``long_form`` is the expansion of an acronym when the abstract defines one;
    ``aliases`` are other surface forms of the entity; ``part_of`` names the canonical
    benchmarks a dataset belongs to (MNLI -> GLUE).
    """

    type: str
    text: str
    canonical: str
    start: int
    end: int
    sentence: str
    rule: str
    score: float
    role: str = "used"
    long_form: str | None = None
    aliases: tuple[str, ...] = field(default=())
    part_of: tuple[str, ...] = field(default=())


MENTION_FIELDS = tuple(f.name for f in fields(Mention))


def mention_from_fields(values: Mapping[str, Any]) -> Mention:
    """A Mention from a dict of all its fields, in field order, without the frozen
    dataclass's ``__init__`` (which sets each field through ``object.__setattr__``): seven
    times faster, for bulk copies and loads. ValueError unless every field is given."""
    return _bare_mention(len(values), values)


def mention_from_row(row: Sequence[Any]) -> Mention:
    """:func:`mention_from_fields` from the values alone, in field order (a saved row)."""
    return _bare_mention(len(row), zip(MENTION_FIELDS, row, strict=True))


def _bare_mention(count: int, items: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> Mention:
    if count != len(MENTION_FIELDS):
        raise ValueError(f"a Mention has {len(MENTION_FIELDS)} fields, not {count}")
    mention = object.__new__(Mention)
    mention.__dict__.update(items)
    return mention
