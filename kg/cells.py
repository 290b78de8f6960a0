"""Text measured in terminal cells: wide characters (CJK, ``等``) take two, combining marks
none. Cut, pad and wrap by cells, so that aligned text stays aligned and within a width."""

import shutil

from wcwidth import wcswidth, wcwidth

ELLIPSIS = "\u2026"


def cells(text: str) -> int:
    """The cells ``text`` takes on a terminal (a character with no width of its own, such as
    a control character, counts as one: it is shown escaped anyway).

    >>> cells("Ada"), cells("王小明"), cells("e\\u0301")
    (3, 6, 1)
    """
    width = wcswidth(text)
    return width if width >= 0 else sum(w if (w := wcwidth(c)) >= 0 else 1 for c in text)


def cut(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` cells, with an ellipsis when cut.

    >>> cut("Bernhard Schölkopf", 10), cut("王小明", 5), cut("Ada", 5)
    ('Bernhard …', '王小…', 'Ada')
    """
    if cells(text) <= width:
        return text
    kept, used = [], 0
    for char in text:
        size = cells(char)
        if used + size > width - 1:
            break
        kept.append(char)
        used += size
    return "".join(kept) + ELLIPSIS


def shorten(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` cells at a word boundary, with an ellipsis when cut.

    >>> shorten("Large reasoning models spend compute on long traces", 24)
    'Large reasoning models…'
    """
    if cells(text) <= width:
        return text
    kept = cut(text, width)[:-1]
    head, space, _ = kept.rpartition(" ")
    return (head if space and head else kept).rstrip(" ,;:") + ELLIPSIS


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` cells.

    >>> pad("王", 4) + "|"
    '王  |'
    """
    return text + " " * max(width - cells(text), 0)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at spaces where it can be and
    inside a word longer than a line.

    >>> wrap("Group relative policy optimisation", 12)
    ['Group', 'relative', 'policy', 'optimisation']
    >>> wrap("王小明王小明", 4)
    ['王小', '明王', '小明']
    """
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if cells(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:
            if cells(line + char) > width:
                lines.append(line)
                line = ""
            line += char
    lines.append(line)
    return lines


def terminal_width() -> int:
    """The width to fit text to: ``$COLUMNS`` when set, else the terminal's, else 80."""
    return shutil.get_terminal_size((80, 24)).columns
