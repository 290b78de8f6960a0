"""Extraction as Dask tasks on a ``dask.distributed`` cluster: a pool with the interface of
:class:`kg.extractors.workers.WorkerPool`, so a build reads the same mentions in the same
order and comes out byte-identical.

Each worker builds the spaCy pipeline once (the :class:`KgWorker` plugin), after checking
that its kg version, lexicon and extraction code are the driver's; a task extracts one batch
of abstracts and returns the compact ``(mentions, error)`` pairs, not Docs. A paper the
extractors fail on is caught inside its task (the error comes back with it); a worker lost
mid-build loses no paper, since the scheduler runs its tasks again elsewhere.

Dask is an optional extra (``pip install -e '.[dask]'``) and is imported only here, when a
pool opens.
"""

import logging
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from importlib.util import find_spec
from itertools import count, islice
from types import ModuleType
from typing import TYPE_CHECKING, Any

from kg.extractors.records import Mention, PaperRecord, Problem
from kg.extractors.workers import BATCH_SIZE, Found, failures_reported
from kg.scale.identity import this_identity
from kg.scale.refusal import DaskError

if TYPE_CHECKING:
    from distributed import Client, Future

#: ``--dask local:N``: a LocalCluster of N worker processes on this machine.
LOCAL = "local:"
#: Batches in flight per worker: one running, one queued behind it, one on its way back.
IN_FLIGHT_PER_WORKER = 3
#: The Dask settings of the workers of a ``local:N`` cluster.
NO_WORKER_PROFILE = {"distributed.worker.profile.enabled": False}
#: Times a batch whose task raised is run again (a lost worker's tasks are run again by the
#: scheduler, up to ``distributed.scheduler.allowed-failures`` times, whatever this says).
RETRIES = 2
#: Seconds to wait for a remote scheduler to answer, then for its first worker.
CONNECT_TIMEOUT = 15
WORKER_TIMEOUT = 60


def worker_side() -> ModuleType:
    """:mod:`kg.scale.dask_worker` (which imports Dask), or DaskError if Dask is absent."""
    try:
        from kg.scale import dask_worker
    except ImportError as error:
        if (error.name or "").partition(".")[0] not in ("dask", "distributed"):
            raise
        raise DaskError(
            "--dask needs Dask: install kg's extra from its checkout, pip install -e '.[dask]'"
        ) from None
    return dask_worker


def local_workers(address: str) -> int | None:
    """N of ``local:N``, else None (the address of a running scheduler)."""
    if not address.startswith(LOCAL):
        return None
    n = address[len(LOCAL) :]
    if not n.isdigit() or int(n) < 1:
        raise DaskError(f"--dask {address}: write local:N with N >= 1 worker processes")
    return int(n)


class DaskPool:
    """Extraction on a Dask cluster: a running scheduler's address, or ``local:N``.

    ``local:N`` starts a LocalCluster of N single-threaded worker processes on this machine
    (its scheduler and dashboard bound to 127.0.0.1) and shuts it down on close (the ``kg``
    command turns SIGTERM into the same unwinding as Ctrl-C, :mod:`kg.cli_run`); a remote
    cluster is only disconnected from.
    """

    def __init__(self, address: str) -> None:
        self._worker = worker_side()
        import dask
        import distributed

        n = local_workers(address)
        self._local = n is not None
        self._stack = ExitStack()
        try:
            if n is not None:
                # Workers sample their own stacks every 10 ms for the dashboard's profile
                # by default: about a tenth of a build's time on two cores, for a view the
                # build does not need (docs/benchmarks.md).
                self._stack.enter_context(dask.config.set(NO_WORKER_PROFILE))
                cluster = self._stack.enter_context(
                    distributed.LocalCluster(
                        n_workers=n,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",
                        dashboard_address="127.0.0.1:0",  # this machine only, any free port
                        silence_logs=logging.ERROR,
                    )
                )
                self.client: Client = self._stack.enter_context(distributed.Client(cluster))
            else:
                self.client = self._stack.enter_context(_connect(distributed, address))
            plugin = self._worker.KgWorker(this_identity())
            self.client.register_plugin(plugin, name=plugin.name)
            self.refusals()
        except BaseException:
            self._stack.close()
            raise
        # Task keys unique across every driver that shares the cluster.
        token = uuid.uuid4().hex
        self._keys = (f"kg-extract-{n}-{token}" for n in count())

    def worker_side(self) -> ModuleType:
        """:mod:`kg.scale.dask_worker`, the tasks that run on the workers."""
        return self._worker

    @property
    def workers(self) -> int:
        """The cluster's workers now."""
        return len(self.client.scheduler_info()["workers"])

    def describe(self) -> str:
        """The cluster in a few words: its workers, scheduler and dashboard (if any)."""
        info = self.client.scheduler_info()
        text = f"Dask, {len(info['workers'])} workers, scheduler {info['address']}"
        if self._local and find_spec("bokeh"):  # which draws the dashboard
            text += f", dashboard {self.client.dashboard_link}"
        return text

    def refusals(self) -> None:
        """Raise DaskError with the first worker's reason to refuse, if any worker has one."""
        reasons = self.client.run(self._worker.refusal)
        refused = sorted(r for r in reasons.values() if r is not None)
        if refused:
            raise DaskError(f"{refused[0]}; install the driver's kg on every worker")

    def wait_until_ready(self) -> set[str]:
        """Every worker has checked itself and built its pipeline (the plugin's set-up runs
        as it is registered); the workers' addresses."""
        self.refusals()
        return set(self.client.scheduler_info()["workers"])

    def extract(
        self, records: Iterable[PaperRecord], problems: list[Problem] | None = None
    ) -> Iterator[tuple[PaperRecord, list[Mention]]]:
        """``(record, [Mention, ...])`` for each record, in input order, keeping at most
        :data:`IN_FLIGHT_PER_WORKER` batches per worker in flight; the first are submitted
        at once. ``problems`` receives the records the extractors failed on."""
        records = iter(records)
        pending: deque[tuple[list[PaperRecord], Future]] = deque()
        limit = max(self.workers, 1) * IN_FLIGHT_PER_WORKER
        while len(pending) < limit and self._submit(records, pending):
            pass
        return failures_reported(self._results(records, pending), problems)

    def partitions(self, records: Iterable[PaperRecord], size: int = BATCH_SIZE) -> list["Future"]:
        """Every batch of ``size`` records submitted at once: the futures of their
        ``(mentions, error)`` lists, in input order, kept on the workers for tasks that read
        them."""
        records = iter(records)
        return [self._extract(batch) for batch in iter(lambda: list(islice(records, size)), [])]

    def _extract(self, batch: list[PaperRecord]) -> "Future":
        return self.client.submit(
            self._worker.extract_batch,
            [r.abstract for r in batch],
            key=next(self._keys),
            pure=False,
            retries=RETRIES,
        )

    def _submit(self, records: Iterator[PaperRecord], pending: deque) -> bool:
        batch = list(islice(records, BATCH_SIZE))
        if batch:
            pending.append((batch, self._extract(batch)))
        return bool(batch)

    def _results(
        self, records: Iterator[PaperRecord], pending: deque
    ) -> Iterator[tuple[PaperRecord, Found]]:
        while pending:
            batch, future = pending.popleft()
            try:
                found = future.result()
            except DaskError:
                raise
            except Exception as error:
                first, last = batch[0], batch[-1]
                raise DaskError(
                    f"extraction of {first.source}:{first.line or first.index} .. "
                    f"{last.source}:{last.line or last.index} failed on the Dask cluster "
                    f"({type(error).__name__}: {error})"
                ) from error
            future.release()
            yield from zip(batch, found, strict=True)
            self._submit(records, pending)

    def close(self) -> None:
        """Disconnect; a local cluster is shut down, its workers stopped."""
        self._stack.close()

    def __enter__(self) -> "DaskPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _connect(distributed: Any, address: str) -> "Client":
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise DaskError(f"--dask {address}: no Dask scheduler answered ({error})") from None
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
    except TimeoutError:
        client.close()
        raise DaskError(
            f"--dask {address}: the scheduler has had no worker for {WORKER_TIMEOUT} s"
        ) from None
    return client
