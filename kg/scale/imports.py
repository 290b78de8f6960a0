"""``kg build --neo4j-import DIR``: the files of ``neo4j-admin database import full`` made
partition by partition, without the networkx graph of the whole corpus.

The driver reads the listings as a stream into partitions, and each corpus-wide decision is
a reduction: every partition summarised where it lies (:mod:`kg.scale.partitioned`), the
summaries merged in a tree in input order, the total decided here and sent back out. The
driver holds the summaries and, per paper, its content hash (to spot duplicates); the
partitions' mentions, graphs and rows stay on the workers, which write the files.

An :class:`Engine` runs the tasks: a Dask cluster's (:class:`DaskEngine`), or this process
(:class:`InProcess`: the same passes one after another, the extraction on ``--workers``
processes if given).
"""

import csv
import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kg import schema as S
from kg.errors import InputError
from kg.export import ARRAY_DELIMITER, Cleaner, cell, header_cell, import_command
from kg.extractors.read import Problem, read_listings
from kg.extractors.records import PaperRecord
from kg.extractors.workers import failures_reported, mentions_of_texts
from kg.files import atomic_output
from kg.graph import kinds, resolve, senses
from kg.graph.identity import Overrides
from kg.graph.people import decide
from kg.graph.variants import lexicon_families, variant_links
from kg.neo4j.connection import NEO4J
from kg.rows import Props, type_of
from kg.scale import import_state as state
from kg.scale import partitioned as P

if TYPE_CHECKING:
    from concurrent.futures import Future

    from kg.extractors.workers import Found, WorkerPool
    from kg.scale.dask_pool import DaskPool

#: Papers per partition.
PARTITION_SIZE = 1024
#: Buckets the shared nodes are spread over (each one merged, and written, by one task).
BUCKETS = 8


class Engine(Protocol):
    """Where the tasks run: ``submit`` a function to run on handles (or values), take a
    handle's ``result``, ``share`` a value every task may read, ``extract`` papers."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any: ...
    def result(self, handle: Any) -> Any: ...
    def share(self, value: Any) -> Any: ...
    def extract(self, papers: list[P.Planned]) -> Any: ...


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
            return P.Part(handle.papers, handle.found.result())
        return handle

    def share(self, value: Any) -> Any:
        return value

    def extract(self, papers: list[P.Planned]) -> "P.Part | _Extracting":
        texts = [record.abstract for _, _, record, _ in papers]
        if self.pool is not None:
            return _Extracting(papers, self.pool.submit_texts(texts))
        if self._nlp is None:
            from kg.extractors.nlp import build_nlp

            self._nlp = build_nlp()
        return P.Part(papers, mentions_of_texts(self._nlp, texts))


@dataclass
class _Extracting:
    """A partition on its way back from a worker process."""

    papers: list[P.Planned]
    found: "Future[list[Found]]"


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
        """A task that holds ``value``, on every worker: unlike scattered data, it is made
        again if the workers holding it are lost (the scheduler keeps the value in the
        task)."""
        with warnings.catch_warnings():  # Dask's warning on large values in a task
            warnings.simplefilter("ignore", UserWarning)
            held = self.submit(_value, value)
        # On every worker before the tasks that read it are placed: else each would go
        # where the (larger) decision is, and its partition would travel to it.
        self.pool.client.replicate([held])
        return held

    def extract(self, papers: list[P.Planned]) -> Any:
        """The partition's extraction, its home the next worker in turn."""
        if not self._workers:
            self._workers = sorted(self.pool.client.scheduler_info()["workers"])
        home = self._workers[len(self._home) % len(self._workers)]
        return self.submit(self.pool.worker_side().extract_part, papers, home=home)


def _value(value: Any) -> Any:
    return value


def tree_reduce(engine: Engine, handles: list[Any], merge: Callable[[Any, Any], Any]) -> Any:
    """The value of ``merge`` over ``handles`` (at least one), neighbours merged pairwise
    in order, level by level, as tasks."""
    while len(handles) > 1:
        pairs = [
            engine.submit(merge, a, b) for a, b in zip(handles[::2], handles[1::2], strict=False)
        ]
        handles = pairs + handles[len(pairs) * 2 :]
    return engine.result(handles[0])


def reduced(
    engine: Engine, parts: list[Any], summary: Callable[..., Any], merge: Callable, *args: Any
) -> Any:
    """``merge`` over the ``summary`` of every partition (``args`` shared)."""
    return tree_reduce(engine, [engine.submit(summary, p, *args) for p in parts], merge)


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
) -> _Plan:
    """The ``saved`` partitions, then ``records`` read into partitions of ``size`` papers,
    each extracted as it fills; ``saved`` then holds them all."""
    plan = _Plan()
    plan.parts = [
        engine.submit(state.load_part, str(directory / state.EXTRACTED / name))
        for name in saved.parts
    ]
    seen = saved.index  # content hash: (partition, paper key)
    keys = {key for _, key in seen.values()}
    before = len(keys)
    batch: list[P.Planned] = []
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
            plan.parts.append(engine.extract(batch))
            batch = []
    if batch:
        plan.parts.append(engine.extract(batch))
    report.papers, report.total_papers = len(keys) - before, len(keys)
    saved.records += report.records
    saved.duplicates += report.duplicates
    saved.parts = [state.part_name(i) for i in range(len(plan.parts))]
    return plan


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
    plan = _planned(engine, records, report, size, saved, folder)
    if not plan.parts:
        detail = f": {report.problems[0]}" if report.problems else ""
        raise InputError(f"no paper could be read from the inputs{detail}")
    report.partitions = len(plan.parts)
    _note_failures(engine, plan.parts[old:], report.problems)
    # Fewer buckets than partitions: a small input gets few files.
    rows = _decided_rows(engine, plan, overrides, max(1, min(buckets, len(plan.parts))))
    report.command = _written(engine, rows, plan, saved, folder, import_dir)
    return report


def _note_failures(engine: Engine, parts: list[Any], problems: list[Problem]) -> None:
    """Report the papers whose extraction failed (kept without entities)."""
    for failed in map(engine.result, [engine.submit(_failures, p) for p in parts]):
        list(failures_reported(failed, problems))


def _failures(part: P.Part) -> list[tuple[PaperRecord, Any]]:
    return [
        (r, f) for (_, _, r, _), f in zip(part.papers, part.found, strict=True) if f[1] is not None
    ]


def _decided_rows(
    engine: Engine, plan: _Plan, overrides: Overrides | None, buckets: int
) -> list[Any]:
    """The passes: each partition's rows (handles), every corpus-wide decision taken."""
    share, submit = engine.share, engine.submit
    stage = [submit(P.mentions_of, p) for p in plan.parts]
    defs = reduced(engine, stage, P.definitions, P.merge_definitions)
    table = share(senses.decide(defs, senses.shipped_lexicon()))
    stage = [submit(P.first_stage, s, table) for s in stage]
    names, forms = map(resolve.chosen, reduced(engine, stage, P.name_counts, P.merge_name_counts))
    named, formed = share(names), share(forms)
    stage = [submit(P.second_stage, s, named, formed) for s in stage]
    decisions = kinds.decide(reduced(engine, stage, P.votes, P.merge_votes))
    decided = share(decisions)
    counts = reduced(engine, stage, P.display_counts, kinds.merge_display, decided)
    display = kinds.chosen_names(counts)
    stage = [submit(P.typed_stage, s, decided, share(display)) for s in stage]
    variants = variant_links(reduced(engine, stage, P.methods, P.merge_methods), lexicon_families())
    others, links = share(kinds.other_types(decisions, display)), share(variants)
    graphs = [
        submit(P.part_graph, part, s, plan.duplicates.get(i, []), others, links)
        for i, (part, s) in enumerate(zip(plan.parts, stage, strict=True))
    ]
    similar = [submit(P.similar_papers, g) for g in graphs]
    text = submit(P.similar_text, similar)  # the costly part, while the rest goes on
    people = share(decide(reduced(engine, graphs, P.people_summary, P.merge_people), overrides))
    split = [submit(P.part_rows, g, people, buckets) for g in graphs]
    own = [submit(_own_rows, s) for s in split]
    merged = [
        submit(P.merged_bucket, [submit(_share_of, s, b) for s in split]) for b in range(buckets)
    ]
    return [*own, *merged, submit(P.similar_rows, similar, merged, text)]


def _own_rows(split: tuple[P.Rows, list[P.Bucket]]) -> P.Rows:
    return split[0]


def _share_of(split: tuple[P.Rows, list[P.Bucket]], bucket: int) -> P.Bucket:
    return split[1][bucket]


# ---------------------------------------------------------------- the files

#: {("node", kind) or ("relationship", type): {property: the Python types of its values}}.
Columns = dict[tuple[str, str], dict[str, set[type]]]


def columns_of(rows: P.Rows) -> Columns:
    """The properties of some rows and the types of their values, by file."""
    found: Columns = {}
    groups = [(("node", k), [r.props for r in rs]) for k, rs in rows.nodes.items()]
    groups += [(("relationship", t), [r.props for r in rs]) for t, rs in rows.relationships.items()]
    for group, props in groups:
        into = found.setdefault(group, {})
        for row in props:
            for name, value in row.items():
                into.setdefault(name, set()).add(type(value))
    return found


def merge_columns(a: Columns, b: Columns) -> Columns:
    """Both files' columns (a new summary)."""
    total = {group: {n: set(t) for n, t in cols.items()} for group, cols in a.items()}
    for group, cols in b.items():
        into = total.setdefault(group, {})
        for name, kinds_ in cols.items():
            into.setdefault(name, set()).update(kinds_)
    return total


#: {group: [(property, neo4j-admin type)]}: each file's columns, names sorted.
Headers = dict[tuple[str, str], list[tuple[str, str]]]


def write_rows(rows: P.Rows, headers: Headers, directory: str, suffix: str) -> tuple[list, int]:
    """Write one partition's (or bucket's) rows, one file per kind and type without a header
    line; ([(group, file name)], values cleaned)."""
    clean = Cleaner()
    written = []
    for kind, nodes in sorted(rows.nodes.items()):
        group = ("node", kind)
        name = f"nodes-{kind}-{suffix}.csv"
        labels = ARRAY_DELIMITER.join(S.labels_of(kind))
        with atomic_output(Path(directory, name), "the node file", newline="") as out:
            writer = csv.writer(out)
            for node in nodes:
                cells = _cells(node.props, headers[group], clean)
                writer.writerow([clean(node.key), *cells, labels])
        written.append((group, name))
    for rel_type, rels in sorted(rows.relationships.items()):
        group = ("relationship", rel_type)
        name = f"relationships-{rel_type}-{suffix}.csv"
        with atomic_output(Path(directory, name), "the relationship file", newline="") as out:
            writer = csv.writer(out)
            for rel in rels:
                cells = _cells(rel.props, headers[group], clean)
                writer.writerow([clean(rel.start), clean(rel.end), rel_type, *cells])
        written.append((group, name))
    return written, clean.changed


def _cells(props: Props, columns: list[tuple[str, str]], clean: Cleaner) -> list[str]:
    return [cell(clean(props.get(name))) for name, _ in columns]


def _written(
    engine: Engine,
    rows: list[Any],
    plan: _Plan,
    saved: state.Saved,
    directory: Path,
    import_dir: str | None,
) -> str:
    """Write every partition's and bucket's files, the header files, the constraints, the
    import command and what a later batch reads into a new folder beside ``directory``,
    then put it in its place; the command."""
    partitions = len(plan.parts)
    columns = reduced(engine, rows, columns_of, merge_columns)
    headers: Headers = {
        group: [(name, type_of(kinds_)) for name, kinds_ in sorted(cols.items())]
        for group, cols in columns.items()
    }
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    try:
        (staging / state.EXTRACTED).mkdir()
        kept = [
            engine.submit(
                state.save_part,
                part,
                plan.duplicates.get(i, []),
                str(staging / state.EXTRACTED / name),
            )
            for i, (part, name) in enumerate(zip(plan.parts, saved.parts, strict=True))
        ]
        shared = engine.share(headers)
        tasks = [
            engine.submit(write_rows, r, shared, str(staging), _suffix(i, partitions, len(rows)))
            for i, r in enumerate(rows)
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
        command = _header_files(staging, headers, by_group, import_dir or str(directory))
        state.replace_folder(staging, directory)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if cleaned:
        Cleaner.changed_note(cleaned, "the neo4j-admin CSV files")
    return command


def _suffix(i: int, partitions: int, files: int) -> str:
    """``p00003`` for the third partition's files, ``b0002`` for the second bucket's,
    ``similar`` for the last of ``files`` (the SIMILAR_TO relationships)."""
    if i == files - 1:
        return "similar"
    return f"p{i:05d}" if i < partitions else f"b{i - partitions:04d}"


def _header_files(
    staging: Path, headers: Headers, by_group: dict[tuple[str, str], list[str]], seen_at: str
) -> str:
    """Write one header file per kind and type, the constraints and the command; return it."""
    nodes: list[str] = []
    rels: list[str] = []
    for (what, name), columns in sorted(headers.items()):
        typed = [header_cell(n, t) for n, t in columns]
        if what == "node":
            header = f"nodes-{name}-header.csv"
            line = ["key:ID", *typed, ":LABEL"]
        else:
            header = f"relationships-{name}-header.csv"
            line = [":START_ID", ":END_ID", ":TYPE", *typed]
        with atomic_output(staging / header, "a header file", newline="") as out:
            csv.writer(out).writerow(line)
        files = ",".join(f"{seen_at}/{f}" for f in [header, *sorted(by_group[(what, name)])])
        (nodes if what == "node" else rels).append(files)
    with atomic_output(staging / "constraints.cypher", "the constraints file") as out:
        out.write("".join(f"{s};\n" for s in NEO4J.key_schema_statements(set())))
    command = import_command(nodes, rels)
    with atomic_output(staging / "import-command.txt", "the import command file") as out:
        out.write(command + "\n")
    return command
