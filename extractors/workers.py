"""Streaming records through the pipeline, on one process or a pool of worker processes.

Each worker builds the pipeline once. This module does not import spaCy, so a caller can
open a :class:`WorkerPool` first and let the workers load while it does its own work; a
worker imports :mod:`kg.extractors.nlp` when it starts.
"""

import multiprocessing
import os
import time
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import TYPE_CHECKING, Protocol

from kg.extractors.children import die_with_parent
from kg.extractors.records import Mention, PaperRecord, Problem

if TYPE_CHECKING:
    from spacy.language import Language

#: Abstracts per batch handed to a worker (and per ``nlp.pipe`` batch).
BATCH_SIZE = 256
#: Abstracts in the first batch a pool hands out; each next one is twice as large, up to
#: BATCH_SIZE, so a progress bar moves from the start.
FIRST_BATCH = 16


def batch_sizes() -> Iterator[int]:
    """The sizes of the batches a pool hands out, in order.

    >>> from itertools import islice
    >>> list(islice(batch_sizes(), 7))
    [16, 32, 64, 128, 256, 256, 256]
    """
    size = FIRST_BATCH
    while True:
        yield size
        size = min(size * 2, BATCH_SIZE)


#: A text's mentions and, if its extraction failed, why.
Found = tuple[list[Mention], str | None]
#: The batches handed to the workers, in order, with their results to come.
Pending = deque[tuple[list[PaperRecord], Future[list[Found]]]]

_NLP: "Language | None" = None


def mentions_of_texts(nlp: "Language", texts: list[str]) -> list[Found]:
    """``(mentions, error)`` for each text, in order: ``error`` says why the extraction
    failed on that text (its mentions are then empty), else it is None."""
    return [
        (doc._.mentions, doc._.extraction_error) for doc in nlp.pipe(texts, batch_size=BATCH_SIZE)
    ]


def extract_serially(
    records: Iterable[PaperRecord], nlp: "Language", problems: list[Problem] | None = None
) -> Iterator[tuple[PaperRecord, list[Mention]]]:
    """``(record, [Mention, ...])`` for each record, in input order, batch by batch in this
    process (see :func:`failures_reported` for ``problems``)."""
    records = iter(records)
    while batch := list(islice(records, BATCH_SIZE)):
        found = mentions_of_texts(nlp, [r.abstract for r in batch])
        yield from failures_reported(zip(batch, found, strict=True), problems)


def failures_reported(
    extracted: Iterable[tuple[PaperRecord, Found]], problems: list[Problem] | None
) -> Iterator[tuple[PaperRecord, list[Mention]]]:
    """``(record, mentions)`` from ``(record, (mentions, error))``; a record whose
    extraction failed keeps no mentions and gets a Problem in ``problems`` (a list)."""
    for record, (mentions, error) in extracted:
        if error is not None and problems is not None:
            problems.append(
                Problem(
                    record.source,
                    record.line or None,
                    f"extraction failed ({error}); the paper is kept without "
                    "entities; please report this as a bug",
                    kept=True,
                )
            )
        yield record, mentions


# ---------------------------------------------------------------- the pool


class Pool(Protocol):
    """What a build needs of a pool: :class:`WorkerPool` here, or a cluster's
    (``kg.scale.dask_pool.DaskPool``)."""

    def extract(
        self, records: Iterable[PaperRecord], problems: list[Problem] | None = None
    ) -> Iterator[tuple[PaperRecord, list[Mention]]]: ...


def _init_worker(parent: int) -> None:
    global _NLP
    die_with_parent(parent)
    # Imported here, in the worker: the parent never needs spaCy to open a pool.
    from kg.extractors.nlp import build_nlp

    _NLP = build_nlp()


def _extract_batch(texts: list[str]) -> list[Found]:
    assert _NLP is not None, "the worker's initializer builds the pipeline"
    return mentions_of_texts(_NLP, texts)


def _worker_pid() -> int:
    time.sleep(0.05)  # long enough for another idle worker to take the next call
    return os.getpid()


class WorkerPool:
    """Worker processes that each build the pipeline once, starting as the pool opens.

    Importing spaCy and building the pipeline take seconds; a pool opened early does that
    while the caller works (an incremental build loads its graph meanwhile). Closing the
    pool stops its workers, finished or not.

    The workers are started fresh (``spawn``: no copy of the caller's memory) as children
    of the thread that opens the pool, and die with it, however it ends (even ``kill -9``):
    open and use a pool in a thread that outlives its use. Once the caller and the workers
    are gone, multiprocessing's resource tracker sees the end of its pipe and exits too.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            workers,
            initializer=_init_worker,
            initargs=(os.getpid(),),
            mp_context=multiprocessing.get_context("spawn"),
        )
        for _ in range(workers):  # workers start on demand: ask for all of them now
            self._pool.submit(int)

    def wait_until_ready(self) -> set[int]:
        """Block until every worker has built its pipeline (a benchmark then times the
        extraction apart from the start-up); the workers' process ids."""
        ready: set[int] = set()
        while len(ready) < self.workers:
            calls = [self._pool.submit(_worker_pid) for _ in range(self.workers)]
            ready.update(call.result() for call in calls)
        return ready

    def extract(
        self, records: Iterable[PaperRecord], problems: list[Problem] | None = None
    ) -> Iterator[tuple[PaperRecord, list[Mention]]]:
        """``(record, [Mention, ...])`` for each record, in input order, keeping at most two
        batches per worker in flight. The first batches are handed out at once, so the
        caller can do other work before it reads the results. ``problems`` receives the
        records the extractors failed on (see :func:`failures_reported`)."""
        records = iter(records)
        sizes = batch_sizes()
        pending: Pending = deque()
        while len(pending) < self.workers * 2 and self._submit(records, next(sizes), pending):
            pass
        return failures_reported(self._results(records, sizes, pending), problems)

    def submit_texts(self, texts: list[str]) -> "Future[list[Found]]":
        """``(mentions, error)`` of each text, to come from a worker."""
        return self._pool.submit(_extract_batch, texts)

    def _submit(self, records: Iterator[PaperRecord], size: int, pending: Pending) -> bool:
        batch = list(islice(records, size))
        if batch:
            pending.append((batch, self.submit_texts([r.abstract for r in batch])))
        return bool(batch)

    def _results(
        self,
        records: Iterator[PaperRecord],
        sizes: Iterator[int],
        pending: Pending,
    ) -> Iterator[tuple[PaperRecord, Found]]:
        while pending:
            batch, result = pending.popleft()
            yield from zip(batch, result.result(), strict=True)
            self._submit(records, next(sizes), pending)

    def close(self) -> None:
        """Stop the workers, busy or not, and shut the pool down."""
        stop_pool(self._pool)

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def worker_processes(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    """The pool's worker processes. Python 3.12 has no public way to stop busy workers
    (3.14 adds ``terminate_workers``), so this is the one place that reads the executor's
    ``_processes``; a test compares it with the process ids the workers report."""
    return list(pool._processes.values())


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop the pool's workers, busy or not, and shut it down."""
    for process in worker_processes(pool):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
