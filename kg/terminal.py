"""Text made safe for a terminal: paper text cannot move the cursor, clear the screen,
set the window title or reorder what is shown.

Control characters (C0 but newline and tab, DEL, C1 such as U+009B, the one-character CSI),
bidirectional overrides and marks, line and paragraph separators and lone surrogates are
shown as visible escapes (``\\x1b``, ``\\u202e``). An escape sequence loses its ESC, so what
follows it is plain text. Data written to a file or a pipe is left exact: only what goes
to a terminal is changed, and JSON stays valid JSON with the same values.
"""

import re
import sys
from typing import TextIO

_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str, *, keep: str = "\n\t") -> str:
    """``text`` with every character that could control a terminal shown as an escape;
    the characters in ``keep`` (newline and tab unless told) are left alone.

    >>> safe_text("Ada\\x1b[2J Lovelace\\x07")
    'Ada\\\\x1b[2J Lovelace\\\\x07'
    >>> safe_text("\\u202eevil\\x9b1m", keep="")
    '\\\\u202eevil\\\\x9b1m'
    >>> safe_text("two\\nlines")
    'two\\nlines'
    """
    return _UNSAFE.sub(lambda m: m[0] if m[0] in keep else _escape(m[0]), text)


def safe_json(text: str) -> str:
    """JSON text with every unsafe character written as a ``\\uXXXX`` escape: the same
    values, nothing a terminal acts on. Newlines between values are kept.

    >>> safe_json('{"name": "A\\u202eB"}')
    '{"name": "A\\\\u202eB"}'
    """
    return _UNSAFE.sub(lambda m: m[0] if m[0] == "\n" else f"\\u{ord(m[0]):04x}", text)


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (False for closed or replaced streams)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def say(text: str = "", *, file: TextIO | None = None) -> None:
    """Print a message for a person (to stdout unless told) made safe for a terminal."""
    print(safe_text(text), file=sys.stdout if file is None else file)


def print_json(text: str) -> None:
    """Print JSON text to stdout: exact to a file or a pipe, escaped to a terminal."""
    print(safe_json(text) if is_terminal(sys.stdout) else text)
