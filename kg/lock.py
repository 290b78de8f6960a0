"""Locks that keep two kg processes from writing the same thing at once.

A lock is an exclusive ``fcntl.flock`` on a small lock file beside what it guards:
``GRAPH.lock`` for a graph file (which is replaced by rename, so a lock on the file itself
would be lost at the first write), ``GRAPH.falkordb/cache.lock`` for the embedded engine's
cache and ``DIR/.kg-viz.lock`` for a folder of pages. The kernel drops a lock when its
holder ends, however it ends, so a killed process never leaves one behind. The lock file
holds its holder's process id, for the message of a process that waits. The holder
removes it before it lets go, so the file exists only while it is held (or, after a
holder was killed, until the next one); a process that then gets the lock of a removed
file sees that the name no longer leads to its file and starts again.
"""

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from os import PathLike

from kg.errors import Locked, OutputError

LOCK_SUFFIX = ".lock"
#: Seconds a writer waits for another by default (a build of 20,000 papers takes minutes).
DEFAULT_WAIT = 600.0
_POLL_SECONDS = 0.05

#: (lock file, thread) -> how many nested blocks of that thread hold it.
_held: dict[tuple[str, int], int] = {}


@contextmanager
def exclusive(
    lock_path: str | PathLike[str],
    what: str,
    *,
    target: str | None = None,
    required: bool = True,
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
) -> Iterator[None]:
    """Hold the lock file ``lock_path`` for the block.

    When another process (or thread) holds it, wait up to ``wait`` seconds (``waiting``
    gets one line as the wait begins), then raise Locked. ``what`` names the holder in
    both lines ("another kg build of graph.kg"). A block nested in another that holds the
    same lock in the same thread just goes ahead. A lock file that cannot be created
    raises OutputError naming ``target``, what the lock guards ("the graph file g.kg"),
    unless not ``required``: the block then runs unlocked (its folder cannot be written,
    so there is nothing to guard).
    """
    path = os.path.abspath(lock_path)
    key = (path, threading.get_ident())
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    try:
        fd = _acquire(path, what, target or f"the lock file {path}", wait, waiting)
    except OutputError:
        if required:
            raise
        fd = None
    if fd is None:
        yield
        return
    _held[key] = 1
    try:
        yield
    finally:
        del _held[key]
        try:
            if _same_file(fd, path):  # while still held: see the module's docstring
                os.unlink(path)
        except OSError:
            pass
        os.close(fd)


def _acquire(
    path: str, what: str, target: str, wait: float, waiting: Callable[[str], None] | None
) -> int:
    """An open descriptor of ``path`` holding its lock, with this process's id written in."""
    deadline = time.monotonic() + wait
    told = False
    while True:
        fd = _open(path, target)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                raise Locked(
                    f"{what} ({holder(path)}) still holds {path} after {wait:g} s; "
                    "try again when it has finished"
                ) from None
            if waiting is not None and not told:
                waiting(f"waiting for {what} ({holder(path)}) to finish...")
                told = True
            time.sleep(_POLL_SECONDS)
            continue
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):  # not a lock file someone removed meanwhile
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return fd
        os.close(fd)


def _open(path: str, target: str) -> int:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise OutputError(
            f"cannot write {target}: {exc.strerror or exc}; check the folder "
            "or choose another output path"
        ) from None


def _same_file(fd: int, path: str) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def holder(path: str | PathLike[str]) -> str:
    """Who holds (or last held) a lock file: ``process N``, or ``another process``."""
    try:
        with open(path, encoding="ascii") as fh:
            return f"process {int(fh.read())}"
    except (OSError, ValueError):
        return "another process"


def graph_lock(
    path: str | PathLike[str],
    *,
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
) -> AbstractContextManager[None]:
    """The lock of a graph file (``GRAPH.lock``): a build holds it from its load to its
    save, so two builds of one graph take turns and the second adds to the first's
    result. Hold it around your own load and save the same way (see :func:`exclusive`)."""
    path = os.fspath(path)
    return exclusive(
        path + LOCK_SUFFIX,
        f"another kg build of {path}",
        target=f"the graph file {os.path.abspath(path)}",
        wait=wait,
        waiting=waiting,
    )
