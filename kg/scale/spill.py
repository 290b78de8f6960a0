"""Partition state kept in files between the passes of an import build, so that a worker
holds one partition at a time and the scheduler's tasks hold paths, not papers.

Each pass reads its partition's previous state from a file and writes its own to another,
taking the summary of what it wrote as it goes (:func:`saved_summarised`); a summary that
needs a later decision reads the state back (:func:`on_saved`). A task run again (its
worker lost) reads the same file and writes the same one.
"""

import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import zstandard

from kg.errors import KgError
from kg.files import atomic_output


def dump(value: Any, path: str) -> str:
    """Write ``value`` to ``path`` (a zstd pickle, put in place whole); the path."""
    data = zstandard.ZstdCompressor(level=1).compress(pickle.dumps(value, protocol=5))
    with atomic_output(Path(path), "a partition's state", binary=True) as out:
        out.write(data)
    return path


def load(path: str) -> Any:
    """What :func:`dump` wrote to ``path``."""
    try:
        return pickle.loads(zstandard.ZstdDecompressor().decompress(Path(path).read_bytes()))
    except (OSError, pickle.UnpicklingError, zstandard.ZstdError, EOFError) as exc:
        raise KgError(f"{path}: damaged ({exc}); give --fresh to build the folder anew") from None


def saved_summarised(
    fn: Callable[..., Any], summary: Callable[[Any], Any], src: str, dst: str, *args: Any
) -> tuple[str, Any]:
    """Task: ``fn`` of the state in ``src`` (and ``args``) written to ``dst``, and the
    ``summary`` of that state, taken before it is dropped (no task reads the file back for
    it): ``(dst, summary)``."""
    state = fn(load(src), *args)
    return dump(state, dst), summary(state)


def on_saved(fn: Callable[..., Any], src: str, *args: Any) -> Any:
    """Task: ``fn`` of the state in ``src`` (and ``args``)."""
    return fn(load(src), *args)


def on_each_saved(fn: Callable[..., Any], sources: Sequence[str], *args: Any) -> Any:
    """Task: ``fn`` of the states in ``sources``, loaded one at a time as ``fn`` iterates
    over them (and ``args``)."""
    return fn((load(src) for src in sources), *args)
