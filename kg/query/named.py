"""Named Cypher queries: load them from ``queries/``, bind parameters, run them, format rows.

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
(:func:`kg.query.engine.embedded_runner`) or a Bolt runner for Neo4j.
"""

import csv
import difflib
import io
import json
import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from kg.errors import KgError, NotFound
from kg.graph.authors import author_key
from kg.query.lookup import NameIndex
from kg.schema import AUTHOR, NODE_KINDS

QUERY_DIR = Path(str(files("kg.queries")))
SCALAR_TYPES = ("int", "bool", "str")
_PARAM = re.compile(
    r"^//\s+\$(\w+):\s*([\w|]+)(?:\s*=\s*(\S+))?(?:\s*\((\d*)\.\.(\d*)\))?"
    r"\s+-\s+(.*)$"
)
_CELL_WIDTH = 60


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: str | None
    low: int | None
    high: int | None
    help: str

    @property
    def labels(self):
        """Node labels a node parameter accepts ("Dataset|Benchmark" -> both); () for scalars."""
        return () if self.type in SCALAR_TYPES else tuple(self.type.split("|"))


@dataclass(frozen=True)
class Query:
    name: str
    path: Path
    summary: str
    params: tuple
    text: str


def parse_query(path):
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
    return Query(path.stem, path, first.partition(":")[2].strip(), tuple(params), text)


def list_queries(directory=QUERY_DIR):
    """Every named query in ``directory``, by name."""
    return [parse_query(p) for p in sorted(Path(directory).glob("*.cypher"))]


def load_query(name, directory=QUERY_DIR):
    """The named query; NotFound with the closest names if there is none."""
    path = Path(directory) / f"{name}.cypher"
    if not path.is_file():
        names = [p.stem for p in sorted(Path(directory).glob("*.cypher"))]
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f"did you mean: {', '.join(close)}?" if close else f"known: {', '.join(names)}"
        raise NotFound(f"no query named {name!r}; {hint} (kg query --list)", close)
    return parse_query(path)


def describe(query):
    """One line per query: name, parameters, summary (for ``kg query --list``)."""
    params = " ".join(
        f"{p.name}=<{p.type}>" if p.default is None else f"[{p.name}={p.default}]"
        for p in query.params
    )
    return f"{query.name} {params}\n    {query.summary}"


# ------------------------------------------------------------------------------ parameters


def _scalar(param, text):
    if param.type == "str":
        return text
    if param.type == "bool":
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "yes", "no", "1", "0"):
            raise KgError(f"parameter {param.name} is true or false, not {text!r}")
        return lowered in ("true", "yes", "1")
    try:
        value = int(text)
    except ValueError:
        raise KgError(f"parameter {param.name} is a whole number, not {text!r}") from None
    if (param.low is not None and value < param.low) or (
        param.high is not None and value > param.high
    ):
        span = f"{param.low if param.low is not None else ''}..{param.high or ''}"
        raise KgError(f"parameter {param.name} must be in {span}, not {value}")
    return value


def bind(query, given, *, resolve):
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
    params = {}
    for p in query.params:
        text = given.get(p.name, p.default)
        if text is None:
            raise KgError(f"query {query.name} needs --param {p.name}=... ({p.help})")
        params[p.name] = resolve(p.labels, text) if p.labels else _scalar(p, text)
    return params


def node_resolver(runner):
    """``resolve(labels, text) -> key`` asking ``runner``: the key itself, else a forgiving name.

    An exact key (or an author's normalised key) costs one query; only a miss fetches the
    names of every node of those labels to match forgivingly and suggest.
    """

    def resolve(labels, text):
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
        return NameIndex(candidates).find(text, what="/".join(labels).lower())

    return resolve


def run_query(query, runner, given=None):
    """Bind ``given`` ({name: text}) and run the query; rows as dicts in RETURN order."""
    return runner(query.text, bind(query, given or {}, resolve=node_resolver(runner)))


def parse_assignments(pairs):
    """{name: text} from ``["k=v", ...]``; the value may itself contain '='."""
    given = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise KgError(f"--param takes name=value, not {pair!r}")
        given[name.strip()] = value
    return given


def parse_values(pairs):
    """{name: value} from ``["k=v", ...]`` for ad-hoc Cypher: JSON values, else strings.

    >>> parse_values(["n=3", "name=Julia Kempe", 'keys=["a", "b"]', "flag=true"])
    {'n': 3, 'name': 'Julia Kempe', 'keys': ['a', 'b'], 'flag': True}
    """
    values = {}
    for name, text in parse_assignments(pairs).items():
        try:
            values[name] = json.loads(text)
        except ValueError:
            values[name] = text
    return values


def render(rows, fmt="table"):
    """Rows as text in one of FORMATS (table, json, csv), ending with a newline."""
    text = FORMATS[fmt](rows)
    return text if text.endswith("\n") else text + "\n"


# ------------------------------------------------------------------------------ formatting


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _columns(rows):
    columns = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    return columns


def format_table(rows):
    """Rows as an aligned text table; long cells are cut with an ellipsis.

    >>> print(format_table([{"name": "Rémi Munos", "shared": 2}, {"name": "Yann", "shared": 10}]))
    name        shared
    ----------  ------
    Rémi Munos  2
    Yann        10
    (2 rows)
    """
    if not rows:
        return "(no rows)"
    columns = _columns(rows)
    cells = [[_shorten(_cell(row.get(c))) for c in columns] for row in rows]
    widths = [max(len(c), *(len(line[i]) for line in cells)) for i, c in enumerate(columns)]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    lines += ["  ".join(v.ljust(w) for v, w in zip(line, widths)).rstrip() for line in cells]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


def _shorten(text):
    text = " ".join(text.split())
    return text if len(text) <= _CELL_WIDTH else text[: _CELL_WIDTH - 1] + "…"


def format_json(rows):
    """Rows as a JSON array, one object per row with keys in RETURN order.

    >>> print(format_json([{"b": 1, "a": ["x"]}]))
    [
      {"b": 1, "a": ["x"]}
    ]
    """
    if not rows:
        return "[]"
    body = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows)
    return f"[\n{body}\n]"


def format_csv(rows):
    """Rows as CSV with a header line; lists are joined with '; '.

    >>> print(format_csv([{"name": "A, B", "papers": ["x", "y"]}]), end="")
    name,papers
    "A, B",x; y
    """
    out = io.StringIO()
    columns = _columns(rows)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    return out.getvalue()


FORMATS = {"table": format_table, "json": format_json, "csv": format_csv}
