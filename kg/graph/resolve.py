"""Entity resolution across a corpus: one canonical name per thing, acronyms expanded.

A short form an abstract defines means that definition in that abstract, and names its
sense elsewhere (:mod:`kg.graph.senses`: one node per sense, the lexicon a default); a
defined long form written alone is its short form; spelling variants of a name
(ImageNet-1k, ImageNet1K) become one canonical display name; a name the corpus gives
several types gets the one its evidence favours (:func:`unify_types`).
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from kg.extractors.choose import SHARED_HEAD
from kg.extractors.lexicon import Lexicon
from kg.extractors.names import entity_name_key, name_key
from kg.extractors.names import long_key as _long_key
from kg.extractors.records import TASK, Mention, mention_from_fields
from kg.graph import senses
from kg.graph.senses import shipped_lexicon

#: ``[(paper key, [Mention])]``: each paper's mentions, the shape resolution reads and gives.
Items = list[tuple[str, list[Mention]]]
#: What one paper's resolution depends on: a short form, or a (type, long-form key).
Need = str | tuple[str, str]
#: (type, entity name key): the mentions of one entity.
Group = tuple[str, str]


def _replace(m: Mention, **changes: Any) -> Mention:
    """``dataclasses.replace`` for a Mention, seven times faster."""
    return mention_from_fields({**m.__dict__, **changes})


def _most_common(counts: Counter[str]) -> str:
    """The most counted value of a Counter, ties to the alphabetically first (so the input
    order does not matter)."""
    return min(counts, key=lambda value: (-counts[value], value))


def resolve_corpus(
    items: Iterable[tuple[str, Sequence[Mention]]], *, lexicon: Lexicon | None = None
) -> Items:
    """Corpus-wide canonical names and types for ``[(paper_key, [Mention])]``.

    Returns the same shape, in the same order; within a paper, mentions that resolve to
    one entity are merged into the first. ``lexicon`` is the shipped one by default.
    """
    return Resolution(items, lexicon=lexicon).items


class Resolution:
    """Corpus-wide resolution that more papers can join.

    ``items`` holds ``(paper key, resolved mentions)`` in input order. :meth:`extend` adds
    papers and re-resolves only the papers whose result the new ones change (a short form
    they define, a display name or long form they tip), so a resolution extended in steps
    equals one made at once over the same papers. ``lexicon`` (the shipped one by default)
    gives the default sense of the short forms it knows.
    """

    def __init__(
        self, items: Iterable[tuple[str, Sequence[Mention]]], *, lexicon: Lexicon | None = None
    ) -> None:
        self._lexicon = shipped_lexicon() if lexicon is None else lexicon
        self._raw = [(key, list(mentions)) for key, mentions in items]
        self._defs: senses.Definitions = {}
        for _, mentions in self._raw:
            senses.merge(self._defs, senses.summarise(mentions))
        self.senses = senses.decide(self._defs, self._lexicon)
        self._stage1 = [first_stage(mentions, self.senses) for _, mentions in self._raw]
        self._names: defaultdict[Group, Counter[str]] = defaultdict(Counter)
        self._forms: defaultdict[Group, Counter[str]] = defaultdict(Counter)
        self._groups = [self._count(ms, 1) for ms in self._stage1]  # each paper's groups
        self.names, self.long_forms = display_names(self._names), chosen(self._forms)
        self.items = [
            (key, self._stage2(ms)) for (key, _), ms in zip(self._raw, self._stage1, strict=True)
        ]

    def _count(self, mentions: Iterable[Mention], step: int) -> set[Group]:
        """Add ``step`` (1 or -1) to the name and long-form counts of stage-1 ``mentions``;
        return the (type, name key) groups they fall in."""
        names, forms, groups = self._names, self._forms, set()
        for m in mentions:
            if step > 0:
                groups.add(_counted(names, forms, m))
                continue
            group = (m.type, entity_name_key(m.canonical))
            groups.add(group)
            _uncount(names, group, m.canonical)
            if m.long_form:
                _uncount(forms, group, m.long_form)
        return groups

    def _stage2(self, mentions: Iterable[Mention]) -> list[Mention]:
        return second_stage(mentions, self.names, self.long_forms)

    def extend(self, items: Iterable[tuple[str, Sequence[Mention]]]) -> None:
        """Add ``[(paper key, [Mention])]`` (papers not in the resolution yet)."""
        start = len(self._raw)
        self._raw += [(key, list(mentions)) for key, mentions in items]
        old = self.senses
        for _, mentions in self._raw[start:]:
            senses.merge(self._defs, senses.summarise(mentions))
        self.senses = senses.decide(self._defs, self._lexicon)
        changed = _changed_needs(old, self.senses)
        redo = (
            {i for i in range(start) if not _needs(self._raw[i][1]).isdisjoint(changed)}
            if changed
            else set()
        )
        redo |= set(range(start, len(self._raw)))
        touched = set()
        for i in sorted(redo):
            stage1 = first_stage(self._raw[i][1], self.senses)
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
            value = _most_common(self._forms[group]) if group in self._forms else None
            if self.long_forms.get(group) != value:
                renamed.add(group)
                if value is None:
                    del self.long_forms[group]
                else:
                    self.long_forms[group] = value
        # Display names are decided again whole: a Task group's may follow another's.
        names = display_names(self._names)
        renamed |= {
            g for g in names.keys() | self.names.keys() if names.get(g) != self.names.get(g)
        }
        self.names = names
        if renamed:
            redo |= {i for i, groups in enumerate(self._groups) if not groups.isdisjoint(renamed)}
        self.items += [("", [])] * (len(self._raw) - len(self.items))  # every new one is redone
        for i in redo:
            self.items[i] = (self._raw[i][0], self._stage2(self._stage1[i]))


#: {(type, name key): {spelling: count}}: the display names, or long forms, of some papers.
NameCounts = dict[Group, Counter[str]]


def count_names(stage1: Iterable[Sequence[Mention]]) -> tuple[NameCounts, NameCounts]:
    """The (display name, long form) counts of some papers' first-stage mentions; summaries
    that :func:`merge_counts` adds up, in any grouping."""
    names: NameCounts = defaultdict(Counter)
    forms: NameCounts = defaultdict(Counter)
    for mentions in stage1:
        for m in mentions:
            _counted(names, forms, m)
    return dict(names), dict(forms)


def _counted(names: NameCounts, forms: NameCounts, m: Mention) -> Group:
    """Count a stage-1 mention's spelling and long form in its group; return the group."""
    group = (m.type, entity_name_key(m.canonical))
    names[group][m.canonical] += 1
    if m.long_form:
        forms[group][m.long_form] += 1
    return group


def merge_counts(a: NameCounts, b: NameCounts) -> NameCounts:
    """The counts of ``a`` and ``b`` together (new Counters; neither is changed)."""
    total = {group: Counter(counts) for group, counts in a.items()}
    for group, counts in b.items():
        total.setdefault(group, Counter()).update(counts)
    return total


def chosen(counts: NameCounts) -> dict[Group, str]:
    """The most common spelling of each group, ties to the alphabetically first."""
    return {group: _most_common(c) for group, c in counts.items()}


def loose_task_key(name: str) -> str:
    """The key under which Task names one adjective apart are one task: an adjective's -al
    left out ("conversational" is "conversation", "logical reasoning" logic reasoning).

    >>> loose_task_key("conversational question answering") == loose_task_key(
    ...     "conversation question answering")
    True
    >>> loose_task_key("text summarization") == loose_task_key("summarization")
    False
    """
    stems = (w[:-2] if w.endswith("al") and len(w) >= 7 else w for w in name.lower().split())
    return entity_name_key(" ".join(stems))


def display_names(counts: NameCounts) -> dict[Group, str]:
    """Each group's display name: its most common spelling (:func:`chosen`), Task groups
    with one :func:`loose_task_key` all taking the most common spelling of them together."""
    names = chosen(counts)
    together: dict[str, list[Group]] = defaultdict(list)
    for group in sorted(counts):
        if group[0] == TASK:
            together[loose_task_key(names[group])].append(group)
    for groups in together.values():
        if len(groups) > 1:
            name = _most_common(sum((counts[g] for g in groups), Counter()))
            names.update(dict.fromkeys(groups, name))
    return names


def second_stage(
    mentions: Iterable[Mention], names: dict[Group, str], long_forms: dict[Group, str]
) -> list[Mention]:
    """One paper's first-stage mentions under the corpus's display names and long forms,
    those naming one entity merged into the first."""
    return _merge([_renamed(m, names, long_forms) for m in mentions])


def _changed_needs(old: senses.Senses, new: senses.Senses) -> set[Need]:
    """What a paper's stage-1 result may depend on that differs between ``old`` and ``new``:
    short forms whose senses changed and (type, long-form key)s that spell another sense."""
    changed: set[Need] = {
        short
        for short in old.by_short.keys() | new.by_short.keys()
        if old.by_short.get(short) != new.by_short.get(short)
    }
    changed |= {
        k
        for k in old.long_to_sense.keys() | new.long_to_sense.keys()
        if old.long_to_sense.get(k) != new.long_to_sense.get(k)
    }
    return changed


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


def first_stage(mentions: Sequence[Mention], table: senses.Senses) -> list[Mention]:
    """One paper's mentions with their corpus-wide senses (before display names): a
    definition names its sense, a bare short form follows the paper's own definition, else
    the one sense whose long form the paper writes, else the sense decided for it, and a
    defined long form written alone becomes its short form."""
    own: dict[str, Mention] = {}  # each short form the paper defines: its defining mention
    defined: dict[int, Mention] = {}
    for i, m in enumerate(mentions):
        short = senses.short_form_of(m)
        if short is not None and m.long_form:
            defined[i] = _as_defined(m, table.defined_sense(short, m.long_form))
            own.setdefault(name_key(short), defined[i])
    context: frozenset[str] | None = None
    written: dict[str, senses.Sense] | None = None  # the senses whose long forms it writes
    said: str | None = None  # the paper's sentences that hold a mention
    spelled: str | None = None  # their name key
    out = []
    for i, m in enumerate(mentions):
        if i in defined:
            out.append(defined[i])
            continue
        bare = senses.bare_short(m)
        bare = name_key(bare) if bare is not None else None
        if bare is not None and bare not in own:
            said = _sentences(mentions) if said is None else said
            hidden = _hidden_definition(m, mentions, said, table)
            if hidden is not None:
                own[bare] = hidden
                out.append(hidden)
                continue
        if bare is not None and bare in own:
            out.append(_as_own(m, own[bare]))
        elif bare is not None and bare in table.by_short:
            written = _written_senses(mentions, table) if written is None else written
            sense = _written_sense(bare, written, table)
            if sense is None:
                said = _sentences(mentions) if said is None else said
                spelled = name_key(said) if spelled is None else spelled
                sense = _spelled_sense(bare, spelled, table)
            if sense is None:
                context = senses.context_of(mentions) if context is None else context
                sense = table.bare_sense(bare, context - {m.canonical}, m.text)
            out.append(_as_bare(m, sense))
        elif not m.long_form and (m.type, _long_key(m.canonical)) in table.long_to_sense:
            sense = table.long_to_sense[(m.type, _long_key(m.canonical))]
            aliases = tuple(sorted(set(m.aliases) | {m.text}))
            out.append(
                _replace(
                    m, canonical=sense.name, long_form=m.canonical, aliases=aliases, part_of=()
                )
            )
        else:
            out.append(m)
    return out


def _hidden_definition(
    m: Mention, mentions: Sequence[Mention], said: str, table: senses.Senses
) -> Mention | None:
    """A bare short form that its paper defines where the extraction kept no definition
    ("Value iteration (VI)" after "Value iteration" was named): named as that definition,
    i.e. as the paper's mention of the long form, else as its sense; None if none is found."""
    long_form = senses.hidden_long_form(m, said)
    if long_form is None:
        return None
    key = _long_key(long_form)
    for other in mentions:
        if other is not m and key in {_long_key(other.canonical), _long_key(other.text)}:
            return _as_own(m, _replace(other, long_form=other.long_form or long_form))
    defined = _replace(m, long_form=long_form, aliases=tuple(sorted({*m.aliases, long_form})))
    return _as_defined(defined, table.hidden_sense(m.text, long_form, m.type))


def _written_senses(mentions: Sequence[Mention], table: senses.Senses) -> dict[str, senses.Sense]:
    """{name: sense} of the senses whose long forms a paper writes out on its own."""
    return {
        sense.name: sense
        for n in mentions
        if not n.long_form
        and (sense := table.long_to_sense.get((n.type, _long_key(n.canonical)))) is not None
    }


def _written_sense(
    short: str, written: dict[str, senses.Sense], table: senses.Senses
) -> senses.Sense | None:
    """The one sense of a bare ``short`` whose long form the paper writes out on its own
    ("We learn a Markov Network ... the full MN structure"), if there is one."""
    names = [sense.name for sense in table.by_short[short] if sense.name in written]
    return written[names[0]] if len(set(names)) == 1 else None


def _sentences(mentions: Iterable[Mention]) -> str:
    """The distinct sentences that hold the mentions, one per line, sorted."""
    return "\n".join(sorted({m.sentence for m in mentions}))


def _spelled_sense(short: str, spelled: str, table: senses.Senses) -> senses.Sense | None:
    """The one sense of a bare ``short`` whose long form the paper's sentences spell out
    (``spelled``: their :func:`name_key`), none of its senses being the lexicon's ("...
    associative long-term potentiation ... LTP" is long term potentiation, not learning with
    target priors)."""
    options = table.by_short[short]
    if len(options) < 2 or any(sense.lexicon for sense in options):
        return None
    found = [sense for sense in options if any(key in spelled for key in sense.long_keys)]
    return found[0] if len(found) == 1 else None


def _needs(mentions: Iterable[Mention]) -> set[Need]:
    """What :func:`first_stage` reads of the senses for these mentions: the short forms
    they define or use bare, the (type, long-form key)s of their names."""
    needs: set[Need] = set()
    for m in mentions:
        short = senses.short_form_of(m) or senses.bare_short(m)
        if short is not None:
            needs.add(name_key(short))
        if not m.long_form:
            needs.add((m.type, _long_key(m.canonical)))
    return needs


def _as_own(m: Mention, definition: Mention) -> Mention:
    """A bare short form in a paper that defines it: named as the definition is."""
    if (m.type, m.canonical, m.long_form) == (
        definition.type,
        definition.canonical,
        definition.long_form,
    ):
        return m
    aliases = set(m.aliases) | {m.text} | {definition.long_form or m.text}
    return _replace(
        m,
        type=definition.type,
        canonical=definition.canonical,
        long_form=definition.long_form,
        aliases=tuple(sorted(aliases - {definition.canonical})),
        part_of=definition.part_of,
    )


def _as_defined(m: Mention, sense: senses.Sense | None) -> Mention:
    """A defining mention named by the sense its definition belongs to."""
    if sense is None:
        return m
    if sense.lexicon:
        same = (m.canonical, m.type) == (sense.name, sense.type)
        return m if same else _replace(m, canonical=sense.name, type=sense.type)
    return m if m.canonical == sense.name else _replace(m, canonical=sense.name, part_of=())


def _as_bare(m: Mention, sense: senses.Sense | None) -> Mention:
    """A bare short form named by the sense decided for it (itself when none is)."""
    if sense is None or sense.lexicon and (m.canonical, m.type) == (sense.name, sense.type):
        return m
    if sense.lexicon:
        return _replace(m, canonical=sense.name, type=sense.type)
    aliases = set(m.aliases) | {m.text} | ({sense.long_form} if sense.long_form else set())
    return _replace(
        m,
        type=sense.type,
        canonical=sense.name,
        long_form=sense.long_form,
        aliases=tuple(sorted(aliases - {sense.name})),
        part_of=(),
    )


def _merge(mentions: Iterable[Mention]) -> list[Mention]:
    """Merge mentions of one paper that name the same (type, canonical): first one wins."""
    seen: dict[Group, int] = {}
    out: list[Mention] = []
    for m in mentions:
        k = (m.type, entity_name_key(m.canonical))
        if k in seen:
            first = out[seen[k]]
            # A shared head's modifier names nothing alone ("word" of "word and sentence
            # embeddings"), so it is no alias of the name it joins.
            text = set() if m.rule == SHARED_HEAD else {m.text} - {first.canonical}
            aliases = set(first.aliases) | set(m.aliases) | text
            role = "proposed" if "proposed" in (first.role, m.role) else first.role
            out[seen[k]] = _replace(first, aliases=tuple(sorted(aliases)), role=role)
        else:
            seen[k] = len(out)
            out.append(m)
    return out
