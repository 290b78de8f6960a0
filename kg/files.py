"""Writing output files atomically, with one clear line when the path cannot be written.

A temporary file carries its writer's process id in its name (``.NAME.PID.RANDOM.tmp``), so
a later writer of the same file can tell one left by a killed writer from one a live writer
is still filling, and removes the former.
"""

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

from kg.errors import OutputError


@contextmanager
def atomic_output(
    path: str | os.PathLike[str],
    what: str,
    *,
    binary: bool = False,
    newline: str | None = None,
    durable: bool = False,
) -> Iterator[IO[Any]]:
    """Yield a file open on a temporary file beside ``path``; when the block ends without an
    error, the temporary file replaces ``path`` (which keeps its mode), else it is removed
    and ``path`` is left as it was. ``durable`` syncs the data to disk before the rename.
    Temporary files of ``path`` that writers killed before they finished left behind are
    removed first.

    A ``path`` that is a symbolic link is written through: its target is replaced and the
    link stays. An OSError (a missing or read-only folder, a full disk) becomes an
    OutputError naming ``what`` and the path.
    """
    path = os.path.realpath(path)
    try:
        folder, prefix = os.path.dirname(path), f".{os.path.basename(path)}."
        os.makedirs(folder, exist_ok=True)
        remove_stale_temp_files(folder, prefix, ".tmp")
        fd, tmp = tempfile.mkstemp(prefix=f"{prefix}{os.getpid()}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _output_error(path, what, exc) from None
    try:
        os.chmod(tmp, _file_mode(path))
        fh: IO[Any] = (
            os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline=newline)
        )
        with fh:
            yield fh
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise _output_error(path, what, exc) from None
        raise


def remove_stale_temp_files(folder: str | os.PathLike[str], prefix: str, suffix: str) -> list[str]:
    """Remove the files of ``folder`` named ``PREFIX PID SUFFIX`` or ``PREFIX PID.RANDOM
    SUFFIX`` whose writer, process PID, has ended; return their names. (A process id that
    a new process has taken keeps its file until that process ends too.)"""
    removed = []
    for name in os.listdir(folder):
        if not (name.startswith(prefix) and name.endswith(suffix)):
            continue
        pid, *rest = name[len(prefix) : len(name) - len(suffix)].split(".")
        if pid.isdigit() and 0 < int(pid) < 2**31 and len(rest) <= 1 and not _alive(int(pid)):
            try:
                os.unlink(os.path.join(folder, name))
            except FileNotFoundError:
                continue
            removed.append(name)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def _output_error(path: str, what: str, exc: OSError) -> OutputError:
    return OutputError(
        f"cannot write {what} {path}: {exc.strerror or exc}; check the folder "
        "or choose another output path"
    )


def _file_mode(path: str) -> int:
    """The mode the written file should have: the old file's, else 0o666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def partly_written(
    error: OutputError,
    written: Sequence[str | os.PathLike[str]],
    planned: Sequence[str | os.PathLike[str]],
) -> OutputError:
    """The error of a set of files that failed part way: ``error``'s line, then the files
    written (each whole) and those not, by name; ``error`` itself when none was written.

    >>> str(partly_written(OutputError("cannot write b: full"), ["d/a"], ["d/a", "d/b", "d/c"]))
    'cannot write b: full; written (each whole): a; not written: b, c'
    """
    if not written:
        return error
    done = {os.fspath(path) for path in written}
    names = [os.path.basename(path) for path in written]
    left = [os.path.basename(path) for path in planned if os.fspath(path) not in done]
    return OutputError(
        f"{error}; written (each whole): {', '.join(names)}; "
        f"not written: {', '.join(left) or 'none'}"
    )
