"""The lexicon of the field: canonical names, types, aliases and PART_OF, read from JSONL.

The lexicon files are ``extractors/data/lexicon.jsonl`` (general knowledge of the field),
``extractors/data/lexicon_training.jsonl`` (names of the training splits of public corpora,
made by ``scripts/grow_lexicon.py``) and, when the ``KG_DATA`` environment variable names a
folder holding one, the user's ``lexicon.jsonl`` there, whose entries replace shipped ones
of the same canonical name. Each file is a sequence of blocks: a block line records where
the names after it come from, and every other line is one entry::

    {"block": "glue", "source": "general knowledge of the field", "note": "..."}
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

from kg.extractors.names import british, name_key, plural
from kg.extractors.records import IGNORE, TYPE_NAMES
from kg.extractors.words import USER_DATA_ENV

DATA_DIR = Path(str(files("kg.extractors.data")))
LEXICON_PATH = DATA_DIR / "lexicon.jsonl"
TRAINING_LEXICON_PATH = DATA_DIR / "lexicon_training.jsonl"


@dataclass(frozen=True)
class Entry:
    """One lexicon entry: a canonical name of one type with its aliases."""

    canonical: str
    type: str
    aliases: tuple[str, ...] = ()
    part_of: tuple[str, ...] = ()
    family: bool = False
    cased: bool = False
    block: str = ""

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
            for spelling in british_spellings(entry, name):
                self.by_key.setdefault(name_key(spelling), entry)

    def lookup(self, surface: str) -> Entry | None:
        """The entry a surface form names (case, hyphens, dots and spaces ignored), or None.

        Plural surface forms ("Transformers", "SVMs") fall back to their singular. After
        capitals, the case of a final S tells a name from a plural: "GPS" (the positioning
        system) is not "GPs" (Gaussian processes).
        """
        key = name_key(surface)
        entry = self.by_key.get(key)
        acronym_s = surface[-1:] in ("s", "S") and surface[-2:-1].isupper()
        if (
            entry is not None
            and acronym_s
            and not any(name_key(n) == key and n[-1] == surface[-1] for n in entry.names)
        ):
            entry = None
        if (
            entry is None
            and key.endswith("s")
            and surface[-1:] != "S"
            and (len(key) > 3 or acronym_s)
        ):
            entry = self.by_key.get(key[:-1])
        return entry

    def lookup_as_written(self, surface: str) -> Entry | None:
        """The entry a surface form names, with its case where the gazetteer would need it
        ("RACE" names the dataset, "Race" does not), or None."""
        entry = self.lookup(surface) if surface else None
        if entry is None:
            return None
        key = name_key(surface)
        singular = surface if surface[-1:] == "S" else surface[:-1]
        keys = {key, name_key(singular)}
        return (
            entry
            if any(
                name_key(n) in keys
                and (n in (surface, singular) or not (entry.cased or is_cased(n)))
                for n in entry.names
            )
            else None
        )


def parse_block(obj: object, where: str) -> str | None:
    """The name of the block a decoded line opens, or None for an entry line; ValueError
    naming ``where`` for a block line without its ``source``."""
    if not isinstance(obj, dict) or "block" not in obj:
        return None
    name, source = obj.get("block"), obj.get("source")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}: a block needs a name")
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"{where}: block {name!r} does not say where its names come from (source)")
    return name


def parse_entry(obj: object, where: str, block: str = "") -> Entry:
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
        block,
    )


def lexicon_files() -> list[Path]:
    """The shipped lexicon files, then the user's (``$KG_DATA/lexicon.jsonl``) if any."""
    paths = [LEXICON_PATH, TRAINING_LEXICON_PATH]
    user = os.environ.get(USER_DATA_ENV)
    if user and (Path(user) / "lexicon.jsonl").is_file():
        paths.append(Path(user) / "lexicon.jsonl")
    return paths


def read_entries(path: str | os.PathLike[str]) -> list[Entry]:
    """The entries of one lexicon file, each with its block; ValueError naming the file and
    line of a bad line, or of an entry before any block."""
    entries: list[Entry] = []
    block, canonicals = None, set()
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not valid JSON ({exc.msg})") from None
            opened = parse_block(obj, where)
            if opened is not None:
                block = opened
                continue
            if block is None:
                raise ValueError(
                    f"{where}: an entry before any block line (a line with block and source)"
                )
            entry = parse_entry(obj, where, block)
            if entry.canonical in canonicals:
                raise ValueError(f"{where}: duplicate canonical {entry.canonical!r}")
            canonicals.add(entry.canonical)
            entries.append(entry)
    return entries


def load_lexicon(*paths: str | os.PathLike[str]) -> Lexicon:
    """Read and check the lexicon files (by default :func:`lexicon_files`); a later file's
    entry replaces an earlier one of the same canonical name. Raises ValueError naming the
    file and line of a bad entry."""
    merged: dict[str, Entry] = {}
    for path in paths or lexicon_files():
        for entry in read_entries(path):
            merged.pop(entry.canonical, None)
            merged[entry.canonical] = entry
    lexicon = Lexicon()
    for entry in merged.values():
        lexicon.add(entry)
    for entry in lexicon.entries.values():
        for parent in entry.part_of:
            if parent not in lexicon.entries:
                raise ValueError(
                    f"{entry.block or 'lexicon'}: {entry.canonical} is part of {parent!r}, "
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


def british_spellings(entry: Entry, name: str) -> list[str]:
    """``name`` in British spelling ("optimisation"), for an uncased name only (never
    "BEHAVIOUR" for the BEHAVIOR benchmark); none where that is how it is written."""
    if entry.cased or is_cased(name) or (spelled := british(name)) == name:
        return []
    return [spelled]


def phrase_patterns(lexicon: Lexicon) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """span_ruler phrase patterns for the lexicon: (case-sensitive, lowercase) lists; each
    pattern's id is the entry's canonical name."""
    cased: list[dict[str, Any]] = []
    lower: list[dict[str, Any]] = []
    seen: set[tuple[str, bool]] = set()
    for entry in lexicon.entries.values():
        for name in entry.names:
            variants = {name, name.replace("-", " "), name.replace(" ", "-")}
            variants |= {b for v in variants for b in british_spellings(entry, v)}
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
