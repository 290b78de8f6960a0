"""Finding the listing files, reading their lines, and the checks every reader shares."""

import glob
import os
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import overload

from kg.extractors.records import Problem

MAX_ABSTRACT_CHARS = 100_000


class ReadError(Exception):
    """A problem that stops the read of one file (the other files still land)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line


def expand_inputs(
    inputs: Iterable[str | os.PathLike[str]], problems: list[Problem], suffixes: Collection[str]
) -> list[str]:
    """Files named by paths, directories (searched recursively for files with one of the
    listing ``suffixes``) and globs."""
    paths: list[str] = []
    for item in inputs:
        item = str(item)
        if os.path.isdir(item):
            found = sorted(
                p for p in Path(item).rglob("*") if p.is_file() and p.suffix.lower() in suffixes
            )
            if not found:
                problems.append(
                    Problem(
                        item,
                        None,
                        "directory holds no listing files (.txt, .jsonl, .json, .csv, .bib)",
                    )
                )
            paths.extend(str(p) for p in found)
        elif os.path.exists(item):
            paths.append(item)
        elif glob.has_magic(item):
            matched = sorted(glob.glob(item, recursive=True))
            if not matched:
                problems.append(Problem(item, None, "pattern matches no file; check the path"))
            paths.extend(p for p in matched if os.path.isfile(p))
        else:
            problems.append(Problem(item, None, "no such file or directory; check the path"))
    seen, unique = set(), []
    for p in paths:
        real = os.path.realpath(p)
        if real not in seen:
            seen.add(real)
            unique.append(p)
    return unique


def decode_lines(path: str, problems: list[Problem]) -> list[str | None]:
    """The file's lines as text; lines that are not UTF-8 become None and are reported."""
    data = Path(path).read_bytes()
    if not data.strip():
        raise ReadError(None, "file is empty; nothing to read")
    if b"\x00" in data[:8192]:
        raise ReadError(
            None, "looks like a binary file, not a listing; pass text, JSONL, CSV or BibTeX"
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines: list[str | None] = []
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            lines.append(raw.decode("utf-8").rstrip("\r"))
        except UnicodeDecodeError as exc:
            problems.append(
                Problem(
                    path,
                    n,
                    f"not valid UTF-8 (byte {exc.start + 1} of the "
                    "line); the record there is skipped: re-save the "
                    "file as UTF-8",
                )
            )
            lines.append(None)
    return lines


def check_abstract(path: str, line: int | None, text: str | None, problems: list[Problem]) -> bool:
    """Whether ``text`` may be an abstract: read, and not over MAX_ABSTRACT_CHARS (reported)."""
    if text is None:
        return False
    if len(text) > MAX_ABSTRACT_CHARS:
        problems.append(
            Problem(
                path,
                line,
                f"record is {len(text):,} characters long, over "
                f"the {MAX_ABSTRACT_CHARS:,} an abstract may have; skipped: "
                "split it or check the file's format",
            )
        )
        return False
    return True


@overload
def clean(value: str) -> str: ...
@overload
def clean(value: object) -> str | None: ...
def clean(value: object) -> str | None:
    """``value`` as text with its whitespace collapsed (None stays None)."""
    return " ".join(str(value).split()) if value is not None else None
