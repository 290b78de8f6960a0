"""A lock held by another process, for the tests of kg.lock and of concurrent runs."""

import subprocess
import sys

#: Holds the lock file argv[1] for argv[2] seconds; prints "held" once it has it and, when
#: it has let go, the time it did.
HOLD = (
    "import sys, time\n"
    "from kg.lock import exclusive\n"
    "with exclusive(sys.argv[1], 'the test holder'):\n"
    "    print('held', flush=True)\n"
    "    time.sleep(float(sys.argv[2]))\n"
    "print(time.time(), flush=True)\n"
)


def hold_in_process(lock_path, seconds):
    """A process that holds the lock (for ``seconds``); returns once it has it."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock_path), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline() == "held\n"
    return proc
