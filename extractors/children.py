"""Child processes that end with their parent (Linux's parent-death signal).

The worker pool's processes and the embedded engine's server both ask for it, so a build
or a query killed with ``kill -9`` leaves no process behind. (It lives in ``kg.extractors``
because the extraction side imports nothing else of kg.)
"""

import ctypes
import os
import signal

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process (SIGKILL) when its parent ends; call it in the
    child. ``parent`` is the parent's process id: a child whose parent ended before the
    request took effect kills itself at once. A no-op where ``prctl`` does not exist.

    The kernel sends the signal when the *thread* that started the child ends, so a child
    lives only as long as that thread.
    """
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
