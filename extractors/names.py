"""The one home of name normalisation: comparison keys, singular and plural forms.

Every step imports these; they differ where their callers need different answers, and
each says why:

- :func:`name_key` compares surface forms (case, hyphens, dots and spaces ignored).
- :func:`fold` is the identity and lookup form of a person's or a thing's name: accents,
  invisible characters, case, spacing and punctuation ignored. Author keys are built on it
  and the forgiving lookup matches with it, so a lookup never tells apart two names a key
  would merge.
- :func:`singular` and :func:`plural` turn an English word (or a phrase's last word) into
  the other number.
- :func:`plain_key`, :func:`long_key`, :func:`stem_key` and :func:`entity_name_key` are
  :func:`name_key` with a plural ignored, each as strictly as its use needs.
- :func:`singular_short` and :func:`task_canonical` make display names.
"""

import unicodedata
from functools import lru_cache

from kg.extractors.words import word_list, word_set

_DROP = dict.fromkeys(map(ord, "-._'\u2010\u2011\u2012\u2013\u2014\u2212\u2019"))
_TASK_NOUNS = ("task", "tasks", "problem", "problems")


@lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """Comparison key of a name: NFKC, casefolded, without hyphens, dots, underscores,
    apostrophes and spaces.

    >>> name_key("ImageNet-1k") == name_key("imagenet 1K") == name_key("ImageNet1K")
    True
    """
    text = name if name.isascii() else unicodedata.normalize("NFKC", name)
    return "".join(text.casefold().translate(_DROP).split())


#: Unicode categories :func:`fold` keeps: letters, digits and spacing marks (the vowel signs
#: of Indic scripts); nonspacing marks (accents), format characters (zero-width, bidi
#: controls), punctuation, symbols and spaces are dropped.
_FOLD_KEEP = ("L", "N", "Mc")


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """The matching form of a name: NFKD, accents and format characters (zero-width, bidi
    controls) dropped, casefolded, only letters, digits and spacing marks kept.

    >>> fold("Çağlar Gülçehre") == fold("Caglar Gulcehre") == fold("CAGLAR GULCEHRE")
    True
    >>> fold("T. J. Sejnowski") == fold("T.J. Sejnowski") == fold("T J Sejnowski")
    True
    >>> fold("Yann\u200b LeCun") == fold("Yann LeCun") == fold("\u202eYann LeCun")
    True
    >>> fold("ImageNet-1K")
    'imagenet1k'
    """
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    return "".join(
        c
        for c in unicodedata.normalize("NFKD", decomposed)
        if unicodedata.category(c).startswith(_FOLD_KEEP)
    )


def singular(word: str) -> str:
    """A plural noun made singular (a guess from its ending); other words unchanged.

    >>> singular("processes"), singular("affinities"), singular("effects"), singular("bias")
    ('process', 'affinity', 'effect', 'bias')
    """
    if len(word) <= 4 or not word.endswith("s") or word.endswith(("ss", "is", "us")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def plural(phrase: str) -> str:
    """The plural of a phrase's last word ("convergence rate" -> "convergence rates").

    >>> plural("convergence rate"), plural("Gaussian process"), plural("recommender policy")
    ('convergence rates', 'Gaussian processes', 'recommender policies')
    """
    if phrase.endswith(("s", "x", "ch", "sh")):
        return phrase + "es"
    if phrase.endswith("y") and phrase[-2:-1] not in ("a", "e", "i", "o", "u"):
        return phrase[:-1] + "ies"
    return phrase + "s"


def without_s(word: str) -> str:
    """A word without one final "s", unless it ends in "ss" ("heads" -> "head").

    >>> without_s("heads"), without_s("loss")
    ('head', 'loss')
    """
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


@lru_cache(maxsize=1 << 16)
def plain_key(name: str) -> str:
    """Case- and plural-insensitive key of a name within one abstract (MAFEs and MAFE are
    one). Any final "s" of a key of four characters or more goes: acronyms and names
    alike, as the lexicon's plural fallback does ("SVMs"); "loss" and "GaAs" lose it too,
    which within one abstract joins nothing that should stay apart.

    >>> plain_key("MAFEs") == plain_key("MAFE"), plain_key("GaAs")
    (True, 'gaa')
    """
    key = name_key(name)
    return key[:-1] if len(key) > 3 and key.endswith("s") else key


@lru_cache(maxsize=1 << 16)
def long_key(long_form: str) -> str:
    """Key of an acronym's long form across the corpus: :func:`name_key` without a final
    "s" unless "ss" (any length: long forms are phrases, where "ss" marks "loss", "process").

    >>> long_key("Graph Neural Networks") == long_key("graph neural network"), long_key("Loss")
    (True, 'loss')
    """
    return without_s(name_key(long_form))


def stem_key(name: str) -> str:
    """:func:`name_key` without all final "s"s: how a long form may misspell a plural
    ("Mixture of expert" spells mixture of experts).

    >>> stem_key("Mixture of Experts") == stem_key("mixture of expert")
    True
    """
    return name_key(name).rstrip("s")


#: British spellings and their American forms (``data/words/british_spellings.txt``).
_AMERICAN = dict(line.split() for line in word_list("british_spellings"))


def american(phrase: str) -> str:
    """``phrase`` with its British spellings in American form, word by word (-isation is
    -ization; the other words by ``british_spellings.txt``), lowercased where changed.

    >>> american("Domain Generalisation"), american("sequence modelling"), american("noise")
    ('Domain generalization', 'sequence modeling', 'noise')
    """
    words = phrase.split(" ")
    for i, word in enumerate(words):
        lower = word.lower()
        if lower.endswith(("isation", "isations")):
            words[i] = lower.replace("isation", "ization")
        elif lower in _AMERICAN:
            words[i] = _AMERICAN[lower]
    return " ".join(words)


#: American spellings and their British forms (the inverse of ``_AMERICAN``).
_BRITISH = {us: uk for uk, us in _AMERICAN.items()}


def british(phrase: str) -> str:
    """``phrase`` with its American spellings in British form, word by word (-ization is
    -isation; the other words by ``british_spellings.txt``), each word's case kept.

    >>> british("Domain Generalization"), british("sequence modeling"), british("noise")
    ('Domain Generalisation', 'sequence modelling', 'noise')
    >>> british("Expectation-Maximization")
    'Expectation-Maximisation'
    """
    words = phrase.split(" ")
    for i, word in enumerate(words):
        at = word.lower().find("ization")
        if at > 0:
            words[i] = word[: at + 1] + ("S" if word[at + 1].isupper() else "s") + word[at + 2 :]
        elif (uk := _BRITISH.get(word.lower())) is not None:
            words[i] = uk[0].upper() + uk[1:] if word[:1].isupper() else uk
    return " ".join(words)


@lru_cache(maxsize=1 << 16)
def entity_name_key(canonical: str) -> str:
    """The key under which names are one entity: :func:`name_key` of the name in American
    spelling with its last word singular ("multi-armed bandits", "SPNs", "Toronto Faces");
    an all-capital word keeps its S ("CLUES" is not CLUE, "MCTS" not MCT).

    >>> entity_name_key("Multi-armed bandits") == entity_name_key("multi-armed bandit")
    True
    >>> entity_name_key("SPNs") == entity_name_key("SPN"), entity_name_key("CLUES")
    (True, 'clues')
    >>> entity_name_key("domain generalisation") == entity_name_key("Domain Generalization")
    True
    """
    head, _, last = american(canonical).rpartition(" ")
    if len(last) > 2 and last[-1] == "s" and last[-2].isupper():
        last = last[:-1]
    elif not last.isupper():
        last = singular(last.lower())
    return name_key(f"{head} {last}" if head else last)


def singular_short(short: str, long_form: str) -> str:
    """A plural short form without its "s": "LLMs", and "iBMIs" for "implantable
    brain-machine interfaces"; "RoBERTa" or "GaAs" stay as they are.

    >>> singular_short("LLMs", "large language models"), singular_short("iBMIs", "interfaces")
    ('LLM', 'iBMI')
    >>> singular_short("GaAs", "gallium arsenide")
    'GaAs'
    """
    if (
        short.endswith("s")
        and len(short) > 2
        and (short[:-1].isupper() or short[-2].isupper() and long_form.endswith("s"))
    ):
        return short[:-1]
    return short


def task_canonical(phrase: str) -> str:
    """A task phrase as a node name: lowercase unless an acronym, plural heads singular.

    >>> task_canonical("Multi-view clustering"), task_canonical("regression tasks")
    ('multi-view clustering', 'regression')
    >>> task_canonical("Hawkes processes"), task_canonical("Gaussian affinities")
    ('hawkes process', 'gaussian affinity')
    """
    words = phrase.split()
    if words and words[-1].lower() in _TASK_NOUNS:
        words = words[:-1] or words
    words = [w.lower() if not any(c.isupper() for c in w[1:]) else w for w in words]
    words[-1] = singular(words[-1])
    return " ".join(words)


def common_surname(surname: str) -> bool:
    """Whether a folded surname is among the world's most frequent (initials with one of
    them do not tell a person apart; ``data/words/common_surnames.txt``).

    >>> common_surname("wang"), common_surname("courville")
    (True, False)
    """
    return surname in word_set("common_surnames")


def spelled_out(acronym: str, words: tuple[str, ...], at: int) -> int:
    """How many of ``words`` from ``at`` on ``acronym`` stands for (0 if none): their
    initials, the last word maybe whole ("cca": canonical correlation analysis; "psgd":
    parallel sgd; "mrfs": markov random fields).

    >>> spelled_out("psgd", ("decentralized", "parallel", "sgd"), 1), spelled_out("net", ("a",), 0)
    (2, 0)
    """
    letters = without_s(acronym)
    for n in range(2, min(len(letters), len(words) - at) + 1):
        run = words[at : at + n]
        initials = "".join(w[0] for w in run)
        if letters in (initials, initials[:-1] + run[-1]):
            return n
    return 0
