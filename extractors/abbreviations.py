"""Schwartz–Hearst abbreviation detection: "Group Relative Policy Optimization (GRPO)".

Pure functions over strings with character offsets, so the pipeline can tie a long form and
its acronym to one entity and the resolver can expand bare acronyms elsewhere.
"""

import re
from dataclasses import dataclass

_PAREN = re.compile(r"\(([^()]{1,20})\)")
_REVERSED = re.compile(r"([A-Z](?<![\w-].)[\w\-]*[A-Z][\w\-]*) \(([A-Z][^()]{8,100})\)")
_WORD = re.compile(r"\S+")
_MARKUP = re.compile(r"(?:\\[a-zA-Z]+\{|[$*_{\"“‘'`]+)+")
_STOP_BEFORE = {",", ";", ":", ".", "?", "!"}
#: Characters of formulas, which short forms do not hold (nor "^" beside a space, as
#: "O( r n^K-1 )" does; "M^3K" may be a name).
_MATH_CHARACTERS = set("=<>{}\\$|")
#: Where the words a long form may take start: a clause break, or a closing bracket (no long
#: form holds another bracket: "captioning (COCO) and semi-supervised (CIFAR-10) tasks").
_CLAUSE_STOPS = (";", ":", ". ", "? ", "! ", "—", ") ")
_LIST_SEPARATOR = re.compile(r"[;,]\s*(?:and\s+|or\s+)?")
_LEADING_JUNK = {
    "the",
    "a",
    "an",
    "our",
    "their",
    "its",
    "this",
    "these",
    "those",
    "novel",
    "new",
    "so-called",
    "called",
    "named",
    "termed",
    "dubbed",
    "of",
    "and",
    "or",
    "to",
    "for",
    "with",
    "by",
    "in",
    "on",
    "via",
    "using",
    "we",
    "is",
    "are",
    "as",
    "from",
    "that",
    "which",
}

#: Words that join two parts of a long form: one cannot start it ("Accuracy and Fairness
#: Gap (AFG)" starts at "Accuracy", not at "and").
_CONNECTORS = {"and", "or", "of", "for", "to", "with", "in", "on", "by"}


@dataclass(frozen=True)
class Abbreviation:
    """A long form and its short form, with character offsets into the text."""

    short: str
    short_start: int
    long: str
    long_start: int

    @property
    def short_end(self) -> int:
        return self.short_start + len(self.short)

    @property
    def long_end(self) -> int:
        return self.long_start + len(self.long)


def is_short_form(candidate: str) -> bool:
    """Schwartz–Hearst's test for a short form: 2–10 characters, at most two words,
    starting with a letter or digit and holding at least one capital letter.

    >>> is_short_form("GRPO"), is_short_form("Dr. GRPO"), is_short_form("e.g.")
    (True, True, False)
    """
    if not 2 <= len(candidate) <= 12 or len(candidate.split()) > 2:
        return False
    if (
        not candidate[0].isalnum()
        or not any(c.isupper() for c in candidate)
        or any(c in _MATH_CHARACTERS for c in candidate)
        or "^" in candidate
        and " " in candidate
    ):
        return False
    return sum(c.isalpha() for c in candidate) >= 2


def best_long_form(short: str, words: list[str]) -> int | None:
    """Index into ``words`` where the long form of ``short`` starts, or None.

    Characters of the short form are matched right to left through the words; the first
    character must start a word (Schwartz & Hearst 2003).

    >>> best_long_form("OPE", ["Off-policy", "evaluation"])
    0
    >>> best_long_form("GRPO", ["we", "use", "Group", "Relative", "Policy", "Optimization"])
    2
    >>> best_long_form("XYZ", ["plain", "words"]) is None
    True
    """
    text = " ".join(words)
    s = len(short) - 1
    at = len(text) - 1
    lowered_short, lowered_text = short.lower(), text.lower()
    while s >= 0:
        c = lowered_short[s]
        if not c.isalnum():
            s -= 1
            continue
        at = lowered_text.rfind(c, 0, at + 1)
        while s == 0 and at > 0 and text[at - 1].isalnum():
            at = lowered_text.rfind(c, 0, at)
        if at < 0:
            return None
        at -= 1
        s -= 1
    start_char = text.rfind(" ", 0, at + 1) + 1
    return text.count(" ", 0, start_char)


def find_abbreviations(text: str) -> list[Abbreviation]:
    """Every "long form (SHORT)" definition in ``text``.

    >>> [(a.long, a.short) for a in find_abbreviations(
    ...     "We study Off-policy evaluation (OPE) with Group Relative Policy Optimization (GRPO).")]
    [('Off-policy evaluation', 'OPE'), ('Group Relative Policy Optimization', 'GRPO')]
    """
    found = []
    for m in _reversed_matches(text):
        short, inner = m.group(1), m.group(2)
        words = inner.split()
        if (
            is_short_form(short)
            and len(words) > 1
            and best_long_form(short, words) == 0
            and _covers(short, inner)
        ):
            found.append(Abbreviation(short, m.start(1), inner, m.start(2)))
    for m in _PAREN.finditer(text):
        short = m.group(1).strip().rstrip("}")  # "(REFORM})": markup left by the listing
        if ";" in short or "," in short:
            short, *rest = (part.strip() for part in _LIST_SEPARATOR.split(short))
            if (
                any(" " not in part and _capitals(part) >= 2 for part in rest)
                or _capitals(short) < 2
                and any(part[:4].isdigit() for part in rest)
            ):
                continue  # a list of names ("DPA, DPO, and SFT") or a citation ("Sutton, 1988")
        if not is_short_form(short):
            continue
        short_start = m.start(1) + m.group(1).index(short)
        limit = min(len(short) + 5, len(short) * 2)
        words = _words_before(text, m.start())
        comma = text.rfind(", ", 0, m.start())
        clause = [w for w in words if w[1] > comma]
        # A long form may hold a comma ("Evidence-Grounded, Social-Weighted Panel (ESPP)")
        # when its words before the comma are capitalised.
        for candidates in (clause, words) if len(clause) < len(words) else (clause,):
            window = candidates[-limit:]
            index = _long_form_index(short, window)
            if (
                index is not None
                and candidates is not clause
                and not all(w[:1].isupper() for w, start in window[index:] if start < comma)
            ):
                index = None
            if index is not None:
                break
        if index is None:
            continue
        first = next(c for c in short if c.isalnum()).lower()
        while (
            index < len(window) - 1
            and window[index][0].lower() in _LEADING_JUNK
            and window[index + 1][0][:1].lower() == first
        ):
            index += 1
        if (
            index > 0
            and window[index][0].lower() in _CONNECTORS
            and window[index - 1][0][:1].lower() == first
        ):
            index -= 1
        long_start = window[index][1]
        long = text[long_start : window[-1][1] + len(window[-1][0])].rstrip("*_$}\"'”’")
        if len(long) <= len(short) or long.lower() == short.lower():
            continue
        if not _covers(short, long) or _short_of_repeats(short, long):
            continue
        found.append(Abbreviation(short, short_start, long, long_start))
    return found


#: A 3 between capitals repeats the letter before it (A3C, S3VM); a 2 or a 4 is as often
#: "to" or "for" (D2GCLF, QC4QA). Its groups are the capitals around it.
_REPEAT = re.compile(r"(?<=([A-Z]))3(?=([A-Z]))")


def _short_of_repeats(short: str, long: str) -> bool:
    """Whether a long form has too few words for a short form whose digit repeats a letter:
    M3C spells four words, so "Machine Comprehension" is only the end of its definition.

    >>> _short_of_repeats("M3C", "Machine Comprehension")
    True
    >>> _short_of_repeats("A3C", "Asynchronous Advantage Actor-Critic")
    False
    >>> _short_of_repeats("AR-A3C", "Adversary Robust A3C")
    False
    """
    repeats = [f"{before}3{after}" for before, after in _REPEAT.findall(short)]
    if not repeats or not short.replace("3", "").isupper():
        return False
    if any(r in long for r in repeats):
        return False  # "Adversary Robust A3C (AR-A3C)" writes the repeat out
    wanted = sum(c.isalpha() for c in short) + 2 * len(repeats)
    return len(re.findall(r"[A-Za-z0-9]+", long)) < wanted - 1


def _reversed_matches(text):
    """``_REVERSED.finditer(text)``, tried only at the start of each word before " (",
    where every match starts (found by ``str.find``: a regex scan tries each capital)."""
    found, end = [], 0
    at = text.find(" (")
    while at >= 0:
        start = at
        while start and (text[start - 1].isalnum() or text[start - 1] in "_-"):
            start -= 1
        if start >= end and (m := _REVERSED.match(text, start)):
            found.append(m)
            end = m.end()
        at = text.find(" (", at + 2)
    return found


def _capitals(word):
    """How many capital letters ``word`` holds."""
    return sum(c.isupper() for c in word)


def _long_form_index(short, window):
    """Index into ``window`` ((word, start) pairs) where the long form of ``short`` starts
    (its digits may be left out: "GPT2" from "Generative Pre-Trained"), or None. Words whose
    initials spell the short form win over a shorter match inside words ("Proximal Policy
    Optimization" for PPO, not "Policy Optimization" with the p of "Optimization")."""
    words = [w for w, _ in window]
    index = best_long_form(short, words) if words else None
    if index is None and any(c.isdigit() for c in short):
        index = best_long_form("".join(c for c in short if not c.isdigit()), words)
    if index == 0:
        return index  # nothing starts earlier
    spelled = initials_index(short, words)
    if spelled is not None and (index is None or spelled < index):
        return spelled
    return index


_ALNUM = re.compile(r"[^\W_]")


def initials_index(short: str, words: list[str]) -> int | None:
    """Index into ``words`` from which the initials of the words (and of the parts of
    hyphenated ones) spell the letters of ``short``, or None.

    >>> initials_index("PPO", ["via", "Proximal", "Policy", "Optimization"])
    1
    >>> initials_index("OPE", ["Off-policy", "evaluation"]), initials_index("RLHF", ["RL"])
    (0, None)

    A digit after a letter may repeat it (A3C: Asynchronous Advantage Actor-Critic):

    >>> initials_index("A3C", ["Asynchronous", "Advantage", "Actor-Critic"])
    0
    """
    letters = [c.lower() for c in short if c.isalpha()]
    repeated = [
        c.lower() * (int(after) if after.isdigit() and 1 < int(after) < 5 else 1)
        for c, after in zip(short, [*short[1:], ""], strict=True)
        if c.isalpha()
    ]
    for wanted in dict.fromkeys(("".join(repeated), "".join(letters))):
        spelled = ""
        for i in range(len(words) - 1, -1, -1):
            parts = re.split(r"[-/]", words[i])
            spelled = "".join(m[0].lower() for p in parts if (m := _ALNUM.search(p))) + spelled
            if len(spelled) >= len(wanted):
                if spelled == wanted:
                    return i
                break
    return None


def _words_before(text, paren):
    """(word, start) pairs of the clause before a parenthesis (stopping at ; : . etc.)."""
    cut = max(text.rfind(p, 0, paren) for p in _CLAUSE_STOPS)
    offset = cut + 1 if cut >= 0 else 0
    clause = text[offset:paren]
    words = []
    for m in _WORD.finditer(clause):
        word, start = m.group(0), offset + m.start()
        markup = _MARKUP.match(word)
        if markup:
            word, start = word[markup.end() :], start + markup.end()
        word = word.strip(",.;:")
        if word and word not in _STOP_BEFORE:
            words.append((word, start))
    return words


def _covers(short, long):
    """The long form's first letter matches the short form's first letter."""
    first = next((c for c in short if c.isalnum()), "")
    return long[:1].lower() == first.lower()
