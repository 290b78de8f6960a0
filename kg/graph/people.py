"""The decide step of author identity (rules in :mod:`kg.graph.identity`): atoms (an id's
authorships, a name's papers, or one group of a split common name), then merges between
atoms of compatible names on shared evidence, strongest first; then one Person each."""

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from kg.errors import InputError
from kg.extractors.names import common_surname, fold
from kg.graph.authors import display_name
from kg.graph.identity import (
    COMMON_AT,
    RARE_SURNAME_NAMES,
    RARE_TOPIC_SHARE,
    SPECIFIC_MIN,
    SPECIFIC_SHARE,
    IdentitySummary,
    Name,
    Overrides,
    Person,
    commonness,
    compatible,
    name_parts,
    rare_full_names,
)

#: Evidence items a reason names, at most.
_SHOWN = 3
_WORDS = {"a": "co-author", "t": "topic", "v": "venue"}


class OverrideError(InputError):
    """An override names no author of the graph, or cannot be honoured."""


class _Atom:
    """Authorships that stay one person whatever else merges: an id's, a name's, or one
    group of a split name's."""

    __slots__ = ("key", "ships", "author_id", "split", "reasons", "names", "common", "rare")

    def __init__(self, ships: list[tuple[str, str]], author_id: str | None = None) -> None:
        self.ships = ships  # (paper, fold), sorted
        self.author_id = author_id
        self.split: str | None = None  # the fold it was split from
        self.reasons: list[str] = []
        self.key = ""
        self.names: set[Name] = set()
        self.common = False  # a common name needs a shared co-author to merge
        self.rare = False  # a rare name merges with a compatible one at its venue

    @property
    def folds(self) -> set[str]:
        return {f for _, f in self.ships}

    @property
    def papers(self) -> set[str]:
        return {p for p, _ in self.ships}


def _groups(
    papers: Sequence[str], features: Callable[[str], set[str]], own: str
) -> list[list[str]]:
    """Papers grouped by the features they share (connected components), each sorted."""
    parent = {p: p for p in papers}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[str, str] = {}
    for p in papers:
        for feature in features(p):
            first = owner.setdefault(feature, p)
            if first != p and feature != own:
                parent[root(p)] = root(first)
    groups: dict[str, list[str]] = {}
    for p in sorted(papers):
        groups.setdefault(root(p), []).append(p)
    return sorted(groups.values())


def _describe(evidence: Iterable[str], name: Callable[[str], str]) -> str:
    items = sorted(evidence, key=lambda f: ("atv".index(f[0]), name(f), f))
    shown = [f"{_WORDS[f[0]]} {name(f)}" for f in items[:_SHOWN]]
    more = f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else ""
    return ", ".join(shown) + more


class _Refs:
    """Override keys resolved against the corpus."""

    def __init__(self, overrides: Overrides, by_fold: Mapping[str, list[str]], ids: set[str]):
        self.o, self.by_fold, self.ids = overrides, by_fold, ids
        keys = [k for ks in overrides.merge + overrides.apart for k in ks]
        self.mentioned = {t[1] for t in map(self.resolve, keys) if t[0] == "fold"}
        self.split = {self.fold_of(k) for k in overrides.split}
        self.together = {self.fold_of(k) for k in overrides.together}
        self.split_by_apart: dict[str, int] = {}
        for pair in overrides.apart:
            targets = [self.resolve(k) for k in pair]
            folds = {t[1] for t in targets if t[0] == "fold"}
            if len(folds) == 1 and len(targets) == sum(t[0] == "fold" for t in targets):
                self.split_by_apart.setdefault(folds.pop(), self.line(pair[0]))

    def line(self, key: str) -> int:
        return self.o.lines.get(key, 0)

    def fail(self, key: str, problem: str) -> OverrideError:
        return OverrideError(f"{self.o.source} line {self.line(key)}: {key} {problem}")

    def resolve(self, key: str) -> tuple[str, str, str | None]:
        """("id", id, None) or ("fold", fold, paper or None)."""
        body = key.removeprefix("author:")
        if body in self.ids:
            return "id", body, None
        name, _, paper = body.partition("@")
        name = fold(name) or name  # "author:Aaron Courville" is author:aaroncourville
        if name not in self.by_fold or (paper and f"paper:{paper}" not in self.by_fold[name]):
            raise self.fail(key, "names no author of the graph")
        return "fold", name, f"paper:{paper}" if paper else None

    def fold_of(self, key: str) -> str:
        kind, name, paper = self.resolve(key)
        if kind != "fold" or paper:
            raise self.fail(key, "is not a name's key (author:<folded name>)")
        return name

    def atoms(self, key: str, of_ship: Mapping[tuple[str, str], int], of_id: Mapping[str, int]):
        kind, name, paper = self.resolve(key)
        if kind == "id":
            return {of_id[name]}
        papers = [paper] if paper else self.by_fold[name]
        return {of_ship[(p, name)] for p in papers}


class _Corpus:
    """What decide reads of the summary, computed only for the names it looks at."""

    def __init__(self, summary: IdentitySummary) -> None:
        self.papers = summary.papers
        self.topics, self.venues = summary.topic_papers, summary.venue_papers
        self.limit = max(SPECIFIC_MIN, int(len(self.papers) * SPECIFIC_SHARE))
        self.by_fold: dict[str, list[str]] = {}
        self.by_id: dict[str, list[tuple[str, str]]] = {}
        self.variants: dict[str, set[str]] = {}
        for key in sorted(self.papers):
            for a in self.papers[key].authors:
                self.variants.setdefault(a.fold, set()).add(a.printed)
                if a.author_id:
                    self.by_id.setdefault(a.author_id, []).append((key, a.fold))
                else:
                    self.by_fold.setdefault(a.fold, []).append(key)
        self._features: dict[str, set[str]] = {}
        self._shown: dict[str, str] = {}
        self.parts: Mapping[str, Name | None] = {}
        self._coauthor: dict[str, str] = {}
        self._named: dict[str, str] = {}

    def coauthor(self, fold_: str) -> str:
        """How a folded name counts as a co-author: first initial and surname ("j cowan"
        for "Jack D. Cowan" and "J.D. Cowan"), but the first given name and surname for a
        common surname ("Jia Xu" is not "Jason Xu"; "Quoc V. Le" is "Quoc Le"), the fold
        itself for a one-word name."""
        key = self._coauthor.get(fold_)
        if key is None:
            p = self.parts[fold_]
            if p is None:
                key = fold_
            else:
                first = p[0][0] if common_surname(p[1]) else p[0][0][0]
                key = f"{first} {p[1]}"
            self._coauthor[fold_] = key
            named = self._named.get(key)
            if named is None or fold_ < named:
                self._named[key] = fold_
        return key

    def features(self, paper: str) -> set[str]:
        """A paper's evidence: ``a:<co-author key>`` per author, ``t:<key>`` per specific
        topic, ``v:<venue>`` for a specific venue."""
        found = self._features.get(paper)
        if found is None:
            s = self.papers[paper]
            found = {f"a:{self.coauthor(a.fold)}" for a in s.authors}
            found.update(f"t:{t}" for t in s.topics if self.topics[t] <= self.limit)
            if s.venue and self.venues[s.venue] <= self.limit:
                found.add(f"v:{s.venue}")
            self._features[paper] = found
        return found

    def shown(self, fold_: str) -> str:
        """The display name of a folded name."""
        if fold_ not in self._shown:
            self._shown[fold_] = display_name(sorted(self.variants[fold_]))
        return self._shown[fold_]

    def evidence_name(self, feature: str) -> str:
        return self.shown(self._named[feature[2:]]) if feature[0] == "a" else feature[2:]

    def printed(self, ship: tuple[str, str]) -> str:
        return next(a.printed for a in self.papers[ship[0]].authors if a.fold == ship[1])

    def order(self, paper: str) -> tuple[int, str]:
        """Papers from earliest to latest: by year (unknown last), then key."""
        year = self.papers[paper].year
        return (year if year is not None else 9999, paper)


def _parse(variants: Collection[str]) -> Name | None:
    if len(variants) == 1:
        return name_parts(next(iter(variants)))
    parsed = [p for p in map(name_parts, sorted(variants)) if p]
    return max(parsed, key=lambda p: len(p[0])) if parsed else None


def _compatible_pairs[K: (str, tuple[int, int])](names: Mapping[K, Name]) -> set[tuple[K, K]]:
    """Pairs of different keys whose names are compatible, found within blocks (surname,
    first initial) and, inside a block, among names of the same first given name or an
    initial."""
    blocks: dict[tuple[str, str], dict[str, list[K]]] = {}
    for key, (given, surname) in names.items():
        block = blocks.setdefault((surname, given[0][0]), {})
        block.setdefault(given[0], []).append(key)
    pairs = set()
    for block in blocks.values():
        if sum(map(len, block.values())) < 2:
            continue
        groups = list(block.items())
        for first, keys in groups:
            others = [k for f, ks in groups if f != first and len(f) == 1 for k in ks]
            if len(first) == 1:
                others = [k for f, ks in groups if f != first for k in ks]
            for n, a in enumerate(keys):
                for b in keys[n + 1 :] + others:
                    if a != b and compatible(names[a], names[b]):
                        pairs.add((min(a, b), max(a, b)))
    return pairs


def decide(summary: IdentitySummary, overrides: Overrides | None = None) -> list[Person]:
    """The people whose authorships differ from "one folded name, one node", or who carry a
    reason, sorted by key. Raises OverrideError for an override that names no author or
    cannot be honoured.

    >>> from kg.graph.identity import Authorship as A, merge_summaries, summarise
    >>> bengio = A("Yoshua Bengio", "yoshuabengio")
    >>> s = merge_summaries(
    ...     summarise("paper:1", authors=[A("A. C. Courville", "accourville"), bengio]),
    ...     summarise("paper:2", authors=[A("Aaron Courville", "aaroncourville"), bengio]))
    >>> [(p.key, p.name, p.reasons) for p in decide(s)]  # doctest: +NORMALIZE_WHITESPACE
    [('author:aaroncourville', 'Aaron Courville',
      ("merge: 'A. C. Courville' and 'Aaron Courville' share co-author Yoshua Bengio",))]
    """
    corpus = _Corpus(summary)
    by_fold, by_id = corpus.by_fold, corpus.by_id
    refs = _Refs(overrides or Overrides(), by_fold, set(by_id))
    parts = {f: _parse(vs) for f, vs in corpus.variants.items()}
    corpus.parts = parts
    rates = commonness(parts)
    parsed = {f: p for f, p in parts.items() if p}
    surnames = Counter(surname for _, surname in parsed.values())
    rare = {
        f
        for f, (_, surname) in parsed.items()
        if surnames[surname] <= RARE_SURNAME_NAMES and not common_surname(surname)
    }
    rare_names = rare_full_names(parsed, surnames)
    # the names worth a look: compatible with another, split candidates, ids, overrides
    looked = {f for pair in _compatible_pairs(parsed) for f in pair}
    looked.update(f for ships in by_id.values() for _, f in ships)
    looked.update(refs.mentioned)
    split_candidates = {
        f
        for f, fps in by_fold.items()
        if len(fps) > 1
        and f not in refs.together
        and (f in refs.split or f in refs.split_by_apart or rates.get(f, 0.0) >= COMMON_AT)
    }
    atoms: list[_Atom] = []
    for f in sorted((looked | split_candidates) & set(by_fold)):
        fps = by_fold[f]
        own = f"a:{corpus.coauthor(f)}"
        groups = _groups(fps, corpus.features, own) if f in split_candidates else [fps]
        reason = None
        if len(groups) > 1:
            if f in refs.split:
                reason = f"split: by override (line {refs.line(f'author:{f}')})"
            elif f in refs.split_by_apart:
                reason = f"split: by a keep-apart override (line {refs.split_by_apart[f]})"
            else:
                rate = rates[f]
                why = (
                    "initials with a common surname"
                    if rate == float("inf")
                    else f"a common name (about {rate:.1f} people expected to carry it)"
                )
                reason = (
                    f"split: {corpus.shown(f)!r} is {why} and its papers form {len(groups)} "
                    "groups sharing no co-author, venue or topic"
                )
        elif f not in looked:
            continue
        for g in groups if reason else [sorted(fps)]:
            atom = _Atom([(p, f) for p in g])
            atom.names = {parts[f]} if parts[f] else set()  # type: ignore[arg-type]
            atom.common = rates.get(f, 0.0) >= COMMON_AT
            atom.rare = f in rare or f in rare_names
            if reason:
                first = min(g, key=corpus.order)
                atom.key, atom.split = f"author:{f}@{first.partition(':')[2]}", f
                atom.reasons.append(f"{reason}; this group has {len(g)} paper(s)")
            else:
                atom.key = f"author:{f}"
            atoms.append(atom)
    for author_id, ships in sorted(by_id.items()):
        atom = _Atom(sorted(ships), author_id)
        atom.key = f"author:{author_id}"
        atom.names = {parsed[f] for _, f in ships if f in parsed}
        spellings = ", ".join(sorted({repr(corpus.printed(s)) for s in ships}))
        atom.reasons.append(f"id: {author_id} given by the input ({spellings})")
        atoms.append(atom)
    return _people(atoms, corpus, refs)


def _people(atoms: list[_Atom], corpus: _Corpus, refs: "_Refs") -> list[Person]:
    of_ship = {s: i for i, a in enumerate(atoms) for s in a.ships}
    of_id = {a.author_id: i for i, a in enumerate(atoms) if a.author_id}
    parent = list(range(len(atoms)))
    members = [[i] for i in range(len(atoms))]
    merges: list[list[str]] = [[] for _ in atoms]

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(i: int, j: int, reason: str) -> None:
        i, j = root(i), root(j)
        if i == j:
            return
        i, j = min(i, j), max(i, j)
        parent[j] = i
        members[i] += members[j]
        merges[i] += merges[j] + [reason]

    apart = [
        (refs.atoms(a, of_ship, of_id), refs.atoms(b, of_ship, of_id), refs.line(a))
        for a, b, *_ in refs.o.apart
    ]
    for left, right, line in apart:
        if left & right:
            raise OverrideError(
                f"{refs.o.source} line {line}: the authors to keep apart are one group "
                "of papers sharing evidence; name the groups (author:<name>@<paper>)"
            )
    for keys in refs.o.merge:
        targets = sorted(set().union(*(refs.atoms(k, of_ship, of_id) for k in keys)))
        for t in targets[1:]:
            join(targets[0], t, f"override: merged by line {refs.line(keys[0])}")

    def allowed(i: int, j: int) -> bool:
        a, b = [atoms[m] for m in members[i]], [atoms[m] for m in members[j]]
        ids = {x.author_id for x in a + b if x.author_id}
        if len({i.partition(":")[0] for i in ids}) < len(ids):
            return False  # two ids of one scheme are two people
        if set().union(*(x.papers for x in a)) & set().union(*(x.papers for x in b)):
            return False
        if not all(compatible(p, q) for x in a for p in x.names for y in b for q in y.names):
            return False
        ra, rb = set(members[i]), set(members[j])
        return not any(
            (ra & left and rb & right) or (rb & left and ra & right) for left, right, _ in apart
        )

    for _, i, j, evidence in _candidates(atoms, corpus):
        ri, rj = root(i), root(j)
        if ri != rj and allowed(ri, rj):
            who = " and ".join(sorted(repr(_label(atoms[m], corpus)) for m in (i, j)))
            join(ri, rj, f"merge: {who} share {_describe(evidence, corpus.evidence_name)}")
    people = []
    for r in sorted({root(i) for i in range(len(atoms))}):
        group = [atoms[m] for m in sorted(members[r])]
        if len(group) == 1 and not group[0].reasons and not merges[r]:
            continue
        people.append(_person(group, merges[r], corpus))
    return sorted(people, key=lambda p: p.key)


def _label(atom: _Atom, corpus: _Corpus) -> str:
    return corpus.printed(atom.ships[0]) if atom.author_id else corpus.shown(min(atom.folds))


def _candidates(atoms: Sequence[_Atom], corpus: _Corpus) -> list[tuple]:
    """(strength, atom, atom, evidence) for atoms of compatible names sharing evidence,
    strongest first."""
    names = {(i, n): name for i, a in enumerate(atoms) for n, name in enumerate(sorted(a.names))}
    pairs = {(a[0], b[0]) for a, b in _compatible_pairs(names) if a[0] != b[0]}
    own: dict[int, set[str]] = {}

    def feats(i: int) -> set[str]:
        if i not in own:
            own[i] = set().union(*(corpus.features(p) for p in atoms[i].papers))
        return own[i]

    def venues(i: int) -> set[str]:
        return {f"v:{v}" for p in atoms[i].papers if (v := corpus.papers[p].venue)}

    def topics(i: int) -> set[str]:  # of a rare surname: a topic of up to 1% of the papers
        limit = len(corpus.papers) * RARE_TOPIC_SHARE
        found = {t for p in atoms[i].papers for t in corpus.papers[p].topics}
        return {f"t:{t}" for t in found if corpus.topics[t] <= limit}

    found = []
    for i, j in sorted(pairs):
        a, b = atoms[i], atoms[j]
        if a.author_id is None and b.author_id is None and a.folds == b.folds:
            continue  # groups of one name were split for sharing nothing
        if not all(compatible(p, q) for p in a.names for q in b.names):
            continue
        evidence = (feats(i) & feats(j)) - {f"a:{corpus.coauthor(f)}" for f in a.folds | b.folds}
        if (a.common or b.common) and not any(e[0] == "a" for e in evidence):
            continue
        if not evidence and a.rare and b.rare:
            evidence = venues(i) & venues(j) or topics(i) & topics(j)
        if evidence:
            found.append((-len(evidence), i, j, evidence))
    found.sort(key=lambda c: (c[0], atoms[c[1]].key, atoms[c[2]].key))
    return found


def _person(group: list[_Atom], merges: list[str], corpus: _Corpus) -> Person:
    ships = sorted(s for a in group for s in a.ships)
    ids = [a.author_id for a in group if a.author_id]
    whole = sorted((a for a in group if not a.split and not a.author_id), key=lambda a: a.key)
    split_from = next((a.split for a in group if a.split), None)
    folds = Counter(f for _, f in ships)
    if ids:
        key = f"author:{min(ids)}"
        main = min(folds, key=lambda f: (-folds[f], -len(f), f))
    elif whole:
        main = min((f for a in whole for f in a.folds), key=lambda f: (-len(f), f))
        key = f"author:{main}"
    else:
        first = min(ships, key=lambda s: corpus.order(s[0]))
        main = first[1]
        key = next(a.key for a in group if first in a.ships)
    name = corpus.shown(main)
    if not ids and not whole:
        name = f"{name} ({_telling(ships, {corpus.coauthor(f) for f in folds}, corpus)})"
    reasons = [r for a in group for r in a.reasons] + merges
    variants = tuple(sorted({corpus.printed(s) for s in ships}))
    return Person(key, name, variants, tuple(ships), tuple(reasons), split_from)


def _telling(ships: list[tuple[str, str]], own: set[str], corpus: _Corpus) -> str:
    """What tells a split person apart: the most frequent co-author, else the venue and
    year of its first paper, else that paper's key."""
    coauthors: Counter[str] = Counter(
        f
        for p in {p for p, _ in ships}
        for f in corpus.features(p)
        if f[0] == "a" and f[2:] not in own
    )
    if coauthors:
        best = min(coauthors, key=lambda f: (-coauthors[f], corpus.evidence_name(f), f))
        return f"with {corpus.evidence_name(best)}"
    first = corpus.papers[min((p for p, _ in ships), key=corpus.order)]
    where = " ".join(str(x) for x in (first.venue, first.year) if x)
    return where or first.paper
