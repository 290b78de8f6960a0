"""Rules for names by their shape: coined names (SelecMix, CG2A), capitalised runs, names
typed by the head after them ("the FooQA benchmark") and slash-joined names."""

import re
import string
from functools import lru_cache

from kg.extractors.records import BENCHMARK, DATASET
from kg.extractors.rules.context import WORD_BEFORE, word_window
from kg.extractors.rules.sentences import sentence_start
from kg.extractors.words import word_set

BENCHMARK_HEADS = word_set("benchmark_heads")
_TASK_MODIFIER_STOP = word_set("modifier_stops")
_NON_NAMES = word_set("non_names")
#: A word's characters; a word starts at a letter after any other character or a "+".
_NAME_CHARACTERS = re.compile(r"[\w\-+./]*")
#: A capital or digit inside a word: the sign of a possible coined name, found fast since
#: the pattern starts with a character class that skips lowercase text.
_INNER_CAPITAL_OR_DIGIT = re.compile(r"[A-Z0-9](?<=[\w\-+./].)")
_CAPITAL_OR_DIGIT = re.compile(r"[A-Z0-9]")
_ASCII_LETTERS = frozenset(string.ascii_letters)
_HEAD_WORDS = (
    "benchmark",
    "dataset",
    "corpus",
    "corpora",
    "database",
    "suite",
    "leaderboard",
    "testbed",
    "arena",
    "challenge",
    "collection",
)


@lru_cache(maxsize=1 << 16)
def is_name_shaped(word: str) -> bool:
    """A word that looks like a coined name: a part (between hyphens) with capitals after
    its first letter, or letters mixed with digits (OrderDP, SelecMix, CG2A, TALE-EP), but
    not a generic acronym nor a hyphenated pair of capitalised words (Block-Recurrent).

    >>> [is_name_shaped(w) for w in ("OrderDP", "CG2A", "Transformer", "LLMs", "x2")]
    [True, True, False, False, False]
    >>> is_name_shaped("Block-Recurrent"), is_name_shaped("TALE-EP"), is_name_shaped("SWF-based")
    (False, True, False)
    >>> is_name_shaped("sqrtT"), is_name_shaped("mathcalO"), is_name_shaped("expRNN")
    (False, False, True)
    >>> is_name_shaped("W4A16"), is_name_shaped("W4A4KV16")  # bit widths of a quantization
    (False, False)
    >>> is_name_shaped("Mixture-of-Agents"), is_name_shaped("State-of-the-Art")
    (True, False)
    """
    if (
        len(word) < 2
        or word in _NON_NAMES
        or not word[0].isalpha()
        or _GLUED.search(word)
        or _BARE_LATEX.match(word)
        or _BIT_WIDTHS.fullmatch(word)
    ):
        return False
    if word.rstrip("s") in _NON_NAMES or not _TWO_LETTERS.search(word):
        return False
    if _OF_NAME.fullmatch(word):
        return True
    if word[0].islower() and word[1:] == word[1:].lower():
        return False
    parts = word.split("-")
    if len(parts) > 1 and any(len(p) > 2 and p.isalpha() and p.islower() for p in parts):
        return False
    for part in parts:
        if len(part) < 2 or part in _NON_NAMES:
            continue
        if part[1:] != part[1:].lower() or (part[0].isupper() and _DIGIT.search(part)):
            return True
    return False


#: Names coined as "X-of-Y" on a noun for a structure of steps or parts
#: ("Chain-of-Verification", "Mixture-of-Agents", "Skeleton-of-Thought").
_OF_NAME = re.compile(
    r"(?:Chain|Tree|Graph|Forest|Mixture|Mix|Program|Skeleton|Buffer|Layer|Society|Sum|Bag|Set)"
    r"-of-[A-Z][a-z]+(?:-[A-Z][a-z]+)*s?"
)
#: Bit widths of a quantized model's weights, activations and KV cache (W4A16, W4A4KV4).
_BIT_WIDTHS = re.compile(r"W\d{1,2}A\d{1,2}(?:KV\d{1,2})?|A\d{1,2}W\d{1,2}")
_TWO_LETTERS = re.compile(r"[A-Za-z].*[A-Za-z]")
_ACRONYM_MARKED = re.compile(r"[a-z]{2,}[A-Z][a-z]*")


def is_acronym_marked(word: str) -> bool:
    """Whether a word's one capital marks a letter of an acronym ("with guIded REwrite"),
    rather than the word being a name: one capital inside a lowercase word, not after a
    single letter ("iNaturalist", "iGibson" are names). Known names ("celebA") are looked
    up before this is asked.

    >>> [is_acronym_marked(w) for w in ("guIded", "iNaturalist", "GPstruct")]
    [True, False, False]
    """
    return _ACRONYM_MARKED.fullmatch(word) is not None


#: Two sentences glued by a missing space ("synergy.We").
_GLUED = re.compile(r"^[a-z]+\.[A-Z][a-z]")
#: Math whose LaTeX backslashes were lost on the way ("sqrtT", "mathcalO", "frac1T").
_BARE_LATEX = re.compile(
    r"(?:sqrt|frac|d?tilde|widetilde|hat|widehat|bar|overline|"
    r"math(?:cal|bb|bf|rm|sf)|log)[A-Z0-9]"
)


_DIGIT = re.compile(r"\d")


def _head_words(text):
    """(offset, word) of each dataset/benchmark head word in ``text``, in order."""
    lowered = text.lower()
    found = []
    for cue in _HEAD_WORDS:
        at = lowered.find(cue)
        while at >= 0:
            end = at + len(cue)
            if lowered[end : end + 1] == "s":
                end += 1
            if (at == 0 or not lowered[at - 1].isalnum()) and (
                end == len(lowered) or not lowered[end].isalnum()
            ):
                found.append((at, lowered[at:end]))
            at = lowered.find(cue, end)
    return sorted(found)


def headed_name_spans(sentence: str) -> list[tuple[int, int, str]]:
    """Names typed by the word after them: "the Big-Math dataset", "SWE-bench benchmark",
    "the Community Alignment dataset" (capitalised words before the head join the name).

    >>> s = "We evaluate on the FooQA benchmark and the Bar Baz dataset."
    >>> [(s[a:b], t) for a, b, t in headed_name_spans(s)]
    [('FooQA', 'Benchmark'), ('Bar Baz', 'Dataset')]
    """
    found = []
    for head_start, head in _head_words(sentence):
        m = WORD_BEFORE.search(sentence, word_window(sentence, head_start, 60), head_start)
        if not m:
            continue
        word = m.group(1)
        if (
            word.endswith(".")
            or not word[0].isupper()
            and not is_name_shaped(word)
            or _LANGUAGE_PAIR.fullmatch(word)
            or all(part in _NON_NAMES for part in word.split("-"))
        ):
            continue  # "... Google Images. Dataset", "the EN-DE dataset", "English-French"
        start = m.start(1)
        shaped = is_name_shaped(word)
        if not shaped and (
            not word[0].isupper()
            or word in _NON_NAMES
            or word.lower() in _TASK_MODIFIER_STOP
            or sentence_start(sentence, start)
        ):
            continue
        while True:
            prev = _CAPITALISED_BEFORE.search(sentence, word_window(sentence, start, 40), start)
            if (
                not prev
                or prev.group(1).lower() in _TASK_MODIFIER_STOP
                or prev.group(1) in _NON_NAMES
                and is_name_shaped(sentence[start : m.start(1) + len(word)].split()[0])
            ):
                break  # a company or language opens a name of words ("Amazon Product
                # Review"), not a coined one ("English ACE")
            start = prev.start(1)
            if sentence_start(sentence, start):
                break
        kind = BENCHMARK if head in BENCHMARK_HEADS or head[:-1] in BENCHMARK_HEADS else DATASET
        found.append((start, m.start(1) + len(word), kind))
    return found


#: A head word written with a capital right after a name (singular: "ProPara Datasets"
#: heads a list).
_PROPER_HEAD = re.compile(r" (?:" + "|".join(h.capitalize() for h in _HEAD_WORDS) + r")\b")


def proper_head_end(sentence: str, start: int, end: int) -> int:
    """Where a name of ordinary capitalised words (``start``, ``end``) ends with its head
    word, when that word is capitalised and so part of the name ("the Million Song Dataset",
    "the Visual Decathlon Challenge"); else ``end`` ("the FooQA benchmark" and "the FooQA
    Benchmark" name FooQA: a coined name stands alone).

    >>> s = "on the Million Song Dataset, the FooQA Benchmark and the Bar benchmark"
    >>> [s[a:proper_head_end(s, a, b)] for a, b in ((7, 19), (33, 38), (57, 60))]
    ['Million Song Dataset', 'FooQA', 'Bar']
    """
    m = _PROPER_HEAD.match(sentence, end)
    if m is None or any(is_name_shaped(w) for w in sentence[start:end].split()):
        return end
    return m.end()


#: A capitalised word before a name, or a figure joined to one ("1-Billion Word").
_CAPITALISED_BEFORE = re.compile(r"(?<![\w\-])([A-Z][\w\-]*|\d[\d.,]*-[A-Z][\w\-]*) $")
#: A language pair written with two-letter codes ("EN-DE", "zh-en").
_LANGUAGE_PAIR = re.compile(r"[A-Za-z]{2}-[A-Za-z]{2}")
_CONNECTORS = {"of", "for", "to", "with", "in", "on", "via", "from"}


def _inside_brackets_or_quotes(sentence, start):
    """Whether ``start`` is inside brackets or quotes opened earlier in its sentence."""
    before = sentence[max(0, start - 300) : start]
    cut = max(before.rfind(". "), before.rfind("? "), before.rfind("! "))
    before = before[cut + 1 :]
    return (
        before.count("(") > before.count(")")
        or before.count('"') % 2 == 1
        or before.count("“") > before.count("”")
    )


#: "in" and "on" join a name only before two capitalised words ("Entity Recognition in
#: Chinese Web Novels") or one and a bracket ("Common Objects in Context (COCO)"); before one
#: alone they mostly join a name and where it ran ("OneIE on ACE").
_TITLE_RUN = re.compile(
    r"[A-Z](?<![\w\-(\"“].)[\w'’]*(?:-\w+)*"
    r"(?:(?: (?:of|for|to|with|via|from|(?:in|on)(?= [A-Z][\w'’\-]* [A-Z(])))?"
    r" [A-Z][\w'’]*(?:-\w+)*)+"
)


_NON_SPACE = re.compile(r"\S+")
#: Words that may open a capitalised run without being part of the name in it.
_LEADING_FUNCTION_WORDS = word_set("leading_function_words")


def title_case_spans(sentence: str) -> list[tuple[int, int]]:
    """Runs of two or more capitalised words, with small connecting words inside
    ("Gradient Agreement Solver", "Divide-and-Conquer Sampling"); not at the very start
    of a sentence unless the run is three words or longer, nor inside brackets or quotes.

    >>> s = "We design the Soft Gradient Surgery and use Adam."
    >>> [s[a:b] for a, b in title_case_spans(s)]
    ['Soft Gradient Surgery']
    >>> s = "While Double Deep Experience Replay helps, The New Lasso Solvers fail."
    >>> [s[a:b] for a, b in title_case_spans(s)]
    ['Double Deep Experience Replay', 'New Lasso Solvers']
    >>> s = "We run Sparse Tree Search on Atari and Tree Recognition in Long Web Novels."
    >>> [s[a:b] for a, b in title_case_spans(s)]
    ['Sparse Tree Search', 'Tree Recognition in Long Web Novels']
    >>> s = "It uses Common Objects in Context (COCO)."
    >>> [s[a:b] for a, b in title_case_spans(s)]
    ['Common Objects in Context']
    """
    found = []
    for m in _TITLE_RUN.finditer(sentence):
        words = [
            (w.group(0), m.start() + w.start(), m.start() + w.end())
            for w in _NON_SPACE.finditer(m.group(0))
        ]
        while words and (words[-1][0].isupper() or words[-1][0] in _CONNECTORS):
            words.pop()
        while words and words[0][0].lower() in _LEADING_FUNCTION_WORDS:
            words.pop(0)
        if not words or any(w in _NON_NAMES for w, _, _ in words):
            continue
        capitals = sum(1 for w, _, _ in words if w[:1].isupper() and not w.isupper())
        before = sentence[max(0, words[0][1] - 4) : words[0][1]].rstrip(" *_")
        at_start = not before or before[-1] in ':"“).!?'
        if sentence[words[-1][2] : words[-1][2] + 2] == "**":
            continue
        if (
            capitals >= 2
            and (not at_start or capitals >= 3)
            and not _inside_brackets_or_quotes(sentence, words[0][1])
        ):
            found.append((words[0][1], words[-1][2]))
    return found


def coined_name_spans(sentence: str) -> list[tuple[int, int]]:
    """Single coined names anywhere in a sentence (SelecMix, TALE-EP, CG2A).

    A name right after "[" is a citation key ([ZRKB21]), not a coined name.

    >>> s = "Unlike SelecMix [ABC21] and the Transformer, it is fast."
    >>> [s[a:b] for a, b in coined_name_spans(s)]
    ['SelecMix']
    """
    found = []
    for start, end in name_candidates(sentence):
        word = sentence[start:end].rstrip(".")
        if sentence[start - 1 : start] == "[" or _WEB_ADDRESS.search(word):
            continue
        if is_name_shaped(word):
            found.append((start, start + len(word)))
    return found


#: A release number after a coined name and a space ("SIMMC 2.0", "FooQA v1.1"), where
#: what follows ends the name: punctuation, a coordination or a word for data.
_RELEASE = re.compile(
    r" (?:[vV]\d{1,2}(?:\.\d{1,2})*|\d\.\d{1,2})"
    r"(?=[,;:)\]]|\.(?!\d)|$| (?:and|or|datasets?|benchmarks?|corpus|corpora|splits?)\b)"
)


def release_end(text: str, end: int) -> int:
    """Where a coined name ending at ``end`` ends with its release number, if one follows
    (else ``end``): "SIMMC 2.0" and "SIMMC 1.0" are two datasets, not a measure after one.

    >>> s = "We use SIMMC 2.0 and FooQA v1.1, not FooNet 2.5 times faster."
    >>> ends = [s.find(name) + len(name) for name in ("SIMMC", "FooQA", "FooNet")]
    >>> [s[s.rfind(" ", 0, end - 1) + 1 : release_end(s, end)] for end in ends]
    ['SIMMC 2.0', 'FooQA v1.1', 'FooNet']
    """
    m = _RELEASE.match(text, end)
    return m.end() if m else end


#: A version or size joined to a collection's name: "LogiQA-v2", "MovieLens 1M", "MNIST 8M".
_DATA_RELEASE = re.compile(r"-[vV]\d{1,2}(?:\.\d{1,2})?\b| \d{1,4}[KMB]\b(?!-)")


def data_release_end(text: str, end: int) -> int:
    """Where a known dataset's name ending at ``end`` ends with the release, version or size
    that follows it (else ``end``): "MultiWOZ 2.1", "LogiQA-v2" and "MovieLens 1M" are
    datasets of their own.

    >>> s = "On MultiWOZ 2.1, LogiQA-v2, MovieLens 1M and MNIST 8M runs 2.5 times faster."
    >>> ends = [s.find(n) + len(n) for n in ("MultiWOZ", "LogiQA", "MovieLens", "MNIST")]
    >>> [s[s.rfind(" ", 0, e - 1) + 1 : data_release_end(s, e)] for e in ends]
    ['MultiWOZ 2.1', 'LogiQA-v2', 'MovieLens 1M', 'MNIST 8M']
    """
    m = _DATA_RELEASE.match(text, end)
    return m.end() if m else release_end(text, end)


def name_candidates(text: str) -> list[tuple[int, int]]:
    """(start, end) of the words that may be coined names: starting with a letter and
    holding a capital or digit after it.

    >>> s = "a GRPO-v2 and gFVD, not Adam, 3DGS or x+Y1."
    >>> [s[a:b] for a, b in name_candidates(s)]
    ['GRPO-v2', 'gFVD', 'x+Y1.']
    """
    found, done, size, reverse = [], 0, len(text), None
    for hit in _INNER_CAPITAL_OR_DIGIT.finditer(text):
        at = hit.start()
        if at < done:
            continue
        if reverse is None:
            reverse = text[::-1]
        # _NAME_CHARACTERS matches anywhere (maybe nothing).
        start = size - _NAME_CHARACTERS.match(reverse, size - at).end()  # type: ignore[union-attr]
        done = _NAME_CHARACTERS.match(text, at).end()  # type: ignore[union-attr]
        for begin in _word_starts(text, start, done):
            if (
                begin < done
                and text[begin] in _ASCII_LETTERS
                and _CAPITAL_OR_DIGIT.search(text, begin + 1, done)
            ):
                found.append((begin, done))
                break
    return found


def _word_starts(text, start, end):
    """Where a word may start in the run of word characters ``text[start:end]``: at its
    start and after each "+" in it."""
    yield start
    at = text.find("+", start, end)
    while at >= 0:
        yield at + 1
        at = text.find("+", at + 1, end)


_WEB_ADDRESS = re.compile(r"\.(?:com|org|net|io|ai|edu)\b|^(?:https?|www)\b|^r/")
_NUMBERED_NAME = re.compile(r"(.*?)(\d+[A-Za-z]?)$")


def slash_parts(word: str) -> list[tuple[int, int, str]]:
    """The names a slash joins, as (start, end, name) within ``word``; a bare number
    after the slash takes the first name's stem ("CIFAR-10/100" names CIFAR-100).

    >>> slash_parts("CIFAR-10/100")
    [(0, 8, 'CIFAR-10'), (9, 12, 'CIFAR-100')]
    >>> slash_parts("SAG/SAGA")
    [(0, 3, 'SAG'), (4, 8, 'SAGA')]
    """
    parts: list[tuple[int, int, str]] = []
    at = 0
    for piece in word.split("/"):
        if piece:
            name = piece
            stem = _NUMBERED_NAME.match(parts[0][2]) if parts else None
            if stem and stem.group(1) and piece[:1].isdigit():
                name = stem.group(1) + piece
            parts.append((at, at + len(piece), name))
        at += len(piece) + 1
    return parts
