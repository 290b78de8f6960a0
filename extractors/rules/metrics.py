"""Rules for measures: "refusal rate", "fairness gap", and quantities reported with values."""

import re

from kg.extractors.rules.context import TASK_HEADS, is_modifier, words_before
from kg.extractors.trie import matches_led_by
from kg.extractors.words import word_set

_GENERIC_SUBJECT_HEADS = word_set("generic_subject_heads")
_NOT_METRIC_MODIFIERS = word_set("not_metric_modifiers")
#: Endings of adjectives, which right before the head describe a rate or gap rather than
#: name a measure ("geometric rate", "reasonable rate"; not "agentic misalignment rate").
_ADJECTIVE_ENDINGS = ("ic", "ical", "able", "ible", "ive", "ary", "ate")
_METRIC_HEAD_WORDS = ("rate", "ratio", "score", "accuracy", "gap")
_METRIC_HEAD = re.compile(r"(?<!\w)(?i:" + "|".join(_METRIC_HEAD_WORDS) + r")\b")


def metric_spans(sentence: str) -> list[tuple[int, int]]:
    """Measure phrases: one or two modifiers before rate/ratio/score/accuracy/gap
    ("refusal rate", "review ratio", "fairness gap"), not "learning rate".

    >>> s = "It lowers the refusal rate and the learning rate at a geometric rate."
    >>> [s[a:b] for a, b in metric_spans(s)]
    ['refusal rate']
    """
    found = []
    for m in matches_led_by(_METRIC_HEAD, sentence, _METRIC_HEAD_WORDS):
        words = words_before(sentence, m.start(), 2)
        of = _OF_PHRASE.match(sentence, m.end())
        first = (
            m.start()
            if of and is_modifier(of.group(1)) and m.group().lower() in ("rate", "ratio")
            else None
        )
        for j in range(len(words) - 1, -1, -1):
            nxt = words[j + 1][1] if j + 1 < len(words) else m.start()
            w, low = words[j][0], words[j][0].lower()
            if (
                sentence[words[j][2] : nxt] != " "
                or not is_modifier(w)
                or low in _NOT_METRIC_MODIFIERS
                or low in TASK_HEADS
                or w[0].isupper()
                or nxt == m.start()
                and low.endswith(_ADJECTIVE_ENDINGS)
            ):
                break
            first = words[j][1]
        if first is not None:
            found.append((first, _rate_of_end(sentence, m)))
    return found


_OF_PHRASE = re.compile(r" of ([a-z][\w\-]*)(?: ([a-z][\w\-]*))?(?![\w\-])")


def _rate_of_end(sentence, head):
    """End of "rate/ratio of X Y" when a measured phrase follows the head."""
    if head.group().lower() not in ("rate", "ratio"):
        return head.end()
    m = _OF_PHRASE.match(sentence, head.end())
    if not m or not is_modifier(m.group(1)):
        return head.end()
    return m.end() if m.group(2) and is_modifier(m.group(2)) else m.end(1)


_VALUE_AFTER = re.compile(
    r" (?:\(\s*[+\-]?\d[\d.,]*%?\s*(?:to|→|->|vs\.?)\s*[+\-]?\d|"
    r"from [+\-]?\d[\d.,]*%? to [+\-]?\d)"
)


def measured_value_spans(sentence: str) -> list[tuple[int, int]]:
    """Quantities reported with values: "raised total utility (3.20 to 3.90)", "semantic
    similarity from 0.788 to 0.862" (one to three words before the values).

    >>> s = "It raised the worst-group utility (3.20 to 3.90) and speed."
    >>> [s[a:b] for a, b in measured_value_spans(s)]
    ['worst-group utility']
    >>> measured_value_spans("It lifts the success rate of compilation from 44 to 89.")
    []
    """
    found = []
    for m in _VALUE_AFTER.finditer(sentence):
        words = words_before(sentence, m.start(), 3)
        if (
            not words
            or words[-1][2] != m.start()
            or words[-1][0].lower() in _GENERIC_SUBJECT_HEADS | _NOT_MEASURES
        ):
            continue  # "moves that checkpoint from 84% to 8%"
        first = None
        for j in range(len(words) - 1, -1, -1):
            nxt = words[j + 1][1] if j + 1 < len(words) else m.start()
            w = words[j][0]
            if (
                sentence[words[j][2] : nxt] not in (" ", "")
                or not is_modifier(w)
                or w[0].isupper()
                or (j == len(words) - 1 and w.lower().endswith("ed"))
            ):
                break
            first = words[j][1]
        if first is not None and not _OBJECT_OF.search(sentence, max(0, first - 20), first):
            found.append((first, m.start()))
    return found


#: Things reported with values that are not measures of them ("BLEU scores range from", "the
#: F1 metric from", "on the VQA dataset from").
_NOT_MEASURES = {
    "checkpoint",
    "checkpoints",
    "baseline",
    "baselines",
    "it",
    "them",
    "range",
    "ranges",
    "ranging",
    "metric",
    "metrics",
    "dataset",
    "datasets",
}
#: A phrase after a preposition is what a measure is of or where it was taken ("success rate
#: of compilation from 44 to 89", "at equivalent latency (75% vs. 57%)"), not the measure.
_OBJECT_OF = re.compile(
    r"\b(?:of|in|at|on|within|with|for|across|under|over|by)\s+(?:(?:the|a|an)\s+)?$", re.I
)


#: A cut-off written right after a measure's name ("NDCG@20", "MRR@k").
_CUT_OFF = re.compile(r"@(?:\d+|k)\b")


def cut_off_end(text: str, end: int) -> int:
    """The end of a measure's name ending at ``end`` with the cut-off written after it.

    >>> s = "NDCG@20 and MRR rise"
    >>> cut_off_end(s, 4), cut_off_end(s, 15)
    (7, 15)
    """
    m = _CUT_OFF.match(text, end)
    return m.end() if m else end
