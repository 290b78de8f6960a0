"""Candidates of names typed by where they stand (:mod:`kg.extractors.rules.lists`) and
of measures' short names used as methods ("fitted with EM", "MAP inference", one sense per
abstract): the lexicon decides which of the spans the rules find become candidates."""

import re
from collections.abc import Mapping

from kg.extractors.choose import (
    LEXICON,
    LIST_NAME,
    METHOD_HEADED,
    METRIC_HEADED,
    OWN_NAME,
    RESULT_SUBJECT,
    SENSE_BY_CONTEXT,
    Candidate,
)
from kg.extractors.kinds import (
    measure_context,
    method_sense,
    method_sense_entry,
    method_word_after,
)
from kg.extractors.lexicon import Entry, Lexicon
from kg.extractors.records import BENCHMARK, COLLECTION_TYPES, DATASET, METHOD, METRIC
from kg.extractors.rules.lists import (
    list_spans,
    method_headed_spans,
    metric_headed_spans,
    own_name_spans,
    result_subject_spans,
)
from kg.extractors.rules.names import data_release_end, is_name_shaped


def method_sense_candidate(text: str, start: int, end: int, lexicon: Lexicon) -> Candidate:
    """A measure's short name used as a method ("fitted with EM" is the EM algorithm)."""
    name = text[start:end]
    entry = method_sense_entry(name, lexicon)
    canonical = entry.canonical if entry is not None else name
    return Candidate(start, end, METHOD, canonical, SENSE_BY_CONTEXT, entry=entry)


def released_candidate(
    text: str, start: int, end: int, entry: Entry, lexicon: Lexicon
) -> Candidate | None:
    """The candidate of a known dataset's name (``start``, ``end``) with the release,
    version or size after it ("MultiWOZ 2.4", "LogiQA-v2", "MNIST 8M"): the lexicon's entry
    of the longer name if it has one (SQuAD for "SQuAD 1.1", MNIST8m for "MNIST 8M"), else a
    name of its own; None when nothing follows."""
    released = data_release_end(text, end) if entry.type in (DATASET, BENCHMARK) else end
    if released == end:
        return None
    known = lexicon.lookup(text[start:released])
    if known is None:
        return Candidate(start, released, entry.type, text[start:released], LEXICON)
    return Candidate(start, released, known.type, known.canonical, LEXICON, entry=known)


def means_a_method(
    text: str, start: int, end: int, entry: Entry, defined: Mapping[str, Candidate]
) -> bool:
    """Whether a measure's short name the abstract does not define stands for a method
    where it is (:func:`kg.extractors.kinds.method_sense`: "MAP inference", "using EM"), or a
    known collection's name is the paper's proposed method ("the proposed MPII approach";
    "our CIFAR-10 model" is a model of CIFAR-10).

    >>> from kg.extractors.lexicon import load_lexicon
    >>> s = "The proposed MPII approach beats our MPII model."
    >>> [means_a_method(s, a, a + 4, load_lexicon().lookup("MPII"), {}) for a in (13, 42)]
    [True, False]
    """
    if text[start:end] in defined:
        return False
    if entry.type in COLLECTION_TYPES:
        return _OWN_BEFORE.search(text, max(0, start - 14), start) is not None and (
            method_word_after(text, end)
        )
    return entry.type == METRIC and end - start <= 5 and method_sense(text, start, end)


#: What names a method as the paper's own right before it.
_OWN_BEFORE = re.compile(r"\b(?:[Tt]he|[Oo]ur) proposed $")


def one_sense_per_abstract(
    text: str, candidates: list[Candidate], lexicon: Lexicon
) -> list[Candidate]:
    """Where an abstract's context reads a measure's short name as a method ("MAP
    inference"), its other uses read so too ("making MAP predictions"), but for those a
    measure's context claims ("35.1 MAP")."""
    as_method = {text[c.start : c.end] for c in candidates if c.rule == SENSE_BY_CONTEXT}
    if not as_method:
        return candidates
    return [
        method_sense_candidate(text, c.start, c.end, lexicon)
        if c.rule == LEXICON
        and text[c.start : c.end] in as_method
        and (c.type in COLLECTION_TYPES or c.type == METRIC)
        and not measure_context(text, c.start, c.end)
        else c
        for c in candidates
    ]


def placed_name_candidates(
    text: str, lexicon: Lexicon, defined: Mapping[str, Candidate]
) -> list[Candidate]:
    """Candidates of the names typed by where they stand (:mod:`kg.extractors.rules.lists`):
    lists, result subjects, "our X" and method heads. An evaluation list must hold a name
    the lexicon knows as a Dataset/Benchmark, a baseline list one it knows as a Method or
    a coined name; the names the lexicon knows as written keep their own candidates."""
    found = []
    for items, kind, cue in list_spans(text):
        names = [text[a:b] for a, b in items]
        entries = [lexicon.lookup(name) for name in names]
        if cue == "evaluation" and not any(e and e.type in COLLECTION_TYPES for e in entries):
            continue
        if cue == "baseline" and not any(
            e is not None and e.type == METHOD or e is None and is_name_shaped(n)
            for e, n in zip(entries, names, strict=True)
        ):
            continue
        if cue == "evaluation":  # typed as the known collections of the list
            kind = next(e.type for e in entries if e and e.type in COLLECTION_TYPES)
        for (a, b), name, entry in zip(items, names, entries, strict=True):
            # A cased entry not written with its case ("mini-ImageNet" for "Mini-Imagenet")
            # has no candidate of its own: the list gives it one.
            unmatched = entry is None or lexicon.lookup_as_written(name) is None
            if unmatched and name not in defined:
                named = BENCHMARK if kind == DATASET and name.lower().endswith("bench") else kind
                found.append(Candidate(a, b, named, name, LIST_NAME))
    for rule, spans in (
        (RESULT_SUBJECT, result_subject_spans(text)),
        (OWN_NAME, own_name_spans(text)),
        (METHOD_HEADED, method_headed_spans(text)),
    ):
        for a, b in spans:
            name = text[a:b]
            if lexicon.lookup(name) is None and name not in defined:
                found.append(Candidate(a, b, METHOD, name, rule))
    for a, b in metric_headed_spans(text):
        name = text[a:b]
        known = lexicon.lookup(name.rsplit(" ", 1)[0])
        # A known measure keeps its own name ("BLEU score"), a collection its own type; an
        # unknown name before a lowercase "score" is the coined-name rule's Metric.
        if lexicon.lookup(name) is None and (
            known is None and name.endswith("Score") or known is not None and known.type == METHOD
        ):
            found.append(Candidate(a, b, METRIC, name, METRIC_HEADED))
    return found
