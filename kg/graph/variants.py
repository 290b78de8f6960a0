"""Model versions and sizes under their families: the names parsed, the mentions kept apart,
and the VARIANT_OF links (size -> version -> family).

A model's name is its family's name and suffixes, each one separator and one token:
``Llama-3-8B-Instruct`` is Llama, version ``3``, size ``8B``, variant ``Instruct``. Its
parent is the name without its last suffix that the corpus (or the lexicon's model
families) names: Llama-3-8B-Instruct -> Llama-3-8B -> Llama 3 -> Llama, skipping a level
nobody names. A token is

- a version: ``3``, ``3.1``, ``v2``, ``4o``, ``R1``, glued to a letter or after a separator
  (``Qwen2.5``, ``YOLOv8``, ``GPT-4``);
- a size: a parameter count (``7B``, ``1.5B``, ``350M``, ``8x7B``), a depth (a whole number
  of two digits or more, not led by 0: ``ResNet-152``, ``VGG-16``), a size word after a separator
  (``-large``, ``-XXL``, ``-mini``: ``data/words/model_sizes.txt``) or a size letter after
  a hyphen (``ViT-B/16``, ``Swin-T``);
- a variant word after a separator (``-Instruct``, ``-Chat``: ``data/words/model_variants.txt``).

What is not a suffix: a plural (``ResNets``), a year (``BERT 2019``), any other word. The
parse knows nothing of types; the graph links Methods only, so a dataset split (CIFAR-10,
a Dataset) never becomes a variant of CIFAR.

The corpus-wide step is written as a reduction: :func:`method_names` summarises one paper
(its Method names), :func:`merge_names` merges summaries (a union: associative and
commutative), :func:`variant_links` decides the links from the merged summary. The split of
a version's mention from its family (:func:`version_apart`) reads one mention only.
"""

import re
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

from kg.extractors.lexicon import load_lexicon
from kg.extractors.names import entity_name_key, name_key
from kg.extractors.records import METHOD, Mention, mention_from_fields
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
    m = _LAST_SUFFIX.search(name) if "(" not in name else None
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


@cache
def lexicon_families() -> dict[str, str]:
    """{entity name key of every name of a Method family of the lexicon: its canonical}."""
    families: dict[str, str] = {}
    for entry in load_lexicon().entries.values():
        if entry.family and entry.type == METHOD:
            for n in entry.names:
                families.setdefault(entity_name_key(n), entry.canonical)
    return families


def version_apart(m: Mention, families: Mapping[str, str]) -> Mention:
    """A Method mention whose text names a version, size or variant of the entity its
    canonical names ("Llama 3" for Llama, "GPT-4o-mini" for GPT-4o) with that name as its
    canonical, the family's spelling kept ("LLaMA-3" -> "Llama-3"); others unchanged.
    ``families`` maps names of the lexicon's families to their canonical (an alias too
    names the family: "Swin-T" is a Swin Transformer)."""
    if m.type != METHOD or m.text == m.canonical or split_suffix(m.text) is None:
        return m
    own = entity_name_key(m.canonical)
    text = " ".join(m.text.split())
    if entity_name_key(text) == own:
        return m
    for parent in ancestors(text):
        key = entity_name_key(parent)
        if key == own or families.get(key) == m.canonical:
            name = m.canonical + text[len(parent) :] if key == own else text
            return mention_from_fields({**m.__dict__, "canonical": name})
    return m


def versions_apart(mentions: Iterable[Mention]) -> list[Mention]:
    """:func:`version_apart` on each of one paper's mentions, with the lexicon's families."""
    families = lexicon_families()
    return [
        version_apart(m, families) if m.text != m.canonical and m.type == METHOD else m
        for m in mentions
    ]


def method_names(mentions: Iterable[Mention]) -> set[str]:
    """One paper's summary: the canonical names of its resolved Method mentions."""
    return {m.canonical for m in mentions if m.type == METHOD}


def merge_names(a: Iterable[str], b: Iterable[str]) -> set[str]:
    """Two summaries as one."""
    return {*a, *b}


def variant_links(names: Iterable[str], families: Mapping[str, str]) -> dict[str, str]:
    """{name: its parent's name} of every Method name of the corpus (``names``, a merged
    summary) that has a parent, and of the lexicon families it brings in.

    The parent is the nearest of a name's :func:`ancestors` that the corpus names (spelled
    alike: :func:`spelled_alike`), else the lexicon family that ancestor names (spelled as
    the corpus spells it, if it does).
    ``families`` maps entity name keys to family names (:func:`lexicon_families`).

    >>> variant_links({"Llama-3-8B", "Llama 3"}, {"llama": "Llama"})
    {'Llama 3': 'Llama', 'Llama-3-8B': 'Llama 3'}
    """
    known: dict[str, str] = {}
    for name in names:
        key = entity_name_key(name)
        old = known.get(key)
        if old is None or name < old:
            known[key] = name
    links: dict[str, str] = {}
    # Any order gives the same links: a family brought in is what its key looks up anyway.
    pending = [name for name in known.values() if split_suffix(name) is not None]
    while pending:
        child = pending.pop()
        own = entity_name_key(child)
        for ancestor in ancestors(child):
            key = entity_name_key(ancestor)
            parent = known.get(key)
            if parent is not None and key not in families and not spelled_alike(ancestor, parent):
                parent = None
            if parent is None and key in families:
                family = families[key]
                parent = known.get(entity_name_key(family))
                if parent is None:
                    parent = known[entity_name_key(family)] = family
                    pending.append(family)
            if parent is not None and entity_name_key(parent) != own:
                links[child] = parent
                break
    return _without_cycles(links)


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
        a, b = a, b.lower()
    return a == b or a + "s" == b


def _without_cycles(links: dict[str, str]) -> dict[str, str]:
    """``links`` less the link from the smallest name of any cycle (a lexicon alias may
    lead a short name to a longer one)."""
    for start in sorted(links):
        seen: list[str] = []
        name: str | None = start
        while name is not None and name not in seen:
            seen.append(name)
            name = links.get(name)
        if name is not None:
            links.pop(min(seen[seen.index(name) :]))
    return dict(sorted(links.items()))
