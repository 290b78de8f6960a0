"""What a folder of ``--neo4j-import`` files keeps so that a later batch adds to it: each
partition's papers with their extraction (``extracted/p00000.pickle.zst``, written and read
by the tasks where they run), the index of the papers read (content hash: partition, key)
and a manifest (``kg-import.json``: the counts, and the kg that extracted them).

A later build reads the manifest and the index, hands the saved partitions to its tasks as
they are, and takes every decision again over old and new partitions together, so the
files equal those of one build of all the inputs. Saved extraction is reused only by the
kg version, lexicon and extraction code that made it.
"""

import filecmp
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import zstandard

from kg.errors import KgError, OutputError
from kg.files import atomic_output
from kg.scale import partitioned as P
from kg.scale import spill
from kg.scale.identity import Identity, this_identity

MANIFEST = "kg-import.json"
EXTRACTED = "extracted"
INDEX = "index.json.zst"
FORMAT = "kg-neo4j-import"
#: The files a folder of import files holds besides the CSV files.
OWN_FILES = frozenset(("constraints.cypher", "import-command.txt", MANIFEST, EXTRACTED))


@dataclass
class Saved:
    """A folder's earlier batches: records read, duplicates among them, the partitions'
    files in order, and each paper's content hash with its (partition, key)."""

    records: int = 0
    duplicates: int = 0
    parts: list[str] = field(default_factory=list)
    index: dict[str, tuple[int, str]] = field(default_factory=dict)


def part_name(i: int) -> str:
    """The file of partition ``i``'s saved extraction, under ``extracted/``."""
    return f"p{i:05d}.pickle.zst"


def read_saved(directory: Path) -> Saved:
    """The folder's earlier batches (none if it has no manifest); KgError if another kg
    extracted them or the manifest or index is damaged."""
    manifest = directory / MANIFEST
    if not manifest.is_file():
        return Saved()
    try:
        data = orjson.loads(manifest.read_bytes())
        if data.get("format") != FORMAT:
            raise ValueError("not a manifest of kg's import files")
        made_by = Identity(**data["identity"])
        index = orjson.loads(
            zstandard.ZstdDecompressor().decompress((directory / EXTRACTED / INDEX).read_bytes())
        )
        saved = Saved(
            data["records"],
            data["duplicates"],
            list(data["parts"]),
            {digest: (part, key) for digest, part, key in index},
        )
    except (OSError, ValueError, KeyError, TypeError, zstandard.ZstdError) as exc:
        raise KgError(
            f"{manifest}: damaged ({exc}); give --fresh to build the folder anew"
        ) from None
    if made_by != (own := this_identity()):
        raise KgError(
            f"{directory}: its papers were extracted by kg {made_by.version} (lexicon "
            f"{made_by.lexicon}, code {made_by.code}), not by this kg {own.version} (lexicon "
            f"{own.lexicon}, code {own.code}); give --fresh to build the folder anew"
        )
    return saved


def keep_part(src: str, duplicates: list[P.Planned], dst: str) -> str:
    """Task: the partition saved at ``src``, with ``duplicates`` (later duplicates of its
    papers) added, saved to ``dst`` (kept as it is without them: a hard link, or a copy
    where the filesystem makes none)."""
    if not duplicates:
        if not _linked(Path(src), Path(dst)):
            with atomic_output(Path(dst), "a partition's saved extraction", binary=True) as out:
                out.write(Path(src).read_bytes())
        return dst
    part = load_part(src)
    spill.dump(P.Part(part.papers, part.found, [*part.duplicates, *duplicates]), dst)
    return dst


def load_part(path: str) -> P.Part:
    """A partition saved by the extraction (or by :func:`keep_part`)."""
    part = spill.load(path)
    if not isinstance(part, P.Part):
        raise KgError(f"{path}: not a saved partition; give --fresh to build the folder anew")
    return part


def write_state(staging: Path, saved: Saved) -> None:
    """The manifest and the index of ``saved`` (the partitions are written by their tasks)."""
    index = [[digest, part, key] for digest, (part, key) in saved.index.items()]
    with atomic_output(staging / EXTRACTED / INDEX, "the papers' index", binary=True) as out:
        out.write(zstandard.ZstdCompressor(level=1).compress(orjson.dumps(index)))
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "identity": this_identity().__dict__,
        "records": saved.records,
        "duplicates": saved.duplicates,
        "parts": saved.parts,
    }
    with atomic_output(staging / MANIFEST, "the manifest", binary=True) as out:
        out.write(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))


def check_folder(directory: Path) -> None:
    """Refuse a ``directory`` that exists and holds anything but kg's import files."""
    if not directory.exists():
        return
    names = list(directory.iterdir()) if directory.is_dir() else None
    if names is None or any(not (p.name.endswith(".csv") or p.name in OWN_FILES) for p in names):
        raise OutputError(
            f"{directory}: exists and is not a folder of kg's import files; "
            "give a new or empty folder"
        )


def replace_folder(staging: Path, directory: Path) -> list[str]:
    """Put ``staging`` where ``directory`` is (an earlier folder of import files goes); the
    names of its files that the earlier folder did not hold as they are now. A file the
    earlier folder holds with the same bytes is kept as it was (a hard link to it takes the
    new one's place, time and inode kept), so what a later batch leaves unchanged is not
    written again; the earlier folder is not touched until the two are swapped."""
    check_folder(directory)
    changed = []
    for path in staging_files(staging):
        earlier = directory / path.name
        if not (
            earlier.is_file()
            and filecmp.cmp(earlier, path, shallow=False)
            and _linked(earlier, path)
        ):
            changed.append(path.name)
    if directory.exists():
        old = directory.with_name(f".{directory.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(directory, old)
        os.replace(staging, directory)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(staging, directory)
    return sorted(changed)


def _linked(earlier: Path, path: Path) -> bool:
    """Put a hard link to ``earlier`` at ``path`` (in the place of the file there, if any);
    False where the filesystem makes none (``path`` then stays as it was)."""
    link = path.with_name(f".{path.name}.link")
    try:
        os.link(earlier, link)
    except OSError:
        return False
    os.replace(link, path)
    return True


def staging_files(folder: Path) -> list[Path]:
    """The files of a folder of import files (not the saved partitions' folder)."""
    return [p for p in folder.iterdir() if p.is_file()]
