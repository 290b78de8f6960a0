"""The steps of a long command shown as they happen: one line per step on stderr, with
its time (``kg: resolving names ... 1.2 s``), only when asked (the CLI asks on a terminal).

A step ends when the next starts or at :meth:`Steps.done`, so that marking a step is one
line beside the code it describes.
"""

import sys
import time
from collections.abc import Callable
from typing import TextIO

from kg.terminal import safe_text


class Steps:
    """Named steps of one command; silent unless ``shown``.

    >>> import io
    >>> out = io.StringIO()
    >>> steps = Steps(True, out, clock=iter([0.0, 1.5, 1.5, 2.25]).__next__)
    >>> steps.start("reading listings"); steps.start("saving graph.kg"); steps.done()
    >>> print(out.getvalue(), end="")
    kg: reading listings ... 1.5 s
    kg: saving graph.kg ... 0.8 s
    """

    def __init__(
        self,
        shown: bool,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.shown = shown
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        self.started: float | None = None

    def start(self, what: str) -> None:
        """End the step under way, if any, and show ``what`` as the one now under way."""
        self.done()
        if self.shown:
            self.stream.write(f"kg: {safe_text(what, keep='')} ...")
            self.stream.flush()
            self.started = self.clock()

    def done(self) -> None:
        """End the step under way (its time closes its line)."""
        if self.started is not None:
            self.stream.write(f" {self.clock() - self.started:.1f} s\n")
            self.stream.flush()
            self.started = None
