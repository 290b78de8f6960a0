"""One node per thing across types: the type of a name the corpus gives several.

Papers may type one name differently ("event detection" as a Method in one abstract and a
Task in others; MLQA as a Benchmark, a Method and a Task). Each paper votes once for each
type it gives a name, with the strength of its strongest rule for it (the lexicon over a
paper's definition over weak context; an untyped Concept least), and the name becomes one
node of the strongest type; the types it lost are kept as the node's ``other_types``.

A name that truly is two things keeps two nodes: a collection of data (Dataset, Benchmark)
and a Task named alike, when both sides have strong evidence (:data:`TWO_THINGS_MIN` each,
the weaker at least :data:`TWO_THINGS_SHARE` of the stronger).

Written as a reduction: :func:`summarise` one paper, :func:`merge` summaries, :func:`decide`.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from kg import schema as S
from kg.extractors.names import entity_name_key
from kg.extractors.records import Mention, mention_from_fields
from kg.graph.senses import DEFINING_RULES, KNOWN_RULES

#: {name key: {type: strength}}, and {name key: {display name: papers}}.
Votes = tuple[dict[str, dict[str, float]], dict[str, dict[str, int]]]
#: {name key: {type given: (type decided, display name)}}: what :func:`decide` rules.
Decisions = dict[str, dict[str, tuple[str, str]]]

#: Each side of a Task and a collection named alike needs this much evidence to stay apart
#: (three votes of the lexicon, or three papers' definitions and a weak rule).
TWO_THINGS_MIN = 9.0
#: ... and the weaker side at least this share of the stronger.
TWO_THINGS_SHARE = 0.33


def strength(rule: str, kind: str) -> float:
    """How much one paper's mention typed ``kind`` by ``rule`` weighs: the lexicon 3, a
    definition 2, other rules 1; a Concept (no type told) a quarter of that.

    >>> strength("lexicon", "Benchmark"), strength("task-phrase", "Task")
    (3.0, 1.0)
    """
    weight = 3.0 if rule in KNOWN_RULES else 2.0 if rule in DEFINING_RULES else 1.0
    return weight / 4 if kind == S.CONCEPT else weight


def summarise(mentions: Iterable[Mention]) -> Votes:
    """The votes of one paper: each (name, type) once, at its strongest rule; the
    benchmarks its datasets are PART_OF vote Benchmark as the lexicon does."""
    kinds: dict[str, dict[str, float]] = {}
    names: dict[str, dict[str, int]] = {}
    for m in mentions:
        _vote(kinds, names, m.canonical, m.type, strength(m.rule, m.type))
        for benchmark in m.part_of:
            _vote(kinds, names, benchmark, S.BENCHMARK, 3.0)
    return kinds, names


def _vote(
    kinds: dict[str, dict[str, float]],
    names: dict[str, dict[str, int]],
    name: str,
    kind: str,
    weight: float,
) -> None:
    key = entity_name_key(name)
    votes = kinds.setdefault(key, {})
    votes[kind] = max(votes.get(kind, 0.0), weight)
    names.setdefault(key, {})[name] = 1


def merge(a: Votes, b: Votes) -> Votes:
    """``a`` with the votes of ``b`` added (``a`` is changed and returned)."""
    for mine, theirs in zip(a, b, strict=True):
        for key, counts in theirs.items():
            into = mine.setdefault(key, {})
            for value, n in counts.items():
                into[value] = into.get(value, 0) + n
    return a


def _strongest(votes: dict[str, float]) -> str:
    return min(votes, key=lambda kind: (-round(votes[kind], 6), kind))


def decide(votes: Votes) -> Decisions:
    """The type and display name of every name given more than one type."""
    kinds, names = votes
    decisions: Decisions = {}
    for key, by_kind in kinds.items():
        if len(by_kind) < 2:
            continue
        winners = [_strongest(by_kind)]
        task = by_kind.get(S.TASK, 0.0)
        data = {k: v for k, v in by_kind.items() if k in S.COLLECTION_KINDS}
        if task and data:
            collection = _strongest(data)
            pair = (task, sum(data.values()))
            if min(pair) >= TWO_THINGS_MIN and min(pair) >= TWO_THINGS_SHARE * max(pair):
                winners = [S.TASK, collection] if task >= pair[1] else [collection, S.TASK]
        spelled = names[key]
        name = min(spelled, key=lambda n: (-spelled[n], n))
        decisions[key] = {
            kind: (kind if kind in winners[1:] else _joined(kind, winners), name)
            for kind in by_kind
        }
    return decisions


def _joined(kind: str, winners: list[str]) -> str:
    """The node a type joins: the collection kept apart for the other collection type,
    else the strongest type."""
    if len(winners) > 1 and kind in S.COLLECTION_KINDS:
        return next(w for w in winners if w in S.COLLECTION_KINDS)
    return winners[0]


def other_types(decisions: Decisions) -> dict[str, list[str]]:
    """{node key: the types its name was also given}, for the nodes that absorbed some."""
    found: dict[str, set[str]] = {}
    for by_kind in decisions.values():
        for kind, (decided, name) in by_kind.items():
            if kind != decided:
                found.setdefault(S.entity_key(decided, name), set()).add(kind)
    return {key: sorted(kinds) for key, kinds in sorted(found.items())}


def apply(
    items: Sequence[tuple[str, Sequence[Mention]]], decisions: Decisions
) -> list[tuple[str, list[Mention]]]:
    """``items`` with each mention (and the benchmarks it is PART_OF) as decided."""
    if not decisions:
        return [(paper, list(mentions)) for paper, mentions in items]
    return [(paper, [_decided(m, decisions) for m in mentions]) for paper, mentions in items]


def _decided(m: Mention, decisions: Decisions) -> Mention:
    kind, name = decisions.get(entity_name_key(m.canonical), {}).get(m.type, (m.type, m.canonical))
    changes: dict[str, Any] = {}
    if (kind, name) != (m.type, m.canonical):
        changes.update(type=kind, canonical=name)
    if m.part_of:
        part_of = tuple(
            decisions.get(entity_name_key(b), {}).get(S.BENCHMARK, (S.BENCHMARK, b))[1]
            for b in m.part_of
        )
        if part_of != m.part_of:
            changes["part_of"] = part_of
    return mention_from_fields({**m.__dict__, **changes}) if changes else m


def unify_types(
    items: Sequence[tuple[str, Sequence[Mention]]],
) -> tuple[list[tuple[str, list[Mention]]], dict[str, list[str]]]:
    """(``items`` with one type per name, the ``other_types`` of the nodes).

    >>> from kg.extractors.records import Mention
    >>> def m(kind, rule="lexicon"):
    ...     return Mention(type=kind, text="MNIST", canonical="MNIST", start=0, end=5,
    ...                    sentence="", rule=rule, score=0.9)
    >>> items = [("p1", [m("Dataset")]), ("p2", [m("Task", "task-phrase")])]
    >>> resolved, others = unify_types(items)
    >>> [ms[0].type for _, ms in resolved], others
    (['Dataset', 'Dataset'], {'dataset:mnist': ['Task']})
    """
    votes: Votes = ({}, {})
    for _, mentions in items:
        merge(votes, summarise(mentions))
    decisions = decide(votes)
    return apply(items, decisions), other_types(decisions)
