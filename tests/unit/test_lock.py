"""Locks: one holder at a time across processes and threads, a wait that says so, a refusal
after the wait, nothing left behind by a holder that ends or is killed."""

import os
import signal
import threading
import time

import pytest

from kg.errors import Locked, OutputError
from kg.lock import exclusive, graph_lock, holder
from tests.helpers.locks import hold_in_process


def test_another_process_holding_the_lock_is_refused_with_its_pid(tmp_path):
    lock = tmp_path / "g.kg.lock"
    proc = hold_in_process(lock, 30)
    try:
        assert holder(lock) == f"process {proc.pid}"
        with pytest.raises(Locked) as caught:
            with exclusive(lock, "another kg build of g.kg", wait=0):
                raise AssertionError("the lock was taken twice")
        assert str(caught.value) == (
            f"another kg build of g.kg (process {proc.pid}) still holds {lock} after 0 s; "
            "try again when it has finished"
        )
        assert caught.value.exit_code == 75
    finally:
        proc.kill()
        proc.wait()


def test_a_waiter_says_so_once_and_goes_ahead_when_the_holder_ends(tmp_path):
    lock = tmp_path / "g.kg.lock"
    proc = hold_in_process(lock, 1.0)
    told = []
    with exclusive(lock, "another kg build of g.kg", wait=30, waiting=told.append):
        got_it = time.time()
        assert holder(lock) == f"process {os.getpid()}"
    assert float(proc.stdout.readline()) <= got_it  # the holder had let go by then
    proc.wait()
    assert told == [f"waiting for another kg build of g.kg (process {proc.pid}) to finish..."]
    assert not lock.exists()  # the holder removes the file as it lets go


def test_a_killed_holder_leaves_no_lock(tmp_path):
    lock = tmp_path / "g.kg.lock"
    proc = hold_in_process(lock, 60)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert lock.exists()  # the file stays, the lock does not
    with exclusive(lock, "another kg build", wait=0):
        assert holder(lock) == f"process {os.getpid()}"
    assert not lock.exists()


def test_threads_take_turns_and_nested_blocks_share_the_lock(tmp_path):
    lock = tmp_path / "x.lock"
    inside, order = threading.Event(), []

    def second():
        with exclusive(lock, "the first thread", wait=30):
            order.append("second")

    with exclusive(lock, "the test"):
        with exclusive(lock, "the test", wait=0):  # the same thread: no wait
            thread = threading.Thread(target=second)
            thread.start()
            inside.wait(0.3)
            order.append("first")
        assert lock.exists()  # the outer block still holds it
    thread.join(30)
    assert order == ["first", "second"]


def test_a_lock_file_removed_while_waited_for_is_not_shared(tmp_path):
    """A waiter that gets the lock of a file removed meanwhile starts again on the file
    the name now leads to (and a holder removes only its own file), so two never hold
    the same name."""
    lock = tmp_path / "g.lock"
    first = hold_in_process(lock, 1.0)
    got = []
    waiter = threading.Thread(
        target=lambda: exclusive(lock, "the first", wait=30).__enter__() or got.append(1)
    )
    waiter.start()
    time.sleep(0.2)
    os.unlink(lock)  # someone removes the first holder's file
    with exclusive(lock, "someone", wait=0):  # the name is free: a new file
        first.wait()
        time.sleep(0.3)  # the waiter now has the old file's lock, which no longer counts
        assert got == []
    waiter.join(30)
    assert got == [1]


def test_an_unwritable_folder_is_one_line_unless_the_lock_is_optional(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(OutputError, match=f"^cannot write the graph file {blocker}/g.kg: "):
        with graph_lock(blocker / "g.kg"):
            pass
    ran = []
    with exclusive(blocker / "x.lock", "nobody", required=False):
        ran.append(1)
    assert ran == [1]
