"""``kg build``: listings -> records -> mentions -> resolved entities -> graph -> file."""

import os
import sys
import time
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from os import PathLike
from typing import Protocol

import networkx as nx
from tqdm import tqdm

from kg import schema as S
from kg.errors import InputError
from kg.extractors.read import Problem, read_listings
from kg.extractors.records import Mention, PaperRecord
from kg.extractors.workers import Pool, WorkerPool
from kg.graph._nx import node_attrs
from kg.graph.entities import add_entity_layer
from kg.graph.identity import Overrides
from kg.graph.kinds import unify_types
from kg.graph.overrides import identity_file, read_overrides
from kg.graph.papers import (
    add_paper,
    authored_by,
    new_graph,
    paper_index,
    prune_orphans,
    set_coauthor_counts,
)
from kg.graph.people import decide
from kg.graph.rekey import apply_people, identity_summary
from kg.graph.related import TextPart, add_similar_edges, remove_similar_edges
from kg.graph.resolve import Resolution, resolve_corpus
from kg.graph.similar import Settings
from kg.lock import DEFAULT_WAIT, graph_lock
from kg.progress import Steps
from kg.store.graphfile import (
    GraphFileNote,
    load_graph,
    load_mentions,
    paused_gc,
    save_graph,
)

#: A listing file, folder or glob.
Input = str | PathLike[str]


@dataclass
class BuildReport:
    """What a build read, added and skipped."""

    records: int = 0
    new_papers: int = 0
    updated_papers: int = 0
    known_papers: int = 0
    duplicates: int = 0
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    graph_path: str | PathLike[str] | None = None


def plan_records(
    G: nx.MultiDiGraph, records: Iterable[PaperRecord], *, reingest: bool = False
) -> tuple[list[tuple[str, PaperRecord]], "BuildReport", set[str]]:
    """Add incoming records' papers to ``G``; return the papers to (re-)extract, counts, and
    the authors whose co-authors may have changed.

    A record whose abstract is already in the graph only adds its source (and the authors,
    area and title the graph lacks); a record whose id is known but whose abstract changed
    is re-ingested; ``reingest`` re-extracts known papers too.
    """
    by_hash = paper_index(G)
    to_extract: dict[str, PaperRecord] = {}
    seen: dict[str, str] = {}
    authors: set[str] = set()
    report = BuildReport()
    for record in records:
        report.records += 1
        digest = S.content_hash(record.abstract)
        key = (
            seen.get(digest)
            or by_hash.get(digest)
            or S.paper_key(record.abstract, record.external_id)
        )
        if digest in seen:
            report.duplicates += 1
        elif key in G and G.nodes[key]["hash"] != digest:
            authors.update(authored_by(G, key))
            reset_paper(G, key, record, digest)
            report.updated_papers += 1
            to_extract[key] = record
        elif key in G:
            if reingest:
                report.updated_papers += 1
                to_extract[key] = record
            else:
                report.known_papers += 1
        else:
            report.new_papers += 1
            to_extract[key] = record
        seen[digest] = key
        add_paper(G, record, key, digest)
        authors.update(authored_by(G, key))
    return list(to_extract.items()), report, authors


def reset_paper(G: nx.MultiDiGraph, key: str, record: PaperRecord, digest: str) -> None:
    """Forget what the graph knew of a paper whose abstract changed."""
    touched = set(G.predecessors(key)) | set(G.successors(key))
    G.remove_edges_from(list(G.in_edges(key, keys=True)) + list(G.out_edges(key, keys=True)))
    G.nodes[key].update(abstract=record.abstract, hash=digest, label=None, area=None)
    prune_orphans(G, touched)


def assemble_mentions(
    G: nx.MultiDiGraph,
    mentions: Mapping[str, Sequence[Mention]],
    *,
    resolution: Resolution | None = None,
) -> None:
    """(Re)build the entity layer of ``G`` from every paper's unresolved ``mentions``
    (or from ``resolution``, a Resolution of exactly those).

    Names are resolved over the whole corpus, so a graph built in several steps equals the
    graph built at once from the same inputs.
    """
    G.remove_nodes_from([n for n, kind in G.nodes(data="kind") if kind in S.CONCEPT_KINDS])
    resolved = resolve_corpus(mentions.items()) if resolution is None else resolution.items
    typed, other_types = unify_types(sorted(resolved))
    add_entity_layer(G, typed, other_types=other_types)


def extract_into(
    mentions: dict[str, list[Mention]],
    to_extract: list[tuple[str, PaperRecord]],
    *,
    workers: int,
    pool: Pool | None,
    problems: list[Problem],
    progress: bool,
) -> Resolution | None:
    """Extract the ``(key, record)`` pairs ``to_extract`` into ``mentions``, with a bar on
    stderr if ``progress``; given an open ``pool``, resolve the papers already in
    ``mentions`` while its workers extract, and return that Resolution of all of them."""
    bar = tqdm(
        total=len(to_extract),
        unit="paper",
        desc="extracting",
        disable=not progress,
        file=sys.stderr,
        mininterval=0.5,
    )
    keys = [k for k, _ in to_extract]
    resolution = None
    if pool is None:
        from kg.extractors.pipeline import extract_mentions  # spaCy loads only when needed

        extracted = extract_mentions((r for _, r in to_extract), workers=workers, problems=problems)
    else:
        extracted = pool.extract((r for _, r in to_extract), problems)
        # While the workers extract: resolve the papers already here.
        fresh = set(keys)
        resolution = Resolution([(k, ms) for k, ms in mentions.items() if k not in fresh])
    for key, (_, found) in zip(keys, extracted, strict=False):
        mentions[key] = found
        bar.update()
    bar.close()
    if resolution is not None:
        resolution.extend([(key, mentions[key]) for key in keys])
    return resolution


def build_graph(
    inputs: Iterable[Input],
    *,
    graph: nx.MultiDiGraph | None = None,
    mentions: dict[str, list[Mention]] | None = None,
    format: str | None = None,
    workers: int = 1,
    reingest: bool = False,
    progress: bool = False,
    pool: Pool | None = None,
    overrides: Overrides | None = None,
    related: int = Settings.k,
    unrelated: Callable[[nx.MultiDiGraph], None] | None = None,
) -> tuple[nx.MultiDiGraph, BuildReport]:
    """Read ``inputs`` into ``graph`` (a new one by default); return (graph, BuildReport).

    ``mentions`` maps each paper of ``graph`` to its unresolved mentions (as saved beside
    it); papers extracted now are added to it. ``pool``, an open ``kg.extractors.workers.Pool``
    (a WorkerPool, a DaskPool), does the extraction instead of ``workers``.
    Author identity is decided last, over the whole graph, with the user's ``overrides``;
    each paper points to its ``related`` most related papers (SIMILAR_TO).
    ``unrelated(G)``, if given, is called with the graph complete but for its SIMILAR_TO
    relationships, while related papers are still being found.
    """
    started = time.perf_counter()
    G = new_graph() if graph is None else graph
    mentions = {} if mentions is None else mentions
    problems: list[Problem] = []
    steps = Steps(progress)
    steps.start("reading listings")
    records = read_listings(inputs, format=format, problems=problems)
    to_extract, report, authors = plan_records(G, records, reingest=reingest)
    steps.done()
    report.problems = problems
    settings = Settings(k=related)
    with TextPart(G, settings=settings) as text:  # while the rest goes on
        resolution = extract_into(
            mentions, to_extract, workers=workers, pool=pool, problems=problems, progress=progress
        )
        steps.start("resolving names and author identity")
        assemble_mentions(G, mentions, resolution=resolution)
        authors |= apply_people(G, decide(identity_summary(G), overrides))
        # Authors this build did not touch keep their counts; those without one get it.
        authors.update(
            a
            for a, attrs in node_attrs(G).items()
            if attrs["kind"] == S.AUTHOR and "coauthors" not in attrs
        )
        set_coauthor_counts(G, authors)
        steps.start("finding related papers")
        if unrelated is not None:
            remove_similar_edges(G)
            unrelated(G)
        add_similar_edges(G, settings=settings, text=text.result(G))
    steps.done()
    report.seconds = time.perf_counter() - started
    return G, report


class Saving(Protocol):
    """What the ``saving`` hook of :func:`build` returns."""

    def complete(self, G: nx.MultiDiGraph, rel_types: Collection[str]) -> None:
        """``G`` now holds its relationships of ``rel_types`` too."""

    def __call__(self, saved: bool) -> None:
        """The file is saved (True), or could not be (False)."""


def _loaded(
    path: str | PathLike[str], *, strict: bool
) -> tuple[nx.MultiDiGraph, dict[str, list[Mention]]]:
    """The graph file a build adds to, without its entity layer, and its mentions. With
    ``strict``, a file that can only be read unverified (no checksums) stops the build."""
    with warnings.catch_warnings():
        if strict:
            warnings.simplefilter("error", GraphFileNote)
        try:
            return load_graph(path, entity_layer=False), load_mentions(path)
        except GraphFileNote as note:
            raise InputError(
                f"{note}; --strict given, so nothing was added (build once without --strict "
                "to upgrade the file)"
            ) from None


def build(
    inputs: Iterable[Input],
    output: str | PathLike[str],
    *,
    fresh: bool = False,
    format: str | None = None,
    workers: int = 1,
    reingest: bool = False,
    progress: bool = False,
    strict: bool = False,
    pool: Pool | None = None,
    identity: str | PathLike[str] | None = None,
    related: int = Settings.k,
    wait: float = DEFAULT_WAIT,
    waiting: Callable[[str], None] | None = None,
    saving: Callable[[nx.MultiDiGraph, str], "Saving"] | None = None,
) -> tuple[nx.MultiDiGraph, BuildReport]:
    """Build into the graph file ``output`` (adding to it unless ``fresh``) and save it.

    Adding to a graph extracts in worker processes (``pool``, an open Pool, else
    ``max(workers, 1)`` new ones) that start at once, so spaCy loads while the graph does;
    as with any multiprocessing code, a script that calls this must guard its entry point
    with ``if __name__ == "__main__":``.
    ``identity`` is the author-identity override file (default: beside ``output``, e.g.
    ``graph.identity.toml``, used when it exists; see :mod:`kg.graph.overrides`).
    The build holds the graph's lock (``GRAPH.lock``) from its load to its save: while
    another process's build of ``output`` runs, this one waits up to ``wait`` seconds
    (``waiting`` gets one line as it starts to), then adds to that build's result; or it
    raises Locked. ``saving(G, path)``, if given, is called under the lock once the graph is
    complete but for its SIMILAR_TO relationships, while related papers are found; what it
    returns (a :class:`Saving`) is told when they are in the graph, then called with True
    once the file is saved, or with False if it could not be (the ``kg build`` command has
    the embedded engine load the graph meanwhile).
    Raises InputError when nothing could be read, when the override file is bad, or
    (``strict``) when anything was bad; the file is then left as it was.
    """
    started = time.perf_counter()
    if identity is not None and not os.path.exists(identity):
        raise InputError(f"{os.fspath(identity)}: no such identity override file")
    overrides = read_overrides(identity if identity is not None else identity_file(output))
    with graph_lock(output, wait=wait, waiting=waiting):
        adding = os.path.exists(output) and not fresh
        finish: list[Saving] = []  # what saving returned, once called

        def start_saving(G: nx.MultiDiGraph) -> None:
            if saving is not None:
                finish.append(saving(G, os.fspath(output)))

        try:
            # Adding: the workers import spaCy and build the pipeline while the graph loads.
            with (
                WorkerPool(max(workers, 1)) if adding and pool is None else nullcontext(pool)
            ) as pool:
                steps = Steps(progress and adding)
                steps.start(f"loading {os.fspath(output)}")
                G, mentions = _loaded(output, strict=strict) if adding else (None, {})
                steps.done()
                with paused_gc():
                    G, report = build_graph(
                        inputs,
                        graph=G,
                        mentions=mentions,
                        format=format,
                        workers=workers,
                        reingest=reingest,
                        progress=progress,
                        pool=pool,
                        overrides=overrides,
                        related=related,
                        unrelated=None if saving is None else start_saving,
                    )
            if report.records == 0:
                detail = f": {report.problems[0]}" if report.problems else ""
                raise InputError(f"no paper could be read from the inputs{detail}")
            if strict and report.problems:
                raise InputError(
                    f"{len(report.problems)} bad input(s) and --strict given; "
                    f"first: {report.problems[0]}"
                )
            steps = Steps(progress)
            steps.start(f"saving {os.fspath(output)}")
            for prepared in finish:
                prepared.complete(G, (S.SIMILAR_TO,))
            with paused_gc():
                report.graph_path = save_graph(G, output, mentions=mentions)
        except BaseException:
            for prepared in finish:
                prepared(False)
            raise
        steps.done()
        for prepared in finish:
            prepared(True)
    report.seconds = time.perf_counter() - started
    return G, report
