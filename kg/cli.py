"""The ``kg`` command: a thin layer over the Python API, one call per command."""

import argparse
import gc
import json
import os
import sys
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any

from kg import __version__
from kg.cli_extract import add_extract_parser
from kg.cli_help import ArgumentParser
from kg.cli_pool import add_import_options, add_pool_options, build_import_files, open_pool
from kg.cli_run import add_wait_option, interrupted, terminate_as_interrupt, wait_options
from kg.cli_viz import add_viz_parser
from kg.errors import KgError, user_notes
from kg.schema import DEFAULT_GRAPH
from kg.terminal import print_json, say

if TYPE_CHECKING:
    import networkx as nx

    from kg.extractors.workers import Pool
    from kg.query.engine_cache import Preparing
    from kg.query.named import Runner

GRAPH_ENV = "KG_GRAPH"


def default_graph() -> str:
    return os.environ.get(GRAPH_ENV, DEFAULT_GRAPH)


def add_graph_option(
    parser: argparse.ArgumentParser, help_text: str = "graph file to read"
) -> None:
    parser.add_argument(
        "-g",
        "--graph",
        default=None,
        metavar="GRAPH",
        help=f"{help_text} (default: ${GRAPH_ENV} or {DEFAULT_GRAPH})",
    )


def graph_path(args: argparse.Namespace) -> str:
    return args.graph or default_graph()


def warn(message: str) -> None:
    say(f"kg: {message}", file=sys.stderr)


@contextmanager
def frozen_after() -> Iterator[None]:
    """Pause the collector for a load or build, then freeze what it made (later collections
    skip it: 0.25 s each for 20k papers). Process-wide, so the CLI's choice, not the API's."""
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def load(args: argparse.Namespace) -> "nx.MultiDiGraph":
    """The graph a command reads, loaded and frozen out of later collections."""
    from kg.store.graphfile import load_graph

    with frozen_after():
        return load_graph(graph_path(args))


# ---------------------------------------------------------------- build


def cmd_build(args: argparse.Namespace) -> int:
    if args.neo4j_import:
        return build_import_files(args)
    output = args.output or default_graph()
    with open_pool(args, adding=os.path.exists(output) and not args.fresh) as pool:
        rc, G = _build(args, output, pool)
    if args.exit_when_done:
        # Everything is written: exit without freeing the graph object by object
        # (a quarter of a second for 20k papers).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(rc)
    return rc


class _Preparing:
    """The embedded engine's cache of the graph a build is saving (``saving`` of
    :func:`kg.graph.build.build`), so the first kg query or kg cypher starts from it; an
    engine that cannot start or load costs only that speed, told in one warning."""

    def __init__(self, G: "nx.MultiDiGraph", path: str, progress: bool) -> None:
        from kg.query.engine_cache import preparing

        self._cache: Preparing | None = None
        try:
            self._cache = preparing(G, path, progress=progress)
        except KgError as exc:
            self._failed(exc)

    def _failed(self, exc: KgError) -> None:
        self._cache = None
        warn(f"the first query will load the graph itself: {exc}")

    def _step(self, step: Callable[["Preparing"], None]) -> None:
        if self._cache is not None:
            try:
                step(self._cache)
            except KgError as exc:
                self._failed(exc)

    def complete(self, G: "nx.MultiDiGraph", rel_types: Collection[str]) -> None:
        self._step(lambda cache: cache.complete(G, rel_types))

    def __call__(self, saved: bool) -> None:
        self._step(lambda cache: cache(saved))


def _build(
    args: argparse.Namespace, output: str, pool: "Pool | None"
) -> tuple[int, "nx.MultiDiGraph"]:
    from kg.graph.build import build
    from kg.graph.stats import format_stats, graph_stats

    progress = not args.quiet and sys.stderr.isatty()
    with frozen_after():
        G, report = build(
            args.inputs,
            output,
            fresh=args.fresh,
            format=args.format,
            workers=args.workers,
            reingest=args.reingest,
            progress=progress,
            strict=args.strict,
            pool=pool,
            identity=args.identity,
            saving=lambda G, path: _Preparing(G, path, progress),
            **wait_options(args),
        )
    for problem in report.problems:
        warn(problem.report)
    if args.quiet:
        return 0, G
    print(format_stats(graph_stats(G, top=5)))
    print(
        f"\nRead {report.records:,} records: {report.new_papers:,} new papers, "
        f"{report.updated_papers:,} re-ingested, {report.known_papers:,} already in the graph, "
        f"{report.duplicates:,} duplicates; "
        f"{sum(not p.kept for p in report.problems):,} skipped "
        f"({report.seconds:.1f} s)."
    )
    say(f"Graph saved to {os.path.abspath(report.graph_path or output)}")
    return 0, G


def cmd_stats(args: argparse.Namespace) -> int:
    from kg.graph.rekey import format_identity_report, identity_report
    from kg.graph.stats import format_stats, graph_stats

    if args.identity:
        report = identity_report(load(args))
        if args.json:
            print_json(json.dumps(report, ensure_ascii=False))
        else:
            say(format_identity_report(report))
        return 0
    stats = graph_stats(load(args), top=args.top)
    if args.json:
        print_json(json.dumps(stats, ensure_ascii=False, sort_keys=False))
    else:
        print(format_stats(stats))
    return 0


# ---------------------------------------------------------------- query, cypher


def open_runner(args: argparse.Namespace) -> AbstractContextManager["Runner"]:
    """The runner a query goes to: a Bolt server with --uri, else the embedded engine."""
    from kg.query.named import open_runner

    options = {k: getattr(args, k) for k in ("uri", "user", "password", "database", "write")}
    return open_runner(graph_path(args), progress=sys.stderr.isatty(), **options)


def output_format(args: argparse.Namespace) -> str:
    return "json" if args.json else "csv" if args.csv else "table"


def cmd_query(args: argparse.Namespace) -> int:
    from kg.query.named import load_query, parse_assignments, related_to_text, run_query
    from kg.query.show import graph_names, print_rows, query_list, runner_names

    if args.list or not args.name:
        print(query_list())
        return 0
    query, given = load_query(args.name), parse_assignments(args.param)
    if args.text is not None:
        G = load(args)
        rows = related_to_text(G, query, args.text, given)
        print_rows(rows, output_format(args), names=graph_names(G), keys=args.keys)
    else:
        with open_runner(args) as run:
            rows = run_query(query, run, given)
            print_rows(rows, output_format(args), names=runner_names(run), keys=args.keys)
    return 0


def cmd_cypher(args: argparse.Namespace) -> int:
    from kg.query.named import parse_values
    from kg.query.show import print_rows, runner_names

    params = parse_values(args.param)
    with open_runner(args) as run:
        print_rows(run(args.statement, params), output_format(args), names=runner_names(run))
    return 0


def add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--param", action="append", metavar="NAME=VALUE", help="a query parameter (repeatable)"
    )
    parser.add_argument(
        "--uri",
        metavar="URI",
        help="run on this Bolt server (Neo4j) instead of the embedded engine",
    )
    parser.add_argument("--user", help="with --uri: user name (default: $NEO4J_USERNAME or neo4j)")
    parser.add_argument("--password", help="with --uri: password (default: $NEO4J_PASSWORD)")
    parser.add_argument("--database", help="with --uri: database (default: $NEO4J_DATABASE)")
    parser.add_argument(
        "--write", action="store_true", help="with --uri: allow writes (default: read access mode)"
    )
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print rows as a JSON array")
    out.add_argument("--csv", action="store_true", help="print rows as CSV")


# ---------------------------------------------------------------- push, export (Neo4j)


def cmd_push(args: argparse.Namespace) -> int:
    from kg.neo4j import connect, push, push_units, terminal_progress

    if args.import_files:
        from kg.scale.import_files import import_units

        units = import_units(args.import_files)
    else:
        G = load(args)
    options = {
        "batch_size": args.batch_size,
        "max_batch_bytes": args.max_batch_bytes,
        "progress": None if args.quiet else terminal_progress(),
    }
    with connect(
        uri=args.uri, user=args.user, password=args.password, database=args.database
    ) as connection:
        if args.import_files:
            report = push_units(units, connection, **options)
        else:
            report = push(G, connection, **options)
    if not args.quiet:
        say(
            f"Pushed to {connection.settings.uri} ({report.server}): {report.summary()} "
            f"in {report.seconds:.1f} s, {report.statements:,} statements."
        )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from kg.export import export_graph

    command = export_graph(load(args), args.output, format=args.format, import_dir=args.import_dir)
    say(f"Wrote {args.format} to {os.path.abspath(args.output)}")
    if command:
        say(f"Import offline (Neo4j stopped) with:\n  {command}")
    return 0


def add_push_parser(sub: Any) -> None:
    from kg.neo4j import DEFAULT_BATCH_SIZE

    p = sub.add_parser(
        "push",
        help="write the graph to Neo4j (or another Bolt server)",
        description="Write the graph to a Bolt server with MERGE on key: idempotent, and a "
        "re-push after a re-ingest replaces changed papers' edges. Connection "
        "settings default to NEO4J_URI, NEO4J_USERNAME, NEO4J_PASSWORD, "
        "NEO4J_DATABASE.",
        epilog="Example: kg push -g graph.kg --uri bolt://localhost:7687 --password secret",
    )
    add_graph_option(p)
    p.add_argument(
        "--import",
        dest="import_files",
        metavar="DIR",
        help="push the rows of a folder of kg build --neo4j-import files instead of a graph",
    )
    p.add_argument("--uri", help="Bolt URI (default: $NEO4J_URI or bolt://localhost:7687)")
    p.add_argument("--user", help="user name (default: $NEO4J_USERNAME or neo4j)")
    p.add_argument("--password", help="password (default: $NEO4J_PASSWORD; none: no auth)")
    p.add_argument("--database", help="database name (default: $NEO4J_DATABASE or the server's)")
    p.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH_SIZE,
        metavar="ROWS",
        help=f"rows per statement at most (default: {DEFAULT_BATCH_SIZE})",
    )
    p.add_argument(
        "--max-batch-bytes",
        type=int,
        default=None,
        metavar="BYTES",
        help="serialised bytes per statement at most (default: 8 MiB on Neo4j, "
        "3,900 on servers without constraints such as FalkorDB)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(func=cmd_push)


def add_export_parser(sub: Any) -> None:
    from kg.export import FORMATS

    p = sub.add_parser(
        "export",
        help="write the graph as neo4j-admin CSV files, GraphML or GEXF",
        description="Write the graph for other tools: neo4j-csv (a directory of files for "
        "neo4j-admin database import full, and the command), graphml, gexf.",
        epilog="Example: kg export --format neo4j-csv out/import -g graph.kg",
    )
    add_graph_option(p)
    p.add_argument(
        "--format",
        choices=FORMATS,
        required=True,
        help="neo4j-csv (files and the command for neo4j-admin), graphml or gexf (for Gephi)",
    )
    p.add_argument("output", metavar="OUTPUT", help="a directory (neo4j-csv) or a file")
    p.add_argument(
        "--import-dir",
        metavar="DIR",
        help="where neo4j-admin sees the CSV files, for the printed command "
        "(e.g. /import in the container; default: OUTPUT)",
    )
    p.set_defaults(func=cmd_export)


def build_parser() -> argparse.ArgumentParser:
    from kg.extractors.read import FORMATS

    parser = ArgumentParser(
        prog="kg",
        description="Knowledge graphs of research papers.",
        epilog="Example: kg build samples/ -o graph.kg && kg stats -g graph.kg",
    )
    parser.add_argument("--version", action="version", version=f"kg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "build",
        help="read paper listings into a saved graph",
        description="Read listings (paper-search pages, daily-papers feeds, JSONL, JSON, CSV, "
        "BibTeX; files, directories or globs) into a graph file. An existing "
        "graph file is added to: known papers are kept, new ones added.",
        epilog="Example: kg build ../shared/seeds/*.txt samples/ -o graph.kg",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="listing files, directories, globs")
    p.add_argument(
        "-o",
        "--output",
        metavar="GRAPH",
        help=f"graph file to write (default: ${GRAPH_ENV} or {DEFAULT_GRAPH})",
    )
    p.add_argument("--format", choices=FORMATS, help="force the input format (default: detect)")
    p.add_argument("--fresh", action="store_true", help="start a new graph instead of adding")
    p.add_argument(
        "--reingest",
        action="store_true",
        help="re-extract papers already in the graph (their edges are replaced)",
    )
    add_pool_options(p)
    add_import_options(p)
    p.add_argument("--strict", action="store_true", help="fail if any record is bad")
    p.add_argument(
        "--identity",
        metavar="FILE",
        help="author-identity overrides (default: GRAPH.identity.toml beside the output, if any)",
    )
    add_wait_option(p, "another build of the graph")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser(
        "stats",
        help="counts per label and relationship type, sources, top authors",
        epilog="Example: kg stats -g graph.kg --json",
    )
    add_graph_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--top", type=int, default=10, metavar="N", help="authors to list")
    p.add_argument(
        "--identity", action="store_true", help="list author merges and splits with their reasons"
    )
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser(
        "query",
        help="run a named query from queries/ (kg query --list)",
        description="Run a named, parameterised Cypher query on the embedded engine (or a "
        "Bolt server with --uri). Node parameters take keys or forgiving names.",
        epilog='Example: kg query coauthors --param author="Julia Kempe" -g graph.kg --json',
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="query name (see --list)")
    p.add_argument("--list", action="store_true", help="list the queries and their parameters")
    p.add_argument("--keys", action="store_true", help="tables: show the key columns too")
    p.add_argument(
        "--text", metavar="TEXT", help="related_papers of a title and abstract not in the graph"
    )
    add_graph_option(p)
    add_output_options(p)
    p.set_defaults(func=cmd_query)

    p = sub.add_parser(
        "cypher",
        help="run ad-hoc, read-only Cypher on the graph with no server",
        description="Run one read-only Cypher statement on the embedded engine (FalkorDB, "
        "materialised beside the graph file as GRAPH.falkordb/ and reused until "
        "the graph changes), or on a Bolt server with --uri.",
        epilog="Example: kg cypher 'MATCH (a:Author {key: $k})-[:AUTHORED]->(:Paper)-[:USES]->"
        "(m:Method) RETURN m.name AS method, count(*) AS papers ORDER BY papers DESC, method' "
        "--param k=author:juliakempe -g graph.kg",
    )
    p.add_argument("statement", metavar="CYPHER", help="the Cypher statement")
    add_graph_option(p)
    add_output_options(p)
    p.set_defaults(func=cmd_cypher)

    add_viz_parser(sub, add_graph_option, load, graph_path)
    add_push_parser(sub)
    add_export_parser(sub)
    add_extract_parser(sub, FORMATS)
    return parser


def main(argv: Sequence[str] | None = None, *, exit_when_done: bool = False) -> int:
    """Run one ``kg`` command; returns its exit status. With ``exit_when_done`` (the ``kg``
    program itself) a build ends the process as soon as its output is written."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.exit_when_done = exit_when_done
    try:
        with user_notes(lambda note: say(f"note: {note}", file=sys.stderr)):
            with terminate_as_interrupt():
                return args.func(args)
    except KgError as exc:
        say(f"kg: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (kg.cli_run)
        message, status = interrupted(exc)
        print(message, file=sys.stderr)
        return status
    except BrokenPipeError:
        return 0


def run() -> None:
    """The ``kg`` program."""
    sys.exit(main(exit_when_done=True))


if __name__ == "__main__":
    run()
