"""``kg build --neo4j-import DIR``: the files of ``neo4j-admin database import full`` made
partition by partition, without the networkx graph of the whole corpus.

The driver reads the listings as a stream into partitions, and each corpus-wide decision is
a reduction: every partition summarised where it lies (:mod:`kg.scale.partitioned`), the
summaries merged in a tree in input order, the total decided here and sent back out. The
driver holds the summaries and, per paper, its content hash (to spot duplicates). Each
partition's state (its papers, mentions, graph and rows) lives in files between the passes
(:mod:`kg.scale.spill`): a task holds one partition at a time, and a handle is a path.

An engine (:mod:`kg.scale.engines`) runs the tasks: a Dask cluster's, or this process (the
same passes one after another, the extraction on ``--workers`` processes if given).
"""

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from pathlib import Path
from typing import Any

from kg import schema as S
from kg.errors import InputError
from kg.export import Cleaner
from kg.extractors.read import Problem, read_listings
from kg.extractors.records import PaperRecord
from kg.extractors.workers import failures_reported
from kg.graph import kinds
from kg.graph.identity import Overrides
from kg.graph.people import decide
from kg.rows import type_of
from kg.scale import import_state as state
from kg.scale import partitioned as P
from kg.scale import spill
from kg.scale.engines import Engine, InProcess, reduced, tree_reduce
from kg.scale.import_csv import (
    Columns,
    Headers,
    columns_of,
    header_files,
    merge_columns,
    write_rows,
)

#: Papers per partition.
PARTITION_SIZE = 1024
#: Buckets the shared nodes are spread over (each one merged, and written, by one task).
BUCKETS = 8


@dataclass
class ImportReport:
    """What an import build read and wrote: ``papers`` new in this batch, ``known`` the
    records of papers an earlier batch read, ``total_papers`` in the folder."""

    records: int = 0
    papers: int = 0
    duplicates: int = 0
    partitions: int = 0
    total_papers: int = 0
    known: int = 0
    problems: list[Problem] = field(default_factory=list)
    command: str = ""
    #: The folder's files, and those this build wrote anew (the others it kept as they were).
    files: int = 0
    changed: list[str] = field(default_factory=list)


@dataclass
class _Plan:
    """The partitions as read: their handles, and the duplicates that came after each
    partition's papers."""

    parts: list[Any] = field(default_factory=list)
    duplicates: dict[int, list[P.Planned]] = field(default_factory=dict)


def _planned(
    engine: Engine,
    records: Iterable[PaperRecord],
    report: ImportReport,
    size: int,
    saved: state.Saved,
    directory: Path,
    staging: Path,
) -> _Plan:
    """The ``saved`` partitions' files, then ``records`` read into partitions of ``size``
    papers, each extracted as it fills into ``staging``; ``saved`` then holds them all."""
    plan = _Plan()
    plan.parts = [str(directory / state.EXTRACTED / name) for name in saved.parts]
    seen = saved.index  # content hash: (partition, paper key)
    keys = {key for _, key in seen.values()}
    before = len(keys)
    batch: list[P.Planned] = []

    def extract() -> None:
        i = len(plan.parts)
        kept = str(staging / PASSES / f"papers-{i:05d}.pickle.zst")
        plan.parts.append(
            engine.extract(batch, kept, str(staging / state.EXTRACTED / state.part_name(i)))
        )

    for record in records:
        report.records += 1
        number = saved.records + report.records
        digest = S.content_hash(record.abstract)
        if digest in seen:
            part, key = seen[digest]
            if part < len(saved.parts):
                report.known += 1  # read in an earlier batch: adds its source, as kg build
            else:
                report.duplicates += 1
            plan.duplicates.setdefault(part, []).append((key, digest, record, number))
            continue
        key = S.paper_key(record.abstract, record.external_id)
        if key in keys:
            report.problems.append(
                Problem(
                    record.source,
                    record.line or None,
                    f"record {record.external_id!r} has the id of an earlier record but "
                    "another abstract; skipped (give each paper its own id)",
                )
            )
            continue
        keys.add(key)
        seen[digest] = (len(plan.parts), key)
        batch.append((key, digest, record, number))
        if len(batch) == size:
            extract()
            batch = []
    if batch:
        extract()
    report.papers, report.total_papers = len(keys) - before, len(keys)
    saved.records += report.records
    saved.duplicates += report.duplicates
    saved.parts = [state.part_name(i) for i in range(len(plan.parts))]
    return plan


#: The folder of the partitions' state between the passes, inside the staging folder.
PASSES = ".passes"


def build_import(
    inputs: Iterable[str | os.PathLike[str]],
    directory: str | os.PathLike[str],
    *,
    engine: Engine | None = None,
    format: str | None = None,
    overrides: Overrides | None = None,
    size: int = PARTITION_SIZE,
    buckets: int = BUCKETS,
    import_dir: str | None = None,
    fresh: bool = False,
) -> ImportReport:
    """Read ``inputs`` into neo4j-admin import files in ``directory`` (replaced whole once
    they are all written; left as it was on failure), deciding as ``kg build`` does.

    A folder written so before is added to: its papers come first, and the files equal
    those of one build of its inputs and these (unless ``fresh``: a new folder).
    ``engine`` runs the passes (this process by default); ``import_dir`` is where
    neo4j-admin will see the files (by default ``directory`` itself).
    """
    engine = InProcess() if engine is None else engine
    folder = Path(directory).absolute()
    state.check_folder(folder)
    saved = state.Saved() if fresh else state.read_saved(folder)
    report = ImportReport()
    records = read_listings(inputs, format=format, problems=report.problems)
    old = len(saved.parts)
    folder.parent.mkdir(parents=True, exist_ok=True)
    # Every file is written into a new folder beside ``directory``, put in place at the end.
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        (staging / state.EXTRACTED).mkdir()
        (staging / PASSES).mkdir()
        plan = _planned(engine, records, report, size, saved, folder, staging)
        if not plan.parts:
            detail = f": {report.problems[0]}" if report.problems else ""
            raise InputError(f"no paper could be read from the inputs{detail}")
        report.partitions = len(plan.parts)
        work = staging / PASSES
        first = [
            engine.submit(_mentions, p, _state_path(work, "mentions", i))
            for i, p in enumerate(plan.parts)
        ]
        _note_failures(engine, first[old:], report.problems)
        # Fewer buckets than partitions: a small input gets few files.
        count = max(1, min(buckets, len(plan.parts)))
        rows, columns = _decided_rows(engine, plan, first, overrides, count, work)
        report.command, report.changed = _written(
            engine, rows, columns, plan, saved, old, staging, folder, import_dir
        )
        report.files = len(state.staging_files(folder))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return report


def _note_failures(engine: Engine, first: list[Any], problems: list[Problem]) -> None:
    """Report the papers whose extraction failed (kept without entities), from the first
    pass's handles (:func:`_mentions`)."""
    for failed in map(engine.result, [engine.submit(_nth, h, 1) for h in first]):
        list(failures_reported(failed, problems))


def _state_path(work: Path, name: str, i: int) -> str:
    """The file of partition ``i``'s state after the pass ``name``."""
    return str(work / f"{name}-{i:05d}.pickle.zst")


def _decided_rows(
    engine: Engine,
    plan: _Plan,
    first: list[Any],
    overrides: Overrides | None,
    buckets: int,
    work: Path,
) -> tuple[list[tuple[Any, str]], list[Any]]:
    """The passes after the first (``first``: the handles of each partition's
    :func:`_mentions`), each partition's state kept in ``work``: the handles of every
    partition's and bucket's rows, and of each partition's SIMILAR_TO, with the suffix of
    their files, and the handles of their columns (:func:`columns_of`), every corpus-wide
    decision taken (by tasks: summaries and decisions stay on the workers). A summary of
    what a pass leaves is taken by the pass itself."""

    def at(name: str, i: int) -> str:
        return _state_path(work, name, i)

    def each(
        fn: Callable[..., Any],
        name: str,
        handles: list[Any],
        summary: Callable,
        merge: Callable,
        *args: Any,
    ) -> tuple[list[Any], Any]:
        done = [
            submit(spill.saved_summarised, fn, summary, h, at(name, i), *args)
            for i, h in enumerate(handles)
        ]
        return nth(done, 0), tree_reduce(engine, nth(done, 1), merge)

    def nth(handles: list[Any], n: int) -> list[Any]:
        return [submit(_nth, h, n) for h in handles]

    share, submit = engine.share, engine.submit
    defs = tree_reduce(engine, nth(first, 2), P.merge_definitions)
    senses = share(submit(P.decided_senses, defs))
    stage, counted = each(
        P.first_stage, "first", nth(first, 0), P.name_counts, P.merge_name_counts, senses
    )
    names, forms = share(submit(P.display_names, counted)), share(submit(P.chosen, counted))
    stage, votes = each(P.second_stage, "second", stage, P.votes, P.merge_votes, names, forms)
    decided = share(submit(kinds.decide, votes))
    counts = reduced(engine, stage, P.display_counts, kinds.merge_display, decided)
    display = share(submit(kinds.chosen_names, counts))
    stage, methods = each(
        P.typed_stage, "typed", stage, P.methods, P.merge_methods, decided, display
    )
    variants = submit(P.variants, methods)
    others, links = share(submit(kinds.other_types, decided, display)), share(variants)
    made = [
        submit(
            _part_graph,
            part,
            s,
            [at("graph", i), at("similar", i)],
            plan.duplicates.get(i, []),
            others,
            links,
        )
        for i, (part, s) in enumerate(zip(plan.parts, stage, strict=True))
    ]
    graphs, similar = nth(made, 0), nth(made, 1)
    text = submit(spill.on_each_saved, P.similar_text, similar)  # costly: while the rest goes on
    people = share(submit(decide, tree_reduce(engine, nth(made, 2), P.merge_people), overrides))
    split = [
        submit(
            _split_rows, g, people, [at("own", i), *(at(f"share{b}", i) for b in range(buckets))]
        )
        for i, g in enumerate(graphs)
    ]
    own = nth(split, 0)
    merged = [submit(_merged_bucket, nth(split, b + 1), at("bucket", b)) for b in range(buckets)]
    ranked = submit(
        _similar_rows,
        similar,
        nth(merged, 2),
        text,
        [at("ranked", i) for i in range(len(own))],
    )
    rows = [
        *((h, f"p{i:05d}") for i, h in enumerate(own)),
        *((h, f"b{b:04d}") for b, h in enumerate(nth(merged, 0))),
        *((submit(_nth, ranked, i), f"p{i:05d}") for i in range(len(own))),
    ]
    return rows, [*nth(split, -1), *nth(merged, 1), submit(_nth, ranked, -1)]


def _mentions(part: str, dst: str) -> tuple[str, list[tuple[PaperRecord, Any]], Any]:
    """Task: the mentions of the partition saved at ``part`` (checked), saved to ``dst``;
    ``dst``, the papers whose extraction failed, with why, and the summary of the
    abbreviations the mentions define (:func:`P.definitions`)."""
    saved = state.load_part(part)
    papers = (record for _, _, record, _ in saved.papers)
    failed = [(r, f) for r, f in zip(papers, saved.found, strict=True) if f[1] is not None]
    stage = P.mentions_of(saved)
    return spill.dump(stage, dst), failed, P.definitions(stage)


def _part_graph(part: str, stage: str, paths: list[str], *args: Any) -> tuple[str, str, Any]:
    """Task: pass 6 (:func:`P.part_graph`) of the saved partition and its saved mentions,
    saved to the first of ``paths``, and what SIMILAR_TO needs of its papers to the second;
    the paths and the partition's summary for author identity."""
    graph = P.part_graph(state.load_part(part), spill.load(stage), *args)
    saved = spill.dump(graph, paths[0]), spill.dump(P.similar_papers(graph), paths[1])
    return *saved, P.people_summary(graph)


def _split_rows(graph: str, people: Any, paths: list[str]) -> list[Any]:
    """Task: pass 7 of a saved partition graph, its own rows saved to the first of
    ``paths`` and its share of each bucket to the others; the paths, then the columns of
    its own rows."""
    own, shares = P.part_rows(spill.load(graph), people, len(paths) - 1)
    saved = [spill.dump(value, path) for value, path in zip([own, *shares], paths, strict=True)]
    return [*saved, columns_of(own)]


def _nth(values: Sequence[Any], n: int) -> Any:
    return values[n]


def _merged_bucket(shares: list[str], dst: str) -> tuple[str, Any, dict[str, str]]:
    """Task: one bucket merged from every partition's saved share, saved to ``dst``; the
    path, the bucket's columns and the names of its concepts (:func:`P.concept_names`)."""
    bucket = P.merged_bucket([spill.load(s) for s in shares])
    return spill.dump(bucket, dst), columns_of(bucket), P.concept_names(bucket)


def _similar_rows(
    similar: list[str], names: list[dict[str, str]], text: Any, paths: list[str]
) -> list[Any]:
    """Task: SIMILAR_TO over every partition's saved papers (texts dropped: the text part is
    done), concepts named as the buckets name them; each partition's rows saved to its path
    (made one partition at a time). The paths, then the columns of every row."""
    named = {key: name for part in names for key, name in part.items()}
    papers = [[(k, title, "", c) for k, title, _, c in spill.load(s)] for s in similar]
    saved, columns = [], []
    for rows, path in zip(P.similar_rows(papers, named, text), paths, strict=True):
        saved.append(spill.dump(rows, path))
        columns.append(columns_of(rows))
    none: Columns = {}
    return [*saved, reduce(merge_columns, columns, none)]


def _written(
    engine: Engine,
    rows: list[tuple[Any, str]],
    columns_of_rows: list[Any],
    plan: _Plan,
    saved: state.Saved,
    old: int,
    staging: Path,
    directory: Path,
    import_dir: str | None,
) -> tuple[str, list[str]]:
    """Write every partition's and bucket's files, the header files, the constraints, the
    import command and what a later batch reads into ``staging``, then put it where
    ``directory`` is (``columns_of_rows``: the handles of the rows' columns); the command,
    and the files that changed."""
    columns = engine.result(tree_reduce(engine, columns_of_rows, merge_columns))
    headers: Headers = {
        group: [(name, type_of(kinds_)) for name, kinds_ in sorted(cols.items())]
        for group, cols in columns.items()
    }
    kept = [
        engine.submit(
            state.keep_part, part, plan.duplicates.get(i, []), str(staging / state.EXTRACTED / name)
        )
        for i, (part, name) in enumerate(zip(plan.parts, saved.parts, strict=True))
        if i < old or plan.duplicates.get(i)
    ]
    shared = engine.share(headers)
    tasks = [
        engine.submit(spill.on_saved, write_rows, r, shared, str(staging), suffix)
        for r, suffix in rows
    ]
    for handle in kept:
        engine.result(handle)
    state.write_state(staging, saved)
    by_group: dict[tuple[str, str], list[str]] = {}
    cleaned = 0
    for written, changed in map(engine.result, tasks):
        cleaned += changed
        for group, name in written:
            by_group.setdefault(group, []).append(name)
    command = header_files(staging, headers, by_group, import_dir or str(directory))
    shutil.rmtree(staging / PASSES)
    changed = state.replace_folder(staging, directory)
    if cleaned:
        Cleaner.changed_note(cleaned, "the neo4j-admin CSV files")
    return command, changed
