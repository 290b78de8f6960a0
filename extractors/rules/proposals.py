"""Rules for the names a paper introduces as its own ("we propose X", "a method called X",
"X, a novel framework") and the lowercase names it defines."""

import re
from itertools import chain

from kg.extractors.records import METHOD, METRIC
from kg.extractors.rules.names import is_name_shaped
from kg.extractors.trie import word_start_ignorecase
from kg.extractors.words import word_set

_ADJECTIVES = word_set("evaluative_adjectives")
_LEADING_FUNCTION_WORDS = word_set("leading_function_words")
_NON_NAMES = word_set("non_names")
_TASK_MODIFIER_STOP = word_set("modifier_stops")
_PROPOSE = re.compile(
    word_start_ignorecase({"w": "e", "t": "his (?:paper|work|study)", "o": "ur (?:paper|work)"})
    + r"(?i:\s+(?:\w+\s+){0,2}?"
    r"(?:propose|proposes|proposing|introduce|introduces|introducing|present|presents|"
    r"presenting|develop|develops|developing|design|"
    r"designs|devise|devises|contribute|contributes|release|releases|curate|curates|"
    r"construct|constructs|build|builds|create|creates|offer|offers|establish|establishes|"
    r"formulate|formulates|formalize|formalise|define|defines|put forward|term|call|name|dub|"
    r"coin)\b)"
)


#: "We draw new links ... and introduce X": a trigger whose subject is far back (a regex
#: of its own: starting with a literal, it is scanned fast).
_AND_PROPOSE = re.compile(r"and(?<!\wand) (?:then |further |also )?(?:propose|introduce)\b")
_PROPOSALS = (_PROPOSE, _AND_PROPOSE)
#: The naming triggers ("a method called X"), lowercase.
NAMING_WORDS = ("called", "coined", "named", "namely", "termed", "dubbed", "denoted")
_NAMING = re.compile(
    word_start_ignorecase(
        {
            first: "|".join(word[1:] for word in NAMING_WORDS if word[0] == first)
            for first in dict.fromkeys(word[0] for word in NAMING_WORDS)
        }
    )
    + r"\s+"
)


def proposal_triggers(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, naming) of the proposal and naming triggers of ``text`` ("we propose",
    "called"; ``naming`` for the latter), in text order. None crosses a sentence end, so
    those of a whole abstract serve each of its sentences.

    >>> proposal_triggers("Data is big. We propose X, called Y.")
    [(13, 23, False), (27, 34, True)]
    """
    triggers = _PROPOSALS + (_NAMING,) if _may_name(text) else _PROPOSALS
    return sorted(
        (m.start(), m.end(), trigger is _NAMING)
        for trigger in triggers
        for m in trigger.finditer(text)
    )


def _may_name(text):
    """Whether ``text`` may hold a naming trigger: False only for ASCII text (where
    ``str.lower`` folds case as ``re`` does) without any of the naming words, so that the
    slow ``_NAMING`` scan runs only where it can match.

    >>> _may_name("We use X."), _may_name("A model, DUBBED X."), _may_name("coİned")
    (False, True, True)
    """
    if not text.isascii():
        return True
    lowered = text.lower()
    return any(word in lowered for word in NAMING_WORDS)


_APPOSITION_START = re.compile(
    r"^(?:We\s+\w+\s+)?([A-Z][\w\-.+]*[A-Z0-9][\w\-.+]*)\s*(?:\([^)]*\))?\s*,\s+"
    r"(?:a|an|the)\s+(?:\w+[\s-]+){0,4}?(?:novel|new|simple|general|first|unified|"
    r"framework|method|model|approach|benchmark|dataset|algorithm|suite|technique|"
    r"system|metric|tool|library|family|scalable|lightweight|training|plug)"
)


#: A name followed by its introduction: "X (...), a novel metric", "X: A ... framework".
_INTRODUCING_APPOSITION = re.compile(
    r"[\w\-.+]+(?: [a-z]+)?\s*(?:\([^)]*\))?\s*(?:,\s+(?:a|an)\s+(?:novel|new)\b|"
    r":\s+An?\s+(?:[\w\-]+\s+){0,3}?(?:framework|method|approach|benchmark|dataset|"
    r"algorithm|model|system|metric|suite|toolkit|library)\b)"
)


#: What comes right before a name the paper calls its own: "Our approach, X (...), ...".
_OUR_OWN_BEFORE = re.compile(
    r"\b[Oo]ur (?:new |novel |proposed )?(?:approach|method|framework|model|algorithm|system|"
    r"technique|pipeline|benchmark|dataset|metric|solution),? (?:is |called |named |dubbed )?$"
    r"|\b(?:novel|new) (?:[\w\-]+ ){0,2}[\w\-]+[:,] $"
)


_NAME_TOKEN = re.compile(r"(?<![\w\-/.])[A-Za-z][\w\-+./]*\w|(?<![\w\-/.])[A-Z]\b")


def proposal_spans(
    sentence: str, triggers: list[tuple[int, int, bool]] | None = None
) -> list[tuple[int, int]]:
    """Names a sentence introduces as the paper's own: after "we propose/introduce/..." or
    "called/named X", or "X, a novel framework ..." at the start. ``triggers`` are the
    sentence's ``proposal_triggers`` (found here when None; with none, only the latter is
    looked for).

    >>> s = "We propose OrderDP, a two-stage method."
    >>> [s[a:b] for a, b in proposal_spans(s)]
    ['OrderDP']
    >>> s = "HyFair, a new fairness verifier, is fast."
    >>> [s[a:b] for a, b in proposal_spans(s)]
    ['HyFair']
    >>> s = "We study a task called Key Point Analysis, which is hard."
    >>> [s[a:b] for a, b in proposal_spans(s)]
    ['Key Point Analysis']
    """
    spans = []
    m = _APPOSITION_START.match(sentence)
    if m:
        spans.append(m.span(1))
    if triggers is None:
        triggers = proposal_triggers(sentence)
    for _, after, naming in triggers:
        end = min(_clause_end(sentence, after), after + 160)
        # Past a use cue only a bracketed acronym is the paper's own: "We present results
        # on the ADULT dataset"; "We propose a model based on a GAN ... (DiscoGAN)".
        cue = _USE_CUE.search(sentence, after, end) if not naming else None
        if naming:  # the name comes next: "called X", "denoted as X"
            end = min(end, _naming_window_end(sentence, after))
        for t in _NAME_TOKEN.finditer(sentence, after, end):
            word = t.group(0).rstrip(".")
            if (
                cue
                and t.start() >= cue.end()
                and not _bracketed(sentence, t.start(), t.start() + len(word))
            ):
                continue
            if (
                is_name_shaped(word)
                or word[:1].isupper()
                and word not in _NON_NAMES
                and (naming or _named_right_after(sentence, after, t.start(), word))
            ):
                start, end = t.start(), t.start() + len(word)
                if naming and not is_name_shaped(word):
                    end = _TITLE_WORDS.match(sentence, end).end()  # type: ignore[union-attr]
                elif not naming:
                    start = _capitalised_run_start(sentence, after, start)
                spans.append((start, end))
                break
    return sorted(set(spans))


_NAMING_LEAD = re.compile(r"\W*(?:(?:as|by|the|a|an)\s+\W*)?[^\s,;.]+")


def _naming_window_end(sentence, start):
    """End of the word a naming trigger names (after "as", "by" or an article)."""
    word = _NAMING_LEAD.match(sentence, start)
    return word.end() if word else start


#: A capitalised word before a name, maybe joined to it by a small word ("Approximations to").
_TITLE_WORD_BEFORE = re.compile(r"(?<![\w\-])([A-Z][\w\-]*) (?:(?:of|for|to|with|in|on|via) )?$")


def _capitalised_run_start(sentence, lowest, start):
    """Start of the capitalised words right before ``start`` (not before ``lowest``) that
    belong to the name: "We introduce Biased TextRank" names Biased TextRank."""
    while True:
        prev = _TITLE_WORD_BEFORE.search(sentence, max(lowest, start - 40), start)
        if (
            not prev
            or prev.group(1) in _NON_NAMES
            or prev.group(1).lower() in _TASK_MODIFIER_STOP | _LEADING_FUNCTION_WORDS
        ):
            return start
        start = prev.start(1)


def _bracketed(sentence, start, end):
    """Whether [start, end) is all that a pair of brackets holds: an acronym defined."""
    return sentence[start - 1 : start] == "(" and sentence[end : end + 1] == ")"


def _named_right_after(sentence, trigger_end, start, word):
    """A capitalised word right after "we introduce" that an apposition or its acronym
    follows ("We introduce Agon, which ..."), in markdown emphasis or not ("we introduce
    **Unison**, a benchmark"): a name, though not shaped like one."""
    return (
        _EMPHASIS_BEFORE.fullmatch(sentence, trigger_end, start) is not None
        and _APPOSITION_AFTER.match(sentence, start + len(word)) is not None
        and not word.lower().endswith(_ADJECTIVE_SUFFIXES)
    )


#: Between a trigger and its name: one space, and the markers of markdown emphasis.
_EMPHASIS_BEFORE = re.compile(r" (?:\*\*|__)?")
#: After the name: the end of its emphasis, then an apposition, a colon or a bracket.
_APPOSITION_AFTER = re.compile(r"(?:\*\*|__)?(?:[,:]| \()")


#: Endings of words that describe rather than name ("Bayesian", "Lexical").
_ADJECTIVE_SUFFIXES = ("ian", "al", "ic", "ive", "ous", "ed", "ing")
#: The capitalised words that continue a title-case name ("Key| Point Analysis").
_TITLE_WORDS = re.compile(r"(?: (?:(?:of|for|the|in|on|to|with) )?[A-Z][\w\-]*)*")


def _clause_end(sentence, start):
    """End of the clause that starts at ``start``: the next ';' or the sentence end."""
    end = sentence.find(";", start)
    return len(sentence) if end < 0 else end


def is_proposal_context(sentence: str, start: int) -> bool:
    """Whether offset ``start`` follows a "we propose/introduce ..." trigger in its clause.

    >>> s = "We introduce X and use Y."
    >>> is_proposal_context(s, s.index("X")), is_proposal_context(s, 0)
    (True, False)
    >>> s = "It ends with FooBar (Fast Bar), a novel metric; BazNet: A tiny framework helps."
    >>> is_proposal_context(s, s.index("FooBar")), is_proposal_context(s, s.index("BazNet"))
    (True, True)
    >>> s = "We draw links and introduce FooQuant. Our method, BarNet (Bar Network), is fast."
    >>> is_proposal_context(s, s.index("FooQuant")), is_proposal_context(s, s.index("BarNet"))
    (True, True)
    >>> s = "It uses two novel loss functions: FooLoss and BarLoss."
    >>> is_proposal_context(s, s.index("FooLoss"))
    True
    >>> s = "We introduce a novel framework, Topology-of-Thought (ToT), for QA."
    >>> is_proposal_context(s, s.index("Topology"))
    True
    """
    for m in chain.from_iterable(p.finditer(sentence, 0, start + 1) for p in _PROPOSALS):
        if m.end() <= start:
            between = sentence[m.end() : start]
            if ";" not in between and not _USE_CUE.search(between):
                return True
    apposition = _APPOSITION_START.match(sentence)
    return (
        apposition is not None
        and start == apposition.start(1)
        or _INTRODUCING_APPOSITION.match(sentence, start) is not None
        or _introduced_as_ours(sentence, start)
    )


_RELATIVE = re.compile(r"\b(?:which|that|by|whose|where|when|how|to)\b")


def introduced_here(sentence: str, start: int, words: int = 5) -> bool:
    """Whether a name at ``start`` is introduced right there: at most ``words`` words after
    a "we propose/introduce" or "called" trigger, with no punctuation or relative clause
    between ("We propose a simple yet effective method X", "a method called X"; not "We
    propose a model by which dopamine (DA) ..."), or after "Our method, ".

    >>> s = "We propose agent skill induction (ASI). We propose a model by which dopamine acts."
    >>> introduced_here(s, s.index("agent")), introduced_here(s, s.index("dopamine"))
    (True, False)
    """
    triggers = _PROPOSALS + (_NAMING,)
    for m in chain.from_iterable(p.finditer(sentence, 0, start + 1) for p in triggers):
        between = sentence[m.end() : start]
        if (
            m.end() <= start
            and len(between.split()) <= words
            and not any(c in between for c in ",;:()—–.")
            and not _RELATIVE.search(between)
        ):
            return True
    return _introduced_as_ours(sentence, start)


def _introduced_as_ours(sentence, start):
    """Whether "Our method, " or "a novel framework, " comes right before ``start``."""
    return _OUR_OWN_BEFORE.search(sentence, max(0, start - 40), start) is not None


#: Words between a trigger and a name that make the name something used, not proposed.
_USE_CUE = re.compile(
    r"\b(?:using|use|uses|with|on|via|based on|from|built on|over|against|inspired|"
    r"than|compared|such as|including|like|existing|standard|prior|"
    r"previous|popular|baselines?)\b"
)


_DEFINITION = re.compile(
    r"[wW](?<!\w.)e (?:formalize|formalise|define|introduce|propose|term|call|coin)\s+"
    r"(?:the\s+)?([a-z][\w\-]*(?: [a-z][\w\-]*){0,3}),\s+(?:the|a|an|which|i\.e\.)\s"
)


_MEASURE_CUES = re.compile(
    r"\b(cost|ratio|measure|metric|rate|score|probability|fraction|"
    r"expected|degree|amount|number|percentage|distance)\b"
)


def definition_spans(sentence: str) -> list[tuple[int, int, str]]:
    """Lowercase names a paper defines with an apposition: "We formalize cost-of-pass, the
    expected monetary cost of ...". Typed Metric when the apposition describes a measure.

    >>> s = "We propose relative improvement, the ratio of the two risks."
    >>> [(s[a:b], kind) for a, b, kind in definition_spans(s)]
    [('relative improvement', 'Metric')]
    """
    found = []
    for m in _DEFINITION.finditer(sentence):
        phrase = m.group(1)
        if any(w in _TASK_MODIFIER_STOP or w in _ADJECTIVES for w in phrase.split()):
            continue
        kind = METRIC if _MEASURE_CUES.search(sentence, m.end(), m.end() + 60) else METHOD
        found.append((m.start(1), m.end(1), kind))
    return found
