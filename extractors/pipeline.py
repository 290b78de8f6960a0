"""The extraction entry: records in, ``(record, [Mention, ...])`` out, streaming.

The spaCy pipeline comes from :func:`build_nlp` (:mod:`kg.extractors.nlp`); one abstract's
mentions from :func:`find_mentions` (:mod:`kg.extractors.find`); the batches and the
process pool from :mod:`kg.extractors.workers`.
"""

from collections.abc import Iterable, Iterator

from spacy.language import Language

from kg.extractors.find import find_mentions
from kg.extractors.nlp import build_nlp
from kg.extractors.records import Mention, PaperRecord, Problem
from kg.extractors.workers import WorkerPool, extract_serially

__all__ = ["build_nlp", "extract_mentions", "find_mentions"]


def extract_mentions(
    records: Iterable[PaperRecord],
    *,
    workers: int = 1,
    nlp: Language | None = None,
    problems: list[Problem] | None = None,
) -> Iterator[tuple[PaperRecord, list[Mention]]]:
    """Yield ``(record, [Mention, ...])`` for each record, in input order, streaming.

    With ``workers > 1`` a :class:`WorkerPool` does the work: each worker builds the
    pipeline once and sends back only the compact mentions. A record the extractors fail
    on yields no mentions, and ``problems`` (a list) receives a Problem naming it.
    """
    if workers > 1:
        with WorkerPool(workers) as pool:
            yield from pool.extract(records, problems)
    else:
        yield from extract_serially(records, nlp or build_nlp(), problems)
