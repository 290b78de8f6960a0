"""Model versions and sizes under their families: the VARIANT_OF links (size -> version ->
family) among the corpus's Methods.

A Method's parent is the nearest of its names without its last suffix
(:func:`kg.extractors.variants.ancestors`) that the corpus names, spelled alike
(:func:`kg.extractors.variants.spelled_alike`), else the lexicon's model family that
ancestor names: Llama-3-8B-Instruct -> Llama-3-8B -> Llama 3 -> Llama, skipping a level
nobody names. A family of the lexicon no paper names, but whose versions papers name, is
brought in (a node with no paper; lookups prefer nodes with papers).

The step is written as a reduction: :func:`method_names` summarises one paper (its Method
names), :func:`merge_names` merges summaries (a union: associative and commutative),
:func:`variant_links` decides the links from the merged summary.
"""

from collections.abc import Iterable, Mapping
from functools import cache

from kg.extractors.lexicon import load_lexicon
from kg.extractors.names import entity_name_key
from kg.extractors.records import METHOD, Mention
from kg.extractors.variants import ancestors, spelled_alike, split_suffix


@cache
def lexicon_families() -> dict[str, str]:
    """{entity name key of every name of a Method family of the lexicon: its canonical}."""
    families: dict[str, str] = {}
    for entry in load_lexicon().entries.values():
        if entry.family and entry.type == METHOD:
            for n in entry.names:
                families.setdefault(entity_name_key(n), entry.canonical)
    return families


def method_names(mentions: Iterable[Mention]) -> set[str]:
    """One paper's summary: the canonical names of its resolved Method mentions."""
    return {m.canonical for m in mentions if m.type == METHOD}


def merge_names(a: Iterable[str], b: Iterable[str]) -> set[str]:
    """Two summaries as one."""
    return {*a, *b}


def variant_links(names: Iterable[str], families: Mapping[str, str]) -> dict[str, str]:
    """{name: its parent's name} of every Method name of the corpus (``names``, a merged
    summary) that has a parent, and of the lexicon families it brings in.

    The parent is the nearest of a name's :func:`ancestors` that the corpus names (spelled
    alike: :func:`spelled_alike`), else the lexicon family that ancestor names (spelled as
    the corpus spells it, if it does).
    ``families`` maps entity name keys to family names (:func:`lexicon_families`).

    >>> variant_links({"Llama-3-8B", "Llama 3"}, {"llama": "Llama"})
    {'Llama 3': 'Llama', 'Llama-3-8B': 'Llama 3'}
    """
    known: dict[str, str] = {}
    for name in names:
        key = entity_name_key(name)
        old = known.get(key)
        if old is None or name < old:
            known[key] = name
    links: dict[str, str] = {}
    # Any order gives the same links: a family brought in is what its key looks up anyway.
    pending = [name for name in known.values() if split_suffix(name) is not None]
    while pending:
        child = pending.pop()
        own = entity_name_key(child)
        for ancestor in ancestors(child):
            key = entity_name_key(ancestor)
            parent = known.get(key)
            if parent is not None and key not in families and not spelled_alike(ancestor, parent):
                parent = None
            if parent is None and key in families:
                family = families[key]
                parent = known.get(entity_name_key(family))
                if parent is None:
                    parent = known[entity_name_key(family)] = family
                    pending.append(family)
            if parent is not None and entity_name_key(parent) != own:
                links[child] = parent
                break
    return _without_cycles(links)


def _without_cycles(links: dict[str, str]) -> dict[str, str]:
    """``links`` less the link from the smallest name of any cycle (a lexicon alias may
    lead a short name to a longer one)."""
    for start in sorted(links):
        seen: list[str] = []
        name: str | None = start
        while name is not None and name not in seen:
            seen.append(name)
            name = links.get(name)
        if name is not None:
            links.pop(min(seen[seen.index(name) :]))
    return dict(sorted(links.items()))
