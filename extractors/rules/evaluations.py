"""What a sentence reports (an evaluation of the paper's work, someone else's work, or
neither) and which method names are generic building blocks, as pure functions over
strings. The graph's APPLIED_TO pairs are built on them."""

import re
from collections.abc import Iterable
from functools import lru_cache

from kg.extractors.names import entity_name_key
from kg.extractors.trie import trie_regex
from kg.extractors.words import word_list

#: What :func:`sentence_kind` answers.
EVALUATION, BACKGROUND, OTHER = "evaluation", "background", "other"


def _cue_regex(cues: Iterable[str], *, whole_words: bool) -> re.Pattern[str]:
    """The entries of a cue list, lowercased, matched at word starts (and ends when
    ``whole_words``) in lowercased text."""
    end = r"(?!\w)" if whole_words else ""
    return re.compile(
        "(?:" + trie_regex((c.lower() for c in cues), not_after=r"[\w\-]") + ")" + end
    )


_EVALUATION = _cue_regex(word_list("evaluation_cues"), whole_words=False)
_BACKGROUND = _cue_regex(word_list("background_cues"), whole_words=False)
_OWN = _cue_regex(word_list("own_work_cues"), whole_words=True)
_COMPARISON = _cue_regex(word_list("comparison_cues"), whole_words=True)
#: Citations: "[12]", "[3, 5-7]", "Smith et al.", "(Lee and Kim, 2021)" (not "(WMT 2014)").
_CITATION = re.compile(
    r"\[\d+(?:\s*[,\u2013\-]\s*\d+)*\]|\bet al\b|\([A-Z][^()]{0,80}?,\s*(?:19|20)\d\d[a-z]?[^()]*\)"
)


def sentence_kind(sentence: str) -> str:
    """EVALUATION when ``sentence`` reports an evaluation or application (a cue of
    data/words/evaluation_cues.txt) of the paper's own work; BACKGROUND when it reports
    other people's (a cue of background_cues.txt before any word of comparison_cues.txt,
    or a citation, and no word of own_work_cues.txt); OTHER when it reports neither.

    >>> sentence_kind("We evaluate GRPO on GSM8K.")
    'evaluation'
    >>> sentence_kind("Previous studies evaluated BERT on SQuAD.")
    'background'
    >>> sentence_kind("Our method outperforms previous methods on COCO.")
    'evaluation'
    >>> sentence_kind("X outperforms existing methods on COCO.")
    'evaluation'
    >>> sentence_kind("We propose GRPO.")
    'other'
    """
    lowered = sentence.lower()
    if not _EVALUATION.search(lowered):
        return OTHER
    compared = _COMPARISON.search(lowered)
    before = lowered[: compared.start()] if compared else lowered
    cited = ("[" in sentence or "(" in sentence or "et al" in lowered) and _CITATION.search(
        sentence
    )
    if (cited or _BACKGROUND.search(before)) and not _OWN.search(lowered):
        return BACKGROUND
    return EVALUATION


#: Where one clause of a sentence ends: a semicolon, a colon, or a comma and a conjunction.
_CLAUSE_END = re.compile(r"[;:]|,\s+(?:and|but|while|whereas)\s")
#: Words between a comparison cue and what it compares with, at most.
COMPARED_WORDS = 12


#: A list of baselines opening: "baselines such as", "the baseline (", "baselines including".
_BASELINES = re.compile(r"\bbaselines?\s*(?:\(|,?\s*(?:such as|including|like|e\.g\.,?|namely|:))")


def compared_with(before: str) -> bool:
    """Whether a name that follows ``before`` (its sentence up to the name) is what a result
    is compared with: a word of comparison_cues.txt at most COMPARED_WORDS words before it
    in its clause ("outperforms previous discrete VAEs", "better than deep Siamese networks"),
    or a list of baselines it is in ("strong baselines such as BERT and").

    >>> compared_with("Our model outperforms previous discrete "), compared_with("We train ")
    (True, False)
    >>> compared_with("It beats BERT; we then fine-tune ")
    False
    >>> compared_with("We improve on the baseline ("), compared_with("We add a baseline to ")
    (True, False)
    """
    lowered = before.lower()
    clause = lowered[max((m.end() for m in _CLAUSE_END.finditer(lowered)), default=0) :]
    near = " ".join(clause.split()[-COMPARED_WORDS - 1 :])
    return bool(_COMPARISON.search(near) or _BASELINES.search(near))


_OWN_DATA = re.compile(
    "(?:"
    + trie_regex((w.lower() for w in word_list("own_data_words")), not_after=r"[\w\-]")
    + r")\s+(?:[\w\-]+\s+){0,2}?(?:"
    + trie_regex([*word_list("dataset_heads"), *word_list("benchmark_heads"), "data"])
    + r")(?!\w)"
)


def names_own_data(sentence: str) -> bool:
    """Whether ``sentence`` speaks of the paper's own data ("our benchmark", "the proposed
    dataset": data/words/own_data_words.txt before a dataset or benchmark head word).

    >>> names_own_data("We evaluate ten LLMs on our new benchmark."), names_own_data("On MNIST.")
    (True, False)
    """
    return _OWN_DATA.search(sentence.lower()) is not None


_GENERIC = frozenset(entity_name_key(name) for name in word_list("generic_methods"))


@lru_cache(maxsize=1 << 16)
def is_generic_method(name: str, long_form: str | None = None) -> bool:
    """Whether a method named ``name`` (long form ``long_form``) is a generic building
    block, paradigm or optimiser of data/words/generic_methods.txt (case, hyphens, spaces
    and a final plural ignored).

    >>> is_generic_method("CNNs"), is_generic_method("Adam"), is_generic_method("GRPO")
    (True, True, False)
    >>> is_generic_method("SAE", "sparse autoencoder"), is_generic_method("DRL", "deep RL")
    (False, True)
    """
    return entity_name_key(name) in _GENERIC or (
        long_form is not None and entity_name_key(long_form) in _GENERIC
    )
