"""The exceptions kg raises; the CLI turns each into one line and a non-zero exit.

Also the notes kg gives, warnings of the kind :class:`KgNote` that the CLI prints as
``note:`` lines: :class:`AmbiguousNameWarning` when a forgiving name matched several nodes,
and notes on what a command did about damaged or unusual data (an unverified graph file,
characters an export cannot carry, a cache that could not be saved).
"""

import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO


class KgError(Exception):
    """Base of every error kg reports to a user; ``exit_code`` is the CLI's exit status."""

    exit_code = 1


class GraphFileError(KgError):
    """A graph file that is missing, not a kg graph, corrupt, or of a newer schema."""


class OutputError(KgError):
    """An output file or folder that cannot be written."""


class InputError(KgError):
    """Nothing usable could be read from the inputs."""


class Locked(KgError):
    """Another process kept a lock kg waited for (:mod:`kg.lock`); worth trying again."""

    exit_code = 75  # EX_TEMPFAIL of sysexits.h: a temporary failure, retry later


class NotFound(KgError):
    """A name that matches no node; ``suggestions`` holds the closest names."""

    def __init__(self, message: str, suggestions: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.suggestions = list(suggestions)


class KgNote(UserWarning):
    """Something a user should know that does not stop the command (a ``note:`` line)."""


class AmbiguousNameWarning(KgNote):
    """A name matched several nodes; the lookup used ``key`` and names the ``others``.

    ``papers`` and the counts in ``others`` ((key, papers) pairs, in the lookup's order of
    preference) are the number of papers linked to each node, None where the lookup did not
    count them. ``str()`` is the one-line note the CLI prints.
    """

    def __init__(
        self,
        text: str,
        key: str,
        papers: int | None,
        others: Sequence[tuple[str, int | None]],
    ) -> None:
        self.text, self.key, self.papers, self.others = text, key, papers, list(others)

        def shown(key: str, papers: int | None) -> str:
            if papers is None:
                return key
            return f"{key} ({papers} paper{'' if papers == 1 else 's'})"

        also = ", ".join(shown(k, n) for k, n in self.others)
        super().__init__(f"{text!r} matched {shown(key, papers)}; also {also}")


@contextmanager
def user_notes(show: Callable[[str], None]) -> Iterator[None]:
    """Within the block, hand every :class:`KgNote` to ``show`` as its one-line note, each
    time it is given (other warnings are shown as usual). Warning state is restored after.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("always", KgNote)
        shown = warnings.showwarning

        def note(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if issubclass(category, KgNote):
                show(str(message))
            else:
                shown(message, category, filename, lineno, file, line)

        warnings.showwarning = note
        yield
