"""Named Cypher queries: load them from ``queries/``, bind parameters, run them.

A query file starts with a comment header::

    // NAME: what it answers.
    // Parameters:
    //   $author: Author - what it is
    //   $hops: int = 2 (1..3) - what it is
    // Returns: ...

A parameter's type is ``int``, ``bool``, ``str`` or node labels (``Author``,
``Dataset|Benchmark``, ``Concept``); a node parameter takes a key or a forgiving name, which
:func:`node_resolver` turns into a key through the same runner the query runs on.

A *runner* is any callable ``runner(cypher, params) -> list[dict]``: the embedded engine
(:func:`kg.query.engine_cache.embedded_runner`) or a Bolt runner for Neo4j. Rows become text in
:mod:`kg.query.render`.
"""

import difflib
import json
import re
import textwrap
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import KgError, NotFound
from kg.graph.authors import author_key
from kg.query.lookup import NameIndex
from kg.schema import AUTHOR, NODE_KINDS, PAPER

if TYPE_CHECKING:
    import networkx as nx

QUERY_DIR = Path(str(files("kg.queries")))
#: ``runner(cypher, params) -> rows``.
Runner = Callable[[str, Mapping[str, Any]], list[dict[str, Any]]]
#: ``resolve(labels, text) -> key``.
Resolver = Callable[[Collection[str], str], str]
SCALAR_TYPES = ("int", "bool", "str")
_PARAM = re.compile(
    r"^//\s+\$(\w+):\s*([\w|]+)(?:\s*=\s*(\S+))?(?:\s*\((\d*)\.\.(\d*)\))?"
    r"\s+-\s+(.*)$"
)


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: str | None
    low: int | None
    high: int | None
    help: str

    @property
    def labels(self) -> tuple[str, ...]:
        """Node labels a node parameter accepts ("Dataset|Benchmark" -> both); () for scalars."""
        return () if self.type in SCALAR_TYPES else tuple(self.type.split("|"))


@dataclass(frozen=True)
class Query:
    name: str
    path: Path
    summary: str
    params: tuple[Param, ...]
    text: str


def parse_query(path: str | Path) -> Query:
    """A Query from a ``.cypher`` file with the header described above."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    first = lines[0] if lines else ""
    if not first.startswith(f"// {path.stem}:"):
        raise KgError(f"{path}:1: a query file starts with '// {path.stem}: what it answers'")
    params = []
    for number, line in enumerate(lines, 1):
        if not line.startswith("//   $"):
            continue
        m = _PARAM.match(line)
        if not m:
            raise KgError(
                f"{path}:{number}: parameter lines read "
                "'//   $name: type [= default] [(low..high)] - help'"
            )
        name, type_, default, low, high, help_text = m.groups()
        if type_ not in SCALAR_TYPES and not set(type_.split("|")) <= set(NODE_KINDS):
            raise KgError(f"{path}:{number}: unknown parameter type {type_!r}")
        params.append(
            Param(
                name,
                type_,
                default,
                int(low) if low else None,
                int(high) if high else None,
                help_text,
            )
        )
    return Query(path.stem, path, _summary(lines), tuple(params), text)


def _summary(lines: Sequence[str]) -> str:
    """The header's first sentence: the first line after the name, and the comment lines
    that continue it (up to ``// Parameters:`` or a blank comment line).

    >>> _summary(["// q: the papers that name", "// a concept.", "// Parameters:"])
    'the papers that name a concept.'
    """
    parts = [lines[0].partition(":")[2].strip()]
    for line in lines[1:]:
        rest = line.removeprefix("//").strip()
        if not line.startswith("//") or not rest or re.match(r"[A-Z]\w*:", rest):
            break
        parts.append(rest)
    return " ".join(parts)


def list_queries(directory: str | Path = QUERY_DIR) -> list[Query]:
    """Every named query in ``directory``, by name."""
    return [parse_query(p) for p in sorted(Path(directory).glob("*.cypher"))]


def load_query(name: str, directory: str | Path = QUERY_DIR) -> Query:
    """The named query; NotFound with the closest names if there is none."""
    path = Path(directory) / f"{name}.cypher"
    if not path.is_file():
        names = [p.stem for p in sorted(Path(directory).glob("*.cypher"))]
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f"did you mean: {', '.join(close)}?" if close else f"known: {', '.join(names)}"
        raise NotFound(f"no query named {name!r}; {hint} (kg query --list)", close)
    return parse_query(path)


def describe(query: Query, width: int = 80) -> str:
    """The query's name and parameters, then its whole summary wrapped to ``width``
    columns (for ``kg query --list``).

    >>> print(describe(load_query("papers_with"), width=60))
    papers_with concept=<Concept>
        every paper that names a concept (Method, Dataset,
        Benchmark, Task, Metric or keyphrase Concept), with how
        it names it.
    """
    params = " ".join(
        f"{p.name}=<{p.type}>" if p.default is None else f"[{p.name}={p.default}]"
        for p in query.params
    )
    summary = textwrap.fill(
        query.summary, width=max(width, 40), initial_indent="    ", subsequent_indent="    "
    )
    return f"{query.name} {params}\n{summary}"


# ------------------------------------------------------------------------------ parameters


#: The whole numbers Cypher engines hold (64-bit); a parameter outside is refused, not clamped.
INT_RANGE = (-(2**63), 2**63 - 1)


def in_int_range(name: str, value: Any) -> Any:
    """``value``; a KgError when it is, or holds, a whole number no engine can hold.

    >>> in_int_range("n", [1, {"a": 2}])
    [1, {'a': 2}]
    >>> in_int_range("n", 10**30)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    kg.errors.KgError: parameter n is 1000000000000000000000000000000, outside the 64-bit ...
    """
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        in_int_range(name, item)
    if type(value) is int and not INT_RANGE[0] <= value <= INT_RANGE[1]:
        text = str(value) if len(str(value)) <= 40 else str(value)[:37] + "..."
        raise KgError(
            f"parameter {name} is {text}, outside the 64-bit whole numbers Cypher holds "
            f"({INT_RANGE[0]}..{INT_RANGE[1]})"
        )
    return value


def _scalar(param: Param, text: str) -> str | bool | int:
    if param.type == "str":
        return text
    if param.type == "bool":
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "yes", "no", "1", "0"):
            raise KgError(f"parameter {param.name} is true or false, not {text!r}")
        return lowered in ("true", "yes", "1")
    try:
        value = in_int_range(param.name, int(text))
    except ValueError:
        raise KgError(f"parameter {param.name} is a whole number, not {text!r}") from None
    if (param.low is not None and value < param.low) or (
        param.high is not None and value > param.high
    ):
        span = f"{param.low if param.low is not None else ''}..{param.high or ''}"
        raise KgError(f"parameter {param.name} must be in {span}, not {value}")
    return value


def bind(query: Query, given: Mapping[str, str], *, resolve: Resolver) -> dict[str, Any]:
    """Typed Cypher parameters from ``given`` ({name: text}) plus the query's defaults.

    ``resolve(labels, text)`` turns a node parameter's text into a key.
    """
    known = {p.name for p in query.params}
    unknown = sorted(set(given) - known)
    if unknown:
        raise KgError(
            f"query {query.name} has no parameter {unknown[0]!r}; it takes: "
            f"{', '.join(sorted(known)) or 'none'}"
        )
    params: dict[str, Any] = {}
    for p in query.params:
        text = given.get(p.name, p.default)
        if text is None:
            raise KgError(f"query {query.name} needs --param {p.name}=... ({p.help})")
        params[p.name] = resolve(p.labels, text) if p.labels else _scalar(p, text)
    return params


def node_resolver(runner: Runner) -> Resolver:
    """``resolve(labels, text) -> key`` asking ``runner``: the key itself, else a forgiving name.

    An exact key (or an author's folded key) costs one query; only a miss fetches the names
    of every node of those labels to match forgivingly and suggest, and, when several match,
    counts their papers to choose as :func:`kg.query.lookup.find_node` does (the choice is
    reported as an :class:`kg.errors.AmbiguousNameWarning`).
    """

    def resolve(labels: Collection[str], text: str) -> str:
        guesses = [text, author_key(text)] if AUTHOR in labels else [text]
        for label in labels:
            rows = runner(
                f"UNWIND $keys AS k MATCH (n:{label} {{key: k}}) RETURN n.key AS key",
                {"keys": guesses},
            )
            if rows:
                return min(r["key"] for r in rows)
        candidates = []
        for label in labels:
            candidates += runner(
                f"MATCH (n:{label}) RETURN n.key AS key, n.name AS name, "
                "n.title AS title, n.label AS label, n.aliases AS aliases, "
                "n.variants AS variants",
                {},
            )

        def papers(keys: Sequence[str]) -> dict[str, int]:
            counts: dict[str, int] = {}
            for label in labels:
                for row in runner(
                    f"UNWIND $keys AS k MATCH (n:{label} {{key: k}}) "
                    f"OPTIONAL MATCH (n)--(p:{PAPER}) "
                    "RETURN n.key AS key, count(DISTINCT p) AS papers",
                    {"keys": list(keys)},
                ):
                    counts[row["key"]] = row["papers"]
            return counts

        return NameIndex(candidates).find(text, what="/".join(labels).lower(), papers=papers)

    return resolve


def open_runner(
    graph: str | Path,
    *,
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    write: bool = False,
    progress: bool = False,
) -> AbstractContextManager[Runner]:
    """The runner queries go to: a Bolt server at ``uri`` (Neo4j; connection settings default
    to the NEO4J_* variables), else the read-only embedded engine on the graph file (which
    with ``progress`` says on stderr when it loads the graph)."""
    if uri:
        from kg.neo4j import bolt_runner

        return bolt_runner(uri=uri, user=user, password=password, database=database, write=write)
    if write:
        raise KgError("--write needs --uri: the embedded engine is read-only")
    from kg.query.engine_cache import embedded_runner

    return embedded_runner(graph, progress=progress)


def run_query(
    query: Query, runner: Runner, given: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """Bind ``given`` ({name: text}) and run the query; rows as dicts in RETURN order."""
    return runner(query.text, bind(query, given or {}, resolve=node_resolver(runner)))


def related_to_text(
    G: "nx.MultiDiGraph", query: Query, text: str, given: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """The rows of ``related_papers`` for a title and abstract that is not in the graph
    (ranked in Python: the stored relationships know only the graph's papers)."""
    from kg.query.traverse_concepts import related_papers

    if query.name != "related_papers":
        raise KgError(f"--text goes with the query related_papers, not {query.name}")
    params = bind(query, {"paper": "-", **(given or {})}, resolve=lambda labels, text: text)
    return related_papers(G, text=text, limit=params["limit"])


def parse_assignments(pairs: Iterable[str] | None) -> dict[str, str]:
    """{name: text} from ``["k=v", ...]``; the value may itself contain '='."""
    given: dict[str, str] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise KgError(f"--param takes name=value, not {pair!r}")
        given[name.strip()] = value
    return given


def parse_values(pairs: Iterable[str] | None) -> dict[str, Any]:
    """{name: value} from ``["k=v", ...]`` for ad-hoc Cypher: JSON values, else strings.

    >>> parse_values(["n=3", "name=Julia Kempe", 'keys=["a", "b"]', "flag=true"])
    {'n': 3, 'name': 'Julia Kempe', 'keys': ['a', 'b'], 'flag': True}
    """
    values: dict[str, Any] = {}
    for name, text in parse_assignments(pairs).items():
        try:
            values[name] = json.loads(text)
        except ValueError:
            values[name] = text
        in_int_range(name, values[name])
    return values
