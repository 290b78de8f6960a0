"""Acronym senses across a corpus: the paper's own definition wins.

An abstract that defines a short form ("Indian Buffet Process (IBP)") means that long form
by it, whatever the lexicon or other abstracts say. Over the corpus the definitions of one
short form fall into *senses* (long forms that are spellings of one another are one sense:
plural, hyphen, case, "network"/"networks"); the lexicon's entry, when it knows the short
form, is one more sense, the default. One short form with one sense names one node "IBP";
with several, each defined sense is its own node "IBP (Indian Buffet Process)" and the
lexicon's sense keeps its canonical name.

Written as a reduction: :func:`summarise` one paper's mentions into :data:`Definitions`,
:func:`merge` summaries (associative, commutative), :func:`decide` the senses of the whole,
and :meth:`Senses.bare_sense` picks the sense of a bare short form in one paper.
"""

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from kg.extractors.abbreviations import best_long_form, find_abbreviations, is_short_form
from kg.extractors.choose import ABBREVIATION, ABBREVIATION_LEXICON, ACRONYM_USE, LEXICON_RULES
from kg.extractors.lexicon import Entry, Lexicon, load_lexicon
from kg.extractors.names import long_key, name_key, singular_short
from kg.extractors.records import IGNORE, Mention
from kg.graph.long_forms import same_sense, sense_words

#: Rules whose mentions carry a paper's own definition of a short form.
DEFINING_RULES = frozenset((ABBREVIATION, ABBREVIATION_LEXICON, ACRONYM_USE))
#: Rules whose mentions the lexicon named.
KNOWN_RULES = frozenset(LEXICON_RULES)
#: A bare use is decided by its paper's other names when at least this many of them were
#: seen only beside one sense (and at least twice as many as beside any other).
MIN_CONTEXT = 2
#: The commonest sense decides a bare use only with this many times the papers of the next.
DOMINANCE = 3


@lru_cache(maxsize=1 << 16)
def _short(text: str) -> bool:
    """:func:`is_short_form`, remembered (the same names recur in every paper)."""
    return is_short_form(text)


@lru_cache(maxsize=1)
def shipped_lexicon() -> Lexicon:
    """The lexicon kg ships, read once per process."""
    return load_lexicon()


@dataclass
class LongForm:
    """One long form of a short form over the corpus: its spellings and types (with counts),
    the papers that define it, and for each of them the names it mentions
    (:func:`context_of`) and the name it defines (what :func:`decide` reads the names
    beside the definition from, when it needs them)."""

    spellings: dict[str, int] = field(default_factory=dict)
    types: dict[str, int] = field(default_factory=dict)
    papers: int = 0
    contexts: list[tuple[frozenset[str], str]] = field(default_factory=list)
    shorts: dict[str, int] = field(default_factory=dict)

    def add(self, other: "LongForm") -> None:
        for mine, theirs in (
            (self.spellings, other.spellings),
            (self.types, other.types),
            (self.shorts, other.shorts),
        ):
            for value, n in theirs.items():
                mine[value] = mine.get(value, 0) + n
        self.papers += other.papers
        self.contexts += other.contexts


#: {short-form key: {long-form key: LongForm}}: the summary of some papers. Short forms are
#: keyed by :func:`name_key` (ToP and TOP, D-TS and DTS are one short form, as they would
#: be one node).
Definitions = dict[str, dict[str, LongForm]]


def long_names(entry: Entry) -> list[str]:
    """The names of a lexicon entry that spell a long form (two words or more)."""
    return [n for n in entry.names if len(sense_words(n)) >= 2]


def sense_name(short: str, long_form: str) -> str:
    """The name of a sense the lexicon does not name: "IBP (Indian Buffet Process)"."""
    return f"{short} ({long_form})"


def short_of(name: str) -> str:
    """The short form a sense's name starts with, or the name itself.

    >>> short_of(sense_name("IBP", "Indian Buffet Process")), short_of("GM-SOP")
    ('IBP', 'GM-SOP')
    """
    return name.split(" (", 1)[0]


def is_entry_sense(entry: Entry, long_form: str) -> bool:
    """Whether ``long_form`` is the sense of a lexicon entry: one of its long names spells
    the same thing, or it has none to compare with (the lexicon knows only the short form)."""
    names = long_names(entry)
    return not names or any(same_sense(long_form, n) for n in names)


def short_form_of(m: Mention) -> str | None:
    """The short form a defining mention defines, or None.

    The lexicon's mentions are named by its canonical, so their short form is read off the
    sentence ("Indian Buffet Process (IBP)", "IBP (Indian Buffet Process)") or the aliases.
    """
    if not m.long_form or m.rule not in DEFINING_RULES:
        return None
    if m.rule == ABBREVIATION:
        return m.canonical
    if m.rule == ACRONYM_USE:
        return singular_short(m.text, m.long_form) if _short(m.text) else None
    short = _parenthesised_short(m.sentence, m.text)
    if short is None:
        shorts = sorted(a for a in m.aliases if " " not in a and _short(a))
        short = shorts[0] if shorts else None
    return singular_short(short, m.long_form) if short else None


#: What may stand between a long form and its "(SHORT)": spaces, closing quotes.
_CLOSING = " \"'\u201d\u2019\u00bb"


def _parenthesised_short(sentence: str, text: str) -> str | None:
    """The short form in parentheses beside ``text`` in ``sentence`` (after closing quotes:
    '"Segmental Neural Net" (SNN)'), or None.

    >>> _parenthesised_short('the "Segmental Neural Net" (SNN) for', "Segmental Neural Net")
    'SNN'
    """
    at = sentence.find(text)
    if at < 0:
        return None
    after = sentence[at + len(text) :].lstrip(_CLOSING)
    if after.startswith("("):
        inner = after[1 : after.find(")")] if ")" in after else ""
        inner = re.split(r"[;,]", inner)[0].strip()
        if inner and _short(inner):
            return inner
    before = sentence[:at].rstrip()
    if before.endswith("("):
        words = before[:-1].split()
        if words and _short(words[-1]):
            return words[-1]
    return None


def hidden_long_form(m: Mention, said: str) -> str | None:
    """The long form of a short form ``m`` names that a sentence of ``said`` (sentences,
    one a line) defines ("... (SHORT)"), or that the extraction kept among its aliases (an
    alias of several words whose initials spell it, Schwartz–Hearst's test), or None."""
    probe = f"({m.text})"
    at = said.find(probe)
    if at >= 0:
        start, end = said.rfind("\n", 0, at) + 1, said.find("\n", at)
        for abbr in find_abbreviations(said[start : end if end >= 0 else len(said)]):
            if abbr.short == m.text:
                return abbr.long
    if m.rule in KNOWN_RULES:
        return None
    for alias in m.aliases:
        words = alias.split()
        if len(words) > 1 and best_long_form(m.text, words) == 0:
            return alias
    return None


def bare_short(m: Mention) -> str | None:
    """The short form a mention without a definition is written as, or None: a name the
    rules made of the short form itself, or a lexicon name written as its short form."""
    if m.long_form:
        return None
    if m.rule in KNOWN_RULES:
        if " " not in m.text and _short(m.text):
            return singular_short(m.text, m.canonical)
        return None
    return m.canonical if " " not in m.canonical else None


def context_of(mentions: Iterable[Mention]) -> frozenset[str]:
    """The names a paper mentions: what a bare short form's sense is judged by."""
    return frozenset([m.canonical for m in mentions])


def summarise(mentions: Sequence[Mention]) -> Definitions:
    """The definitions of one paper (each short form and long form counted once)."""
    defs: Definitions = {}
    context: frozenset[str] | None = None
    for m in mentions:
        if not m.long_form or m.rule not in DEFINING_RULES:
            continue
        short = short_form_of(m)
        if short is None:
            continue
        key = long_key(m.long_form)
        longs = defs.setdefault(name_key(short), {})
        if key in longs:
            continue
        if context is None:
            context = context_of(mentions)
        longs[key] = LongForm(
            {m.long_form: 1}, {m.type: 1}, 1, [(context, m.canonical)], {short: 1}
        )
    return defs


def merge(a: Definitions, b: Definitions) -> Definitions:
    """``a`` with the definitions of ``b`` added: associative and, but for the order of
    the contexts (which :func:`decide` only counts), commutative. ``a`` is changed and
    returned; ``b``'s long forms may become part of it."""
    for short, longs in b.items():
        mine = a.setdefault(short, {})
        for key, stats in longs.items():
            if key in mine:
                mine[key].add(stats)
            else:
                mine[key] = stats
    return a


@dataclass(frozen=True)
class Sense:
    """One sense of a short form: the node's name and type, its long form, the papers that
    define it, whether the lexicon names it (and is the short form's default), and the
    names its papers mention."""

    name: str
    type: str
    long_form: str | None
    papers: int
    lexicon: bool
    default: bool
    long_keys: frozenset[str]


def _most_common(counts: dict[str, int]) -> str:
    if len(counts) == 1:
        return next(iter(counts))
    return min(counts, key=lambda value: (-counts[value], value))


def lexicon_entry(short: str, lexicon: Lexicon) -> Entry | None:
    """The lexicon's entity entry for a short form, or None."""
    entry = lexicon.lookup(short)
    if entry is None or entry.type == IGNORE:
        return None
    return entry if any(name_key(n) == name_key(short) for n in entry.names) else None


def senses_of(longs: dict[str, LongForm], lexicon: Lexicon) -> list[Sense]:
    """The senses of one short form: the lexicon's entry for it first (the default, if it
    knows the short form), then the entries that name its long forms, then the long forms
    the lexicon does not know, grouped by :func:`same_sense` (most papers first, so the
    result depends on the counts only, not on the order papers came in). An entry that
    knows no long form of its short form takes the commonest group of its own type."""
    default = lexicon_entry(_most_common(_pooled(list(longs), longs).shorts), lexicon)
    blind = default is not None and not long_names(default)
    known: dict[str, list[str]] = {}
    clusters: list[list[str]] = []
    for key in sorted(longs, key=lambda k: (-longs[k].papers, k)):
        spelling = _most_common(longs[key].spellings)
        entry = lexicon.lookup(spelling)
        if entry is None or entry.type == IGNORE:
            entry = None
            if default is not None and not blind and is_entry_sense(default, spelling):
                entry = default
        if entry is not None:
            known.setdefault(entry.canonical, []).append(key)
            continue
        for cluster in clusters:
            if same_sense(_most_common(longs[cluster[0]].spellings), spelling):
                cluster.append(key)
                break
        else:
            clusters.append([key])
    # A long form the lexicon does not hold may spell an entry another long form of this
    # short form names ("Maximum A posteriori Probability" beside "maximum a posteriori").
    for cluster in list(clusters):
        spellings = [_most_common(longs[key].spellings) for key in cluster]
        named = [
            c
            for c in sorted(known)
            if long_names(lexicon.entries[c])
            and all(is_entry_sense(lexicon.entries[c], spelling) for spelling in spellings)
        ]
        if len(named) == 1:
            known[named[0]].extend(cluster)
            clusters.remove(cluster)
    if blind and default is not None:
        own = [c for c in clusters if _most_common(_pooled(c, longs).types) == default.type]
        # else a group some paper types as the entry is ("ADNI", a dataset, where one paper
        # typed "Alzheimer's Disease Neuroimaging Initiative" a Dataset and one a Concept)
        own = own or [c for c in clusters if default.type in _pooled(c, longs).types]
        if own:
            best = max(own, key=lambda c: _pooled(c, longs).papers)  # the first of equals
            known.setdefault(default.canonical, []).extend(best)
            clusters.remove(best)
    entries = [default] if default is not None else []
    entries += [
        lexicon.entries[c] for c in sorted(known) if default is None or c != default.canonical
    ]
    several = len(clusters) + len(entries) > 1
    senses = [
        _sense(
            e.canonical,
            e.type,
            known.get(e.canonical, []),
            longs,
            lexicon=True,
            default=e is default,
        )
        for e in entries
    ]
    for keys in clusters:
        stats = _pooled(keys, longs)
        long_form, short = _most_common(stats.spellings), _most_common(stats.shorts)
        name = sense_name(short, long_form) if several else short
        kind = _most_common(stats.types)
        senses.append(_sense(name, kind, keys, longs, lexicon=False))
    return senses


def _pooled(keys: Sequence[str], longs: dict[str, LongForm]) -> LongForm:
    if len(keys) == 1:
        return longs[keys[0]]
    pooled = LongForm()
    for key in keys:
        pooled.add(longs[key])
    return pooled


def _sense(
    name: str,
    kind: str,
    keys: list[str],
    longs: dict[str, LongForm],
    *,
    lexicon: bool,
    default: bool = False,
) -> Sense:
    stats = _pooled(keys, longs)
    return Sense(
        name,
        kind,
        _most_common(stats.spellings) if stats.spellings else None,
        stats.papers,
        lexicon,
        default,
        frozenset(keys),
    )


@dataclass
class Senses:
    """The decided senses of every defined short form, and the lookups resolution needs."""

    #: short-form key (:func:`name_key`) -> its senses.
    by_short: dict[str, list[Sense]]
    #: (type, long-form key) -> name of the one defined sense it spells.
    long_to_sense: dict[tuple[str, str], Sense]
    #: short-form key -> {name seen beside one of its senses only: that sense's index}.
    lexicon: Lexicon
    #: The summary decided on, read for the names beside each sense when a bare use needs them.
    defs: Definitions
    _telling: dict[str, dict[str, int]] = field(default_factory=dict, compare=False)

    def telling(self, short: str) -> dict[str, int]:
        """{name seen beside one sense of ``short`` only: that sense's index} (remembered)."""
        if short not in self._telling:
            self._telling[short] = _telling(self.by_short[short], self.defs[short])
        return self._telling[short]

    def defined_sense(self, short: str, long_form: str) -> Sense | None:
        """The sense a definition of ``short`` as ``long_form`` belongs to."""
        key = long_key(long_form)
        for sense in self.by_short.get(name_key(short), ()):
            if key in sense.long_keys:
                return sense
        return None

    def hidden_sense(self, short: str, long_form: str, kind: str) -> Sense | None:
        """The sense of a definition no summary counted (:func:`hidden_long_form`): the
        one it spells, else the lexicon's default if it spells that; a new sense named
        "SHORT (long form)" when the short form has others; None when it is the only one."""
        sense = self.defined_sense(short, long_form)
        if sense is not None:
            return sense
        default = lexicon_entry(short, self.lexicon)
        if default is not None and is_entry_sense(default, long_form):
            return _sense(default.canonical, default.type, [], {}, lexicon=True, default=True)
        if default is None and name_key(short) not in self.by_short:
            return None
        return _sense(sense_name(short, long_form), kind, [], {}, lexicon=False)

    def bare_sense(
        self, short: str, context: frozenset[str], surface: str | None = None
    ) -> Sense | None:
        """The sense of a bare ``short`` in a paper that does not define it: the lexicon's
        default when the paper writes it in the default's own mixed case (``surface`` "mAP",
        not "MAP"), else judged by the paper's other names (``context``), then the lexicon's
        default, then a clearly commonest sense; None when nothing decides (the short form
        stays its own node)."""
        short = name_key(short)
        senses = self.by_short.get(short)
        if not senses:
            return None
        if len(senses) == 1:
            return senses[0]
        if senses[0].default and surface == senses[0].name and _mixed_case(surface):
            return senses[0]  # its case says which: "mAP" is mean average precision
        best = _by_context(self.telling(short), context)
        if best is not None:
            return senses[best]
        if senses[0].default:
            return senses[0]
        ranked = sorted(senses, key=lambda s: (-s.papers, s.name))
        if ranked[0].papers >= DOMINANCE * max(ranked[1].papers, 1):
            return ranked[0]
        return None


def _mixed_case(name: str) -> bool:
    """Whether a name holds both lower- and upper-case letters ("mAP", not "MAP" or "map")."""
    return name != name.upper() and name != name.lower()


def _telling(senses: list[Sense], longs: dict[str, LongForm]) -> dict[str, int]:
    """{name: index of the one sense beside whose definitions its papers mention it}."""
    owners: dict[str, int] = {}
    for i, sense in enumerate(senses):
        for key in sorted(sense.long_keys):
            for context, own in longs[key].contexts:
                for name in context - {own}:
                    owners[name] = i if owners.get(name, i) == i else -1
    return {name: i for name, i in owners.items() if i >= 0}


def _by_context(telling: dict[str, int], context: frozenset[str]) -> int | None:
    """The index of the sense whose papers alone mention at least MIN_CONTEXT of
    ``context`` (and twice as many as any other sense's papers alone do), or None."""
    scores = Counter(telling[name] for name in context if name in telling)
    if not scores:
        return None
    (best, top), *rest = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    if top >= MIN_CONTEXT and (not rest or top >= 2 * rest[0][1]):
        return best
    return None


def decide(defs: Definitions, lexicon: Lexicon) -> Senses:
    """The senses of the corpus summarised in ``defs``."""
    by_short = {short: senses_of(longs, lexicon) for short, longs in sorted(defs.items())}
    long_to_sense: dict[tuple[str, str], Sense] = {}
    clashes: set[tuple[str, str]] = set()
    for senses in by_short.values():
        for sense in senses:
            if sense.lexicon:
                continue
            for key in sense.long_keys:
                k = (sense.type, key)
                if k in long_to_sense and long_to_sense[k] != sense:
                    clashes.add(k)
                long_to_sense.setdefault(k, sense)
    for k in clashes:
        del long_to_sense[k]
    return Senses(by_short, long_to_sense, lexicon, defs)
