"""Help text of the ``kg`` commands: an ``Example:`` paragraph is printed as written (one
line, never wrapped), so that it can be copied into a shell and run as shown."""

import argparse
from typing import Any

EXAMPLE = "Example: "


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, but an epilog starting ``Example: `` keeps its one line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(EXAMPLE):
            return indent + text
        return super()._fill_text(text, width, indent)


class ArgumentParser(argparse.ArgumentParser):
    """A parser (and, through ``add_subparsers``, subparsers) with :class:`HelpFormatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def examples(help_text: str) -> list[str]:
    """The commands of the ``Example:`` lines of a help text.

    >>> examples("usage: kg x\\n\\nExample: kg x -g 'a b'\\n")
    ["kg x -g 'a b'"]
    """
    return [line[len(EXAMPLE) :] for line in help_text.splitlines() if line.startswith(EXAMPLE)]
