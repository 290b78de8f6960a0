"""The exceptions kg raises; the CLI turns each into one line and a non-zero exit."""

from collections.abc import Iterable


class KgError(Exception):
    """Base of every error kg reports to a user."""


class GraphFileError(KgError):
    """A graph file that is missing, not a kg graph, corrupt, or of a newer schema."""


class OutputError(KgError):
    """An output file or folder that cannot be written."""


class InputError(KgError):
    """Nothing usable could be read from the inputs."""


class NotFound(KgError):
    """A name that matches no node; ``suggestions`` holds the closest names."""

    def __init__(self, message: str, suggestions: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.suggestions = list(suggestions)
