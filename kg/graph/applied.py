"""APPLIED_TO: the method-dataset pairs a paper reports evaluating or applying.

A method is applied to a dataset or benchmark in a paper when

- both are named in one sentence that reports an evaluation or application
  (:func:`kg.extractors.rules.evaluations.sentence_kind`), and the method is not one more
  item of a list of datasets ("on MNIST, SVHN and Clothing1M"), or
- the paper proposes the method and names the dataset in such a sentence (other than the
  one that proposes the dataset), or
- the paper proposes the dataset and names the method in such a sentence that names no
  dataset but speaks of the paper's own ("we evaluate GPT-4 on our benchmark").

Background and related-work sentences make no pair, nor does a method the paper does not
propose where a sentence names it as what a result is compared with ("outperforms previous
discrete VAEs on MNIST"); generic building blocks
(:func:`~kg.extractors.rules.evaluations.is_generic_method`) are never the method, nor is
a weakly found name (:data:`WEAK_SCORE`) the paper does not propose, nor a method named
only inside a longer method's name (FLAN-T5 in FLAN-T5-11B, capsule network in ladder
capsule network: the longer one is what was evaluated), nor a method and a dataset whose
names hold one another (RepoST and RepoST-Eval).
"""

import bisect
import re
from collections.abc import Iterable
from typing import NamedTuple

from kg import schema as S
from kg.extractors.records import Mention
from kg.extractors.rules.evaluations import (
    EVALUATION,
    compared_with,
    is_generic_method,
    names_own_data,
    sentence_kind,
)
from kg.extractors.rules.sentences import sentence_bounds
from kg.graph.senses import short_of
from kg.pickled import pickle_plain

#: A pair named in one evaluation sentence scores 1.0; a proposed method or dataset with
#: the other named in another evaluation sentence 0.5.
SAME_SENTENCE, PROPOSED_ELSEWHERE = 1.0, 0.5
#: A method named by a rule scoring below this (a coined or title-case name the lexicon
#: does not know) pairs only where the paper proposes it: used, such names are as often
#: pieces of other names (a dataset's, a system's) as methods.
WEAK_SCORE = 0.65
#: What separates two items of one list ("A, B", "A and B", "A, and B", "A/B").
_LIST_GAP = re.compile(r"\s*(?:[,;/&]\s*(?:and\s+|or\s+)?|and\s+|or\s+)")


class Evidence(NamedTuple):
    """One paper's support of a pair: its score and the evidence sentence (offsets into
    the abstract, and its text)."""

    score: float
    start: int
    end: int
    sentence: str


pickle_plain(Evidence)


def paper_pairs(
    abstract: str, mentions: Iterable[tuple[str, Mention]]
) -> dict[tuple[str, str], Evidence]:
    """The (method key, dataset or benchmark key) pairs one paper supports, with their
    evidence: the first evaluation sentence naming both, else the first evaluation
    sentence naming the one the paper did not propose.

    ``mentions`` are (entity key, resolved Mention) of the paper's mentions.
    """
    methods: dict[str, list[Mention]] = {}
    targets: dict[str, list[Mention]] = {}
    named: list[Mention] = []  # every method the paper names, to find names inside names
    for key, m in mentions:
        if m.type == S.METHOD:
            named.append(m)
            proposed = m.role == "proposed"
            if (proposed or m.score >= WEAK_SCORE and _named(m.canonical)) and not (
                is_generic_method(m.canonical, m.long_form)
            ):
                methods.setdefault(key, []).append(m)
        elif m.type in S.COLLECTION_KINDS:
            targets.setdefault(key, []).append(m)
    if not methods or not targets:
        return {}
    bounds = sentence_bounds(abstract)
    starts = [a for a, _ in bounds]
    evaluations: dict[int, bool] = {}

    def evaluated(spans: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
        """The spans of an entity by evaluation sentence."""
        out: dict[int, list[tuple[int, int]]] = {}
        for span in spans:
            i = bisect.bisect_right(starts, span[0]) - 1
            if i not in evaluations:
                a, b = bounds[i]
                evaluations[i] = sentence_kind(abstract[a:b]) == EVALUATION
            if evaluations[i]:
                out.setdefault(i, []).append(span)
        return out

    target_at = {key: evaluated(occurrences(abstract, ms)) for key, ms in targets.items()}
    target_at = {key: where for key, where in target_at.items() if where}
    # The sentence that proposes a dataset evaluates there only what it names ("we propose
    # X to evaluate LLMs" says nothing of the paper's proposed method).
    proposing = {
        key: {bisect.bisect_right(starts, m.start) - 1 for m in ms if m.role == "proposed"}
        for key, ms in targets.items()
    }
    if not target_at and not any(proposing.values()):
        return {}
    in_sentence: dict[int, list[tuple[int, int]]] = {}
    for where in target_at.values():
        for i, spans in where.items():
            in_sentence.setdefault(i, []).extend(spans)
    pairs: dict[tuple[str, str], Evidence] = {}

    def sentence_start(at: int) -> int:
        return starts[bisect.bisect_right(starts, at) - 1]

    def names_own(i: int) -> bool:
        a, b = bounds[i]
        return names_own_data(abstract[a:b])

    def support(pair: tuple[str, str], score: float, i: int) -> None:
        old = pairs.get(pair)
        if old is None or score > old.score:
            a, b = bounds[i]
            pairs[pair] = Evidence(score, a, b, abstract[a:b])

    # Where each method the paper names stands (its mention and its other surface forms).
    named_at = [(o, occurrences(abstract, [o])) for o in named]
    for method, ms in methods.items():
        rest = [(o, spans) for o, spans in named_at if o not in ms]
        others = [span for _, spans in rest for span in spans]
        alone = [s for s in occurrences(abstract, ms) if not _inside(s, others)]
        proposed = any(m.role == "proposed" for m in ms)
        if not proposed and _built_on(ms[0], [o for o, _ in rest if o.role == "proposed"]):
            continue  # CLIP where the paper proposes ComCLIP: what its method is built on
        if not proposed:  # what a result beats, or an example given, is not what it evaluates
            alone = [
                s
                for s in alone
                if not compared_with(abstract[sentence_start(s[0]) : s[0]])
                and not _an_example(abstract, s[0])
            ]
        method_at = {
            i: spans
            for i, spans in evaluated(alone).items()
            if not any(_listed(abstract, s, t) for s in spans for t in in_sentence.get(i, ()))
        }
        # Sentences that name another method the paper proposes evaluate that one.
        mine = set(alone)
        theirs = {
            bisect.bisect_right(starts, span[0]) - 1
            for o, spans in rest
            if o.role == "proposed"
            for span in spans
            if span not in mine
        }
        for target in targets:
            if _one_names_the_other(ms[0], targets[target][0]):
                continue
            where = target_at.get(target, {})
            shared = [
                i
                for i in sorted(set(where) & set(method_at))
                if not _across_clauses(abstract, method_at[i], where[i], others)
            ]
            elsewhere = set(where) - proposing[target] - theirs
            if shared:
                support((method, target), SAME_SENTENCE, shared[0])
            elif proposed and elsewhere:
                support((method, target), PROPOSED_ELSEWHERE, min(elsewhere))
            elif proposing[target]:
                own = [i for i in sorted(method_at) if i not in in_sentence and names_own(i)]
                if own:
                    support((method, target), PROPOSED_ELSEWHERE, own[0])
    return pairs


#: Where one clause of a sentence ends and another begins: a semicolon, or a comma and a
#: conjunction before a lowercase word (before a name it joins items of a list).
_CLAUSE_BREAK = re.compile(r";|,\s+(?:and|but|while|whereas)\s+(?=[a-z])")


def _across_clauses(
    abstract: str,
    method: list[tuple[int, int]],
    target: list[tuple[int, int]],
    others: list[tuple[int, int]],
) -> bool:
    """Whether every pairing of the method's spans with a later span of the target crosses
    a clause break with another method between the break and the target: "X attains A, and
    evaluations with Y on B" pairs Y, not X, with B. (A target before the method is never
    across.)

    >>> s = "X does well, and tests with Y run on B."
    >>> _across_clauses(s, [(0, 1)], [(37, 38)], [(28, 29)])
    True
    >>> _across_clauses("X, Y, and Z run on B.", [(0, 1)], [(19, 20)], [(10, 11)])
    False
    """
    for m in method:
        for t in target:
            if t[0] < m[0]:
                return False
            breaks = list(_CLAUSE_BREAK.finditer(abstract, m[1], t[0]))
            if not breaks or not any(breaks[-1].end() <= o[0] and o[1] <= t[0] for o in others):
                return False
    return True


def _named(name: str) -> bool:
    """Whether a method's name is a name (a capital or a digit in it: BERT, ResNet-50,
    Q-learning) rather than a lowercase technique ("positional encoding", "dual learning"),
    which pairs only where the paper proposes it.

    >>> _named("ResNet-50"), _named("Q-learning"), _named("riemannian optimization")
    (True, True, False)
    """
    return any(c.isupper() or c.isdigit() for c in name)


#: An opened bracket of examples ("(e.g. GPT-4)", "(e.g., BERT and T5"), up to a name.
_EXAMPLE_OPEN = re.compile(r"\((?:e\.g\.|for example|for instance),?\s[^()]*$")


def _an_example(abstract: str, at: int) -> bool:
    """Whether a name at ``at`` stands in a bracket of examples, which illustrates a point
    rather than reports what was evaluated ("models that need no data from stronger models
    (e.g. GPT-4)").

    >>> s = "It tops MT Bench (without data from stronger models, e.g. GPT-4) unlike (e.g. GPT-4)."
    >>> _an_example(s, s.index("GPT-4")), _an_example(s, s.rindex("GPT-4"))
    (False, True)
    """
    return _EXAMPLE_OPEN.search(abstract, max(0, at - 80), at) is not None


def _inside(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    """Whether ``span`` lies inside a longer one of ``others`` ("capsule network" in "ladder
    capsule network" names the longer method, not the shorter)."""
    a, b = span
    return any(c <= a and b <= d and d - c > b - a for c, d in others)


def _built_on(method: Mention, proposed: list[Mention]) -> bool:
    """Whether a method's name ends a longer method name the paper proposes (CLIP in
    ComCLIP, BERT in PhoBERT): the paper's method is built on it. A name the proposed one
    starts with is its family (EfficientNet of EfficientNet-B7), evaluated with it.

    >>> m = Mention("Method", "CLIP", "CLIP", 0, 4, "", "test", 1.0)
    >>> p = Mention("Method", "ComCLIP", "ComCLIP", 9, 16, "", "test", 1.0, role="proposed")
    >>> v = Mention("Method", "CLIP-L", "CLIP-L", 9, 15, "", "test", 1.0, role="proposed")
    >>> _built_on(m, [p]), _built_on(p, [m]), _built_on(m, [v])
    (True, False, False)
    """
    name = _folded(method.canonical)
    return len(name) >= 3 and any(
        name in (other := _folded(o.canonical)) and not other.startswith(name) for o in proposed
    )


def _one_names_the_other(method: Mention, target: Mention) -> bool:
    """Whether a method's name and a dataset's hold one another (LeMon and DuLeMon, RepoST
    and RepoST-Eval): a dataset named after a method, or a name cut from another.

    >>> m = Mention("Method", "RepoST", "RepoST", 0, 6, "", "test", 1.0)
    >>> d = Mention("Dataset", "RepoST-Eval", "RepoST-Eval", 9, 20, "", "test", 1.0)
    >>> e = Mention("Dataset", "Eval", "Eval", 9, 13, "", "test", 1.0)
    >>> _one_names_the_other(m, d), _one_names_the_other(m, e)
    (True, False)
    """
    a, b = _folded(method.canonical), _folded(target.canonical)
    return len(min(a, b, key=len)) >= 5 and (a in b or b in a)


def _folded(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.casefold())


def _listed(abstract: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether spans ``a`` and ``b`` are neighbouring items of one list."""
    gap = abstract[a[1] : b[0]] if a[1] <= b[0] else abstract[b[1] : a[0]]
    return len(gap) < 8 and _LIST_GAP.fullmatch(gap) is not None


def occurrences(abstract: str, mentions: Iterable[Mention]) -> list[tuple[int, int]]:
    """Where ``abstract`` names the entity of ``mentions``: their spans and those of their
    surface forms (texts, aliases and a defined short form, as whole words, a plural "s"
    allowed), sorted.

    >>> m = Mention("Method", "LoRA", "LoRA", 4, 8, "", "test", 1.0, aliases=("low-rank adapters",))
    >>> occurrences("Our LoRA beats LoRAX; LoRAs and low-rank adapters help.", [m])
    [(4, 8), (22, 27), (32, 49)]
    >>> m = Mention("Method", "Foo Bar", "FB (Foo Bar)", 0, 7, "", "test", 1.0, long_form="Foo Bar")
    >>> occurrences("Foo Bar (FB) is fast; FB wins.", [m])
    [(0, 7), (9, 11), (22, 24)]
    """
    found: set[tuple[int, int]] = set()
    forms: set[str] = set()
    for m in mentions:
        found.add((m.start, m.end))
        forms.add(m.text)
        forms.update(m.aliases)
        if m.long_form:  # the short form the abstract defines ("GM-SOP", "BPR (...)")
            forms.add(short_of(m.canonical))
    for form in forms:
        if len(form) < 2:
            continue
        i = abstract.find(form)
        while i >= 0:
            j = i + len(form)
            if j < len(abstract) and abstract[j] == "s":
                j += 1
            if (i == 0 or not abstract[i - 1].isalnum()) and (
                j == len(abstract) or not abstract[j].isalnum()
            ):
                found.add((i, j))
            i = abstract.find(form, i + 1)
    return sorted(found)
