"""Corpus-wide summaries reduced on a Dask cluster: each partition summarised where its
mentions are, the summaries merged in a tree, only the total coming back to the driver.

The first pass of ``--neo4j-import`` (docs/scale.md), so far for the acronym senses:
:func:`corpus_definitions` equals merging :func:`kg.graph.senses.summarise` of every paper
in input order, since the tree merges neighbours in order and ``merge`` is associative.
"""

import copy
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from kg.extractors.records import PaperRecord
from kg.extractors.workers import BATCH_SIZE, Found
from kg.graph import senses

if TYPE_CHECKING:
    from distributed import Client, Future

    from kg.scale.dask_pool import DaskPool


def definitions_of(found: list[Found]) -> senses.Definitions:
    """The acronym definitions of one partition's papers, in order."""
    total: senses.Definitions = {}
    for mentions, _ in found:
        senses.merge(total, senses.summarise(mentions))
    return total


def merged_definitions(a: senses.Definitions, b: senses.Definitions) -> senses.Definitions:
    """``senses.merge`` of copies: a task must not change what another task made (the
    scheduler may run it again, or hand the same result to another task)."""
    return senses.merge(copy.deepcopy(a), copy.deepcopy(b))


def tree_reduce(
    client: "Client", futures: list["Future"], merge: Callable[[Any, Any], Any]
) -> "Future":
    """One future of ``merge`` over ``futures`` (at least one), neighbours merged pairwise in
    order, level by level, on the cluster."""
    while len(futures) > 1:
        pairs = [
            client.submit(merge, a, b, pure=False)
            for a, b in zip(futures[::2], futures[1::2], strict=False)
        ]
        futures = pairs + futures[len(pairs) * 2 :]
    return futures[0]


def corpus_definitions(
    pool: "DaskPool", records: Iterable[PaperRecord], size: int = BATCH_SIZE
) -> senses.Definitions:
    """The acronym definitions of all ``records``, extracted and summarised on the cluster in
    partitions of ``size`` records."""
    parts = pool.partitions(records, size)
    if not parts:
        return {}
    summaries = [pool.client.submit(definitions_of, part, pure=False) for part in parts]
    return tree_reduce(pool.client, summaries, merged_definitions).result()
