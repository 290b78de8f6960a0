"""Batches of rows for one statement each, bounded by rows and serialised bytes.

A row too large for any batch is split: its longest values move to pieces that are appended
by statements of their own (:func:`split_oversized`).
"""

import bisect
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from kg.errors import KgError


def serialised_size(value: Any) -> int:
    """Bytes of the compact JSON form (quotes counted twice): a bound on what a server renders.

    >>> serialised_size({"t": "it's"})
    13
    """
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return len(data) + data.count(b"'")


def split_oversized(
    row: list, props_index: int, budget: int, *, piece_budget: int | None = None
) -> tuple[list, list[tuple[str, Any]]]:
    """Fit a row into ``budget`` bytes: its largest strings and lists move to appended pieces.

    Returns ``(row, [(property, piece), ...])``; the row carries the first piece of each
    moved value and the pieces, appended in order, restore it. Raises if even the row
    without those values does not fit.

    >>> row, pieces = split_oversized(["k", {"key": "k", "text": "abcdefghij"}], 1, 32)
    >>> row[1]["text"] + "".join(p for _, p in pieces)
    'abcdefghij'
    """
    if serialised_size(row) <= budget:
        return row, []
    props = dict(row[props_index])
    row = row[:props_index] + [props] + row[props_index + 1 :]
    movable = sorted(
        (name for name, value in props.items() if name != "key" and isinstance(value, str | list)),
        key=lambda name: -serialised_size(props[name]),
    )
    moved: list[tuple[str, Any]] = []
    for name in movable:
        moved.append((name, props[name]))
        props[name] = props[name][:0]
        if serialised_size(row) <= budget:
            break
    else:
        raise KgError(
            f"row {row[0]!r} needs {serialised_size(row)} bytes even without its "
            f"long values; raise --max-batch-bytes above {budget}"
        )
    piece_budget = piece_budget or budget
    pieces = [(name, piece) for name, value in moved for piece in pieces_of(value, piece_budget)]
    return row, pieces


def pieces_of(value: Any, budget: int) -> list:
    """Split a string or list into consecutive pieces that each serialise within ``budget``.

    >>> pieces_of("abcdef", 5)
    ['abc', 'def']
    >>> pieces_of(["ab", "cd", "ef"], 12)
    [['ab', 'cd'], ['ef']]
    """
    pieces, start = [], 0
    while start < len(value):
        end = start + 1
        step = max(1, (len(value) - start) // 2)
        while step:
            if end + step <= len(value) and serialised_size(value[start : end + step]) <= budget:
                end += step
            else:
                step //= 2
        pieces.append(value[start:end])
        start = end
    return pieces


def batches(
    rows: Iterable[Any],
    *,
    max_rows: int,
    max_bytes: int,
    overhead: int = 0,
    size: Callable[[Any], int] = serialised_size,
) -> Iterator[list]:
    """Consecutive batches of at most ``max_rows`` rows and ``max_bytes`` serialised bytes.

    A row alone over the byte cap forms a batch of its own (callers split such rows first).

    >>> [len(b) for b in batches([["a" * 10]] * 5, max_rows=3, max_bytes=1000)]
    [3, 2]
    >>> [len(b) for b in batches([["a" * 10]] * 5, max_rows=10, max_bytes=40)]
    [2, 2, 1]
    """
    batch: list = []
    used = overhead + 2
    for row in rows:
        row_size = size(row) + 1
        if batch and (len(batch) >= max_rows or used + row_size > max_bytes):
            yield batch
            batch, used = [], overhead + 2
        batch.append(row)
        used += row_size
    if batch:
        yield batch


def fitted_batches(
    rows: list[Any],
    *,
    max_rows: int,
    max_bytes: int,
    overhead: int = 0,
    size: Callable[[Any], int] = serialised_size,
    count: Callable[[Any], int] = lambda row: 1,
) -> list[list]:
    """Batches like :func:`batches` but fuller, in any order: best fit, largest row first.

    Each row joins the batch with the least room left that still fits it, so rows of
    very different sizes share batches and fewer statements carry the same rows.
    ``count`` is how many rows an item stands for (a grouped line), for ``max_rows``.

    >>> rows = [["a" * n] for n in (4, 4, 4, 20, 20, 20)]
    >>> [len(b) for b in batches(rows, max_rows=10, max_bytes=40)]
    [3, 1, 1, 1]
    >>> sorted(len(b) for b in fitted_batches(rows, max_rows=10, max_bytes=40))
    [2, 2, 2]
    """
    room_left: list[tuple[int, int]] = []
    filled: list[list] = []
    counts: list[int] = []
    capacity = max_bytes - overhead - 2
    for row_size, _, row in sorted(
        ((size(row) + 1, i, row) for i, row in enumerate(rows)),
        key=lambda item: (-item[0], item[1]),
    ):
        rows_in_row = count(row)
        at = bisect.bisect_left(room_left, (row_size, -1))
        if at < len(room_left) and counts[room_left[at][1]] + rows_in_row <= max_rows:
            room, batch = room_left.pop(at)
        else:
            room, batch = capacity, len(filled)
            filled.append([])
            counts.append(0)
        filled[batch].append(row)
        counts[batch] += rows_in_row
        room -= row_size
        if room > 0 and counts[batch] < max_rows:
            bisect.insort(room_left, (room, batch))
    return filled
