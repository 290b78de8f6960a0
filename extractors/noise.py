"""Noise in an abstract's text, which never names an entity: LaTeX commands and the keys
they take, citation keys, URLs, e-mail addresses and PDF-extraction debris.

Pure functions over strings; every span is a (start, end) pair of character offsets.
:func:`classified_noise` tells the markup that stands between words of prose (the text
around it still reads as prose, so the rules may read the text with it blanked out) from
the noise that stands for words or is part of one (macros, PDF-extraction debris: their
neighbours are pieces of the same phrase); :func:`noise_spans` is both, merged. A candidate
mention that overlaps a noise span is dropped (:func:`kg.extractors.candidates.find_candidates`).
"""

import bisect
import re
from collections.abc import Sequence

from kg.extractors.words import word_set

Span = tuple[int, int]

#: Commands whose first argument is a key, reference, path or URL: both are noise.
_KEY_COMMANDS = word_set("latex_key_commands")
#: Formatting commands: only the command word is noise (``\textbf{BERT}`` names BERT).
_FORMAT_COMMANDS = word_set("latex_format_commands")
#: Command words that may be glued to what follows when the braces were lost in the
#: listing (``\citeHsuKLZ10``, ``\textitAppGrad``), longest first.
_GLUED_KEY = re.compile("|".join(sorted(_KEY_COMMANDS, key=len, reverse=True)))
_GLUED_FORMAT = re.compile(
    "|".join(sorted((c for c in _FORMAT_COMMANDS if len(c) >= 4), key=len, reverse=True))
)

_COMMAND = re.compile(r"\\([A-Za-z]+)\*?")
#: A backslash a PDF extraction left for an opening quote (``\Structure From Motion"``).
_QUOTE_MARK = re.compile(r'\\(?=[A-Z][a-z]+[^\\"$]{0,80}")')
_OPTIONAL_ARGUMENT = re.compile(r"\[[^\[\]{}]*\]")
_UNBRACED_ARGUMENT = re.compile(r"[^\s{}]*")
#: The key glued to a citation command (``\citeProc:Datar_SCG04``).
_GLUED_KEY_TAIL = re.compile(r"(?:[\w:/.\-]*[\w/])?")

#: Citation keys outside a command: DBLP keys, arXiv identifiers, BibTeX entry heads and
#: alphabetic reference labels ("[LF88]", "[BCKW15; Kuh99]").
_CITATION_KEY = re.compile(
    r"\bDBLP:[\w/.:\-]*\w"
    r"|\b(?i:arxiv):\s?\d{4}\.\d{4,5}(?:v\d+)?"
    r"|@(?:article|inproceedings|incollection|misc|book|phdthesis|mastersthesis|techreport"
    r"|online|proceedings|unpublished)\{[^,\s}]*"
    r"|\[[A-Z][A-Za-z+]{1,9}\d{2}[a-z]?(?:[,;] ?[A-Z][A-Za-z+]{1,9}\d{2}[a-z]?)*\]"
)
#: Author-year citations in brackets: capitalised surnames (no inner capital: "ImageNet"
#: is no surname), joined by commas, "and", "&" or "et al.", then a year; several joined
#: by ";" ("[Le Cun, Denker and Solla, 1990]", "(Baik et al., 2005; Ng 2004a)"); before
#: "et al." any capitalised word is a surname ("(LeCun et al., 2015)").
_SURNAME = r"[A-Z](?:[a-z0-9'’\-]|[^\x00-\x7f\W])+(?: [A-Z](?:[a-z0-9'’\-]|[^\x00-\x7f\W])+)*"
_AUTHOR_YEAR_ONE = (
    rf"(?:{_SURNAME}(?:(?:,| and| &),? {_SURNAME})*(?: et al\.?)?|[A-Z][\w'’\-]* et al\.?)"
    r",? (?:19|20)\d\d[a-z]?"
)
_AUTHOR_YEAR = re.compile(rf"[\[(]{_AUTHOR_YEAR_ONE}(?:; ?{_AUTHOR_YEAR_ONE})*[\])]")
_URL_CHARACTERS = r"[^\s<>\"{}|\\^`]"
#: URLs that start with a scheme, ``www.`` or a DOI.
_URL = re.compile(
    rf"\b(?:(?:https?|ftp)://|www\.){_URL_CHARACTERS}+"
    r"|\bdoi:\s?10\.\d{4,9}/\S+|\b10\.\d{4,9}/[^\s,;]+"
)
#: The end of the host of a URL without a scheme ("github.com/a/b", "x.github.io"); the
#: host before it is found by :func:`_word_start`, the rest of the URL by ``_URL_REST``.
_HOST_END = re.compile(
    r"\.(?:com|org|net|io|ai|edu|gov|dev|info|cn|de|uk|fr|jp|ch|nl)(?=/)|\.github\.io\b"
)
_URL_REST = re.compile(f"{_URL_CHARACTERS}*")
_URL_TRAILING = ".,;:!?'\""
#: Math written as plain text: an order or a function of variables ("O(sqrt(KT))",
#: "log(NK)"), whose letters are variables, not names.
_PLAIN_MATH = re.compile(
    r"\b(?:O|Omega|omega|Theta|sqrt|log|exp|poly|polylog) ?\((?:[^()]|\([^()]*\)){1,60}\)"
)
#: A math command and its argument ("\\sqrt{kT}", "\\frac{d}{n}"): variables, not names.
_MATH_ARGUMENT = re.compile(
    r"\\(?:sqrt|frac|log|exp|widetilde|tilde|hat|bar|mathcal)\s?\{[^{}]{0,40}\}"
)
_EMAIL = re.compile(
    r"(?:\{[\w.,\s-]+\}|\b[\w.+-]+)@[A-Za-z][\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b(?![.\w]*/)"
)

#: Where a URL with a slash may be, found fast (no alternative starts with ``\\b``).
_URL_HINT = re.compile(
    r"://|10\.\d{4}|\.(?:com|org|net|io|ai|edu|gov|dev|info|cn|de|uk|fr|jp|ch|nl)/"
)

#: A PDF character id (``(cid:173)``, a soft hyphen; ``(cid:12)``, a lost ligature) and the
#: word pieces glued after it; after a soft hyphen and a space, the rest of the word too.
#: (The piece before it is found by :func:`_word_start`: a pattern that starts with a
#: literal is searched fast.)
_CID = re.compile(r"(?:\(cid:\d+\)[\w\-]*)+(?:(?<=\(cid:173\))\s[\w\-]+)?")
#: Emphasis markup inside a word ("**A**rXiv", "\\textbf{Gr}adient") and the rest of the
#: word; a plural "s" after the markup ("**LLM**s") leaves a name whole, and so does an
#: accent (``Nystr\\"{o}m``).
_SPLIT_WORD = re.compile(
    r"(?:\*\*(?<=[A-Za-z0-9]\*\*)|\}(?<=[A-Za-z0-9]\})(?<!\\[\"'`^~=.]\{[A-Za-z]\})\$?)"
    r"(?=[A-Za-z])(?!s\b)[A-Za-z0-9]+"
)
#: In text a PDF extraction garbled (it holds a ``(cid:...)``): a word that starts in lower
#: case with a capital followed by a lower-case letter ("fIring", "fCLJi"), the shape the
#: character recognition gives; elsewhere that shape is a name (fastText, iPhone, bAbI).
#: The pattern finds the capitals; :func:`_word_start` the lower-case start.
_GARBLED_CAPITALS = re.compile(r"[A-Z]+[a-z][A-Za-z]*")
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_HOST_CHARACTERS = _ALNUM | {"-", "_", "."}
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


def noise_spans(text: str) -> list[Span]:
    """Every noise span of ``text``, sorted and merged.

    >>> t = r"BERT \\cite{DBLP:x}, see https://a.io/b. Per(cid:173) ceptron"
    >>> [t[a:b] for a, b in noise_spans(t)]
    ['\\\\cite{DBLP:x}', 'https://a.io/b', 'Per(cid:173) ceptron']
    """
    markup, other = classified_noise(text)
    return merge_spans(markup + other)


def classified_noise(text: str) -> tuple[list[Span], list[Span]]:
    """The noise spans of ``text`` as (markup, other), in no particular order.

    Markup stands between the words of prose, so the rules may read the text with it
    blanked out: formatting commands, key commands with their arguments, citation keys,
    URLs, e-mail addresses. The other noise stands for words or is part of one: the paper's
    own macros and math commands (``\\ours``, ``\\ell_1``), the debris of PDF extraction.
    """
    markup, other = latex_spans(text) if "\\" in text else ([], [])
    at = "@" in text
    if at or "[" in text or "DBLP:" in text or "iv:" in text:
        markup.extend(m.span() for m in _CITATION_KEY.finditer(text))
    if "(" in text or "[" in text:
        markup.extend(m.span() for m in _AUTHOR_YEAR.finditer(text))
    if ("/" in text and _URL_HINT.search(text)) or "www." in text or "github.io" in text:
        markup.extend(url_spans(text))
    if at:
        markup.extend(m.span() for m in _EMAIL.finditer(text))
    other.extend(debris_spans(text))
    if "(" in text:
        other.extend(m.span() for m in _PLAIN_MATH.finditer(text))
    if "\\" in text:
        other.extend(m.span() for m in _MATH_ARGUMENT.finditer(text))
    return markup, other


def latex_spans(text: str) -> tuple[list[Span], list[Span]]:
    r"""The LaTeX commands of ``text`` as (markup, macros): a formatting command's word, a
    key command with its optional arguments and its (first) argument; any other command's
    word.

    >>> t = r"\textbf{BERT} \citep[e.g.][]{devlin} \href{http://x}{site} \ours"
    >>> markup, macros = latex_spans(t)
    >>> [t[a:b] for a, b in markup], [t[a:b] for a, b in macros]
    (['\\textbf', '\\citep[e.g.][]{devlin}', '\\href{http://x}'], ['\\ours'])
    """
    markup: list[Span] = []
    macros: list[Span] = []
    for m in _COMMAND.finditer(text):
        name = m.group(1)
        if _QUOTE_MARK.match(text, m.start()):
            continue
        if name in _FORMAT_COMMANDS:
            markup.append(m.span())
        elif name in _KEY_COMMANDS:
            markup.append((m.start(), _argument_end(text, m.end())))
        else:
            span = _glued_command(text, m.start(), name)
            (macros if span is None else markup).append(span or m.span())
    return markup, macros


def _argument_end(text, at):
    """The end of a key command's arguments: any optional ``[...]``, then one ``{...}``."""
    for _ in range(2):
        m = _OPTIONAL_ARGUMENT.match(text, at)
        if m is None:
            break
        at = m.end()
    return _group_end(text, at) if at < len(text) and text[at] == "{" else at


def _group_end(text, at):
    """The end of the brace group opening at ``text[at]``; unclosed, the end of its word."""
    depth = 0
    for i in range(at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    m = _UNBRACED_ARGUMENT.match(text, at + 1)
    return m.end() if m else at + 1


def _glued_command(text, start, name):
    """The markup of a command word a listing glued to what follows: a key command with
    its key (``\\citeHsuKLZ10``), a formatting command's own word (``\\textitAppGrad``);
    None for a macro of the paper's own (``\\ModelName``, ``\\times``)."""
    key = _GLUED_KEY.match(name)
    if key and key.end() < len(name):
        tail = _GLUED_KEY_TAIL.match(text, start + 1 + key.end())
        return (start, tail.end() if tail else start + 1 + len(name))
    command = _GLUED_FORMAT.match(name)
    if command:
        return (start, start + 1 + command.end())
    return None


def url_spans(text: str) -> list[Span]:
    """URLs (with a scheme, ``www.``, a host and a path, a ``github.io`` host, a DOI), without
    the punctuation that ends their sentence.

    >>> t = "Code: https://github.com/a/b. Data at (www.x.org/d), doi:10.1000/182."
    >>> [t[a:b] for a, b in url_spans(t)]
    ['https://github.com/a/b', 'www.x.org/d', 'doi:10.1000/182']
    """
    found = [m.span() for m in _URL.finditer(text)]
    for m in _HOST_END.finditer(text):
        start = _word_start(text, m.start(), _HOST_CHARACTERS)
        while start < m.start() and text[start] == ".":
            start += 1
        rest = _URL_REST.match(text, m.end())
        if start < m.start() and rest and not any(a <= start < b for a, b in found):
            found.append((start, rest.end()))
    spans: list[Span] = []
    for start, end in sorted(found):
        url = text[start:end]
        while url and (
            url[-1] in _URL_TRAILING
            or url[-1] == ")"
            and url.count("(") < url.count(")")
            or url[-1] == "]"
            and url.count("[") < url.count("]")
        ):
            url = url[:-1]
        if url:
            spans.append((start, start + len(url)))
    return spans


def debris_spans(text: str) -> list[Span]:
    """Words a PDF extraction broke: glued to a ``(cid:NNN)`` character id, split by
    emphasis markup, or (in text with character ids) garbled by character recognition.

    >>> t = "a Per(cid:173) ceptron with ef(cid:2)cient fIring, not iBOT"
    >>> [t[a:b] for a, b in debris_spans(t)]
    ['Per(cid:173) ceptron', 'ef(cid:2)cient', 'fIring']
    >>> t = "**A**rXiv and **DoTA** or \\textbf{LLM}s, not iBOT"
    >>> [t[a:b] for a, b in debris_spans(t)]
    ['A**rXiv']
    """
    spans: list[Span] = []
    garbled = "(cid:" in text
    if garbled:
        spans.extend((_word_start(text, m.start()), m.end()) for m in _CID.finditer(text))
    if "**" in text or "}" in text:
        spans.extend(
            (_word_start(text, m.start(), _ALNUM), m.end()) for m in _SPLIT_WORD.finditer(text)
        )
    if garbled:
        for m in _GARBLED_CAPITALS.finditer(text):
            start = _word_start(text, m.start(), _LOWER)
            if start < m.start() and (start == 0 or text[start - 1] not in _ALNUM | {"_", "-"}):
                spans.append((start, m.end()))
    return spans


def _word_start(text, at, characters=None):
    """Where the run of ``characters`` (by default word characters and hyphens) that ends
    at ``at`` starts."""
    while at > 0 and (
        text[at - 1] in characters
        if characters is not None
        else text[at - 1].isalnum() or text[at - 1] in "_-"
    ):
        at -= 1
    return at


def merge_spans(spans: Sequence[Span]) -> list[Span]:
    """The spans sorted, overlapping or touching ones merged.

    >>> merge_spans([(5, 9), (0, 2), (1, 3), (9, 10)])
    [(0, 3), (5, 10)]
    """
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def overlaps(spans: Sequence[Span], start: int, end: int) -> bool:
    """Whether [start, end) overlaps one of the sorted, disjoint ``spans``.

    >>> overlaps([(0, 3), (5, 10)], 3, 5), overlaps([(0, 3), (5, 10)], 4, 6)
    (False, True)
    """
    i = bisect.bisect_left(spans, (end,))  # the spans that start before ``end``
    return i > 0 and spans[i - 1][1] > start


def blank(text: str, spans: Sequence[Span]) -> str:
    """``text`` with the spans replaced by spaces, offsets unchanged.

    >>> blank("a \\\\ours b", [(2, 7)])
    'a       b'
    """
    if not spans:
        return text
    parts, at = [], 0
    for start, end in merge_spans(spans):
        parts.append(text[at:start])
        parts.append(" " * (end - start))
        at = end
    parts.append(text[at:])
    return "".join(parts)


def glued_stops(text: str) -> list[int]:
    """Where two sentences a PDF extraction glued together meet ("preferences.RLHF",
    "serially.Despite", "representation.DMix"): a full stop between two letters and a
    capitalised word, or after a lowercase word; no name holds one ("Last.FM" does).

    >>> glued_stops("It helps.DMix and Last.FM and e.g.BERT")
    [8]
    """
    return [m.start() for m in _STOP_BEFORE_CAPITAL.finditer(text) if _glued(text, m.start())]


def _glued(text: str, stop: int) -> bool:
    if not _GLUED_BEFORE.search(text, max(0, stop - 2), stop):
        return False
    return text[stop + 2 : stop + 3].islower() or bool(
        _LOWER_WORD.search(text, max(0, stop - 60), stop)
    )


_STOP_BEFORE_CAPITAL = re.compile(r"\.(?=[A-Z])")
#: Two letters right before the stop.
_GLUED_BEFORE = re.compile(r"[A-Za-z]{2}$")
#: A lowercase word of two letters or more right before the stop.
_LOWER_WORD = re.compile(r"\b[a-z]{2,}$")
