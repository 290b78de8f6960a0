"""Entity resolution across a corpus: one canonical name per thing, acronyms expanded.

An acronym defined in one abstract ("Group Relative Policy Optimization (GRPO)") names the
bare acronym and the bare long form in every other abstract; spelling variants of a name
(ImageNet-1k, ImageNet1K) become one canonical display name; a short form defined with two
different long forms of one type is ambiguous and is not merged: each defining paper keeps
"SHORT (long form)". Entities already in a graph (incremental builds) take part too.
"""

from collections import Counter, defaultdict
from dataclasses import replace

from extractors.lexicon import name_key
from kg.schema import ENTITY_KINDS

def _long_key(long_form):
    key = name_key(long_form)
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def acronym_definitions(items, graph=None):
    """{short form: {long-form key: (long form, type, papers)}} over the corpus and graph.

    Only acronyms the lexicon does not know count: a known one has its canonical already."""
    defs = defaultdict(dict)

    def add(short, long_form, kind):
        key = _long_key(long_form)
        long_, kind_, n = defs[short].get(key, (long_form, kind, 0))
        defs[short][key] = (min(long_, long_form), min(kind_, kind), n + 1)

    if graph is not None:
        for _, attrs in graph.nodes(data=True):
            if attrs.get("kind") in ENTITY_KINDS and attrs.get("long_form") and attrs.get("name"):
                add(attrs["name"], attrs["long_form"], attrs["kind"])
    for _, mentions in items:
        for m in mentions:
            if m.long_form and m.canonical != m.long_form and m.rule == "abbreviation":
                add(m.canonical, m.long_form, m.type)
    return defs


def _distinct_meanings(longs):
    """Long-form keys that are not variants of one another (one a prefix of the other,
    as "chain-of-thought" and "chain-of-thought prompting", counts as one meaning)."""
    keys = sorted(longs, key=len)
    meanings = []
    for key in keys:
        if not any(key.startswith(k) for k in meanings):
            meanings.append(key)
    return meanings


def display_names(items, graph=None):
    """{(type, name key): display name}: the graph's name, else the most common form
    (ties to the alphabetically first, so the input order does not matter)."""
    counts = defaultdict(Counter)
    for _, mentions in items:
        for m in mentions:
            counts[(m.type, name_key(m.canonical))][m.canonical] += 1
    names = {k: min(c, key=lambda name: (-c[name], name)) for k, c in counts.items()}
    if graph is not None:
        for _, attrs in graph.nodes(data=True):
            kind, name = attrs.get("kind"), attrs.get("name")
            if kind in ENTITY_KINDS and name:
                names[(kind, name_key(name))] = name
    return names


def resolve_corpus(items, *, graph=None):
    """Corpus-wide canonical names and types for ``[(paper_key, [Mention])]``.

    Returns the same shape, in the same order; within a paper, mentions that resolve to
    one entity are merged into the first.
    """
    items = [(key, list(mentions)) for key, mentions in items]
    defs = acronym_definitions(items, graph)
    unique = {short: min(longs.values(), key=lambda v: (-v[2], v[0]))
              for short, longs in sorted(defs.items())
              if len({kind for _, kind, _ in longs.values()}) == 1
              and len(_distinct_meanings(longs)) == 1}
    ambiguous = {short for short in defs if short not in unique}
    long_to_short = {}
    for short, (long_form, kind, _) in sorted(unique.items()):
        long_to_short.setdefault((kind, _long_key(long_form)), short)
    resolved = []
    for key, mentions in items:
        out = []
        for m in mentions:
            out.append(_resolve_mention(m, unique, ambiguous, long_to_short))
        resolved.append((key, out))
    names = display_names(resolved, graph)
    long_forms = entity_long_forms(resolved, graph)
    return [(key, _merge([_renamed(m, names, long_forms) for m in ms])) for key, ms in resolved]


def _renamed(m, names, long_forms):
    """``m`` with its entity's corpus-wide display name and long form (itself if unchanged)."""
    k = (m.type, name_key(m.canonical))
    canonical, long_form = names.get(k, m.canonical), long_forms.get(k, m.long_form)
    if canonical == m.canonical and long_form == m.long_form:
        return m
    return replace(m, canonical=canonical, long_form=long_form)


def entity_long_forms(items, graph=None):
    """{(type, name key): long form}: the graph's, else the most common one in the corpus
    (ties to the alphabetically first), so every mention of an entity carries the same."""
    counts = defaultdict(Counter)
    for _, mentions in items:
        for m in mentions:
            if m.long_form:
                counts[(m.type, name_key(m.canonical))][m.long_form] += 1
    forms = {k: min(c, key=lambda lf: (-c[lf], lf)) for k, c in counts.items()}
    if graph is not None:
        for _, attrs in graph.nodes(data=True):
            if attrs.get("kind") in ENTITY_KINDS and attrs.get("name") and attrs.get("long_form"):
                forms[(attrs["kind"], name_key(attrs["name"]))] = attrs["long_form"]
    return forms


def _resolve_mention(m, unique, ambiguous, long_to_short):
    """One mention with its corpus-wide name, type and long form."""
    if m.canonical in ambiguous and m.long_form:
        return replace(m, canonical=f"{m.canonical} ({m.long_form})")
    if m.canonical in unique and not m.long_form:
        long_form, kind, _ = unique[m.canonical]
        return replace(m, type=kind, long_form=long_form,
                       aliases=tuple(sorted(set(m.aliases) | {long_form})))
    if not m.long_form:
        short = long_to_short.get((m.type, _long_key(m.canonical)))
        if short:
            return replace(m, canonical=short, long_form=m.canonical,
                           aliases=tuple(sorted(set(m.aliases) | {m.text})))
    return m


def _merge(mentions):
    """Merge mentions of one paper that name the same (type, canonical): first one wins."""
    seen, out = {}, []
    for m in mentions:
        k = (m.type, name_key(m.canonical))
        if k in seen:
            first = out[seen[k]]
            aliases = set(first.aliases) | set(m.aliases) | ({m.text} - {first.canonical})
            role = "proposed" if "proposed" in (first.role, m.role) else first.role
            out[seen[k]] = replace(first, aliases=tuple(sorted(aliases)), role=role)
        else:
            seen[k] = len(out)
            out.append(m)
    return out
