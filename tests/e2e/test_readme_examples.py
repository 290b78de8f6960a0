"""Every shell command in README.md runs, or is exempted here with a reason.

The fenced ``sh``/``bash``/``console`` blocks of README.md are split into commands (one per
line; ``# comments`` dropped; a line ending in ``\\`` continues on the next). Each command
runs, in README order, in one scratch folder laid out like a checkout:

    tmp/repo/{samples,queries,bench,Makefile,scripts} -> this repo's
    tmp/repo/.venv                                    -> the venv running the tests
    tmp/shared                                        -> the real ../shared

with the venv's ``bin`` first on PATH, and must exit 0. The graph files the examples read
are made by the README's own earlier examples (``kg build ... -o graph.kg`` comes first);
no fixture builds them. A command that must not run here is listed in EXEMPT with the
reason; an exemption that matches no README command fails the test, so the table cannot rot.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
LINKED = ("samples", "queries", "bench", "scripts", "Makefile")

# Command (or command prefix, matched up to a space) -> why it is not run here.
EXEMPT = {
    "make test": "runs the whole test suite, this test included",
    "make test-fast": "runs the unit test suite (a test run inside a test run)",
    "bash scripts/setup.sh": "creates .venv and installs packages from the network; the "
    "tests already run in a set-up venv",
    "kg push": "needs a running Neo4j (or Bolt) server; push is tested in test_neo4j_*.py",
}

# Command -> (what is run instead, why).
RUN_AS = {
    "make quickstart": (
        "make -o setup quickstart",
        "the setup step is skipped: the venv running the tests is set up",
    ),
}

COMMAND_TIMEOUT = 120


def _shared_dir() -> Path | None:
    """The real ../shared: beside this checkout, or beside the main checkout of a worktree."""
    candidates = [REPO.parent / "shared"]
    try:
        common = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--path-format=absolute", "--git-common-dir"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        candidates.append(Path(common).parent.parent / "shared")
    except (OSError, subprocess.SubprocessError):
        pass
    return next((c for c in candidates if (c / "seeds").is_dir()), None)


def _strip_comment(line: str) -> str:
    """``line`` without a trailing ``# comment`` (a ``#`` outside quotes after a space)."""
    quote = None
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def readme_commands(text: str) -> list[str]:
    """The shell commands of the fenced sh/bash/console blocks of ``text``, in order."""
    commands = []
    for lang, body in re.findall(
        r"^```(sh|bash|console)[ \t]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL
    ):
        pending = ""
        for raw in body.splitlines():
            line = raw.strip()
            if lang == "console" and not pending:
                if not line.startswith("$ "):
                    continue  # output, not a command
                line = line[2:]
            line = _strip_comment(line)
            if line.endswith("\\"):
                pending += line[:-1].rstrip() + " "
                continue
            line = (pending + line).strip()
            pending = ""
            if line:
                commands.append(line)
        assert not pending, f"a README {lang} block ends inside a continued line: {pending!r}"
    return commands


def matches(key: str, command: str) -> bool:
    """Whether exemption ``key`` names ``command`` (the whole command or a prefix of words)."""
    return command == key or command.startswith(key + " ")


def exemption(command: str) -> str | None:
    """The EXEMPT key that matches ``command``, if any."""
    return next((key for key in EXEMPT if matches(key, command)), None)


COMMANDS = readme_commands(README.read_text(encoding="utf-8"))


def test_splitting() -> None:
    text = (
        '```sh\nkg a   # note\nkg b "x # y" \\\n    --c 1\n# only a comment\n```\n'
        "```python\nkg no\n```\n```console\n$ kg d\noutput\n```\n"
    )
    assert readme_commands(text) == ["kg a", 'kg b "x # y" --c 1', "kg d"]


def test_readme_has_shell_examples() -> None:
    assert COMMANDS, "README.md has no sh/bash/console block"
    assert any(c.startswith("kg build ") for c in COMMANDS)


def test_every_exemption_matches_a_readme_command() -> None:
    stale = [key for key in [*EXEMPT, *RUN_AS] if not any(matches(key, c) for c in COMMANDS)]
    assert not stale, f"exemptions that match no README command (remove them): {stale}"


def test_exemptions_are_unambiguous() -> None:
    both = [c for c in COMMANDS if exemption(c) and c in RUN_AS]
    assert not both, f"commands both exempted and run another way: {both}"
    for command in COMMANDS:
        hits = [key for key in EXEMPT if matches(key, command)]
        assert len(hits) <= 1, f"{command!r} matches several exemptions: {hits}"


def _scratch(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    shared = _shared_dir()
    if shared is None:
        pytest.skip(
            f"../shared (with seeds/) not found beside {REPO} or its main checkout; "
            "the README examples read ../shared/seeds"
        )
    root = tmp_path_factory.mktemp(name)
    repo = root / "repo"
    repo.mkdir()
    for name in LINKED:
        (repo / name).symlink_to(REPO / name)
    (repo / ".venv").symlink_to(Path(sys.executable).parent.parent)
    (root / "shared").symlink_to(shared)
    return repo


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _scratch(tmp_path_factory, "readme")


def _env() -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("KG_", "NEO4J_", "VIRTUAL_ENV"))
    }
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def shows_nothing(command: str, stdout: str) -> bool:
    """Whether a query example printed no data: no rows, an empty JSON array, or table rows
    with nothing in them (a column the graph does not have).
    """
    if not command.startswith(("kg query ", "kg cypher ")):
        return False
    lines = stdout.splitlines()
    return (
        "(no rows)" in lines
        or stdout.strip() == "[]"
        or any(not line.strip() for line in lines[2:-1])
    )


def test_shows_nothing() -> None:
    assert shows_nothing("kg cypher 'RETURN p.title'", "p.title\n-------\n\n\n(2 rows)\n")
    assert shows_nothing("kg query coauthors --json", "[]\n")
    assert shows_nothing("kg query coauthors", "(no rows)\n")
    assert not shows_nothing("kg query coauthors", "coauthor\n--------\nAda\n(1 row)\n")
    assert not shows_nothing("kg stats", "(no rows)\n")


def run_all(commands: list[str], cwd: Path) -> tuple[list[str], list[str]]:
    """Run ``commands`` in order in ``cwd``: the ones run, and a report of each failure
    (a non-zero exit, or a query example that shows no data)."""
    ran, failures = [], []
    for command in commands:
        if exemption(command):
            continue
        run = RUN_AS.get(command, (command, ""))[0]
        proc = subprocess.run(
            ["bash", "-c", run],
            cwd=cwd,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
        ran.append(command)
        if proc.returncode != 0 or shows_nothing(command, proc.stdout):
            failures.append(
                f"$ {run}\nexit {proc.returncode}\n"
                f"stdout: {proc.stdout[-1500:]}\nstderr: {proc.stderr[-1500:]}"
            )
    return ran, failures


def test_readme_commands_run(scratch: Path) -> None:
    if shutil.which("make") is None and any(
        c.startswith("make ") and not exemption(c) for c in COMMANDS
    ):
        pytest.skip("make is not installed")
    ran, failures = run_all(COMMANDS, scratch)
    assert ran, "no README command was run"
    assert not failures, "README commands failed:\n\n" + "\n\n".join(failures)


def help_commands() -> list[str]:
    """The ``Example:`` commands of ``kg -h`` and of each ``kg COMMAND -h``, in that order."""
    import argparse

    from kg.cli import build_parser
    from kg.cli_help import examples

    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found = []
    for argv in [["-h"], *([name, "-h"] for name in sub.choices)]:
        proc = subprocess.run(
            [sys.executable, "-m", "kg", *argv],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=True,
        )
        commands = examples(proc.stdout)
        assert commands, f"kg {' '.join(argv)} shows no 'Example: ' line"
        found += commands
    return found


def test_every_help_example_runs_as_shown(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each command's -h example runs in a scratch checkout (the first builds graph.kg from
    samples/, the build example adds the seeds) and, for queries, shows data."""
    commands = help_commands()
    assert any(c.startswith("kg cypher ") and "'" in c for c in commands)  # $k quoted
    ran, failures = run_all(commands, _scratch(tmp_path_factory, "help"))
    assert len(ran) == len(commands) - 1  # all but kg push (EXEMPT)
    assert not failures, "-h examples failed:\n\n" + "\n\n".join(failures)
