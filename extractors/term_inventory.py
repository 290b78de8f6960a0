"""The shipped inventory of corpus terms (``data/terms.tsv``) and the terms of it an
abstract uses.

The file is written by ``scripts/mine_terms.py`` from a corpus of abstracts
(:mod:`kg.extractors.terms` finds and decides the terms). Its first line is
``# provenance: {json}`` (source corpus, script, thresholds, date, counts); then a header
line and one term a line: key, type, display form, document frequency, C-value, cue counts.
"""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from kg.extractors.terms import MAX_WORDS, Term, phrase_runs, term_key

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


def parse_inventory(text: str) -> tuple[dict[str, Any], dict[str, Term]]:
    """(provenance, {key: Term}) of an inventory file's text."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith(PROVENANCE_PREFIX):
        raise ValueError("an inventory starts with its provenance line")
    provenance = json.loads(lines[0][len(PROVENANCE_PREFIX) :])
    terms = {}
    for line in lines[2:]:
        key, kind, form, df, cvalue, cues = line.split("\t")
        counts = tuple(
            (name, int(n)) for name, n in (c.rsplit("=", 1) for c in cues.split(",") if c)
        )
        terms[key] = Term(key, kind, form, int(df), float(cvalue), counts)
    return provenance, terms


@dataclass(frozen=True)
class Inventory:
    """Terms by key, and the first words of the terms (to skip the others fast)."""

    terms: Mapping[str, Term]
    first_words: frozenset[str]


def inventory_of(terms: Mapping[str, Term]) -> Inventory:
    """An :class:`Inventory` of ``terms``."""
    return Inventory(terms, frozenset(key.split(" ", 1)[0] for key in terms))


@cache
def load_inventory() -> Inventory:
    """The shipped inventory, read once per process (an empty one if the file is absent)."""
    if not TERMS_PATH.exists():
        return inventory_of({})
    return inventory_of(parse_inventory(TERMS_PATH.read_text(encoding="utf-8"))[1])


def find_terms(text: str, inventory: Inventory) -> list[tuple[int, int, Term]]:
    """(start, end, term) of each use of an inventory term in ``text``, the longest first
    where terms of one run of words overlap.

    >>> t = Term("slot filling", "Task", "slot filling", 5, 5.0)
    >>> inventory = inventory_of({t.key: t})
    >>> [(a, b, t.key) for a, b, t in find_terms("We tackle slot filling.", inventory)]
    [(10, 22, 'slot filling')]
    """
    found = []
    first_words, terms = inventory.first_words, inventory.terms
    for run in phrase_runs(text):
        words = [w for w, _, _ in run]
        i = 0
        while i < len(run) - 1:
            if words[i] in first_words:
                for j in range(min(i + MAX_WORDS, len(run)), i + 1, -1):
                    term = terms.get(term_key(words[i:j]))
                    if term is not None:
                        found.append((run[i][1], run[j - 1][2], term))
                        i = j - 1
                        break
            i += 1
    return found
