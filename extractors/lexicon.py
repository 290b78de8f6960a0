"""The lexicon of the field: canonical names, types, aliases and PART_OF, read from JSONL.

Each line of ``extractors/data/lexicon.jsonl`` is one entry::

    {"canonical": "MNLI", "type": "Dataset",
     "aliases": ["MultiNLI", "Multi-Genre Natural Language Inference"], "part_of": ["GLUE"]}

``type`` is an entity type, or ``Ignore`` for generic names the rules must not turn into
entities (LLM, GPU). ``cased`` entries match only with their case (names that are also
ordinary words); ``family`` marks model families whose versioned and sized names
(Llama-3-8B, ViT-B/16) are recognised by the model-name rule.
"""

import json
import os
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from kg.extractors.names import name_key, plural
from kg.extractors.records import IGNORE, TYPE_NAMES

LEXICON_PATH = Path(str(files("kg.extractors.data"))) / "lexicon.jsonl"


@dataclass(frozen=True)
class Entry:
    """One lexicon entry: a canonical name of one type with its aliases."""

    canonical: str
    type: str
    aliases: tuple[str, ...] = ()
    part_of: tuple[str, ...] = ()
    family: bool = False
    cased: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return (self.canonical,) + self.aliases


@dataclass
class Lexicon:
    """Entries by canonical name, and a lookup from normalised surface form to entry."""

    entries: dict[str, Entry] = field(default_factory=dict)
    by_key: dict[str, Entry] = field(default_factory=dict)

    def add(self, entry: Entry) -> None:
        if entry.canonical in self.entries:
            raise ValueError(f"duplicate canonical {entry.canonical!r}")
        self.entries[entry.canonical] = entry
        for name in entry.names:
            self.by_key.setdefault(name_key(name), entry)

    def lookup(self, surface: str) -> Entry | None:
        """The entry a surface form names (case, hyphens, dots and spaces ignored), or None.

        Plural surface forms ("Transformers", "SVMs") fall back to their singular.
        """
        key = name_key(surface)
        entry = self.by_key.get(key)
        if entry is None and len(key) > 3 and key.endswith("s"):
            entry = self.by_key.get(key[:-1])
        return entry

    def lookup_as_written(self, surface: str) -> Entry | None:
        """The entry a surface form names, with its case where the gazetteer would need it
        ("RACE" names the dataset, "Race" does not), or None."""
        entry = self.lookup(surface) if surface else None
        if entry is None:
            return None
        key = name_key(surface)
        keys = {key, key[:-1]}
        return (
            entry
            if any(
                name_key(n) in keys
                and (n in (surface, surface[:-1]) or not (entry.cased or is_cased(n)))
                for n in entry.names
            )
            else None
        )


def parse_entry(obj: object, where: str) -> Entry:
    """An :class:`Entry` from one decoded JSON line; ValueError naming ``where`` if bad."""
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: entry is not an object")
    canonical, kind = obj.get("canonical"), obj.get("type")
    if not isinstance(canonical, str) or not canonical.strip():
        raise ValueError(f"{where}: entry has no canonical name")
    if kind not in TYPE_NAMES + (IGNORE,):
        raise ValueError(f"{where}: type {kind!r} is not one of {', '.join(TYPE_NAMES)}, {IGNORE}")
    aliases = obj.get("aliases", [])
    part_of = obj.get("part_of", [])
    for name, value in (("aliases", aliases), ("part_of", part_of)):
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ValueError(f"{where}: {name} must be a list of names")
    unknown = set(obj) - {"canonical", "type", "aliases", "part_of", "family", "cased"}
    if unknown:
        raise ValueError(f"{where}: unknown fields {', '.join(sorted(unknown))}")
    return Entry(
        canonical,
        kind,
        tuple(a for a in aliases if a != canonical),
        tuple(part_of),
        bool(obj.get("family", False)),
        bool(obj.get("cased", False)),
    )


def load_lexicon(path: str | os.PathLike[str] = LEXICON_PATH) -> Lexicon:
    """Read and check the lexicon; raises ValueError naming the file and line of a bad entry."""
    lexicon = Lexicon()
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not valid JSON ({exc.msg})") from None
            try:
                lexicon.add(parse_entry(obj, where))
            except ValueError as exc:
                raise ValueError(
                    str(exc) if str(exc).startswith(where) else f"{where}: {exc}"
                ) from None
    for entry in lexicon.entries.values():
        for parent in entry.part_of:
            if parent not in lexicon.entries:
                raise ValueError(
                    f"{path}: {entry.canonical} is part of {parent!r}, "
                    "which is not a canonical name in the lexicon"
                )
    return lexicon


def is_cased(name: str) -> bool:
    """Whether a name must match with its case: all-capital names (MATH, PAIR, BEHAVIOR)
    and short names with inner capitals (ZeRO, mAP) would otherwise match ordinary words.

    >>> is_cased("MATH"), is_cased("ZeRO"), is_cased("ImageNet"), is_cased("k-means")
    (True, True, False, False)
    """
    letters = [c for c in name if c.isalpha()]
    if not letters:
        return False
    if all(c.isupper() for c in letters):
        return True
    return any(c.isupper() for c in letters[1:]) and len(letters) <= 6


def _pluralisable(name):
    """A lowercase-ending name of several words (one word alone may be a verb: "recall",
    "scores"; an acronym's plural is matched as such)."""
    last = name.replace("-", " ").rsplit(" ", 1)
    word = last[-1]
    return (
        len(last) == 2
        and word.isalpha()
        and word.islower()
        and not word.endswith(("ing", "ed", "ness"))
        and (not word.endswith("s") or word.endswith("ss"))
    )


def phrase_patterns(lexicon: Lexicon) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """span_ruler phrase patterns for the lexicon: (case-sensitive, lowercase) lists; each
    pattern's id is the entry's canonical name."""
    cased: list[dict[str, Any]] = []
    lower: list[dict[str, Any]] = []
    seen: set[tuple[str, bool]] = set()
    for entry in lexicon.entries.values():
        for name in entry.names:
            variants = {name, name.replace("-", " "), name.replace(" ", "-")}
            variants |= {plural(v) for v in variants if _pluralisable(v)}
            variants |= {v.replace("'", "\u2019") for v in variants if "'" in v}
            for variant in variants:
                target = cased if entry.cased or is_cased(variant) else lower
                key = (variant if target is cased else variant.lower(), target is cased)
                if key in seen:
                    continue
                seen.add(key)
                target.append({"label": entry.type, "pattern": variant, "id": entry.canonical})
    return cased, lower
