"""Named variants the corpus writes as a modifier before a method the lexicon knows ("loopy
belief propagation", "latent SVM", "tensor power method", "group lasso"): the longer name is
the method, not the lexicon's name inside it.

Corpus statistics, not a list written by hand: :func:`paper_compounds` gives one paper's
(modifier, name) pairs, Counters of them add up over any grouping of papers, and
:func:`decide` keeps those that :data:`MIN_PAPERS` papers or more write.
``scripts/mine_compounds.py`` ships them in ``data/compounds.tsv`` with a provenance line.
"""

import json
import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from importlib.resources import files
from pathlib import Path

from kg.extractors.terms import STOP_WORDS
from kg.extractors.words import word_set

COMPOUNDS_PATH = Path(str(files("kg.extractors.data"))) / "compounds.tsv"
#: A compound is one that at least this many papers write.
MIN_PAPERS = 3
#: Brackets and quotes that may open the word before a name ("“graphical lasso”").
_OPENINGS = "([{<\"'\u201c\u2018\u00ab*_"
#: A word that may modify a name: lowercase letters, digits and inner hyphens.
_PLAIN_WORD = re.compile(r"[a-z][a-z0-9\-]*[a-z0-9]")
#: Words that modify no name: function words, verbs, evaluative adjectives, and the
#: learning settings that stay beside a method ("off-policy Q-learning" is Q-learning).
_NOT_MODIFIERS = STOP_WORDS | word_set("paradigm_modifiers")


def modifier_before(text: str, start: int) -> str | None:
    """The word right before ``start`` if it may name a variant of what follows: lowercase,
    three letters or more, no stop word, adverb, participle, gerund or plural (verbs are
    told apart by the corpus, :func:`decide`).

    >>> s = "We run loopy belief propagation, then the belief propagation."
    >>> modifier_before(s, s.index("belief")), modifier_before(s, s.rindex("belief"))
    ('loopy', None)
    """
    if text[start - 1 : start] != " ":
        return None
    word = text[text.rfind(" ", 0, start - 1) + 1 : start - 1].lstrip(_OPENINGS)
    if not _PLAIN_WORD.fullmatch(word):
        return None
    if len(word) < 3 or word in _NOT_MODIFIERS or word.endswith(("ly", "ed", "ing", "s")):
        return None
    return word


def paper_compounds(text: str, names: Iterable[tuple[int, str]]) -> Counter[str]:
    """One paper's compounds ("modifier name", the name as the lexicon's canonical in lower
    case), each counted once, for the (start, canonical) of the method names found in
    ``text`` (none inside another; a modifier after another modifier opens none: "stochastic
    gradient HMC"), and its verb uses ("verb:design" for "we design" or "to design the"),
    which tell a verb from a modifier.

    >>> c = paper_compounds("We design a latent SVM.", [(19, "SVM")])
    >>> sorted(c)
    ['latent svm', 'verb:design']
    """
    verbs = {m.group(1) or m.group(2) for m in _VERB_USE.finditer(text.lower())}
    found: Counter[str] = Counter(f"verb:{w}" for w in verbs)
    for start, canonical in names:
        word = modifier_before(text, start)
        # a modifier after another or after a name ("stochastic gradient HMC", "Stein
        # variational gradient descent") is part of a longer name
        if word is not None and _opens_name(text, start - len(word) - 1):
            found[f"{word} {canonical.lower()}"] = 1
    return found


def _opens_name(text: str, at: int) -> bool:
    """Whether a modifier at ``at`` opens its name: no other modifier and no capitalised
    word (but a sentence's first) stands right before it."""
    return modifier_before(text, at) is None and not _name_before(text, at)


def _name_before(text: str, at: int) -> bool:
    """Whether a capitalised word that does not open a sentence stands right before ``at``."""
    return _NAME_BEFORE.search(text, max(0, at - 40), at) is not None


#: A capitalised word before, not opening a sentence.
_NAME_BEFORE = re.compile(r"(?<![.!?] )(?<!^)\b[A-Z][\w\-]* $")
#: A word used as a verb: after "we", or after "to" and before a determiner or pronoun.
_VERB_USE = re.compile(
    r"\bwe ([a-z][a-z\-]+)\b|\bto ([a-z][a-z\-]+) (?:the|a|an|our|their|its|this|these|them|it)\b"
)


def decide(counts: Counter[str], min_papers: int = MIN_PAPERS) -> list[tuple[str, int]]:
    """The compounds ``min_papers`` papers or more write, with their paper counts, sorted;
    none whose modifier that many papers use as a verb ("employ contrastive learning").

    >>> decide(Counter({"latent svm": 3, "train gan": 4, "verb:train": 5, "kernel pca": 2}))
    [('latent svm', 3)]
    """
    return sorted(
        (c, n)
        for c, n in counts.items()
        if n >= min_papers
        and not c.startswith("verb:")
        and counts[f"verb:{c.split(' ', 1)[0]}"] < min_papers
    )


def format_compounds(compounds: list[tuple[str, int]], provenance: dict) -> str:
    """The ``compounds.tsv`` text: a provenance line, a header, a compound and its papers
    per line."""
    lines = [f"# provenance: {json.dumps(provenance, sort_keys=True)}", "compound\tpapers"]
    lines += [f"{c}\t{n}" for c, n in compounds]
    return "\n".join(lines) + "\n"


@cache
def load_compounds() -> frozenset[str]:
    """The shipped compounds, read once per process (none if the file is absent)."""
    if not COMPOUNDS_PATH.exists():
        return frozenset()
    rows = COMPOUNDS_PATH.read_text(encoding="utf-8").splitlines()[2:]
    return frozenset(row.split("\t", 1)[0] for row in rows if row)


def compound_start(
    text: str, start: int, canonical: str, compounds: frozenset[str] | None = None
) -> int | None:
    """Where the compound ends at the method name at ``start`` (``canonical`` its lexicon
    name) starts, if the word before it makes one of ``compounds`` (the shipped ones by
    default) with it; else None.

    >>> s = "It uses the latent support vector machine."
    >>> compound_start(s, 19, "SVM", frozenset({"latent svm"}))
    12
    """
    word = modifier_before(text, start)
    if word is None:
        return None
    at = start - len(word) - 1
    if _name_before(text, at):
        return None  # "Stein variational gradient descent" goes on to the left
    known = load_compounds() if compounds is None else compounds
    return at if f"{word} {canonical.lower()}" in known else None


#: A head noun after a method's name that the name modifies ("sequence-to-sequence models").
_HEAD_NOUN_AFTER = re.compile(r" (?:models?|networks?|architectures?|algorithms?)\b")


def head_end(text: str, start: int, end: int) -> int:
    """Where the mention of a known method at [start, end) ends: past the head noun that a
    name written as a lowercase hyphenated modifier takes ("sequence-to-sequence models",
    "self-attention networks", "expectation-maximization algorithm"), so the span is the
    phrase the abstract names; the name stays the entry's.

    >>> s = "Deep sequence-to-sequence models and Seq2Seq models differ."
    >>> s[5:head_end(s, 5, 25)], s[37:head_end(s, 37, 44)]
    ('sequence-to-sequence models', 'Seq2Seq')
    """
    name = text[start:end]
    if "-" in name and name.islower():
        m = _HEAD_NOUN_AFTER.match(text, end)
        if m:
            return m.end()
    return end
