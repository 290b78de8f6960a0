"""Finding the listing files, reading their lines, and the checks every reader shares."""

import errno
import glob
import os
import stat
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
            refused = _not_regular(item)
            if refused:
                problems.append(Problem(item, None, refused))
            else:
                paths.append(item)
        elif os.path.islink(item):
            problems.append(Problem(item, None, _broken_link(item)))
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


def _not_regular(path: str) -> str | None:
    """Why ``path`` (which exists) cannot be read as a listing, or None when it is a file:
    reading a FIFO without a writer, a socket or a device would wait for ever."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return None
    kind = (
        "a named pipe (FIFO)"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "not a regular file"
    )
    return f"is {kind}, not a file; refused: save the listing to a file and pass that"


def _broken_link(path: str) -> str:
    """What is wrong with a symbolic link that leads to no file."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a symbolic link loop (it leads back to itself); fix the link"
    return f"is a symbolic link to {os.readlink(path)!r}, which does not exist; fix the link"


#: Byte-order marks of the UTF-16 and UTF-32 encodings, longest first.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def wide_encoding(data: bytes) -> str | None:
    """ "UTF-16" or "UTF-32" when ``data`` looks like text in one of them (a byte-order mark,
    or NUL in every other byte of ASCII text), else None.

    >>> wide_encoding("abc".encode("utf-16")), wide_encoding("ab".encode("utf-16-le"))
    ('UTF-16', 'UTF-16')
    >>> wide_encoding(b"abc"), wide_encoding(bytes(range(256)))
    (None, None)
    """
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if len(head) >= 2 and len(head) % 2 == 0:
        even, odd = head[0::2], head[1::2]
        for zeros, text in ((even, odd), (odd, even)):
            if not zeros.strip(b"\x00") and all(32 <= b < 127 or b in b"\t\r\n" for b in text):
                return "UTF-16"
    return None


def decode_lines(path: str, problems: list[Problem]) -> list[str | None]:
    """The file's lines as text; lines that are not UTF-8 become None and are reported.
    Lines end at LF, CRLF, or CR in a file with no LF (old Mac files)."""
    data = Path(path).read_bytes()
    if not data.strip():
        raise ReadError(None, "file is empty; nothing to read")
    wide = wide_encoding(data)
    if wide:
        raise ReadError(
            None,
            f"is {wide} text, not UTF-8; convert it: iconv -f {wide} -t UTF-8 "
            "FILE > FILE.utf8.txt (or re-save it as UTF-8)",
        )
    if b"\x00" in data[:8192]:
        raise ReadError(
            None, "looks like a binary file, not a listing; pass text, JSONL, CSV or BibTeX"
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines: list[str | None] = []
    newline = b"\n" if b"\n" in data or b"\r" not in data else b"\r"
    for n, raw in enumerate(data.split(newline), 1):
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
