"""One node per thing across types: the type of a name the corpus gives several.

Papers may type one name differently ("event detection" as a Method in one abstract and a
Task in others; MLQA as a Benchmark, a Method and a Task). Each paper votes once for each
type it gives a name, with the strength of its strongest rule for it (the lexicon over a
paper's definition over weak context; an untyped Concept least), and the name becomes one
node of the strongest type; the types it lost are kept as the node's ``other_types``.

A name that truly is two things keeps two nodes: a collection of data (Dataset, Benchmark)
and a Task named alike, when both sides have strong evidence (:data:`TWO_THINGS_MIN` each,
the weaker at least :data:`TWO_THINGS_SHARE` of the stronger).

Written as a reduction: :func:`summarise` one paper, :func:`merge` summaries, :func:`decide`;
the display name of a node that absorbed others is the one most of its papers give it
(:func:`display_names`, a second reduction over the papers of those names only).
"""

from collections.abc import Iterable, Sequence
from typing import Any

from kg import schema as S
from kg.extractors.names import entity_name_key
from kg.extractors.records import Mention, mention_from_fields
from kg.graph.senses import DEFINING_RULES, KNOWN_RULES

#: {name key: {type: strength}}: the votes of some papers.
Votes = dict[str, dict[str, float]]
#: {name key: {type given: type decided}} for the names given several types.
Decisions = dict[str, dict[str, str]]

#: Each side of a Task and a collection named alike needs this much evidence to stay apart
#: (three votes of the lexicon, or three papers' definitions and a weak rule).
TWO_THINGS_MIN = 9.0
#: ... and the weaker side at least this share of the stronger.
TWO_THINGS_SHARE = 0.33


#: Strength of a vote by rule: the lexicon's 3, a paper's definition 2, any other rule 1.
_STRENGTH = {rule: 3.0 for rule in KNOWN_RULES} | {rule: 2.0 for rule in DEFINING_RULES}


def strength(rule: str, kind: str) -> float:
    """How much one paper's mention typed ``kind`` by ``rule`` weighs: the lexicon 3, a
    definition 2, other rules 1; a Concept (no type told) a quarter of that.

    >>> strength("lexicon", "Benchmark"), strength("task-phrase", "Task")
    (3.0, 1.0)
    """
    weight = _STRENGTH.get(rule, 1.0)
    return weight / 4 if kind == S.CONCEPT else weight


def summarise(mentions: Iterable[Mention]) -> Votes:
    """The votes of one paper: each (name, type) once, at its strongest rule; the
    benchmarks its datasets are PART_OF vote Benchmark as the lexicon does."""
    votes: Votes = {}
    for m in mentions:
        _vote(votes, entity_name_key(m.canonical), m.type, strength(m.rule, m.type))
        for benchmark in m.part_of:
            _vote(votes, entity_name_key(benchmark), S.BENCHMARK, 3.0)
    return votes


def _vote(votes: Votes, key: str, kind: str, weight: float) -> None:
    by_kind = votes.get(key)
    if by_kind is None:
        votes[key] = {kind: weight}
    elif by_kind.get(kind, 0.0) < weight:
        by_kind[kind] = weight


def merge(a: Votes, b: Votes) -> Votes:
    """``a`` with the votes of ``b`` added (associative and commutative; ``a`` is changed
    and returned, and may take in ``b``'s own dicts)."""
    for key, by_kind in b.items():
        mine = a.get(key)
        if mine is None:
            a[key] = by_kind
        else:
            for kind, weight in by_kind.items():
                mine[kind] = mine.get(kind, 0.0) + weight
    return a


def _strongest(votes: dict[str, float]) -> str:
    return min(votes, key=lambda kind: (-round(votes[kind], 6), kind))


def decide(votes: Votes) -> Decisions:
    """The type each type given a name joins, for every name given more than one."""
    decisions: Decisions = {}
    for key, by_kind in votes.items():
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
        decisions[key] = {
            kind: kind if kind in winners[1:] else _joined(kind, winners) for kind in by_kind
        }
    return decisions


def _joined(kind: str, winners: list[str]) -> str:
    """The node a type joins: the collection kept apart for the other collection type,
    else the strongest type."""
    if len(winners) > 1 and kind in S.COLLECTION_KINDS:
        return next(w for w in winners if w in S.COLLECTION_KINDS)
    return winners[0]


def display_names(
    items: Iterable[tuple[str, Sequence[Mention]]], decisions: Decisions
) -> dict[tuple[str, str], str]:
    """{(name key, type decided): the name most papers give the node} for the names of
    ``decisions`` (ties: the first in sorted order)."""
    return chosen_names(display_counts(items, decisions))


#: {(name key, type decided): {name: papers giving it}}, a summary :func:`merge_display` adds.
DisplayCounts = dict[tuple[str, str], dict[str, int]]


def display_counts(
    items: Iterable[tuple[str, Sequence[Mention]]], decisions: Decisions
) -> DisplayCounts:
    """How many of these papers give each name to each node of ``decisions``' names."""
    papers: DisplayCounts = {}
    for _, mentions in items:
        seen = set()
        for m in mentions:
            by_kind = decisions.get(entity_name_key(m.canonical))
            if by_kind is not None and (m.canonical, m.type) not in seen:
                seen.add((m.canonical, m.type))
                counts = papers.setdefault((entity_name_key(m.canonical), by_kind[m.type]), {})
                counts[m.canonical] = counts.get(m.canonical, 0) + 1
    return papers


def merge_display(a: DisplayCounts, b: DisplayCounts) -> DisplayCounts:
    """The counts of ``a`` and ``b`` together (a new summary; neither is changed)."""
    total = {node: dict(c) for node, c in a.items()}
    for node, counts in b.items():
        into = total.setdefault(node, {})
        for name, n in counts.items():
            into[name] = into.get(name, 0) + n
    return total


def chosen_names(counts: DisplayCounts) -> dict[tuple[str, str], str]:
    """The name most papers give each node, ties to the first in sorted order."""
    return {node: min(c, key=lambda n: (-c[n], n)) for node, c in counts.items()}


def typed(
    mentions: Iterable[Mention], decisions: Decisions, names: dict[tuple[str, str], str]
) -> list[Mention]:
    """One paper's mentions with the types (and display names) decided for their names."""
    return [_decided(m, decisions, names) for m in mentions]


def other_types(decisions: Decisions, names: dict[tuple[str, str], str]) -> dict[str, list[str]]:
    """{node key: the types its name was also given}, for the nodes that absorbed some."""
    found: dict[str, set[str]] = {}
    for key, by_kind in decisions.items():
        for kind, decided in by_kind.items():
            if kind != decided and (key, decided) in names:
                found.setdefault(S.entity_key(decided, names[key, decided]), set()).add(kind)
    return {key: sorted(kinds) for key, kinds in sorted(found.items())}


def _decided(m: Mention, decisions: Decisions, names: dict[tuple[str, str], str]) -> Mention:
    by_kind = decisions.get(entity_name_key(m.canonical))
    if by_kind is None and not m.part_of:
        return m
    changes: dict[str, Any] = {}
    if by_kind is not None:
        kind = by_kind[m.type]
        name = names.get((entity_name_key(m.canonical), kind), m.canonical)
        if (kind, name) != (m.type, m.canonical):
            changes.update(type=kind, canonical=name)
    if m.part_of:
        part_of = tuple(_benchmark_name(b, decisions, names) for b in m.part_of)
        if part_of != m.part_of:
            changes["part_of"] = part_of
    return mention_from_fields({**m.__dict__, **changes}) if changes else m


def _benchmark_name(name: str, decisions: Decisions, names: dict[tuple[str, str], str]) -> str:
    """The display name of the node a benchmark's name is decided into."""
    key = entity_name_key(name)
    kind = decisions.get(key, {}).get(S.BENCHMARK, S.BENCHMARK)
    return names.get((key, kind), name)


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
    votes: Votes = {}
    named = []  # the name keys of each paper
    for _, mentions in items:
        paper = summarise(mentions)
        named.append(paper.keys())
        merge(votes, paper)
    decisions = decide(votes)
    decided = decisions.keys()
    touched = [not keys.isdisjoint(decided) for keys in named]
    names = display_names([item for item, t in zip(items, touched, strict=True) if t], decisions)
    typed = [
        (paper, [_decided(m, decisions, names) for m in mentions] if t else list(mentions))
        for (paper, mentions), t in zip(items, touched, strict=True)
    ]
    return typed, other_types(decisions, names)
