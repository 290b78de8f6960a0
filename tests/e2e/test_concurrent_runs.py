"""Concurrent and interrupted runs (docs/reliability.md): builds of one graph take turns,
the engine cache and a pages folder are written by one process at a time, a killed or
stopped build leaves no process, lock or temporary file behind."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kg.cli import main
from kg.errors import Locked
from kg.graph.build import build
from kg.lock import exclusive, graph_lock
from kg.query.example import example_graph
from kg.store.graphfile import load_graph, save_graph
from tests.helpers.locks import hold_in_process

pytestmark = pytest.mark.timeout(600)


def listing(path, tag, n):
    """A JSONL listing of ``n`` papers, their titles ``tag 0`` ... (each abstract unique)."""
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            record = {
                "id": f"{tag}-{i}",
                "title": f"{tag} {i}",
                "authors": [f"Author {tag} {i}"],
                "abstract": f"We propose {tag.title()}Net{i}, evaluated on ImageNet with BERT. "
                f"It is paper {i} of {tag}.",
            }
            fh.write(json.dumps(record) + "\n")
    return str(path)


def titles(path):
    return {attrs["title"] for _, attrs in load_graph(path).nodes(data=True) if "title" in attrs}


@pytest.fixture(scope="module")
def base_graph(tmp_path_factory):
    """A two-paper graph file (copied by each test that adds to it)."""
    folder = tmp_path_factory.mktemp("base")
    path = folder / "base.kg"
    build([listing(folder / "base.jsonl", "base", 2)], path)
    return path


@pytest.fixture
def graph(tmp_path, base_graph):
    path = tmp_path / "g.kg"
    path.write_bytes(base_graph.read_bytes())
    return path


def leftovers(folder):
    """Temporary and lock files in a folder."""
    return sorted(n for n in os.listdir(folder) if n.endswith((".tmp", ".lock")))


# ---------------------------------------------------------------- builds take turns


def kg_build(path, graph, *, wait):
    """A ``kg build`` process adding ``path`` to ``graph``, waiting up to ``wait`` s for it."""
    return subprocess.Popen(
        [sys.executable, "-m", "kg", "build", path, "-o", str(graph), "-q", "--workers", "0"]
        + ["--wait", str(wait)],
        stderr=subprocess.PIPE,
        text=True,
    )


def test_twenty_rounds_of_two_concurrent_builds_keep_both(tmp_path, graph):
    """Two ``kg build`` processes adding different papers to one graph at once, 20 times.
    Both builds' papers land, or (odd rounds, where the second will not wait) the second
    ends with the lock message and exit status 75 and the first's papers all land."""
    expected = titles(graph)
    refused = 0
    for round in range(20):
        inputs = {
            side: listing(tmp_path / f"{side}{round}.jsonl", f"{side}{round}", 2) for side in "ab"
        }
        a = kg_build(inputs["a"], graph, wait=600)
        b = kg_build(inputs["b"], graph, wait=600 if round % 2 == 0 else 0)
        (_, a_err), (_, b_err) = a.communicate(timeout=300), b.communicate(timeout=300)
        assert a.returncode == 0, a_err
        expected |= {f"a{round} 0", f"a{round} 1"}
        if b.returncode == 0:
            expected |= {f"b{round} 0", f"b{round} 1"}
        else:
            assert round % 2 == 1 and b.returncode == Locked.exit_code, b_err
            assert b_err.count("\n") == 1 and "still holds" in b_err, b_err
            refused += 1
        assert titles(graph) == expected, f"round {round}: {a_err} {b_err}"
    assert leftovers(tmp_path) == []
    print(f"{refused} of 10 builds that would not wait were refused")


def test_two_kg_build_processes_at_once_both_land(tmp_path, graph):
    inputs = [listing(tmp_path / f"{side}.jsonl", side, 3) for side in ("left", "right")]
    before = titles(graph)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "kg", "build", path, "-o", str(graph), "-q", "--workers", "1"],
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in inputs
    ]
    errors = [proc.communicate(timeout=300)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], errors
    assert titles(graph) == before | {f"{side} {i}" for side in ("left", "right") for i in range(3)}
    waiting = f"kg: waiting for another kg build of {graph} (process "
    for err, other in zip(errors, reversed(procs), strict=True):  # one that waited said so
        assert err in ("", f"{waiting}{other.pid}) to finish...\n")
    assert leftovers(tmp_path) == []


def test_a_build_waits_with_a_message_then_adds_to_the_graph(tmp_path, graph, capsys):
    holder = hold_in_process(str(graph) + ".lock", 1.5)
    new = listing(tmp_path / "new.jsonl", "new", 2)
    assert main(["build", new, "-o", str(graph), "-q", "--wait", "120"]) == 0
    assert capsys.readouterr().err == (
        f"kg: waiting for another kg build of {graph} (process {holder.pid}) to finish...\n"
    )
    holder.wait()
    assert {"new 0", "new 1", "base 0"} <= titles(graph)


def test_a_build_that_will_not_wait_is_refused_in_one_line(tmp_path, graph, capsys):
    holder = hold_in_process(str(graph) + ".lock", 60)
    before = graph.read_bytes()
    try:
        new = listing(tmp_path / "new.jsonl", "new", 2)
        assert main(["build", new, "-o", str(graph), "--wait", "0"]) == 75
    finally:
        holder.kill()
        holder.wait()
    err = capsys.readouterr().err
    assert err == (
        f"kg: error: another kg build of {graph} (process {holder.pid}) still holds "
        f"{graph}.lock after 0 s; try again when it has finished\n"
    )
    assert graph.read_bytes() == before


# ---------------------------------------------------------------- kills


def tree(pid):
    """``pid`` and every process descended from it (from /proc)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
    return found


def running(pid):
    """Whether a process exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_no_process_of_a_stopped_build_outlives_it(tmp_path, graph, signum):
    """A build adding to a graph with two workers: its whole tree (the build, the
    workers, multiprocessing's resource tracker) is gone 5 s after the signal; SIGTERM
    ends it like Ctrl-C (exit 143, one line) and the graph is as it was."""
    before = graph.read_bytes()
    new = listing(tmp_path / "new.jsonl", "new", 300)
    err_file = tmp_path / "stderr"  # a file, not a pipe: a process left behind holds a pipe
    with open(err_file, "w") as err_out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kg", "build", new, "-o", str(graph), "--workers", "2", "-q"],
            stderr=err_out,
        )
    deadline = time.monotonic() + 120
    while len(pids := tree(proc.pid)) < 4 and proc.poll() is None:  # build, tracker, 2 workers
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.05)
    time.sleep(1.0)  # the workers are loading the pipeline, the build is under way
    pids = tree(proc.pid)
    assert len(pids) >= 4, pids
    proc.send_signal(signum)
    proc.wait(timeout=30)
    err = err_file.read_text()
    err_file.unlink()
    deadline = time.monotonic() + 5
    while any(map(running, pids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in pids if running(pid)]
    for pid in left:  # so that a failure leaves nothing running either
        os.kill(pid, signal.SIGKILL)
    assert left == []
    assert graph.read_bytes() == before
    if signum == signal.SIGTERM:
        assert proc.returncode == 143
        assert err == "kg: terminated; files already written are complete, nothing half-written\n"
    else:
        assert proc.returncode == -signal.SIGKILL
        save_graph(load_graph(graph), graph)  # the next write
    assert leftovers(tmp_path) == []


SLOW_SAVE = (
    "import contextlib, sys, time\n"
    "import kg.store.graphfile as graphfile\n"
    "real = graphfile.atomic_output\n"
    "@contextlib.contextmanager\n"
    "def stalled(*args, **kwargs):\n"
    "    with real(*args, **kwargs) as fh:\n"
    "        yield fh\n"
    "        fh.flush()\n"
    "        print('saving', flush=True)\n"
    "        time.sleep(60)\n"
    "graphfile.atomic_output = stalled\n"
    "graphfile.save_graph(graphfile.load_graph(sys.argv[1]), sys.argv[1])\n"
)


def test_a_save_killed_midway_leaves_a_temporary_file_the_next_write_removes(tmp_path, graph):
    before = graph.read_bytes()
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_SAVE, str(graph)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline() == "saving\n"
    proc.kill()
    proc.wait()
    (stale,) = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert stale.startswith(f".g.kg.{proc.pid}.") and graph.read_bytes() == before
    with graph_lock(graph, wait=0):  # the killed writer's lock went with it
        save_graph(load_graph(graph), graph)
    assert leftovers(tmp_path) == []
    assert titles(graph) == {"base 0", "base 1"}


# ---------------------------------------------------------------- engine cache, pages


@pytest.fixture
def small_graph(tmp_path):
    return save_graph(example_graph(), tmp_path / "ex.kg")


def test_a_process_waiting_for_the_engine_cache_reuses_what_the_other_saved(small_graph):
    from kg.query.engine import RDB_NAME
    from kg.query.engine_cache import CACHE_LOCK, cache_dir, materialise

    lock = os.path.join(cache_dir(small_graph), CACHE_LOCK)
    told, answers = [], []

    def query():  # in the thread: the engine's server lives as long as the thread
        with materialise(small_graph, waiting=told.append) as engine:
            answers.append(engine("MATCH (a:Author) RETURN count(a) AS n"))

    with exclusive(lock, "the test"):
        waiter = threading.Thread(target=query)
        waiter.start()
        while not told:
            time.sleep(0.01)
        materialise(small_graph).close()  # this thread holds the lock: it saves the cache
        saved = os.stat(os.path.join(cache_dir(small_graph), RDB_NAME)).st_mtime_ns
    waiter.join(60)
    assert answers == [[{"n": 7}]]
    assert told == [
        f"waiting for another kg process caching {small_graph} (process {os.getpid()}) to finish..."
    ]
    assert os.stat(os.path.join(cache_dir(small_graph), RDB_NAME)).st_mtime_ns == saved
    assert sorted(os.listdir(cache_dir(small_graph))) == ["graph.rdb", "stamp.json"]


def test_a_killed_cache_save_leaves_files_the_next_save_removes(small_graph):
    from kg.query.engine_cache import cache_dir, materialise

    folder = cache_dir(small_graph)
    os.makedirs(folder)
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    for name in (f"temp-{proc.pid}.rdb", f".graph.rdb.{proc.pid}.tmp"):
        Path(folder, name).write_text("half")
    materialise(small_graph).close()
    assert sorted(os.listdir(folder)) == ["graph.rdb", "stamp.json"]


def test_kg_viz_into_a_folder_in_use_waits_or_is_refused(tmp_path, small_graph, capsys):
    pages = tmp_path / "pages"
    lock = pages / ".kg-viz.lock"
    holder = hold_in_process(lock, 60)
    try:
        assert main(["viz", "-g", str(small_graph), "-o", str(pages), "--wait", "0"]) == 75
    finally:
        holder.kill()
        holder.wait()
    assert capsys.readouterr().err == (
        f"kg: error: another kg viz into {pages} (process {holder.pid}) still holds {lock} "
        "after 0 s; try again when it has finished\n"
    )
    assert sorted(os.listdir(pages)) == [".kg-viz.lock"]  # the killed holder's, now free
    holder = hold_in_process(lock, 1.0)
    assert main(["viz", "-g", str(small_graph), "-o", str(pages)]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        f"kg: waiting for another kg viz into {pages} (process {holder.pid}) to finish...\n"
    )
    holder.wait()
    assert "index.html" in os.listdir(pages) and not lock.exists()
