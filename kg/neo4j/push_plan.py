"""What a push changes, decided from the rows and what the server holds: which nodes own
which relationships, the stale relationships, the nodes a deletion may orphan, and which
rows to create, MERGE or leave alone."""

from collections.abc import Iterable

from kg.schema import NODE_KINDS, PAPER, REL_ENDPOINTS, REL_TYPES

#: ``(type, start key, end key)``: a relationship as the server and the graph both name it.
RelKey = tuple[str, str, str]


def kind_of_key(key: str) -> str | None:
    """The node kind a key names: ``method:grpo`` -> ``Method``; None if not one of ours.

    >>> kind_of_key("method:grpo"), kind_of_key("paper:0123456789ab"), kind_of_key("x:y")
    ('Method', 'Paper', None)
    """
    prefix = key.partition(":")[0]
    return next((kind for kind in NODE_KINDS if kind.lower() == prefix), None)


def owner_kinds() -> list[str]:
    """Kinds whose nodes own relationships that touch no Paper (APPLIED_TO, PART_OF sources)."""
    return sorted(
        {src for pairs in REL_ENDPOINTS.values() for src, dst in pairs if PAPER not in (src, dst)}
    )


def stale_relationships(
    graph_relationships: Iterable[RelKey], existing: Iterable[RelKey]
) -> set[RelKey]:
    """Relationships on the server (``(type, source, target)``) that the graph does not have.

    >>> on_server = [("USES", "paper:a", "method:x"), ("USES", "paper:a", "method:y")]
    >>> sorted(stale_relationships({("USES", "paper:a", "method:x")}, on_server))
    [('USES', 'paper:a', 'method:y')]
    """
    have = set(graph_relationships)
    return {rel for rel in existing if rel[0] in REL_TYPES and rel not in have}


def orphan_candidates(graph_keys: Iterable[str], keys: Iterable[str]) -> list[str]:
    """The keys, less the graph's nodes, Papers and keys that are not ours: what may be orphaned.

    >>> orphan_candidates({"paper:a", "method:x"}, ["paper:b", "method:x", "method:y", "x:y"])
    ['method:y']
    """
    have = set(graph_keys)
    return sorted(
        {key for key in keys if key not in have and kind_of_key(key) not in (None, PAPER)}
    )


def changes(
    group: tuple[str, str, str], rows: list[list], existing: dict[RelKey, dict]
) -> tuple[list[list], list[list], list[list]]:
    """Split a group's rows into (to create, to MERGE, unchanged) against the server's.

    ``existing`` maps ``(type, source, target)`` to properties for every relationship the
    server has that the push read; a row it could not have read is MERGEd.

    >>> group = ("USES", "Paper", "Method")
    >>> rows = [["p:a", "m:x", {"s": 1}], ["p:a", "m:y", {}], ["p:a", "m:z", {}]]
    >>> changes(group, rows, {("USES", "p:a", "m:x"): {"s": 2}, ("USES", "p:a", "m:y"): {}})
    ([['p:a', 'm:z', {}]], [['p:a', 'm:x', {'s': 1}]], [['p:a', 'm:y', {}]])
    """
    rel_type, src_kind, dst_kind = group
    was_read = PAPER in (src_kind, dst_kind) or src_kind in owner_kinds()
    create: list[list] = []
    update: list[list] = []
    unchanged: list[list] = []
    for row in rows:
        props = existing.get((rel_type, row[0], row[1]))
        if props is None:
            (create if was_read else update).append(row)
        else:
            (unchanged if props == row[2] else update).append(row)
    return create, update, unchanged
