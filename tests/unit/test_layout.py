"""The layout's rules, checked on the source: one-way imports, no cycles, library internals
and process-wide switches in one module each, the vocabulary named once, modules kept small.

The source is read with ``ast``, so imports inside functions count as much as those at the
top of a module (lazy imports are allowed; they still may not form a cycle).
"""

import ast
from functools import cache
from pathlib import Path

import pytest

from kg import schema
from kg.extractors import records

REPO = Path(__file__).resolve().parents[2]
#: Import name prefix -> the folder that holds it (pyproject's package-dir).
PACKAGE_DIRS = {
    "kg.extractors": REPO / "extractors",
    "kg.queries": REPO / "queries",
    "kg": REPO / "kg",
}
MAX_LINES = 500

#: Private attributes of libraries, each allowed in one module only.
INTERNALS = {
    "_node": "kg.graph._nx",
    "_succ": "kg.graph._nx",
    "_pred": "kg.graph._nx",
    "_adj": "kg.graph._nx",
    "_processes": "kg.extractors.workers",
    "_match_label_id_map": "kg.extractors.nlp",
}
#: Process-wide switches (module, function) and the one module that may call them.
SWITCHES = {
    ("gc", "freeze"): "kg.cli",
    ("os", "_exit"): "kg.cli",
    ("signal", "signal"): "kg.cli_run",
}
#: Modules that may spell entity types, labels and relationship types.
VOCABULARY_MODULES = {"kg.schema", "kg.extractors.records"}


def module_files() -> dict[str, Path]:
    """Every module of kg and its extractors by import name, from the source folders."""
    found: dict[str, Path] = {}
    for prefix, folder in PACKAGE_DIRS.items():
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if prefix == "kg" and parts and parts[0] in ("extractors", "queries"):
                continue
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([prefix, *parts])] = path
    return found


MODULES = module_files()


@cache
def tree_of(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"), str(MODULES[name]))


def _absolute(name: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = name.split(".") if MODULES[name].name == "__init__.py" else name.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str) -> set[str]:
    """The kg modules a module imports, at its top or inside functions."""
    found: set[str] = set()
    for node in ast.walk(tree_of(name)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(name, node)
            targets = [f"{module}.{alias.name}" for alias in node.names] + [module]
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    return {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), and self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def _is_package_of(package: str, module: str) -> bool:
    """A package's ``__init__`` importing its own submodules is no cycle with them."""
    return MODULES[package].name == "__init__.py" and module.startswith(package + ".")


def test_module_files_cover_both_packages():
    assert "kg.cli" in MODULES and "kg.extractors.records" in MODULES
    assert "kg.extractors" in MODULES and "kg.queries" in MODULES


def test_cycle_finder_finds_a_cycle_through_lazy_imports():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    graph = import_graph()
    for package in graph:
        graph[package] = {m for m in graph[package] if not _is_package_of(package, m)}
    assert cycles(graph) == []


def test_the_extraction_side_imports_nothing_else_of_kg():
    wrong = {
        name: sorted(m for m in imports_of(name) if not m.startswith("kg.extractors"))
        for name in MODULES
        if name.startswith("kg.extractors")
    }
    assert {name: found for name, found in wrong.items() if found} == {}


def test_nothing_imports_the_cli():
    assert [
        name for name in MODULES if "kg.cli" in imports_of(name) and name != "kg.__main__"
    ] == []


def _attribute_uses(name: str):
    for node in ast.walk(tree_of(name)):
        if isinstance(node, ast.Attribute):
            yield node


@pytest.mark.parametrize("attribute", sorted(INTERNALS))
def test_library_internals_stay_in_their_one_module(attribute):
    users = sorted(
        name for name in MODULES if any(a.attr == attribute for a in _attribute_uses(name))
    )
    assert set(users) <= {INTERNALS[attribute]}, f".{attribute} used in {users}"


@pytest.mark.parametrize("switch", sorted(SWITCHES), ids=".".join)
def test_process_wide_switches_only_in_the_cli(switch):
    owner, function = switch
    users = sorted(
        name
        for name in MODULES
        for a in _attribute_uses(name)
        if a.attr == function and isinstance(a.value, ast.Name) and a.value.id == owner
    )
    assert set(users) <= {SWITCHES[switch]}, f"{owner}.{function} called in {users}"


def vocabulary_words() -> set[str]:
    words = {t.name for t in records.ENTITY_TYPES} | {t.relationship for t in records.ENTITY_TYPES}
    return words | set(schema.NODE_KINDS) | set(schema.REL_TYPES) | {records.IGNORE}


def _docstring_nodes(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def vocabulary_literals(name: str) -> list[str]:
    """String literals of a module that spell a label, entity type or relationship type."""
    tree = tree_of(name)
    docstrings = _docstring_nodes(tree)
    words = vocabulary_words()
    return sorted(
        f"{MODULES[name].name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in words
        and id(node) not in docstrings
    )


def test_vocabulary_literal_finder_sees_literals_but_not_docstrings():
    assert "Method" in vocabulary_words() and "USES" in vocabulary_words()
    assert vocabulary_literals("kg.schema")  # the vocabulary module itself spells them


def test_labels_and_types_are_spelled_only_in_the_vocabulary_modules():
    found = {name: vocabulary_literals(name) for name in MODULES if name not in VOCABULARY_MODULES}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_no_module_is_over_500_lines():
    long = {
        name: n
        for name, path in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def _public_functions(tree: ast.Module):
    """Module-level functions and methods of module-level classes whose names are public."""
    for node in tree.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        if isinstance(node, ast.ClassDef) and node.name.startswith("_"):
            continue
        for member in members:
            if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not member.name.startswith("_"):
                    yield member


def unannotated_public_functions(name: str) -> list[str]:
    """Public functions and methods of a module that lack a return or parameter annotation."""
    missing = []
    for node in _public_functions(tree_of(name)):
        args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        args += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
        bare = [a.arg for a in args if a.annotation is None and a.arg not in ("self", "cls")]
        if node.returns is None or bare:
            missing.append(f"{MODULES[name].name}:{node.lineno} {node.name}")
    return missing


def test_public_functions_have_type_hints():
    found = {name: unannotated_public_functions(name) for name in MODULES}
    assert {name: hits for name, hits in found.items() if hits} == {}
