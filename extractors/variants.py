"""Model names parsed into family and suffixes: versions, sizes and variants.

A model's name is its family's name and suffixes, each one separator and one token:
``Llama-3-8B-Instruct`` is Llama, version ``3``, size ``8B``, variant ``Instruct``. A token is

- a version: ``3``, ``3.1``, ``v2``, ``4o``, ``R1``, ``B0``, glued to a word of two letters or
  more (``Qwen2.5``, ``YOLOv8``, ``GPT4``) or after a separator (``GPT-4``, ``Llama 3``);
- a size: a parameter count (``7B``, ``1.5B``, ``350M``, ``8x7B``), a depth (a whole number
  of two digits or more, not led by 0: ``ResNet-152``, ``VGG-16``), a size word after a
  separator (``-large``, ``-XXL``, ``-mini``: ``data/words/model_sizes.txt``) or a size letter
  after a hyphen (``ViT-B/16``, ``Swin-T``);
- a variant word after a separator (``-Instruct``, ``-Chat``: ``data/words/model_variants.txt``).

What is not a suffix: a plural (``ResNets``), a year (``BERT 2019``, ``COLT08``), any other
word, a word after a space that follows a name of several words with no version in it
("Natural Language Pro"), a number glued after one letter ("DA-T5") or after fewer than
three letters ("TD3", "BM25"). The parse knows nothing of types: the graph links Methods
only, so a dataset split (CIFAR-10, a Dataset) never becomes a variant of CIFAR.

:func:`version_name` is what extraction asks: the name of the version a surface form of a
lexicon family names ("Llama 3" for Llama, "GPT-4o-mini" for GPT-4o), so that a version is
a mention of its own and not one more spelling of its family.
"""

import re
from functools import lru_cache

from kg.extractors.lexicon import Entry
from kg.extractors.names import entity_name_key, name_key
from kg.extractors.words import word_list

VERSION, SIZE, VARIANT = "version", "size", "variant"

_SIZE_WORDS = frozenset(w.casefold() for w in word_list("model_sizes"))
_VARIANT_WORDS = frozenset(w.casefold() for w in word_list("model_variants"))
_WORDS = "|".join(
    re.escape(w)
    for w in sorted(word_list("model_sizes") + word_list("model_variants"), key=len)[::-1]
)
#: The last suffix of a name: (separator, token). Numbers may follow a letter glued
#: (Qwen2.5); words, size letters and letter codes need a separator.
_LAST_SUFFIX = re.compile(
    rf"""
    (?:(?P<sep>[-_ ])|(?<=[A-Za-z]))
    (?P<number>
        \d+x\d+(?:\.\d+)?[BbMm]         # experts x parameters: 8x7B
      | \d+(?:\.\d+)?[BbMmKkTt]         # parameters: 7B, 1.5B, 350M
      | [vV]?\d+(?:\.\d+)*[a-z]?        # a version or a depth: 3, 3.1, v2, 4o, 152
    )$
    | (?P<wsep>[-_ ])(?P<word>(?i:{_WORDS}))$
    | -(?P<code>[SBLMHT](?:/\d+)?|[BR]\d+)$
    """,
    re.VERBOSE,
)
#: Numbers that are no version: years (BERT 2019) and two-digit years (COLT08).
_YEAR, _ZERO = re.compile(r"(?:19|20)\d\d"), re.compile(r"0\d")
_PARAMETERS = re.compile(r"\d+(?:x\d+)?(?:\.\d+)?[BbMmKkTt]")
_SEPARATORS = dict.fromkeys(map(ord, "-_. "))
#: Shortest parent (its name key) a glued number may follow ("TD3" is not a TD), and one
#: after a separator ("o1-mini" is an o1).
_GLUED_PARENT, _PARENT = 3, 2


@lru_cache(maxsize=1 << 16)
def split_suffix(name: str) -> tuple[str, str] | None:
    """``(parent, suffix)`` of a name whose last suffix is a version, size or variant, the
    suffix with its separator; None if the name has none.

    >>> split_suffix("Llama-3-8B"), split_suffix("Qwen2.5"), split_suffix("GPT-4o-mini")
    (('Llama-3', '-8B'), ('Qwen', '2.5'), ('GPT-4o', '-mini'))
    >>> split_suffix("ResNets"), split_suffix("BERT 2019"), split_suffix("TD3")
    (None, None, None)
    """
    m = _LAST_SUFFIX.search(name) if "(" not in name else None  # "IBP (Indian ...)": a sense
    if m is None:
        return None
    parent, suffix = name[: m.start()], name[m.start() :]
    number = m.group("number") or ""
    if not parent or not parent[-1].isalnum() or _YEAR.fullmatch(number) or _ZERO.fullmatch(number):
        return None
    if m.group("wsep") == " " and " " in parent and not any(c.isdigit() for c in parent):
        return None
    glued = m.group("number") is not None and m.group("sep") is None
    if len(name_key(parent)) < (_GLUED_PARENT if glued else _PARENT):
        return None
    if glued and len(re.split(r"[-_ ]", parent)[-1]) < 2:  # "DA-T5" is no DA-T
        return None
    return parent, suffix


def suffix_kind(suffix: str) -> str:
    """What a suffix of :func:`split_suffix` names: VERSION, SIZE or VARIANT.

    >>> [suffix_kind(s) for s in ("-3.1", "v2", "-4o", "-8B", "-8x7B", "-152", "-XXL", "-B/16")]
    ['version', 'version', 'version', 'size', 'size', 'size', 'size', 'size']
    >>> suffix_kind("-Instruct"), suffix_kind("-chat")
    ('variant', 'variant')
    """
    token = suffix.lstrip("-_ ")
    folded = token.casefold()
    if folded in _VARIANT_WORDS:
        return VARIANT
    if (
        folded in _SIZE_WORDS
        or _PARAMETERS.fullmatch(token)
        or "/" in token
        or token in ("S", "B", "L", "M", "H", "T")
        or (token.isdigit() and len(token) >= 2 and token[0] != "0")
    ):
        return SIZE
    return VERSION


def ancestors(name: str) -> list[str]:
    """The names a model's name shortens to, one suffix at a time, nearest first.

    >>> ancestors("Qwen2.5-7B-Instruct")
    ['Qwen2.5-7B', 'Qwen2.5', 'Qwen']
    >>> ancestors("CIFAR-10"), ancestors("ResNet")
    (['CIFAR'], [])
    """
    found = []
    split = split_suffix(name)
    while split is not None:
        found.append(split[0])
        split = split_suffix(split[0])
    return found


def spelled_alike(written: str, name: str) -> bool:
    """Whether a name written inside a longer one (the "Safer" of "Safer-Instruct") is the
    corpus's ``name``: the same letters in the same case, separators and a plural's "s"
    aside, or all in lower case ("gpt-3.5-turbo-16k" is a GPT-3.5-Turbo; "Safer" is no
    SAFER, "inF" no INF).

    >>> spelled_alike("gpt-3.5", "GPT-3.5"), spelled_alike("Qwen-2.5", "Qwen2.5")
    (True, True)
    >>> spelled_alike("Topical", "TOPICAL"), spelled_alike("ReST", "Rest")
    (False, False)
    """
    a, b = written.translate(_SEPARATORS), name.translate(_SEPARATORS)
    if a.islower():
        b = b.lower()
    return a == b or a + "s" == b


@lru_cache(maxsize=1 << 10)
def _plain_keys(entry: Entry) -> dict[str, str]:
    """{entity name key: name} of the names of a family that are no version of another of
    its names: Llama and LLaMA for Llama, not "Llama 3"; GPT-4o itself for GPT-4o."""
    keys = {entity_name_key(n) for n in entry.names}
    plain = {entity_name_key(entry.canonical): entry.canonical}
    for name in entry.names:
        if not any(entity_name_key(a) in keys for a in ancestors(name)):
            plain.setdefault(entity_name_key(name), name)
    return plain


def version_name(surface: str, entry: Entry) -> str | None:
    """The name of the version, size or variant of the lexicon family ``entry`` that
    ``surface`` names, the family as the lexicon spells it ("LLaMA-3" -> "Llama-3"; an
    alias is kept: "Swin-T"); None when it names the family itself or nothing of it.

    >>> from kg.extractors.lexicon import Entry
    >>> llama = Entry("Llama", "Method", ("LLaMA", "Llama 3"), family=True)
    >>> version_name("LLaMA 3", llama), version_name("llama-3-8b", llama)
    ('Llama 3', 'Llama-3-8b')
    >>> version_name("LLaMA", llama), version_name("Vicuna-7B", llama)
    (None, None)
    """
    text = " ".join(surface.split()).rstrip("-_")  # "Llama3-8B" may be cut as "Llama3-"
    plain = _plain_keys(entry)
    if entity_name_key(text) in plain:
        return None
    own = entity_name_key(entry.canonical)
    for ancestor in ancestors(text):
        key = entity_name_key(ancestor)
        if key == own:
            return entry.canonical + text[len(ancestor) :]
        if key in plain:
            return text
    return None
