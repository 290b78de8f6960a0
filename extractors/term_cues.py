"""The cues around a corpus term's uses that vote for its type ("the problem of X", "X-based
method", "measured by X"), and the weaker ones ("for X", "X problem", "suffer from X"):
what :func:`kg.extractors.terms.term_type` counts across the corpus."""

import re

from kg.extractors.records import METHOD, METRIC, TASK
from kg.extractors.rules.tasks import ISSUE_BEFORE

#: Cues before a term, by the type they suggest ("the problem of X", "measured by X").
BEFORE_CUES = {
    TASK: (
        "problem of ",
        "task of ",
        "tackle ",
        "tackles ",
        "tackling ",
        "address ",
        "addresses ",
        "addressing ",
        "solve ",
        "solving ",
        "applications in ",
        "progress in ",
        "advances in ",
    ),
    METHOD: (
        "we propose ",
        "using ",
        "use of ",
        "via ",
        "apply ",
        "applying ",
        "employ ",
        "employing ",
        "based on ",
        "trained with ",
        "combined with ",
    ),
    METRIC: (
        "measured by ",
        "in terms of ",
        "measured in ",
        "evaluated by ",
        "evaluated with ",
        "metrics such as ",
        "metric of ",
        "as measured by ",
    ),
}
#: Cues after a term ("X is a task", "X-based method").
AFTER_CUES = {
    TASK: (" task", " tasks", " is a task", " is the task"),
    METHOD: (
        "-based",
        " method",
        " methods",
        " algorithm",
        " algorithms",
        " approach",
        " approaches",
        " technique",
        " techniques",
        " framework",
    ),
    METRIC: (" metric", " metrics"),
}
#: The weak cue "for X": half a Task cue.
FOR_CUE = "for "
#: "X problem(s)": a Task cue only for a term with a typed head (for the rest X is as often a
#: difficulty or an object: "the data scarcity problem", "the shortest path problem").
PROBLEM_CUE, _PROBLEM_AFTER = "problem", re.compile(r" problems?\b")
#: "suffer from X", "avoid X", "mitigate the X": a difficulty, not a task (the verbs of trouble
#: that :data:`kg.extractors.rules.tasks.ISSUE_BEFORE` finds).
TROUBLE_CUE = "trouble"
#: The types cues vote for.
CUE_TYPES = (TASK, METHOD, METRIC)
_BEFORE = {
    kind: re.compile("(?:" + "|".join(re.escape(c) for c in cues) + ")$")
    for kind, cues in BEFORE_CUES.items()
}
_AFTER = {
    kind: re.compile("(?:" + "|".join(re.escape(c) for c in cues) + r")\b")
    for kind, cues in AFTER_CUES.items()
}


def cues_at(text: str, start: int, end: int) -> frozenset[str]:
    """The cue types around ``text[start:end]`` (Task, Method, Metric, "for ", "problem").

    >>> sorted(cues_at("we tackle slot filling tasks", 10, 22))
    ['Task']
    >>> sorted(cues_at("accuracy measured by calibration error.", 21, 38))
    ['Metric']
    """
    before = text[max(0, start - 24) : start].lower()
    found = {kind for kind, pattern in _BEFORE.items() if pattern.search(before)}
    found.update(kind for kind, pattern in _AFTER.items() if pattern.match(text, end))
    if before.endswith(FOR_CUE):
        found.add(FOR_CUE)
    if ISSUE_BEFORE.search(before):
        found.add(TROUBLE_CUE)
    if _PROBLEM_AFTER.match(text, end):
        found.add(PROBLEM_CUE)
    return frozenset(found)
