"""Where an import build's tasks run (:mod:`kg.scale.imports`): a Dask cluster
(:class:`DaskEngine`: a handle is a future) or this process (:class:`InProcess`: a handle
is its value), and the reductions over partitions both run alike."""

import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from kg.extractors.workers import mentions_of_texts
from kg.scale import partitioned as P
from kg.scale import spill

if TYPE_CHECKING:
    from concurrent.futures import Future

    from kg.extractors.workers import Found, WorkerPool
    from kg.scale.dask_pool import DaskPool


class Engine(Protocol):
    """Where the tasks run: ``submit`` a function to run on handles (or values), take a
    handle's ``result``, ``share`` a value every task may read, ``extract`` papers (the
    file ``kept`` holds them for a task on another machine to read; their extraction is
    saved to ``path``, the handle's value)."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any: ...
    def result(self, handle: Any) -> Any: ...
    def share(self, value: Any) -> Any: ...
    def extract(self, papers: list[P.Planned], kept: str, path: str) -> Any: ...


class InProcess:
    """Every task run here at once, a handle its value; the extraction here too, or on the
    worker processes of ``pool`` (``--workers N``), a partition's handle then its future
    until a task needs it."""

    def __init__(self, pool: "WorkerPool | None" = None) -> None:
        self.pool = pool
        self._nlp: Any = None

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(*map(self.result, args))

    def result(self, handle: Any) -> Any:
        if isinstance(handle, _Extracting):
            return handle.saved()
        return handle

    def share(self, value: Any) -> Any:
        return value

    def extract(self, papers: list[P.Planned], kept: str, path: str) -> "str | _Extracting":
        texts = [record.abstract for _, _, record, _ in papers]
        if self.pool is not None:
            return _Extracting(papers, self.pool.submit_texts(texts), path)
        if self._nlp is None:
            from kg.extractors.nlp import build_nlp

            self._nlp = build_nlp()
        return spill.dump(P.Part(papers, mentions_of_texts(self._nlp, texts)), path)


@dataclass
class _Extracting:
    """A partition on its way back from a worker process, to be saved to ``path``."""

    papers: list[P.Planned]
    found: "Future[list[Found]] | None"
    path: str

    def saved(self) -> str:
        """The path, the partition saved there once its extraction is back."""
        if self.found is not None:
            spill.dump(P.Part(self.papers, self.found.result()), self.path)
            self.papers, self.found = [], None
        return self.path


class DaskEngine:
    """Tasks on the cluster of an open :class:`kg.scale.dask_pool.DaskPool`; a handle is a
    future."""

    def __init__(self, pool: "DaskPool") -> None:
        self.pool = pool
        self._workers: list[str] = []
        #: Each task's home: the worker its partition was extracted on, which the tasks
        #: that follow from it prefer (any other may run them, if that one is busy or gone).
        self._home: dict[str, str] = {}

    def submit(self, fn: Callable[..., Any], *args: Any, home: str | None = None) -> Any:
        from kg.scale.dask_pool import RETRIES

        key = f"kg-{fn.__name__}-{uuid.uuid4().hex}"
        if home is None:
            home = next(
                (self._home[k] for a in args if (k := getattr(a, "key", "")) in self._home), None
            )
        where = {"workers": [home], "allow_other_workers": True} if home else {}
        future = self.pool.client.submit(fn, *args, key=key, pure=False, retries=RETRIES, **where)
        if home:
            self._home[key] = home
        return future

    def result(self, handle: Any) -> Any:
        return handle.result()

    def share(self, value: Any) -> Any:
        """A task's result (a future), or a task that holds ``value``, on every worker:
        unlike scattered data, it is made again if the workers holding it are lost."""
        from distributed import Future

        if isinstance(value, Future):
            held = value
        else:
            with warnings.catch_warnings():  # Dask's warning on large values in a task
                warnings.simplefilter("ignore", UserWarning)
                held = self.submit(_value, value)
        # On every worker before the tasks that read it are placed: else each would go
        # where the (larger) decision is, and its partition would travel to it.
        self.pool.client.replicate([held])
        return held

    def extract(self, papers: list[P.Planned], kept: str, path: str) -> Any:
        """The partition's extraction, its home the next worker in turn; the task reads
        the papers from ``kept`` (so that the scheduler holds a path, not the papers)."""
        if not self._workers:
            self._workers = sorted(self.pool.client.scheduler_info()["workers"])
        home = self._workers[len(self._home) % len(self._workers)]
        spill.dump(papers, kept)
        return self.submit(self.pool.worker_side().extract_saved, kept, path, home=home)


def _value(value: Any) -> Any:
    return value


def tree_reduce(engine: Engine, handles: list[Any], merge: Callable[[Any, Any], Any]) -> Any:
    """The handle of ``merge`` over ``handles`` (at least one), neighbours merged pairwise
    in order, level by level, as tasks (the value stays where the tasks run)."""
    while len(handles) > 1:
        pairs = [
            engine.submit(merge, a, b) for a, b in zip(handles[::2], handles[1::2], strict=False)
        ]
        handles = pairs + handles[len(pairs) * 2 :]
    return handles[0]


def reduced(
    engine: Engine, parts: list[Any], summary: Callable[..., Any], merge: Callable, *args: Any
) -> Any:
    """``merge`` over the ``summary`` of every partition's saved state (``args`` shared)."""
    handles = [engine.submit(spill.on_saved, summary, p, *args) for p in parts]
    return tree_reduce(engine, handles, merge)
