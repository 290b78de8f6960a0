"""Which authorships are one person: middle-initial variants merged on evidence, common
names split on its absence, input author ids deciding where given.

Written as a reduction over per-paper summaries (so it can run distributed later):
:func:`summarise` one paper, :func:`merge_summaries` two summaries of disjoint papers (an
associative, commutative union), then :func:`decide` over the whole corpus. Everything is
explainable: each person that differs from "one folded name, one node" records why.

Evidence that two authorships are one person is something their papers share: a co-author
(by first initial and surname, or by full name for a common surname), a *specific* topic
(an entity linked by few papers of the corpus) or a specific venue. The rules, in order:

1. An authorship that carries an input author id (ORCID, Semantic Scholar, OpenAlex) joins
   every other authorship with that id, whatever the spelling; two ids are two people.
2. The papers of one folded name are grouped by evidence. A *common* name (given part and
   surname frequent enough in the corpus that about :data:`COMMON_AT` or more people are
   expected to carry it, or initials with one of the world's most frequent surnames)
   whose papers form several groups is split: each group is a person.
3. Groups of compatible names (same surname, given names equal or one an initial of the
   other, middle names absent on one side or compatible) merge when they share evidence
   (a shared co-author among it when either name is common; any shared venue, or a topic
   of 1% of the papers, between two names of a rare surname or of a rare full name),
   strongest first, never joining incompatible names, two ids, or two authorships of one
   paper.

Overrides (:class:`Overrides`) force merges, keep authors apart, force or forbid splits.
:func:`kg.graph.people.decide` makes the decisions; this module holds the summaries and the
name rules.
"""

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from kg.extractors.names import common_surname, fold
from kg.pickled import pickle_plain

#: A name is common when at least this many people are expected to carry it.
COMMON_AT = 0.5
#: A surname is rare when at most this many distinct names of the corpus carry it (and it
#: is not on the common-surnames list): two compatible names of a rare surname at one venue,
#: even a large one, are one person ("Hagai Attias" and "Hagai T. Attias", both at NeurIPS).
RARE_SURNAME_NAMES = 4
#: ... or sharing a topic at most this share of the corpus's papers has ("James Bergstra"
#: at ICML and "James S. Bergstra" at NeurIPS, both on hyper-parameter optimization).
RARE_TOPIC_SHARE = 0.01
#: A name is rare, as a rare surname is, when at most this many people are expected to
#: carry its first name (written out) with its surname (:func:`rare_full_names`): "Jon
#: Kleinberg" and "Jon M. Kleinberg", both at NeurIPS, are one person.
RARE_NAME_AT = 0.05
#: A topic or venue is specific when at most this share of the corpus's papers has it ...
SPECIFIC_SHARE = 0.002
#: ... or at most this many papers (whichever is larger).
SPECIFIC_MIN = 3
_TOKENS = re.compile(r"[\s.]+")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
#: A parsed name: (given names, surname), folded.
Name = tuple[tuple[str, ...], str]


class Authorship(NamedTuple):
    """One author of one paper: the name as printed, its fold, and the input's id."""

    printed: str
    fold: str
    author_id: str | None = None


class PaperSummary(NamedTuple):
    """What identity needs of one paper."""

    paper: str
    year: int | None
    venue: str | None
    authors: tuple[Authorship, ...]
    topics: tuple[str, ...]


pickle_plain(Authorship, PaperSummary)


@dataclass
class IdentitySummary:
    """Per-paper summaries and the paper counts of topics and venues."""

    papers: dict[str, PaperSummary] = field(default_factory=dict)
    topic_papers: Counter[str] = field(default_factory=Counter)
    venue_papers: Counter[str] = field(default_factory=Counter)

    def add(self, paper: PaperSummary) -> None:
        """Add one paper's summary in place (the bulk form of :func:`merge_summaries`)."""
        self.papers[paper.paper] = paper
        self.topic_papers.update(paper.topics)
        if paper.venue:
            self.venue_papers[paper.venue] += 1


@dataclass(frozen=True)
class Overrides:
    """A user's decisions (``kg.graph.overrides`` reads them from a file): author keys
    (``author:<fold>``, ``author:<fold>@<paper>`` for one group, ``author:<id>``) to merge,
    to keep apart, names to split and names never to split. ``lines`` maps each decision
    to the line of the file (``source``) it came from."""

    merge: tuple[tuple[str, ...], ...] = ()
    apart: tuple[tuple[str, ...], ...] = ()
    split: tuple[str, ...] = ()
    together: tuple[str, ...] = ()
    lines: Mapping[str, int] = field(default_factory=dict)
    source: str = "identity overrides"


@dataclass(frozen=True)
class Person:
    """One person as decided: key, display name, printed variants, its authorships
    (paper, folded name), the reasons (``merge: ...``, ``split: ...``, ``id: ...``,
    ``override: ...``), and the folded name it was split from."""

    key: str
    name: str
    variants: tuple[str, ...]
    authorships: tuple[tuple[str, str], ...]
    reasons: tuple[str, ...]
    split_from: str | None = None


def summarise(
    paper: str,
    *,
    authors: Iterable[Authorship],
    year: int | None = None,
    venue: str | None = None,
    topics: Iterable[str] = (),
) -> IdentitySummary:
    """The summary of one paper; an author printed twice counts once; venues are folded.

    >>> s = summarise("paper:a", authors=[Authorship("Ann Lee", "annlee")], topics=["t:x"])
    >>> s.topic_papers
    Counter({'t:x': 1})
    """
    seen: dict[str, Authorship] = {}
    for a in authors:
        seen.setdefault(a.fold, a)
    summary = IdentitySummary()
    summary.add(
        PaperSummary(
            paper,
            year,
            fold(venue) if venue else None,
            tuple(seen.values()),
            tuple(sorted(set(topics))),
        )
    )
    return summary


def merge_summaries(a: IdentitySummary, b: IdentitySummary) -> IdentitySummary:
    """The summary of two disjoint sets of papers."""
    return IdentitySummary(
        a.papers | b.papers, a.topic_papers + b.topic_papers, a.venue_papers + b.venue_papers
    )


# ---------------------------------------------------------------- names


def name_parts(printed: str) -> Name | None:
    """(given names, surname) as folded tokens, or None for a one-word name.

    >>> name_parts("Aaron C. Courville")
    (('aaron', 'c'), 'courville')
    >>> name_parts("T.J. Sejnowski"), name_parts("Anonymous")
    ((('t', 'j'), 'sejnowski'), None)
    >>> name_parts("Christopher M De Sa"), name_parts("Kiet Van Nguyen")
    ((('christopher', 'm'), 'sa'), (('kiet', 'van'), 'nguyen'))

    Surname particles are dropped, as some listings drop them ("Aaron van den Oord" is
    printed "Aaron Oord" too): they are neither given names nor told apart.
    """
    words = [w for w in _TOKENS.split(printed) if w]
    if printed.isascii():
        tokens = [_NOT_ALNUM.sub("", w.lower()) for w in words]
    else:
        tokens = list(map(fold, words))
    kept = [(w, t) for w, t in zip(words, tokens, strict=True) if t]
    if len(kept) < 2:
        return None
    cut = len(kept) - 1  # the particles before the surname ("van den Oord")
    while cut > 1 and _is_particle(*kept[cut - 1]):
        cut -= 1
    return tuple(t for _, t in kept[:cut]), kept[-1][1]


#: Particles of the surname after them ("De Sa", "van den Oord", "von Luxburg").
_PARTICLES = frozenset(("de", "da", "di", "do", "dos", "das", "del", "della", "der", "den", "von"))


def _is_particle(word: str, token: str) -> bool:
    """A surname particle: one of _PARTICLES, or "van" written in lowercase (a capitalised
    "Van" is as often a given name: "Kiet Van Nguyen")."""
    return token in _PARTICLES or word == "van"


def _token_fits(a: str, b: str) -> bool:
    return a == b or (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def compatible(a: Name, b: Name) -> bool:
    """Whether two parsed names can be one person: same surname, first given names equal
    or one the other's initial, middle names missing on one side or pairwise fitting.

    >>> p = name_parts
    >>> compatible(p("A. C. Courville"), p("Aaron Courville"))
    True
    >>> compatible(p("Aaron C. Courville"), p("Aaron B. Courville"))
    False
    >>> compatible(p("Yang Liu"), p("Yi Liu"))
    False
    """
    (ga, sa), (gb, sb) = a, b
    if sa != sb or not _token_fits(ga[0], gb[0]):
        return False
    ma, mb = ga[1:], gb[1:]
    if not ma or not mb:
        return True
    return len(ma) == len(mb) and all(_token_fits(x, y) for x, y in zip(ma, mb, strict=True))


#: Names a corpus is taken to hold beyond its own when estimating commonness.
PRIOR_NAMES = 1000


def commonness(parts: Mapping[str, Name | None]) -> dict[str, float]:
    """How many people are expected to carry each folded name: (names sharing its given
    part) x (names sharing its surname) / (names + PRIOR_NAMES), over the distinct names
    of the corpus (the prior damps the estimate of a small corpus); infinite for initials
    with a surname of the common-surnames list (``data/words/common_surnames.txt``).

    >>> commonness({"yliu": (("y",), "liu"), "yangliu": (("yang",), "liu")})["yangliu"]
    0.001996007984031936
    """
    named = [(f, "".join(p[0]), p[1]) for f, p in parts.items() if p]
    given = Counter(g for _, g, _ in named)
    surname = Counter(s for _, _, s in named)
    total = len(named) + PRIOR_NAMES
    rates = {f: given[g] * surname[s] / total for f, g, s in named}
    for f, _, s in named:
        if common_surname(s) and all(len(t) == 1 for t in parts[f][0]):  # type: ignore[index]
            rates[f] = float("inf")
    return rates


def rare_full_names(parsed: Mapping[str, Name], surnames: Counter[str]) -> set[str]:
    """The folded names whose first given name is written out, whose surname is not on the
    common-surnames list, and which, by first name and surname alone, about
    :data:`RARE_NAME_AT` or fewer people are expected to carry (as :func:`commonness`
    counts, middle names left out: "Tejas D. Kulkarni" is as rare as "Tejas Kulkarni";
    "J. David Smith" is no rare name).

    >>> sorted(rare_full_names({"tejaskulkarni": (("tejas",), "kulkarni"),
    ...                         "tejasdkulkarni": (("tejas", "d"), "kulkarni"),
    ...                         "jdavidsmith": (("j", "david"), "smith")},
    ...                        Counter({"kulkarni": 2, "smith": 1})))
    ['tejasdkulkarni', 'tejaskulkarni']
    """
    first = Counter(given[0] for given, _ in parsed.values() if given)
    total = len(parsed) + PRIOR_NAMES
    return {
        f
        for f, (given, surname) in parsed.items()
        if given
        and len(given[0]) > 1
        and not common_surname(surname)
        and first[given[0]] * surnames[surname] / total <= RARE_NAME_AT
    }
