"""`kg extract`: listings in, one GUIDELINES.md record per paper out (JSONL), for scoring.

Example::

    from kg.store.extraction import extract_to_jsonl
    extract_to_jsonl(["seeds/"], "out.jsonl", workers=2)
"""

import json
from collections.abc import Iterable, Sequence
from os import PathLike
from typing import Any

from kg.errors import InputError
from kg.extractors.pipeline import extract_mentions
from kg.extractors.read import Problem, read_listings
from kg.extractors.records import Mention, PaperRecord
from kg.files import atomic_output
from kg.graph.resolve import resolve_corpus
from kg.schema import SCORED_TYPES, content_hash, paper_key
from kg.store.graphfile import paused_gc


def paper_record(record: PaperRecord, mentions: Iterable[Mention]) -> dict[str, Any]:
    """The GUIDELINES.md record of one paper, with evidence offsets and sentences."""
    return {
        "id": content_hash(record.abstract),
        "source": record.source,
        "index": record.index,
        "authors": list(record.authors),
        "authors_truncated": record.authors_truncated,
        "category": record.area,
        "entities": [
            {
                "text": m.text,
                "type": m.type,
                "role": m.role,
                "canonical": m.canonical,
                "start": m.start,
                "end": m.end,
                "sentence": m.sentence,
                "rule": m.rule,
                "score": m.score,
            }
            for m in mentions
            if m.type in SCORED_TYPES
        ],
    }


def extract_records(
    inputs: Iterable[str | PathLike[str]],
    *,
    format: str | None = None,
    workers: int = 1,
    problems: list[Problem] | None = None,
) -> list[tuple[PaperRecord, Sequence[Mention]]]:
    """(record, resolved mentions) for every paper of the inputs, in input order."""
    problems = [] if problems is None else problems
    records = read_listings(inputs, format=format, problems=problems)
    pairs = list(extract_mentions(records, workers=workers, problems=problems))
    if not pairs:
        detail = f": {problems[0]}" if problems else ""
        raise InputError(f"no paper could be read from the inputs{detail}")
    keys = [paper_key(r.abstract, r.external_id) for r, _ in pairs]
    with paused_gc():  # Counters and mentions by the hundred thousand, no cycles
        resolved = resolve_corpus([(k, ms) for k, (_, ms) in zip(keys, pairs, strict=True)])
    return [(r, ms) for (r, _), (_, ms) in zip(pairs, resolved, strict=True)]


def extract_to_jsonl(
    inputs: Iterable[str | PathLike[str]],
    output: str | PathLike[str],
    *,
    format: str | None = None,
    workers: int = 1,
    problems: list[Problem] | None = None,
) -> int:
    """Write one record per paper to ``output`` atomically; returns the number of papers."""
    pairs = extract_records(inputs, format=format, workers=workers, problems=problems)
    with atomic_output(output, "the extraction records") as fh, paused_gc():
        for record, mentions in pairs:
            fh.write(json.dumps(paper_record(record, mentions), ensure_ascii=False) + "\n")
    return len(pairs)
