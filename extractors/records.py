"""Typed boundaries between the steps: what the readers produce and what extraction produces."""

from dataclasses import dataclass, field, fields


@dataclass(frozen=True)
class EntityType:
    """One kind of entity that extraction finds, named once for every step after it.

    ``relationship`` is the relationship type by which a paper that uses such an entity
    points to it; ``scored`` types appear in extraction records (the eval format);
    ``proposable`` types can be what a paper proposes.
    """

    name: str
    relationship: str
    scored: bool = True
    proposable: bool = True


METHOD, DATASET, BENCHMARK = "Method", "Dataset", "Benchmark"
TASK, METRIC, CONCEPT = "Task", "Metric", "Concept"

#: The entity-type vocabulary, in a fixed order. A new entity type is one entry here plus
#: the rules that find it; graph labels, relationships, exports and pages derive from this.
ENTITY_TYPES: tuple[EntityType, ...] = (
    EntityType(METHOD, "USES"),
    EntityType(DATASET, "EVALUATED_ON"),
    EntityType(BENCHMARK, "EVALUATED_ON"),
    EntityType(TASK, "ADDRESSES"),
    EntityType(METRIC, "MEASURES"),
    EntityType(CONCEPT, "MENTIONS", scored=False, proposable=False),
)
#: The lexicon's type for names that are never entities ("this paper", "LLM").
IGNORE = "Ignore"


@dataclass(frozen=True)
class PaperRecord:
    """One paper as read from a listing; ``abstract`` has its whitespace collapsed.

    ``authors`` are the names as printed, in order; ``authors_truncated`` is true where the
    listing cut the list ("等", "et al."). ``source`` is the file the record came from and
    ``index`` its 0-based position among that file's records; ``line`` its first line.
    """

    abstract: str
    source: str
    index: int
    line: int = 0
    title: str | None = None
    authors: tuple[str, ...] = ()
    authors_truncated: bool = False
    area: str | None = None
    external_id: str | None = None
    venue: str | None = None
    year: int | None = None


@dataclass(frozen=True)
class Mention:
    """One entity mention found in an abstract, with its evidence.

    ``type`` is one of Method, Dataset, Benchmark, Task, Metric, Concept; ``canonical`` is
    the name the graph should key it by; ``role`` is "proposed" or "used"; ``start``/``end``
    are character offsets into the abstract (``abstract[start:end] == text``);
    ``sentence`` is the sentence it occurs in; ``rule`` names the rule that fired and
    ``score`` is its confidence in [0, 1]. ``long_form`` is the expansion of an acronym
    when the abstract defines one; ``aliases`` are other surface forms of the entity;
    ``part_of`` names the canonical benchmarks a dataset belongs to (MNLI -> GLUE).
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


def mention_from_fields(values):
    """A Mention from a dict of all its fields, in field order, without the frozen
    dataclass's ``__init__`` (which sets each field through ``object.__setattr__``): seven
    times faster, for bulk copies and loads. ValueError unless every field is given."""
    return _bare_mention(len(values), values)


def mention_from_row(row):
    """:func:`mention_from_fields` from the values alone, in field order (a saved row)."""
    return _bare_mention(len(row), zip(MENTION_FIELDS, row))


def _bare_mention(count, items):
    if count != len(MENTION_FIELDS):
        raise ValueError(f"a Mention has {len(MENTION_FIELDS)} fields, not {count}")
    mention = object.__new__(Mention)
    mention.__dict__.update(items)
    return mention
