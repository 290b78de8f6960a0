"""Extraction worker processes: each imports spaCy and builds the pipeline once.

This module does not import spaCy itself, so a caller can open a :class:`WorkerPool` first
and let the workers load while it does its own work.
"""

import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from itertools import islice

from kg.extractors.read import Problem

#: Abstracts per batch handed to a worker (and per ``nlp.pipe`` batch).
BATCH_SIZE = 256

_NLP = None


def _init_worker():
    global _NLP
    from kg.extractors.pipeline import build_nlp

    _NLP = build_nlp()


def _extract_batch(texts):
    from kg.extractors.pipeline import mentions_of_texts

    return mentions_of_texts(_NLP, texts)


def _worker_pid():
    time.sleep(0.05)  # long enough for another idle worker to take the next call
    return os.getpid()


def failures_reported(extracted, problems):
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


class WorkerPool:
    """Worker processes that each build the pipeline once, starting as the pool opens.

    Importing spaCy and building the pipeline take seconds; a pool opened early does that
    while the caller works (an incremental build loads its graph meanwhile). Closing the
    pool stops its workers, finished or not.
    """

    def __init__(self, workers):
        self.workers = workers
        # No forkserver preload: starting a worker would wait for the server's imports.
        self._pool = ProcessPoolExecutor(
            workers, initializer=_init_worker, mp_context=multiprocessing.get_context("forkserver")
        )
        for _ in range(workers):  # workers start on demand: ask for all of them now
            self._pool.submit(int)

    def wait_until_ready(self):
        """Block until every worker has built its pipeline (a benchmark then times the
        extraction apart from the start-up); the workers' process ids."""
        ready = set()
        while len(ready) < self.workers:
            calls = [self._pool.submit(_worker_pid) for _ in range(self.workers)]
            ready.update(call.result() for call in calls)
        return ready

    def extract(self, records, problems=None):
        """``(record, [Mention, ...])`` for each record, in input order, keeping at most two
        batches per worker in flight. The first batches are handed out at once, so the
        caller can do other work before it reads the results. ``problems`` receives the
        records the extractors failed on (see :func:`failures_reported`)."""
        records, pending = iter(records), deque()
        while len(pending) < self.workers * 2 and self._submit(records, pending):
            pass
        return failures_reported(self._results(records, pending), problems)

    def _submit(self, records, pending):
        batch = list(islice(records, BATCH_SIZE))
        if batch:
            pending.append((batch, self._pool.submit(_extract_batch, [r.abstract for r in batch])))
        return bool(batch)

    def _results(self, records, pending):
        while pending:
            batch, result = pending.popleft()
            yield from zip(batch, result.result())
            self._submit(records, pending)

    def close(self):
        # Python 3.12 has no public way to stop busy workers (3.14 adds terminate_workers).
        for process in list(self._pool._processes.values()):
            process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
