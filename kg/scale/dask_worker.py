"""What runs on a Dask worker: the plugin that sets kg up there, and the extraction task.

Imported only where Dask is installed (by :mod:`kg.scale.dask_pool` as a pool opens, and by
the workers as they unpickle the plugin).
"""

import threading
from typing import Any

from distributed import WorkerPlugin, get_worker

from kg.extractors.workers import Found, mentions_of_texts
from kg.scale import spill
from kg.scale.identity import Identity, this_identity
from kg.scale.partitioned import Part, Planned
from kg.scale.refusal import DaskError


class KgWorker(WorkerPlugin):
    """Checks the worker against the driver, then builds the pipeline, once per worker.

    A worker that differs from the driver keeps the reason and refuses every task with it
    (a build whose papers came from different lexicons would not be the same build).
    """

    name = "kg-extract"

    def __init__(self, driver: Identity) -> None:
        self.driver = driver
        self.refusal: str | None = None
        self.nlp: Any = None
        self.lock = threading.Lock()

    def setup(self, worker: Any) -> None:
        """Run on each worker as it joins, or as the plugin is registered."""
        mismatch = this_identity().mismatch(self.driver)
        if mismatch is not None:
            self.refusal = f"Dask worker {worker.address} runs {mismatch}"
            return
        from kg.extractors.nlp import build_nlp

        self.nlp = build_nlp()

    def __getstate__(self) -> dict[str, Any]:
        return {"driver": self.driver}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.driver = state["driver"]
        self.refusal, self.nlp, self.lock = None, None, threading.Lock()


def extract_batch(texts: list[str]) -> list[Found]:
    """The task: ``(mentions, error)`` for each text, on this worker's pipeline."""
    plugin = get_worker().plugins.get(KgWorker.name)
    if not isinstance(plugin, KgWorker):
        raise DaskError("a Dask worker has no kg plugin: it joined but never set kg up")
    if plugin.refusal is not None:
        raise DaskError(plugin.refusal)
    with plugin.lock:  # one pipeline per worker, however many threads it runs
        return mentions_of_texts(plugin.nlp, texts)


def extract_saved(src: str, dst: str) -> str:
    """The task of ``--neo4j-import``: the partition whose papers are saved at ``src``,
    with their extraction, saved to ``dst``."""
    papers: list[Planned] = spill.load(src)
    return spill.dump(Part(papers, extract_batch([r.abstract for _, _, r, _ in papers])), dst)


def refusal(dask_worker: Any) -> str | None:
    """Why this worker refuses kg's tasks, or None (run on each worker by ``Client.run``)."""
    plugin = dask_worker.plugins.get(KgWorker.name)
    return plugin.refusal if isinstance(plugin, KgWorker) else "a Dask worker has no kg plugin"
