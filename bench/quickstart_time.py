"""`make quickstart` as a new user runs it: a fresh copy of the checkout, no .venv, cold caches.

    .venv/bin/python -m bench.quickstart_time [--json FILE] [--keep]

Copies the checkout's files (``git ls-files``, as they are in the work tree) into a temporary
folder, empties every package cache (pip's and uv's, fresh folders, ``PIP_NO_CACHE_DIR``),
runs ``make quickstart`` on a pseudo-terminal (so progress bars show as they would), times
it, and reads what reached the screen: a line that warns, errs or shows a compiler at work
is reported. pip's notes about this machine's package-index configuration do not count.
Exit status 1 if any such line appears or make fails. Needs the network to the package
index (the install downloads every wheel).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: What a line on the screen must not say: warnings, errors, a compiler or a source build.
PROBLEM = re.compile(
    r"warn|error|traceback|deprecat|\bgcc\b|\bcc1|\bg\+\+|\bclang\b|building wheel|"
    r"setup\.py|running build_ext",
    re.IGNORECASE,
)
#: pip's own notes about the machine's index configuration (an extra index or a find-links
#: folder without the package), which are not our build's.
INDEX_NOTE = re.compile(r"Location '[^']*' is ignored|Looking in (indexes|links):")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def screen_lines(raw: bytes) -> list[str]:
    """What a terminal shows of ``raw``: escape sequences dropped, each line as it was last
    redrawn (a carriage return starts it again), blank lines left out.

    >>> screen_lines(b"\\x1b[1mkg\\x1b[0m\\r\\n 10%\\r100%\\nend")
    ['kg', '100%', 'end']
    """
    text = _ANSI.sub("", raw.decode("utf-8", "replace"))
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        shown = line.rstrip("\r").split("\r")[-1].rstrip()
        if shown:
            lines.append(shown)
    return lines


def screen_problems(lines: list[str]) -> list[str]:
    """The lines that warn, err or show a compiler, pip's index notes aside.

    >>> screen_problems(["Graph saved", "WARNING: Location 'file:///x/' is ignored: ...",
    ...                  "SetuptoolsWarning: Package 'x.data' is absent", "gcc -O2 -c a.c"])
    ["SetuptoolsWarning: Package 'x.data' is absent", 'gcc -O2 -c a.c']
    """
    return [line for line in lines if PROBLEM.search(line) and not INDEX_NOTE.search(line)]


def copy_checkout(target: Path) -> None:
    """The checkout's tracked and new (not ignored) files, as in the work tree, into target."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            (target / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / os.fsdecode(name))


def cold_environment(root: Path) -> dict[str, str]:
    """This process's environment with empty caches under ``root`` and no active venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_CACHE_DIR")}
    env.update(
        PIP_NO_CACHE_DIR="1",
        PIP_CACHE_DIR=str(root / "pip-cache"),
        UV_CACHE_DIR=str(root / "uv-cache"),
        XDG_CACHE_HOME=str(root / "cache"),
    )
    return env


def run_on_pty(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes, float]:
    """Run ``command`` with a pseudo-terminal as stdin, stdout and stderr; (status, bytes
    shown, seconds)."""
    import pty

    parent, child = pty.openpty()
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=child, stdout=child, stderr=child)
    os.close(child)
    shown = bytearray()
    while True:
        try:
            chunk = os.read(parent, 65536)
        except OSError:  # the terminal closes when the last writer exits
            break
        if not chunk:
            break
        shown += chunk
    status = process.wait()
    seconds = time.perf_counter() - start
    os.close(parent)
    return status, bytes(shown), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="kg-quickstart-"))
    checkout = root / "kg"
    try:
        checkout.mkdir()
        copy_checkout(checkout)
        load_before = os.getloadavg()[0]
        status, raw, seconds = run_on_pty(["make", "quickstart"], checkout, cold_environment(root))
        lines = screen_lines(raw)
        report = {
            "seconds": round(seconds, 1),
            "status": status,
            "load_average_before": round(load_before, 2),
            "load_average_after": round(os.getloadavg()[0], 2),
            "screen_lines": len(lines),
            "problems": screen_problems(lines),
            "screen": lines,
        }
    finally:
        if args.keep:
            print(f"kept {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)
    print("\n".join(report["screen"]))
    print(
        f"\nmake quickstart: {report['seconds']} s (exit {status}; load average "
        f"{report['load_average_before']} before, {report['load_average_after']} after); "
        f"{len(report['problems'])} problem lines on screen"
    )
    for line in report["problems"]:
        print(f"  problem: {line}")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 1 if status or report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
