"""The shipped inventory of corpus terms (``data/terms.tsv``) and the terms of it an
abstract uses.

The file is written by ``scripts/mine_terms.py`` from a corpus of abstracts
(:mod:`kg.extractors.terms` finds and decides the terms). Its first line is
``# provenance: {json}`` (source corpus, script, thresholds, date, counts); then a header
line and one term a line: key, type, display form, document frequency, C-value, cue counts.
"""

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.resources import files
from pathlib import Path
from typing import Any

from kg.extractors.names import plural
from kg.extractors.records import CONCEPT, METHOD, METRIC, TASK
from kg.extractors.rules.context import TASK_HEADS
from kg.extractors.rules.tasks import an_extension
from kg.extractors.terms import Term

TERMS_PATH = Path(str(files("kg.extractors.data"))) / "terms.tsv"
PROVENANCE_PREFIX = "# provenance: "
COLUMNS = ("key", "type", "form", "df", "cvalue", "cues")


def format_inventory(terms: Iterable[Term], provenance: Mapping[str, Any]) -> str:
    """The text of an inventory file: the provenance line, the header, the terms by key."""
    lines = [PROVENANCE_PREFIX + json.dumps(provenance, sort_keys=True), "\t".join(COLUMNS)]
    for t in sorted(terms, key=lambda t: t.key):
        cues = ",".join(f"{kind}={n}" for kind, n in t.cues)
        lines.append("\t".join((t.key, t.type, t.form, str(t.df), f"{t.cvalue:g}", cues)))
    return "\n".join(lines) + "\n"


def parse_inventory(
    text: str, types: Iterable[str] | None = None
) -> tuple[dict[str, Any], dict[str, Term]]:
    """(provenance, {key: Term}) of an inventory file's text (its terms of ``types`` only,
    when given)."""
    wanted = None if types is None else frozenset(types)
    lines = text.splitlines()
    if not lines or not lines[0].startswith(PROVENANCE_PREFIX):
        raise ValueError("an inventory starts with its provenance line")
    provenance = json.loads(lines[0][len(PROVENANCE_PREFIX) :])
    terms = {}
    for line in lines[2:]:
        key, kind, form, df, cvalue, cues = line.split("\t")
        if wanted is not None and kind not in wanted:
            continue
        counts = tuple(
            (name, int(n)) for name, n in (c.rsplit("=", 1) for c in cues.split(",") if c)
        )
        terms[key] = Term(key, kind, form, int(df), float(cvalue), counts)
    return provenance, terms


@dataclass(frozen=True)
class Inventory:
    """Terms by key; ``forms`` maps each term's key and its plural to the key; ``openings``
    the first two words of each term form (a singular and a plural two-word term's both)
    to the most words of a term they open."""

    terms: Mapping[str, Term]
    forms: Mapping[str, str]
    openings: Mapping[str, int]

    @cached_property
    def opening_set(self) -> frozenset[tuple[bytes, ...]]:
        """The openings as word pairs, in ASCII bytes (as :func:`_word_pairs` gives a text's)."""
        return frozenset(tuple(opening.encode().split(b" ")) for opening in self.openings)


def inventory_of(terms: Mapping[str, Term]) -> Inventory:
    """An :class:`Inventory` of ``terms``."""
    forms: dict[str, str] = {}
    openings: dict[str, int] = {}
    for key in terms:
        for form in (key, plural(key)):
            forms[form] = key
            words = form.split(" ")
            opening = " ".join(words[:2])
            openings[opening] = max(openings.get(opening, 0), len(words))
    return Inventory(terms, forms, openings)


#: The types of the shipped terms that extraction finds. The Concept terms stay in the file
#: but are not matched: as MENTIONS edges they made the paperlists graph 40% larger (3,718
#: MENTIONS edges became 79,277) for no scored gain (docs/extraction.md).
MATCHED_TYPES = (METHOD, TASK, METRIC)


@cache
def load_inventory() -> Inventory:
    """The shipped inventory's terms of :data:`MATCHED_TYPES`, read once per process (an
    empty one if the file is absent)."""
    if not TERMS_PATH.exists():
        return inventory_of({})
    return inventory_of(parse_inventory(TERMS_PATH.read_text(encoding="utf-8"), MATCHED_TYPES)[1])


#: ``bytes.translate`` table keeping the characters of a word as the openings are looked up
#: by (a-z, 0-9, "-"), all others made spaces: no character outside ASCII is one of them.
_WORD_CHARACTERS = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789-")
_WORD_BYTES = bytes(c if c in _WORD_CHARACTERS else 32 for c in range(256))
#: Up to four words joined by single spaces, from a term's start.
_STRETCH = re.compile(r"[a-z0-9][a-z0-9\-]*(?: [a-z0-9][a-z0-9\-]*){1,3}")


def find_terms(text: str, inventory: Inventory) -> list[tuple[int, int, Term]]:
    """(start, end, term) of each use of an inventory term in ``text`` (any case, singular
    or plural, its words joined by single spaces, standing as words of their own), the
    longest first where uses overlap, in text order.

    The two-word openings of the text are looked up all at once (a set intersection);
    only the few that open a term are looked for in the text.

    >>> t = Term("slot filling", "Task", "slot filling", 5, 5.0)
    >>> inventory = inventory_of({t.key: t})
    >>> [(a, b, t.key) for a, b, t in find_terms("We tackle (Slot fillings).", inventory)]
    [(11, 24, 'slot filling')]
    """
    lowered = text.lower()
    openings = inventory.opening_set.intersection(_word_pairs(lowered))
    if not openings:
        return []
    uses = []
    for pair in openings:
        opening = b" ".join(pair).decode()
        at = lowered.find(opening)
        while at >= 0:
            if at == 0 or not (lowered[at - 1].isalnum() or lowered[at - 1] == "-"):
                use = _longest_term(lowered, at, inventory)
                if use is not None:
                    uses.append(use)
            at = lowered.find(opening, at + 1)
    found: list[tuple[int, int, Term]] = []
    for start, end, term in sorted(uses, key=lambda u: (u[0], -u[1])):
        if not found or start >= found[-1][1]:
            found.append((start, end, term))
    return found


def _word_pairs(lowered: str) -> Iterator[tuple[bytes, bytes]]:
    """Each two consecutive words of ``lowered``, in ASCII bytes: its runs of letters, digits
    and hyphens, each from its first letter or digit (what ``[a-z0-9][a-z0-9\\-]*`` finds, read
    by ``bytes.translate`` many times faster).

    >>> list(_word_pairs("a -b--c, é-d"))
    [(b'a', b'b--c'), (b'b--c', b'd')]
    """
    spaced = (" " + lowered).encode("utf-8", "surrogatepass").translate(_WORD_BYTES)
    while b" -" in spaced:
        spaced = spaced.replace(b" -", b"  ")
    words = spaced.split()
    return zip(words, words[1:], strict=False)


def _longest_term(lowered: str, at: int, inventory: Inventory) -> tuple[int, int, Term] | None:
    """The longest term starting at offset ``at`` and ending at a word's end, or None."""
    stretch = _STRETCH.match(lowered, at)
    if stretch is None:
        return None
    words = stretch.group().split(" ")
    for j in range(len(words), 1, -1):
        form = " ".join(words[:j])
        key = inventory.forms.get(form)
        end = at + len(form)
        if key is not None and not (
            lowered[end : end + 1].isalnum() or lowered[end : end + 1] == "-"
        ):
            return at, end, inventory.terms[key]
    return None


def use_type(text: str, start: int, end: int, kind: str) -> str | None:
    """The type of one use of a corpus term of type ``kind`` at [start, end), or None where
    it is no use of the term: a Task written with its task head in the plural of "-ion"
    names results, not the task ("model predictions", "incorrect detections"; not
    "learning sparse representations"); "a natural generalization of PCA" is no task.

    >>> s = "model predictions for link prediction"
    >>> use_type(s, 0, 17, "Task"), use_type(s, 22, 37, "Task")
    ('Concept', 'Task')
    """
    if kind != TASK:
        return kind
    if an_extension(text, start, end):
        return None
    last = text[start:end].rsplit(" ", 1)[-1].lower()
    return CONCEPT if last.endswith("ions") and last[:-1] in TASK_HEADS else kind
