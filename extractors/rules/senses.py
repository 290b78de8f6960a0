"""Other senses of known names: a word the lexicon knows as a measure or a method that
means something else in a sentence ("associative recall", "mixed precision", "to machine
accuracy", "boosting the performance"), and a name that is only the first part of a
compound word ("accuracy-robustness")."""

import re

from kg.extractors.records import METRIC, TASK

#: Words before and after a measure's name that give it another sense, by name: "recall"
#: as remembering ("associative recall", "LLMs recall", "recall of stored patterns"),
#: "precision" as the exactness of numbers or as inverse covariance ("16-bit precision",
#: "mixed precision", "temporal precision", "the precision matrix", "precision medicine"),
#: "accuracy" as the exactness of a computation ("to machine accuracy", "the accuracy of
#: the approximation"), "boosting" as a verb ("for boosting the performance"),
#: "calibration" as a procedure ("calibration methods").
_OTHER_SENSES = {
    "recall": (
        re.compile(
            r"\b(?:associative|autoassociative|factual|free|cued|serial|episodic|memory|"
            r"knowledge|to|during|we|they|models|LLMs|humans|subjects|people|can|cannot|may|"
            r"must)\s+$",
            re.I,
        ),
        re.compile(
            r"^\s+(?:that\b|of (?:the |previous |stored |learned |these |past )?"
            r"(?:patterns?|memor(?:y|ies)|associations?|facts?|knowledge|items?|events?|"
            r"sequences?|training sequences|words?)\b)"
        ),
    ),
    "precision": (
        re.compile(
            r"\b(?:full|numerical|numeric|limited|reduced|arbitrary|finite|infinite|bit|"
            r"\d+-bit|low-bit|temporal|spatial|mixed|machine|arithmetic|half|single|double|"
            r"floating[- ]point|fixed[- ]point|point|weight|activation|bits of|minimum)\s+$",
            re.I,
        ),
        re.compile(
            r"^\s+(?:matri(?:x|ces)|medicine|weights?|parameters?|agriculture|format|"
            r"of (?:the |its |their )?(?:activations|weights|gradients|parameters|numbers))\b"
        ),
    ),
    "boosting": (
        None,
        re.compile(
            r"^\s+(?:the|its|their|our|a|an|this|these|both|performance|accuracy|research|"
            r"efficiency|results|quality|generalization|robustness)\b"
        ),
    ),
    "accuracy": (
        re.compile(
            r"\b(?:machine|arbitrary|given|desired|prescribed|numerical|numeric|statistical)\s+$",
            re.I,
        ),
        re.compile(
            r"^\s+of (?:the |its |their |an? |our )?(?:resulting |obtained )?"
            r"(?:approximations?|estimates?|estimators?|estimation|solutions?|computations?|"
            r"integration|numerical|gradient estimat\w+)\b"
        ),
    ),
    "calibration": (
        None,
        re.compile(
            r"^\s+(?:methods?|procedures?|strateg(?:y|ies)|techniques?|mechanisms?|approach(?:es)?|"
            r"datasets?|data|sets?|steps?|modules?|layers?)\b"
        ),
    ),
}
#: What a sentence names around a measure that is also a plain word, for it to be the
#: measure: "specificity" beside sensitivity or a value ("sensitivity and specificity",
#: "a specificity of 93%"), not "domain specificity" or "a lack of specificity".
_MEASURE_NEEDS = {"specificity": re.compile(r"\bsensitivity\b|\d\s*%|\d\.\d")}


def other_sense(text: str, start: int, end: int) -> bool:
    """Whether the name at [start, end) (recall, precision, accuracy, boosting, calibration,
    specificity) means something else here (:data:`_OTHER_SENSES`, :data:`_MEASURE_NEEDS`;
    "Recall that ..." opening a sentence is a verb).

    >>> s = "Associative recall of stored patterns differs from the recall of our detector."
    >>> other_sense(s, 12, 18), other_sense(s, 56, 62)
    (True, False)
    >>> other_sense("Recall that a game is zero-sum.", 0, 6)
    True
    >>> s = "Mixed precision training keeps the precision of the parser."
    >>> other_sense(s, 6, 15), other_sense(s, 35, 44)
    (True, False)
    >>> s = "Domain specificity hurts; sensitivity and specificity rise."
    >>> other_sense(s[:25], 7, 18), other_sense(s, 42, 53)
    (True, False)
    """
    word = text[start:end].lower()
    needs = _MEASURE_NEEDS.get(word)
    if needs is not None:
        return needs.search(text, max(0, start - 150), end + 150) is None
    senses = _OTHER_SENSES.get(word)
    if senses is None:
        return False
    before, after = senses
    opening = start == 0 or text[start - 2 : start] == ". " or text[start - 1 : start] == "\n"
    return (
        word == "recall"
        and opening
        and text.startswith(" that", end)
        or before is not None
        and before.search(text, max(0, start - 24), start) is not None
        or after.match(text[end : end + 40]) is not None
    )


#: A bound after an error or risk: the quantity of a theorem, not a measure reported.
_BOUND_AFTER = re.compile(r"\s+(?:(?:upper|lower|tight|sharp) )?bounds?\b")


def other_use(text: str, start: int, end: int, kind: str) -> bool:
    """Whether a known name of type ``kind`` at [start, end) is another word here: a measure
    or task as the first part of a compound word ("accuracy-robustness", "-style"), an error
    or risk that only a bound is about ("generalization error bounds"), or a name in another
    sense (:func:`other_sense`).

    >>> s = "We prove generalization error bounds and report the generalization error."
    >>> other_use(s, 9, 29, METRIC), other_use(s, 51, 71, METRIC)
    (True, False)
    """
    compound = end + 1 < len(text) and text[end] in "-–" and text[end + 1].isalpha()
    bounded = (
        kind == METRIC
        and text[start:end].lower().endswith(("error", "errors", "risk"))
        and _BOUND_AFTER.match(text, end) is not None
    )
    return compound and kind in (METRIC, TASK) or bounded or other_sense(text, start, end)
