"""How the ``kg`` command runs a command: SIGTERM handled like Ctrl-C, and the ``--wait``
option of the commands that take a lock (:mod:`kg.lock`).

While a command runs, SIGTERM raises :class:`Terminated`, a KeyboardInterrupt: the same
unwinding as Ctrl-C stops the worker processes, removes temporary files and releases
locks. (``kill -9`` cannot be caught: child processes then die with the command, see
:mod:`kg.extractors.children`, and the next writer removes its temporary files.)
"""

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from kg.lock import DEFAULT_WAIT
from kg.terminal import say


class Terminated(KeyboardInterrupt):
    """The command received SIGTERM."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises Terminated (in the main thread; elsewhere, where
    signal handlers cannot be set, nothing changes). The old handler is restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def interrupted(exc: KeyboardInterrupt) -> tuple[str, int]:
    """The message and exit status of a command stopped by Ctrl-C or SIGTERM (128 + the
    signal's number, as a shell reports it)."""
    what, signum = (
        ("terminated", signal.SIGTERM)
        if isinstance(exc, Terminated)
        else ("interrupted", signal.SIGINT)
    )
    return f"kg: {what}; files already written are complete, nothing half-written", 128 + signum


def add_wait_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--wait SECONDS``: how long to wait for ``what`` (0: give up at once)."""
    parser.add_argument(
        "--wait",
        type=float,
        default=DEFAULT_WAIT,
        metavar="SECONDS",
        help=f"wait this long for {what} to finish (default: {DEFAULT_WAIT:g}; 0: give up at once)",
    )


def wait_options(args: argparse.Namespace) -> dict[str, Any]:
    """The lock-taking API call's ``wait`` and ``waiting``: the option, and a ``kg:`` line
    on stderr when the wait begins."""
    return {"wait": args.wait, "waiting": lambda line: say(f"kg: {line}", file=sys.stderr)}
