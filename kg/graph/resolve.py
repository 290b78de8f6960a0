"""Entity resolution across a corpus: one canonical name per thing, acronyms expanded.

An acronym defined in one abstract ("Group Relative Policy Optimization (GRPO)") names the
bare acronym and the bare long form in every other abstract; spelling variants of a name
(ImageNet-1k, ImageNet1K) become one canonical display name; a short form defined with two
different long forms of one type is ambiguous and is not merged: each defining paper keeps
"SHORT (long form)".
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from kg.extractors.choose import LEXICON_RULES
from kg.extractors.names import entity_name_key
from kg.extractors.names import long_key as _long_key
from kg.extractors.records import Mention, mention_from_fields
from kg.schema import COLLECTION_KINDS

#: ``[(paper key, [Mention])]``: each paper's mentions, the shape resolution reads and gives.
Items = list[tuple[str, list[Mention]]]
#: {short form: {long-form key: (long form, type, papers)}}.
Definitions = dict[str, dict[str, tuple[str, str, int]]]
#: (unique, ambiguous, long_to_short) of :func:`acronym_tables`.
Tables = tuple[dict[str, tuple[str, str, int]], set[str], dict[tuple[str, str], str]]
#: (type, entity name key): the mentions of one entity.
Group = tuple[str, str]


def _replace(m: Mention, **changes: Any) -> Mention:
    """``dataclasses.replace`` for a Mention, seven times faster."""
    return mention_from_fields({**m.__dict__, **changes})


def acronym_definitions(
    items: Iterable[tuple[str, Sequence[Mention]]], defs: Definitions | None = None
) -> Definitions:
    """{short form: {long-form key: (long form, type, papers)}} over the corpus (added to
    ``defs`` when given).

    Only acronyms the lexicon does not know count: a known one has its canonical already."""
    defs = defaultdict(dict) if defs is None else defs
    for _, mentions in items:
        for m in mentions:
            if m.long_form and m.canonical != m.long_form and m.rule == "abbreviation":
                longs, key = defs[m.canonical], _long_key(m.long_form)
                seen = longs.get(key)
                longs[key] = (
                    (m.long_form, m.type, 1)
                    if seen is None
                    else (min(seen[0], m.long_form), min(seen[1], m.type), seen[2] + 1)
                )
    return defs


def acronym_tables(defs: Definitions) -> Tables:
    """(unique, ambiguous, long_to_short) of acronym definitions: the short forms with one
    meaning and its (long form, type, papers); the others; and the short form of each
    (type, long-form key)."""
    unique = {
        short: min(longs.values(), key=lambda v: (-v[2], v[0]))
        for short, longs in sorted(defs.items())
        if len({kind for _, kind, _ in longs.values()}) == 1 and len(_distinct_meanings(longs)) == 1
    }
    ambiguous = {short for short in defs if short not in unique}
    long_to_short: dict[tuple[str, str], str] = {}
    for short, (long_form, kind, _) in sorted(unique.items()):
        long_to_short.setdefault((kind, _long_key(long_form)), short)
    return unique, ambiguous, long_to_short


def _distinct_meanings(longs: dict[str, Any]) -> list[str]:
    """Long-form keys that are not variants of one another (one a prefix of the other,
    as "chain-of-thought" and "chain-of-thought prompting", counts as one meaning)."""
    keys = sorted(longs, key=len)
    meanings: list[str] = []
    for key in keys:
        if not any(key.startswith(k) for k in meanings):
            meanings.append(key)
    return meanings


def _most_common(counts: Counter[str]) -> str:
    """The most counted value of a Counter, ties to the alphabetically first (so the input
    order does not matter)."""
    return min(counts, key=lambda value: (-counts[value], value))


def resolve_corpus(items: Iterable[tuple[str, Sequence[Mention]]]) -> Items:
    """Corpus-wide canonical names and types for ``[(paper_key, [Mention])]``.

    Returns the same shape, in the same order; within a paper, mentions that resolve to
    one entity are merged into the first.
    """
    return Resolution(items).items


class Resolution:
    """Corpus-wide resolution that more papers can join.

    ``items`` holds ``(paper key, resolved mentions)`` in input order. :meth:`extend` adds
    papers and re-resolves only the papers whose result the new ones change (an acronym
    they define, a display name or long form they tip), so a resolution extended in steps
    equals one made at once over the same papers.
    """

    def __init__(self, items: Iterable[tuple[str, Sequence[Mention]]]) -> None:
        self._raw = [(key, list(mentions)) for key, mentions in items]
        self._defs = acronym_definitions(self._raw)
        self._tables = acronym_tables(self._defs)
        self._stage1 = [[_resolve_mention(m, *self._tables) for m in ms] for _, ms in self._raw]
        self._names: defaultdict[Group, Counter[str]] = defaultdict(Counter)
        self._forms: defaultdict[Group, Counter[str]] = defaultdict(Counter)
        self._groups = [self._count(ms, 1) for ms in self._stage1]  # each paper's groups
        self.names = {g: _most_common(c) for g, c in self._names.items()}
        self.long_forms = {g: _most_common(c) for g, c in self._forms.items()}
        self.items = [
            (key, self._stage2(ms)) for (key, _), ms in zip(self._raw, self._stage1, strict=True)
        ]

    def _count(self, mentions: Iterable[Mention], step: int) -> set[Group]:
        """Add ``step`` (1 or -1) to the name and long-form counts of stage-1 ``mentions``;
        return the (type, name key) groups they fall in."""
        names, forms, groups = self._names, self._forms, set()
        for m in mentions:
            group = (m.type, entity_name_key(m.canonical))
            groups.add(group)
            if step > 0:
                names[group][m.canonical] += 1
                if m.long_form:
                    forms[group][m.long_form] += 1
            else:
                _uncount(names, group, m.canonical)
                if m.long_form:
                    _uncount(forms, group, m.long_form)
        return groups

    def _stage2(self, mentions: Iterable[Mention]) -> list[Mention]:
        return _merge([_renamed(m, self.names, self.long_forms) for m in mentions])

    def extend(self, items: Iterable[tuple[str, Sequence[Mention]]]) -> None:
        """Add ``[(paper key, [Mention])]`` (papers not in the resolution yet)."""
        start = len(self._raw)
        self._raw += [(key, list(mentions)) for key, mentions in items]
        old_tables = self._tables
        acronym_definitions(self._raw[start:], self._defs)
        self._tables = acronym_tables(self._defs)
        redo = self._touched_by_acronyms(old_tables, self._tables, start)
        redo |= set(range(start, len(self._raw)))
        touched = set()
        for i in sorted(redo):
            stage1 = [_resolve_mention(m, *self._tables) for m in self._raw[i][1]]
            if i < start:
                touched |= self._count(self._stage1[i], -1)
                self._stage1[i] = stage1
                self._groups[i] = self._count(stage1, 1)
            else:
                self._stage1.append(stage1)
                self._groups.append(self._count(stage1, 1))
            touched |= self._groups[i]
        renamed = set()
        for group in touched:
            for table, counts in ((self.names, self._names), (self.long_forms, self._forms)):
                value = _most_common(counts[group]) if group in counts else None
                if table.get(group) != value:
                    renamed.add(group)
                    if value is None:
                        del table[group]
                    else:
                        table[group] = value
        if renamed:
            redo |= {i for i, groups in enumerate(self._groups) if not groups.isdisjoint(renamed)}
        self.items += [("", [])] * (len(self._raw) - len(self.items))  # every new one is redone
        for i in redo:
            self.items[i] = (self._raw[i][0], self._stage2(self._stage1[i]))

    def _touched_by_acronyms(self, old: Tables, new: Tables, end: int) -> set[int]:
        """The first ``end`` papers whose stage-1 result differs between the acronym tables
        ``old`` and ``new``."""
        (old_unique, old_ambiguous, old_long), (unique, ambiguous, long_to_short) = old, new
        shorts = {
            s for s in old_unique.keys() | unique.keys() if old_unique.get(s) != unique.get(s)
        } | (old_ambiguous ^ ambiguous)
        longs = {
            k
            for k in old_long.keys() | long_to_short.keys()
            if old_long.get(k) != long_to_short.get(k)
        }
        if not shorts and not longs:
            return set()
        return {
            i
            for i in range(end)
            if any(
                m.canonical in shorts
                or (not m.long_form and (m.type, _long_key(m.canonical)) in longs)
                for m in self._raw[i][1]
            )
        }


def unify_collection_kinds(items: Items) -> Items:
    """``[(paper key, [Mention])]`` with each name the corpus calls both a Dataset and a
    Benchmark given the kind most of its papers give it (ties: Benchmark), so that the
    graph has one MNIST node. Extraction records keep the kind their own text gives.

    >>> from kg.extractors.records import Mention
    >>> def m(kind):
    ...     return Mention(type=kind, text="MNIST", canonical="MNIST", start=0, end=5,
    ...                    sentence="", rule="lexicon", score=0.9)
    >>> items = [("p1", [m("Dataset")]), ("p2", [m("Dataset")]), ("p3", [m("Benchmark")])]
    >>> [ms[0].type for _, ms in unify_collection_kinds(items)]
    ['Dataset', 'Dataset', 'Dataset']

    The display name is the one most of its papers use.
    """
    kinds: defaultdict[str, Counter[str]] = defaultdict(Counter)
    names: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for _, mentions in items:
        for key, kind, name in {
            (entity_name_key(m.canonical), m.type, m.canonical)
            for m in mentions
            if m.type in COLLECTION_KINDS
        }:
            kinds[key][kind] += 1
            names[key][name] += 1
    one = {
        key: (_most_common(counts), _most_common(names[key]))
        for key, counts in kinds.items()
        if len(counts) > 1
    }
    if not one:
        return items
    return [(paper, [_as_one(m, one) for m in mentions]) for paper, mentions in items]


def _as_one(m: Mention, one: dict[str, tuple[str, str]]) -> Mention:
    """``m`` with the kind and display name of its collection in ``one``, if it has one."""
    kind, name = (
        one.get(entity_name_key(m.canonical), (m.type, m.canonical))
        if m.type in COLLECTION_KINDS
        else (m.type, m.canonical)
    )
    if (kind, name) == (m.type, m.canonical):
        return m
    return _replace(m, type=kind, canonical=name)


def _uncount(groups: dict[Group, Counter[str]], group: Group, value: str) -> None:
    """Take one ``value`` off ``groups[group]``, dropping what reaches zero."""
    counts = groups[group]
    counts[value] -= 1
    if counts[value] <= 0:
        del counts[value]
        if not counts:
            del groups[group]


def _renamed(m: Mention, names: dict[Group, str], long_forms: dict[Group, str]) -> Mention:
    """``m`` with its entity's corpus-wide display name and long form (itself if unchanged)."""
    k = (m.type, entity_name_key(m.canonical))
    canonical, long_form = names.get(k, m.canonical), long_forms.get(k, m.long_form)
    if canonical == m.canonical and long_form == m.long_form:
        return m
    return _replace(m, canonical=canonical, long_form=long_form)


#: Rules whose mentions the lexicon named: other abstracts' definitions neither retype nor
#: rename them ("Cable News Network (CNN)" in one abstract leaves the CNN of the others a
#: Method; "Relation Learning (RL)" leaves "reinforcement learning (RL)" the RL Method).
KNOWN_RULES = frozenset(LEXICON_RULES)


def _resolve_mention(
    m: Mention,
    unique: dict[str, tuple[str, str, int]],
    ambiguous: set[str],
    long_to_short: dict[tuple[str, str], str],
) -> Mention:
    """One mention with its corpus-wide name, type and long form."""
    if m.long_form:
        if m.canonical in ambiguous and m.rule not in KNOWN_RULES:
            return _replace(m, canonical=f"{m.canonical} ({m.long_form})")
        return m
    if m.canonical in unique and m.rule not in KNOWN_RULES:
        long_form, kind, _ = unique[m.canonical]
        return _replace(
            m, type=kind, long_form=long_form, aliases=tuple(sorted(set(m.aliases) | {long_form}))
        )
    short = long_to_short.get((m.type, _long_key(m.canonical)))
    if short:
        return _replace(
            m,
            canonical=short,
            long_form=m.canonical,
            aliases=tuple(sorted(set(m.aliases) | {m.text})),
        )
    return m


def _merge(mentions: Iterable[Mention]) -> list[Mention]:
    """Merge mentions of one paper that name the same (type, canonical): first one wins."""
    seen: dict[Group, int] = {}
    out: list[Mention] = []
    for m in mentions:
        k = (m.type, entity_name_key(m.canonical))
        if k in seen:
            first = out[seen[k]]
            aliases = set(first.aliases) | set(m.aliases) | ({m.text} - {first.canonical})
            role = "proposed" if "proposed" in (first.role, m.role) else first.role
            out[seen[k]] = _replace(first, aliases=tuple(sorted(aliases)), role=role)
        else:
            seen[k] = len(out)
            out.append(m)
    return out
