"""Context rules that find names the lexicon does not know, as pure functions over strings.

Each rule returns ``(start, end, type, rule)`` candidates with character offsets into the
text it was given; the pipeline shifts them to abstract offsets, types them and picks
among overlapping candidates.
"""

import re
import string
from functools import lru_cache
from itertools import chain, islice

from kg.extractors.trie import (
    trie_regex,
    word_start_ignorecase,
    word_start_matches,
    word_start_regexes,
)

#: Words that say a name before or after them is a dataset or a benchmark.
DATASET_HEADS = {"dataset", "datasets", "corpus", "corpora", "database", "data set", "collection"}
BENCHMARK_HEADS = {
    "benchmark",
    "benchmarks",
    "suite",
    "leaderboard",
    "testbed",
    "arena",
    "challenge",
}
METRIC_HEADS = {
    "score",
    "rate",
    "error",
    "accuracy",
    "distance",
    "divergence",
    "metric",
    "measure",
    "index",
    "ratio",
    "coefficient",
    "precision",
    "recall",
    "loss",
    "fraction",
    "gap",
}
#: Heads of named ideas that are not entities of the graph's typed kinds.
CONCEPT_HEADS = {
    "hypothesis",
    "principle",
    "phenomenon",
    "effect",
    "law",
    "assumption",
    "conjecture",
    "equality",
    "inequality",
    "theorem",
    "lemma",
    "property",
    "condition",
    "dilemma",
    "paradox",
    "view",
    "perspective",
    "regime",
    "ability",
    "abilities",
    "capability",
    "capabilities",
}
#: Head nouns of task phrases ("out-of-distribution detection").
TASK_HEADS = {
    "detection",
    "estimation",
    "recognition",
    "classification",
    "segmentation",
    "generation",
    "prediction",
    "forecasting",
    "clustering",
    "pruning",
    "translation",
    "answering",
    "summarization",
    "understanding",
    "parsing",
    "tagging",
    "localization",
    "localisation",
    "tracking",
    "reconstruction",
    "synthesis",
    "completion",
    "captioning",
    "grounding",
    "extraction",
    "linking",
    "reasoning",
    "discovery",
    "mining",
    "recommendation",
    "verification",
    "editing",
    "unlearning",
    "adaptation",
    "generalization",
    "generalisation",
    "denoising",
    "inpainting",
    "quantification",
    "identification",
    "regression",
    "navigation",
    "control",
    "imputation",
    "matching",
    "labeling",
    "labelling",
    "attribution",
    "explainability",
    "robustness",
    "mitigation",
    "super-resolution",
    "deblurring",
    "restoration",
    "acceleration",
    "selection",
    "reranking",
    "re-ranking",
    "simplification",
    "paraphrasing",
    "correction",
    "diagnosis",
    "screening",
    "watermarking",
    "defense",
    "defence",
    "jailbreaking",
    "steering",
    "communication",
    "recovery",
    "exploration",
    "imitation",
    "counting",
    "valuation",
}
#: Heads of the long forms of task acronyms ("off-policy evaluation (OPE)").
LONG_FORM_TASK_HEADS = TASK_HEADS | {
    "evaluation",
    "learning",
    "alignment",
    "fairness",
    "planning",
    "inference",
    "sampling",
    "optimization",
    "optimisation",
    "interpretability",
    "privacy",
    "annotation",
    "search",
    "manipulation",
    "transfer",
    "modeling",
    "modelling",
    "decoding",
    "distillation",
    "calibration",
    "retrieval",
    "testing",
    "auditing",
    "compression",
    "perception",
}
#: Heads that make a phrase a method rather than a task.
METHOD_HEADS = {
    "model",
    "models",
    "network",
    "networks",
    "net",
    "nets",
    "algorithm",
    "algorithms",
    "method",
    "methods",
    "framework",
    "architecture",
    "transformer",
    "transformers",
    "attention",
    "regularization",
    "regularisation",
    "descent",
    "machine",
    "machines",
    "encoder",
    "decoder",
    "autoencoder",
    "optimizer",
    "policy",
    "mechanism",
    "module",
    "strategy",
    "procedure",
    "scheme",
    "approach",
    "technique",
    "prompting",
    "tuning",
    "fine-tuning",
    "finetuning",
    "training",
    "pretraining",
    "pre-training",
    "embedding",
    "embeddings",
    "estimator",
    "sampler",
    "solver",
    "agent",
    "pipeline",
    "process",
    "system",
    "kernel",
    "layer",
    "layers",
    "head",
    "heads",
    "adapter",
    "adapters",
    "augmentation",
    "dropout",
    "normalization",
    "normalisation",
    "search",
    "optimization",
    "optimisation",
    "programming",
    "regression",
    "classifier",
    "objective",
    "loss",
    "gradient",
    "gradients",
    "surgery",
    "iteration",
    "analysis",
    "test",
    "sketch",
    "sketching",
    "quantization",
    "propagation",
    "aggregation",
    "averaging",
    "distillation",
    "decomposition",
    "factorization",
    "learning",
    "ensemble",
    "ensembles",
    "paradigm",
}
_TASK_MODIFIER_STOP = {
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "our",
    "their",
    "its",
    "of",
    "for",
    "in",
    "on",
    "to",
    "and",
    "or",
    "with",
    "by",
    "from",
    "as",
    "at",
    "via",
    "is",
    "are",
    "although",
    "though",
    "whereas",
    "since",
    "because",
    "if",
    "unless",
    "once",
    "around",
    "within",
    "toward",
    "towards",
    "against",
    "among",
    "amongst",
    "throughout",
    "during",
    "after",
    "before",
    "upon",
    "per",
    "despite",
    "behind",
    "along",
    "amid",
    "versus",
    "vs",
    "onto",
    "unlike",
    "near",
    "alongside",
    "inside",
    "outside",
    "be",
    "we",
    "it",
    "which",
    "such",
    "novel",
    "new",
    "existing",
    "standard",
    "various",
    "different",
    "many",
    "several",
    "downstream",
    "challenging",
    "effective",
    "efficient",
    "improved",
    "improving",
    "improve",
    "better",
    "strong",
    "stronger",
    "accurate",
    "typical",
    "popular",
    "common",
    "current",
    "recent",
    "prior",
    "previous",
    "general",
    "important",
    "key",
    "fundamental",
    "extensive",
    "both",
    "each",
    "other",
    "more",
    "most",
    "less",
    "than",
    "not",
    "no",
    "can",
    "may",
    "also",
    "only",
    "while",
    "using",
    "based",
    "across",
    "between",
    "including",
    "like",
    "enable",
    "enables",
    "enabling",
    "achieve",
    "achieves",
    "achieving",
    "perform",
    "performs",
    "performing",
    "do",
    "does",
    "without",
    "under",
    "over",
    "into",
    "about",
    "large",
    "small",
    "simple",
    "proposed",
    "widely",
    "used",
    "well",
    "known",
    "same",
    "first",
    "second",
    "all",
    "any",
    "some",
    "two",
    "three",
    "one",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "dozens",
    "high",
    "low",
    "quality",
    "poor",
    "good",
    "theoretical",
    "empirical",
    "practical",
    "overall",
    "final",
    "further",
    "then",
    "where",
    "when",
    "how",
    "what",
    "why",
    "has",
    "have",
    "had",
    "was",
    "were",
    "been",
    "being",
    "there",
    "here",
    "show",
    "shows",
    "study",
    "studies",
    "studying",
    "task",
    "tasks",
    "problem",
    "problems",
    "setting",
    "settings",
    "robust",
    "scalable",
    "successful",
    "faster",
    "slower",
    "deep",
    "real-world",
    "real",
    "world",
    "non-trivial",
    "unified",
    "powerful",
    "generalizable",
    "systematic",
    "comprehensive",
    "significant",
    "superior",
    "competitive",
    "reliable",
    "promising",
    "principled",
    "critical",
    "crucial",
    "essential",
    "central",
    "main",
    "major",
    "primary",
    "specific",
    "particular",
    "certain",
    "given",
    "underlying",
    "resulting",
    "related",
    "corresponding",
    "respective",
    "own",
    "whole",
    "entire",
    "full",
    "complete",
    "very",
    "highly",
    "often",
    "still",
    "yet",
    "even",
    "just",
    "much",
    "additional",
    "accurately",
    "effectively",
    "efficiently",
    "jointly",
    "best",
    "address",
    "addresses",
    "tackle",
    "tackles",
    "solve",
    "solves",
    "consider",
    "considers",
    "investigate",
    "explore",
    "examine",
    "analyze",
    "analyse",
    "evaluate",
    "apply",
    "use",
    "leverage",
    "support",
    "boost",
    "advance",
    "facilitate",
    "benefit",
    "demonstrate",
    "focus",
    "target",
    "targets",
    "promote",
    "hinder",
    "limit",
    "affect",
    "require",
    "yield",
    "provide",
    "obtain",
    "ensure",
    "guarantee",
    "allow",
    "make",
    "makes",
    "preserve",
    "preserves",
    "reduce",
    "reduces",
    "increase",
    "increases",
    "raise",
    "raises",
    "lower",
    "lowers",
    "maximize",
    "maximizes",
    "minimize",
    "minimizes",
    "report",
    "reports",
    "compute",
    "computes",
    "estimate",
    "estimates",
    "measure",
    "measures",
    "whether",
    "so",
    "hurt",
    "hurts",
    "enhance",
    "enhances",
    "probe",
    "probes",
    "desired",
    "emergent",
    "harm",
    "harms",
    "aid",
    "aids",
    "drive",
    "drives",
}
_NON_NAMES = {
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "OK",
    "US",
    "UK",
    "EU",
    "USA",
    "PhD",
    "TL;DR",
    "We",
    "In",
    "Our",
    "This",
    "However",
    "Moreover",
    "Furthermore",
    "Specifically",
    "Additionally",
    "Finally",
    "First",
    "Second",
    "Third",
    "Code",
    "GitHub",
    "Github",
    "PyTorch",
    "TensorFlow",
    "JAX",
    "API",
    "APIs",
    "GPU",
    "GPUs",
    "CPU",
    "CPUs",
    "TPU",
    "TPUs",
    "SOTA",
    "AI",
    "ML",
    "NLP",
    "CV",
    "RL",
    "LLM",
    "LLMs",
    "VLM",
    "VLMs",
    "MLLM",
    "MLLMs",
    "LVLM",
    "LVLMs",
    "LM",
    "LMs",
    "DNN",
    "DNNs",
    "NN",
    "NNs",
    "OOD",
    "IID",
    "i.i.d.",
    "ID",
    "IDs",
    "URL",
    "HTML",
    "PDF",
    "JSON",
    "SQL",
    "PDE",
    "PDEs",
    "ODE",
    "ODEs",
    "SDE",
    "SDEs",
    "3D",
    "2D",
    "1D",
    "4D",
    "RGB",
    "RGB-D",
    "FLOPs",
    "FLOP",
    "MB",
    "GB",
    "TB",
    "ms",
    "Hz",
    "kHz",
    "AUC",
    "vs",
    "e.g",
    "i.e",
    "cf",
    "etc",
    "MDP",
    "MDPs",
    "POMDP",
    "POMDPs",
    "KL",
    "ReLU",
    "COVID-19",
    "COVID",
    "SARS-CoV-2",
    "DNA",
    "RNA",
    "MRI",
    "CT",
    "EEG",
    "fMRI",
    "ECG",
    "NP",
    "P",
    "NP-hard",
    "NP-complete",
    "EOS",
    "BOS",
    "CLS",
    "SEP",
    "UNK",
    "PAD",
    "IQ",
    "YouTube",
    "Twitter",
    "Reddit",
    "Wikipedia",
    "Google",
    "OpenAI",
    "Meta",
    "Microsoft",
    "Amazon",
    "Apple",
    "NVIDIA",
    "Nvidia",
    "DeepMind",
    "Anthropic",
    "Facebook",
    "English",
    "Chinese",
    "German",
    "French",
    "Spanish",
    "Japanese",
    "Korean",
    "Arabic",
    "Hindi",
    "Russian",
    "Portuguese",
    "Italian",
    "Dutch",
    "Turkish",
    "Vietnamese",
    "Indonesian",
    "Persian",
    "Bengali",
    "Urdu",
    "Greek",
    "Swedish",
    "Hebrew",
    "Americans",
    "Asian",
    "Asia",
    "Africa",
    "Europe",
    "York",
    "Times",
    "HuggingFace",
    "Hugging",
    "Python",
    "Java",
    "C++",
    "LaTeX",
    "Markdown",
    "ImageNet-scale",
}
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


def proposal_triggers(text):
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
#: A word's characters; a word starts at a letter after any other character or a "+".
_NAME_CHARACTERS = re.compile(r"[\w\-+./]*")
#: A capital or digit inside a word: the sign of a possible coined name, found fast since
#: the pattern starts with a character class that skips lowercase text.
_INNER_CAPITAL_OR_DIGIT = re.compile(r"[A-Z0-9](?<=[\w\-+./].)")
_CAPITAL_OR_DIGIT = re.compile(r"[A-Z0-9]")
_ASCII_LETTERS = frozenset(string.ascii_letters)
_HEAD_WORDS = (
    "benchmark",
    "dataset",
    "corpus",
    "corpora",
    "database",
    "suite",
    "leaderboard",
    "testbed",
    "arena",
    "challenge",
    "collection",
)
_WORD_BEFORE = re.compile(r"(?<![\w\-/.])([A-Za-z][\w\-+./]*) $")
_WORD_TOKEN = re.compile(r"[A-Za-z][A-Za-z\-]*[A-Za-z]|[A-Za-z]")


#: A sentence end: its punctuation mark, then the gap to the next sentence.
_SENTENCE_END = re.compile(r"[.!?][\"”')\]]*\s+(?=[\"“(\[]*[A-Z0-9$\\*])")
_NO_SPLIT_BEFORE = (
    "e.g.",
    "i.e.",
    "et al.",
    "etc.",
    "vs.",
    "cf.",
    "Fig.",
    "Eq.",
    "Sec.",
    "resp.",
    "approx.",
    "Dr.",
    "No.",
    "i.i.d.",
)


def sentence_bounds(text):
    """(start, end) character spans of the sentences of ``text``: a split after . ! or ?
    and whitespace before a capital, digit or markup, not after abbreviations (e.g., et al.).

    >>> t = "We use GRPO, e.g. Dr. GRPO. It works! See Fig. 2 for more."
    >>> [t[a:b] for a, b in sentence_bounds(t)]
    ['We use GRPO, e.g. Dr. GRPO.', 'It works!', 'See Fig. 2 for more.']
    """
    bounds, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        end = m.start() + 1
        if text[max(0, end - 8) : end].endswith(_NO_SPLIT_BEFORE) or _single_initial(text, end):
            continue
        bounds.append((start, end))
        start = m.end()
    if start < len(text) or not bounds:
        bounds.append((start, len(text.rstrip()) if text.strip() else len(text)))
    return bounds


def _single_initial(text, end):
    """A period after one capital letter ("A. Smith"), not a sentence end."""
    return (
        end >= 2
        and text[end - 1] == "."
        and text[end - 2].isupper()
        and (end == 2 or not text[end - 3].isalnum())
    )


@lru_cache(maxsize=1 << 16)
def is_name_shaped(word):
    """A word that looks like a coined name: a part (between hyphens) with capitals after
    its first letter, or letters mixed with digits (OrderDP, SelecMix, CG2A, TALE-EP), but
    not a generic acronym nor a hyphenated pair of capitalised words (Block-Recurrent).

    >>> [is_name_shaped(w) for w in ("OrderDP", "CG2A", "Transformer", "LLMs", "x2")]
    [True, True, False, False, False]
    >>> is_name_shaped("Block-Recurrent"), is_name_shaped("TALE-EP"), is_name_shaped("SWF-based")
    (False, True, False)
    >>> is_name_shaped("sqrtT"), is_name_shaped("mathcalO"), is_name_shaped("expRNN")
    (False, False, True)
    """
    if (
        len(word) < 2
        or word in _NON_NAMES
        or not word[0].isalpha()
        or _GLUED.search(word)
        or _BARE_LATEX.match(word)
    ):
        return False
    if word.rstrip("s") in _NON_NAMES or not _TWO_LETTERS.search(word):
        return False
    if word[0].islower() and word[1:] == word[1:].lower():
        return False
    parts = word.split("-")
    if len(parts) > 1 and any(len(p) > 2 and p.isalpha() and p.islower() for p in parts):
        return False
    for part in parts:
        if len(part) < 2 or part in _NON_NAMES:
            continue
        if part[1:] != part[1:].lower() or (part[0].isupper() and _DIGIT.search(part)):
            return True
    return False


_TWO_LETTERS = re.compile(r"[A-Za-z].*[A-Za-z]")
_ACRONYM_MARKED = re.compile(r"[a-z]{2,}[A-Z][a-z]*")


def is_acronym_marked(word):
    """Whether a word's one capital marks a letter of an acronym ("with guIded REwrite"),
    rather than the word being a name: one capital inside a lowercase word, not after a
    single letter ("iNaturalist", "iGibson" are names). Known names ("celebA") are looked
    up before this is asked.

    >>> [is_acronym_marked(w) for w in ("guIded", "iNaturalist", "GPstruct")]
    [True, False, False]
    """
    return _ACRONYM_MARKED.fullmatch(word) is not None


#: Two sentences glued by a missing space ("synergy.We").
_GLUED = re.compile(r"^[a-z]+\.[A-Z][a-z]")
#: Math whose LaTeX backslashes were lost on the way ("sqrtT", "mathcalO", "frac1T").
_BARE_LATEX = re.compile(
    r"(?:sqrt|frac|d?tilde|widetilde|hat|widehat|bar|overline|"
    r"math(?:cal|bb|bf|rm|sf)|log)[A-Z0-9]"
)
_DIGIT = re.compile(r"\d")


def proposal_spans(sentence, triggers=None):
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
                    end = _TITLE_WORDS.match(sentence, end).end()
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
    follows ("We introduce Agon, which ..."): a name, though not shaped like one."""
    after = sentence[start + len(word) : start + len(word) + 2]
    return (
        start == trigger_end + 1
        and (after[:1] in (",", ":") or after == " (")
        and not word.lower().endswith(_ADJECTIVE_SUFFIXES)
    )


#: Endings of words that describe rather than name ("Bayesian", "Lexical").
_ADJECTIVE_SUFFIXES = ("ian", "al", "ic", "ive", "ous", "ed", "ing")


#: The capitalised words that continue a title-case name ("Key| Point Analysis").
_TITLE_WORDS = re.compile(r"(?: (?:(?:of|for|the|in|on|to|with) )?[A-Z][\w\-]*)*")


def _clause_end(sentence, start):
    """End of the clause that starts at ``start``: the next ';' or the sentence end."""
    end = sentence.find(";", start)
    return len(sentence) if end < 0 else end


def is_proposal_context(sentence, start):
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
        bool(apposition)
        and start == apposition.start(1)
        or _INTRODUCING_APPOSITION.match(sentence, start) is not None
        or _introduced_as_ours(sentence, start)
    )


_RELATIVE = re.compile(r"\b(?:which|that|by|whose|where|when|how|to)\b")


def introduced_here(sentence, start, words=5):
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


def _head_words(text):
    """(offset, word) of each dataset/benchmark head word in ``text``, in order."""
    lowered = text.lower()
    found = []
    for cue in _HEAD_WORDS:
        at = lowered.find(cue)
        while at >= 0:
            end = at + len(cue)
            if lowered[end : end + 1] == "s":
                end += 1
            if (at == 0 or not lowered[at - 1].isalnum()) and (
                end == len(lowered) or not lowered[end].isalnum()
            ):
                found.append((at, lowered[at:end]))
            at = lowered.find(cue, end)
    return sorted(found)


def _word_window(text, end, width):
    """Where to search for "word " ending at ``end`` within ``width`` characters: from the
    space before that word, as no such word reaches past it (searching a window of
    ``width`` characters tries a look-behind pattern at every one of them).

    >>> _word_window("the big dog ", 12, 40)
    8
    """
    return max(end - width, text.rfind(" ", 0, max(0, end - 1)) + 1)


def headed_name_spans(sentence):
    """Names typed by the word after them: "the Big-Math dataset", "SWE-bench benchmark",
    "the Community Alignment dataset" (capitalised words before the head join the name).

    >>> s = "We evaluate on the FooQA benchmark and the Bar Baz dataset."
    >>> [(s[a:b], t) for a, b, t in headed_name_spans(s)]
    [('FooQA', 'Benchmark'), ('Bar Baz', 'Dataset')]
    """
    found = []
    for head_start, head in _head_words(sentence):
        m = _WORD_BEFORE.search(sentence, _word_window(sentence, head_start, 60), head_start)
        if not m:
            continue
        word = m.group(1)
        if (
            word.endswith(".")
            or not word[0].isupper()
            and not is_name_shaped(word)
            or _LANGUAGE_PAIR.fullmatch(word)
            or all(part in _NON_NAMES for part in word.split("-"))
        ):
            continue  # "... Google Images. Dataset", "the EN-DE dataset", "English-French"
        start = m.start(1)
        shaped = is_name_shaped(word)
        if not shaped and (
            not word[0].isupper()
            or word in _NON_NAMES
            or word.lower() in _TASK_MODIFIER_STOP
            or _sentence_start(sentence, start)
        ):
            continue
        while True:
            prev = _CAPITALISED_BEFORE.search(sentence, _word_window(sentence, start, 40), start)
            if (
                not prev
                or prev.group(1) in _NON_NAMES
                or prev.group(1).lower() in _TASK_MODIFIER_STOP
            ):
                break
            start = prev.start(1)
            if _sentence_start(sentence, start):
                break
        kind = "Benchmark" if head in BENCHMARK_HEADS or head[:-1] in BENCHMARK_HEADS else "Dataset"
        found.append((start, m.start(1) + len(word), kind))
    return found


_CAPITALISED_BEFORE = re.compile(r"(?<![\w\-])([A-Z][\w\-]*) $")
#: A language pair written with two-letter codes ("EN-DE", "zh-en").
_LANGUAGE_PAIR = re.compile(r"[A-Za-z]{2}-[A-Za-z]{2}")


_COLLECTION_WORD = re.compile(
    r"\b(benchmarks?|datasets?|data sets?|corpus|corpora)\b", re.IGNORECASE
)


def collection_type(sentence, start, end, default):
    """Dataset or Benchmark as the sentence calls the name at [start, end): the word right
    after it ("MNIST dataset"), else the nearest such word up to 80 characters before it
    ("benchmarks such as MNIST and CIFAR-10"); otherwise ``default``.

    >>> s = "We use vision benchmarks such as MNIST and CIFAR-10."
    >>> collection_type(s, s.index("MNIST"), s.index("MNIST") + 5, "Dataset")
    'Benchmark'
    >>> s = "On CIFAR-10 and the FooQA benchmark."
    >>> collection_type(s, 3, 11, "Dataset")
    'Dataset'
    """
    after = _COLLECTION_WORD.match(sentence, end + 1) if sentence[end : end + 1] == " " else None
    if after:
        return _collection_kind(after.group(1))
    window = sentence[max(0, start - 80) : start]
    found = [m for m in _COLLECTION_WORD.finditer(window) if ";" not in window[m.end() :]]
    return _collection_kind(found[-1].group(1)) if found else default


def _collection_kind(word):
    return "Benchmark" if word.lower().startswith("bench") else "Dataset"


def head_words(phrase):
    """The words of a named phrase up to its head: what comes before a lowercase "for",
    "via" or "using", or before "of"/"with" after a method head ("Network of Experts").
    "Mixture of Experts" and "One For All" are heads as a whole.

    >>> head_words("dynamic agent for multi-view clustering")
    ['dynamic', 'agent']
    >>> head_words("Mixture of Experts"), head_words("One For All")
    (['Mixture', 'of', 'Experts'], ['One', 'For', 'All'])
    """
    words = phrase.replace("–", "-").split()
    for k, word in enumerate(words[1:], 1):
        if (
            word in ("for", "via", "using")
            or word.lower() in ("of", "with")
            and words[k - 1].lower().rstrip("s") in METHOD_HEADS
        ):
            return words[:k]
    return words


def phrase_type(phrase):
    """Type of an unknown named phrase (an acronym's long form) from its head word.

    >>> phrase_type("Margin-aware Predictive Uncertainty"), phrase_type("off-policy evaluation")
    ('Method', 'Task')
    >>> phrase_type("The Inherent Disagreement - 8 dataset"), phrase_type("Attack Success Rate")
    ('Dataset', 'Metric')
    """
    words = head_words(phrase)
    head = words[-1].lower().strip(".,*_") if words else ""
    if head in CONCEPT_HEADS:
        return "Concept"
    if head in DATASET_HEADS or head in ("survey", "census"):
        return "Dataset"
    if head in BENCHMARK_HEADS:
        return "Benchmark"
    if head in METRIC_HEADS and head not in ("loss",):
        return "Metric"
    titled = sum(w[:1].isupper() for w in words) >= max(2, len(words) - 1)
    one = head[:-1] if head.endswith("s") and not head.endswith("ss") else head
    if head in LONG_FORM_TASK_HEADS and not titled:
        return "Task"
    if head in METHOD_HEADS or one in METHOD_HEADS or titled or head.endswith("training"):
        return "Method"
    if head in LONG_FORM_TASK_HEADS or one in LONG_FORM_TASK_HEADS:
        return "Task"
    return "Concept"


#: Words before "task(s)"/"problem(s)" that say what kind of tasks, not which one
#: ("natural language tasks", "downstream data tasks").
_NOT_TASK_NAMES = {
    "language",
    "languages",
    "data",
    "domain",
    "domains",
    "model",
    "models",
    "nlp",
    "ml",
    "ai",
    "cv",
    "rl",
    "llm",
    "vision",
    "benchmark",
    "benchmarks",
    "evaluation",
    "world",
}
_LOWER_WORD = re.compile(r"[a-z][a-z\-]*")
_TASK_NOUNS = {"task", "tasks", "problem", "problems"}


def _modifies_next(sentence, end):
    """Whether the word after ``end`` is a noun the phrase modifies ("clustering methods")."""
    m = _LOWER_WORD.match(sentence.lower(), end + 1) if sentence[end : end + 1] == " " else None
    return bool(m) and m.group(0) in _HEAD_OF_COMPOUND


def _words_before(sentence, end, limit=4):
    """(word, start, end) of up to ``limit`` words that end at or before ``end`` (read from
    90 characters before it). A 50-character window is tried first: past its first word,
    which may be cut short, its words are those of the longer window."""
    for width in (50, 90):
        window = max(0, end - width)
        words = [(m[0], m.start(), m.end()) for m in _WORD_TOKEN.finditer(sentence, window, end)]
        if len(words) > limit or window == 0:
            break
    return words[-limit:]


#: Task verbs whose gerund names a task by its object ("detecting gender bias" is gender
#: bias detection), with the noun the task takes its name from.
GERUND_TASK_NOUNS = {
    "detecting": "detection",
    "estimating": "estimation",
    "classifying": "classification",
    "predicting": "prediction",
    "generating": "generation",
    "recognizing": "recognition",
    "recognising": "recognition",
    "segmenting": "segmentation",
    "filtering": "filtering",
    "retrieving": "retrieval",
    "translating": "translation",
    "summarizing": "summarization",
    "summarising": "summarization",
    "localizing": "localization",
    "forecasting": "forecasting",
    "identifying": "identification",
    "quantifying": "quantification",
    "evaluating": "evaluation",
    "verifying": "verification",
    "reconstructing": "reconstruction",
    "tracking": "tracking",
    "completing": "completion",
    "compressing": "compression",
    "denoising": "denoising",
    "attributing": "attribution",
    "explaining": "explanation",
    "editing": "editing",
    "inferring": "inference",
    "optimizing": "optimization",
    "optimising": "optimization",
}
#: A word ending in "ing", found by its ending (a literal the regex engine finds quickly).
_ING_WORD = re.compile(r"ing\b")
#: The object after a task verb: one to three words, then a clause boundary.
_GERUND_OBJECT = re.compile(
    r"((?: [A-Za-z][\w\-]*){1,3}?)"
    r"(?= (?:is|are|has|have|remains|from|with|in|for|by|via|using|under|and|or|that|which|"
    r"as|to|at|on|of|without|across)\b|[,.;:)]|$)"
)
#: What comes right before a task verb that names a task: a preposition or a sentence end.
_GERUND_LEFT = re.compile(r"(?:\b(?:for|of|in|on|at|to)|[.!?]) $")


def gerund_task_spans(text):
    """Tasks named by a task verb and its object, at a sentence start or after a
    preposition, as (start, end, task name): "Detecting AI-generated images" is
    AI-generated image detection.

    >>> s = "We focus on estimating treatment effects, not on estimating the sparse or on "
    >>> s += "detecting instances of bias. Predicting sepsis is hard."
    >>> [(s[a:b], name) for a, b, name in gerund_task_spans(s)]
    [('estimating treatment effects', 'treatment effect estimation'), ('Predicting sepsis', 'sepsis prediction')]
    """
    found = []
    for m in _ING_WORD.finditer(text):
        start = m.start()
        while start and text[start - 1].isalpha():
            start -= 1
        verb = text[start : m.end()].lower()
        if (
            verb not in GERUND_TASK_NOUNS
            or start
            and (text[start - 1] == "-" or not _GERUND_LEFT.search(text, max(0, start - 5), start))
        ):
            continue
        obj = _GERUND_OBJECT.match(text, m.end())
        if obj is None:
            continue
        low = obj.group(1).lower().split()
        if (
            any(w in _TASK_MODIFIER_STOP or w in _ADJECTIVES for w in low)
            or low[-1].endswith(("al", "ive", "ic", "ous", "ble", "ing", "ly", "ed"))
            or text.startswith(" of ", obj.end())
        ):
            continue
        noun = GERUND_TASK_NOUNS[verb]
        found.append((start, obj.end(), " ".join(low[:-1] + [singular(low[-1]), noun])))
    return found


#: The word before " and "/" or ": a modifier that may share the head after the joiner.
_MODIFIER_BEFORE = re.compile(r"(?<![\w\-/.])([A-Za-z][\w\-]*)$")
#: A joiner, then the second modifier and one or two words of the shared head.
_JOINED_MODIFIER = re.compile(r" (?:and|or) ([A-Za-z][\w\-]*) ([a-z][\w\-]*)(?: ([a-z][\w\-]*))?")


def shared_head_phrases(text):
    """The first of two modifiers that share a head, as (start, end, phrases): "math and
    scientific reasoning" names math reasoning at "math". ``phrases`` are the modifier
    with the first two words after the second modifier, then with the first one, for the
    caller to look up (the words after the head may start another phrase).

    >>> s = "on math and scientific reasoning tasks"
    >>> [(s[a:b], phrases) for a, b, phrases in shared_head_phrases(s)]
    [('math', ('math reasoning tasks', 'math reasoning'))]
    """
    found = []
    for joiner in (" and ", " or "):  # found by str.find: faster than any regex scan
        at = text.find(joiner)
        while at >= 0:
            m = _JOINED_MODIFIER.match(text, at)
            if m and _is_modifier(m.group(1)):
                before = _MODIFIER_BEFORE.search(text, _word_window(text, at + 1, 41), at)
                if before and _modifier_pair(text, before.group(1), before.start(), m.group(1)):
                    head = [w for w in m.groups()[1:] if w]
                    found.append(
                        (
                            before.start(1),
                            at,
                            tuple(
                                " ".join([before.group(1)] + head[:n])
                                for n in range(len(head), 0, -1)
                            ),
                        )
                    )
            at = text.find(joiner, at + 1)
    return sorted(found)


_ADJECTIVAL_ENDINGS = ("al", "ive", "ic", "ar", "ary", "ous", "ed", "-shot", "-line", "-level")


def _modifier_pair(text, first, start, second):
    """Whether ``first`` (at ``start``) and ``second``, a modifier, around a joiner are two
    modifiers of one head: the first a modifier too, not the second again, and opening its
    phrase (after a function word or none, or itself or the word before it an adjective),
    not ending one before ("lexicon feature and multi-task learning" does not name feature
    learning)."""
    if not _is_modifier(first) or first.lower() == second.lower():
        return False
    previous = _WORD_BEFORE.search(text, _word_window(text, start, 40), start)
    return (
        previous is None
        or previous.group(1).lower() in _TASK_MODIFIER_STOP
        or first.lower().endswith(_ADJECTIVAL_ENDINGS)
        or previous.group(1).lower().endswith(_ADJECTIVAL_ENDINGS)
    )


def singular(word):
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


def task_spans(sentence):
    """Task phrases: up to three modifiers before a task head ("multi-view clustering"),
    and "the X task/problem" (third item True for these).

    >>> s = "We study out-of-distribution detection and the delayed serial recall task."
    >>> [(s[a:b], named) for a, b, named in task_spans(s)]
    [('out-of-distribution detection', False), ('delayed serial recall', True)]
    """
    found = []
    lowered = sentence.lower()
    for start, end, word in _task_words(lowered):
        if lowered[start - 1 : start] == "-" and _in_hyphenated_word(lowered, start):
            continue
        named = word in _TASK_NOUNS
        words = _words_before(sentence, start if named else end, 5)
        if not words or (named and sentence[words[-1][2] : start] != " "):
            continue
        head = len(words) - 1
        first = _modifiers_start(sentence, words, head, lead=named)
        if named and first < head and words[first][0].lower().endswith("ing"):
            first += 1  # "modeling math problems": a verb and its object, not a task name
        if named:
            if (
                words[head][0].lower().endswith(("ive", "al", "ic", "ed"))
                and words[head][0].lower() not in TASK_HEADS
                or words[head][0].lower() in _NOT_TASK_NAMES
            ):
                continue
            if first < head or (
                first == head
                and words[head][0].lower() in TASK_HEADS
                and words[head][0].lower() not in _BARE_GENERIC_HEADS
            ):
                found.append((words[first][1], words[head][2], True))
        elif first < head and not _modifies_next(sentence, end):
            found.append((words[first][1], end, False))
    return _outermost(found)


#: Task heads that alone, as in "generation tasks", name no task one could share with
#: another paper ("classification", "translation" and "reasoning tasks" still do).
_BARE_GENERIC_HEADS = {
    "prediction",
    "generation",
    "estimation",
    "detection",
    "recognition",
    "understanding",
    "matching",
    "labeling",
    "labelling",
    "control",
    "localization",
    "localisation",
    "extraction",
    "selection",
    "completion",
    "reconstruction",
    "synthesis",
    "identification",
    "verification",
    "editing",
    "adaptation",
    "mining",
    "discovery",
    "grounding",
    "linking",
    "correction",
    "recovery",
    "communication",
    "steering",
    "acceleration",
    "robustness",
    "mitigation",
    "defense",
    "defence",
}
#: The task heads and nouns as words of their own (a maximal run of letters and hyphens,
#: leading hyphens aside), as ``_LOWER_WORD`` finds them in lowercased text.
_TASK_WORD = word_start_regexes(trie_regex(TASK_HEADS | _TASK_NOUNS) + r"(?![a-z\-])", "a-z")


def _task_words(lowered):
    """(start, end, word) of each task head or noun standing as a word of its own.

    >>> list(_task_words("detection, redetection and multi-task"))
    [(0, 9, 'detection'), (33, 37, 'task')]
    """
    return [(m.start(1), m.end(1), m.group(1)) for m in word_start_matches(*_TASK_WORD, lowered)]


def _in_hyphenated_word(lowered, start):
    """Whether the hyphens before ``start`` join it to a preceding word ("x-detection"),
    rather than lead a word of their own ("3-detection")."""
    before = lowered[:start].rstrip("-")
    return bool(before) and "a" <= before[-1] <= "z"


_ING_NOUNS = {
    "learning",
    "training",
    "reasoning",
    "clustering",
    "modeling",
    "modelling",
    "computing",
    "processing",
    "understanding",
    "sampling",
    "planning",
    "ranking",
    "matching",
    "tracking",
    "mining",
    "programming",
    "pricing",
    "forecasting",
    "editing",
    "tuning",
    "answering",
    "coding",
    "engineering",
    "decision-making",
    "fine-tuning",
    "finetuning",
    "pretraining",
    "pre-training",
    "recommending",
    "rendering",
    "imaging",
    "parsing",
    "captioning",
    "streaming",
    "scheduling",
}
_ED_ADJECTIVES = {
    "supervised",
    "unsupervised",
    "semi-supervised",
    "self-supervised",
    "weakly-supervised",
    "federated",
    "distributed",
    "constrained",
    "retrieval-augmented",
    "grounded",
    "conditioned",
    "structured",
    "labeled",
    "unlabeled",
    "annotated",
    "biased",
    "de-biased",
    "debiased",
    "embodied",
    "goal-conditioned",
    "text-based",
    "model-based",
    "knowledge-based",
}
_ADJECTIVES = {
    "original",
    "correct",
    "well-known",
    "difficult",
    "almost",
    "next",
    "few",
    "insufficient",
    "either",
    "similar",
    "proper",
    "representative",
    "resultant",
    "wrong",
    "rich",
    "initial",
    "vanilla",
    "complementary",
    "nuanced",
    "great",
    "greater",
    "diverse",
    "explicit",
    "implicit",
    "meaningful",
    "deeper",
    "rapid",
    "inherent",
    "innate",
    "universal",
    "narrow",
    "optimal",
    "comparable",
    "arbitrary",
    "isolated",
    "holistic",
    "higher",
    "lower",
    "generic",
    "basic",
    "complex",
    "sufficient",
    "consistent",
    "useful",
    "interpretable",
    "flexible",
    "strict",
    "applied",
    "beyond",
    "through",
    "thus",
    "thereby",
    "but",
    "s",
    "t",
    "near-lossless",
    "well-defined",
    "well-controlled",
    "extraordinary",
    "prominent",
    "realistic",
    "specialized",
    "inconsistent",
    "desirable",
    "naive",
    "classical",
    "traditional",
    "conventional",
    "modern",
    "advanced",
    "fast",
    "slow",
    "reliable",
    "trustworthy",
    "safe",
    "accurate",
    "stable",
    "precise",
    "fair",
    "harmful",
    "possible",
    "potential",
    "actual",
    "true",
    "false",
    "direct",
    "indirect",
    "global",
    "local",
    "multi-step",
    "subsequent",
    "remarkable",
    "superior",
    "limited",
    "broad",
    "wide",
    "strong",
    "weak",
    "poor",
    "excellent",
    "notable",
    "substantial",
    "considerable",
    "significant",
    "sound",
}


@lru_cache(maxsize=1 << 16)
def _is_modifier(word, previous=""):
    """Whether a word can modify a task head (not a verb, adverb or evaluative adjective);
    a participle ("delayed") only right after an article."""
    low = word.lower()
    if len(low) < 2 or low in _TASK_MODIFIER_STOP or low in _ADJECTIVES:
        return False
    if (
        low.endswith("ly")
        or low.endswith(("ful", "ous"))
        and low not in ("continuous", "heterogeneous", "autonomous", "simultaneous", "homogeneous")
    ):
        return False
    if low.endswith("ing") and low not in _ING_NOUNS:
        return False
    if low.endswith("ed") and low not in _ED_ADJECTIVES and not low.endswith("-based"):
        return previous.lower() in ("the", "a", "an")
    last = low.rsplit("-", 1)[-1]
    if (
        last.endswith("s")
        and not last.endswith(("ss", "us", "is", "as", "ics", "ys"))
        and len(last) > 3
    ):
        return False
    if low.endswith(("ize", "izes")) and len(low) > 5:
        return False
    if (
        low.endswith("est")
        and len(low) > 5
        and low not in ("interest", "forest", "request", "nearest", "shortest")
    ):
        return False
    return True


#: Words after which the next word is a verb ("we factorize ...", "to assess ...").
_VERB_SIGNALS = {
    "we",
    "they",
    "to",
    "can",
    "will",
    "may",
    "must",
    "should",
    "also",
    "it",
    "cannot",
    "could",
    "would",
    "might",
    "not",
    "often",
    "then",
    "typically",
    "usually",
    "generally",
    "first",
    "further",
    "thereby",
    "thus",
}
#: Nouns that, right after a task phrase, show it modifies them ("clustering methods").
_HEAD_OF_COMPOUND = {
    "error",
    "errors",
    "process",
    "processes",
    "method",
    "methods",
    "model",
    "models",
    "module",
    "modules",
    "loss",
    "losses",
    "step",
    "steps",
    "pipeline",
    "pipelines",
    "framework",
    "frameworks",
    "performance",
    "accuracy",
    "capability",
    "capabilities",
    "ability",
    "abilities",
    "quality",
    "system",
    "systems",
    "approach",
    "approaches",
    "network",
    "networks",
    "head",
    "heads",
    "results",
    "techniques",
    "technique",
    "algorithm",
    "algorithms",
    "objective",
    "objectives",
    "paradigm",
    "paradigms",
    "benchmark",
    "benchmarks",
    "dataset",
    "datasets",
    "data",
    "score",
    "scores",
    "rate",
    "rates",
    "strategy",
    "strategies",
    "component",
    "components",
    "mechanism",
    "traces",
    "trace",
    "chains",
    "chain",
    "skills",
    "skill",
    "behavior",
    "behaviour",
}


def _modifiers_start(sentence, words, head, *, lead=False):
    """Index of the first word of the phrase ending at ``head`` (at most 3 modifiers, all
    joined by single spaces, none a stop word, verb or evaluative adjective)."""
    first = head
    if lead and not _is_modifier(words[head][0]) and words[head][0].lower() not in TASK_HEADS:
        return head + 1
    j = head - 1
    lowest = 1 if len(words) > 4 else 0
    while j >= lowest and head - j <= 3:
        word = words[j][0]
        gap = sentence[words[j][2] : words[j + 1][1]]
        previous = words[j - 1][0] if j else ""
        if gap != " " or not _is_modifier(word, previous) or previous.lower() in _VERB_SIGNALS:
            break
        if word[0].isupper() and not _sentence_start(sentence, words[j][1]):
            break
        first = j
        j -= 1
    return first


_NOT_METRIC_MODIFIERS = {
    "learning",
    "sampling",
    "frame",
    "bit",
    "data",
    "high",
    "low",
    "convergence",
    "growth",
    "compression",
    "decay",
    "dropout",
    "optimal",
    "near-optimal",
    "statistical",
    "minimax",
    "smooth",
    "research",
    "polynomial",
    "exponential",
    "linear",
    "sublinear",
    "huge",
    "single",
    "usual",
    "ultimate",
    "maximum",
    "minimum",
    "inferior",
    "thorough",
    "constant",
    "average",
    "tight",
    "tighter",
    "prove",
    "establish",
    "propose",
    "interest",
    "musical",
    "performance",
    "knowledge",
    "information",
    "attention",
}
#: Endings of adjectives, which right before the head describe a rate or gap rather than
#: name a measure ("geometric rate", "reasonable rate"; not "agentic misalignment rate").
_ADJECTIVE_ENDINGS = ("ic", "ical", "able", "ible", "ive", "ary", "ate")


_METRIC_HEAD = word_start_regexes(r"(?i:rate|ratio|score|accuracy|gap)\b")


def metric_spans(sentence):
    """Measure phrases: one or two modifiers before rate/ratio/score/accuracy/gap
    ("refusal rate", "review ratio", "fairness gap"), not "learning rate".

    >>> s = "It lowers the refusal rate and the learning rate at a geometric rate."
    >>> [s[a:b] for a, b in metric_spans(s)]
    ['refusal rate']
    """
    found = []
    for m in word_start_matches(*_METRIC_HEAD, sentence):
        words = _words_before(sentence, m.start(1), 2)
        of = _OF_PHRASE.match(sentence, m.end(1))
        first = (
            m.start(1)
            if of and _is_modifier(of.group(1)) and m.group(1).lower() in ("rate", "ratio")
            else None
        )
        for j in range(len(words) - 1, -1, -1):
            nxt = words[j + 1][1] if j + 1 < len(words) else m.start(1)
            w, low = words[j][0], words[j][0].lower()
            if (
                sentence[words[j][2] : nxt] != " "
                or not _is_modifier(w)
                or low in _NOT_METRIC_MODIFIERS
                or low in TASK_HEADS
                or w[0].isupper()
                or nxt == m.start(1)
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
    if head.group(1).lower() not in ("rate", "ratio"):
        return head.end(1)
    m = _OF_PHRASE.match(sentence, head.end(1))
    if not m or not _is_modifier(m.group(1)):
        return head.end(1)
    return m.end() if m.group(2) and _is_modifier(m.group(2)) else m.end(1)


_VALUE_AFTER = re.compile(
    r" (?:\(\s*[+\-]?\d[\d.,]*%?\s*(?:to|→|->|vs\.?)\s*[+\-]?\d|"
    r"from [+\-]?\d[\d.,]*%? to [+\-]?\d)"
)


def measured_value_spans(sentence):
    """Quantities reported with values: "raised total utility (3.20 to 3.90)", "semantic
    similarity from 0.788 to 0.862" (one to three words before the values).

    >>> s = "It raised the worst-group utility (3.20 to 3.90) and speed."
    >>> [s[a:b] for a, b in measured_value_spans(s)]
    ['worst-group utility']
    """
    found = []
    for m in _VALUE_AFTER.finditer(sentence):
        words = _words_before(sentence, m.start(), 3)
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
                or not _is_modifier(w)
                or w[0].isupper()
                or (j == len(words) - 1 and w.lower().endswith("ed"))
            ):
                break
            first = words[j][1]
        if first is not None:
            found.append((first, m.start()))
    return found


#: Things reported with values that are not measures of them.
_NOT_MEASURES = {"checkpoint", "checkpoints", "baseline", "baselines", "it", "them"}


_DEFINITION = re.compile(
    r"[wW](?<!\w.)e (?:formalize|formalise|define|introduce|propose|term|call|coin)\s+"
    r"(?:the\s+)?([a-z][\w\-]*(?: [a-z][\w\-]*){0,3}),\s+(?:the|a|an|which|i\.e\.)\s"
)
_MEASURE_CUES = re.compile(
    r"\b(cost|ratio|measure|metric|rate|score|probability|fraction|"
    r"expected|degree|amount|number|percentage|distance)\b"
)


def definition_spans(sentence):
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
        kind = "Metric" if _MEASURE_CUES.search(sentence, m.end(), m.end() + 60) else "Method"
        found.append((m.start(1), m.end(1), kind))
    return found


_CONNECTORS = {"of", "for", "to", "with", "in", "on", "via", "from"}
_MATH = re.compile(r"\$[^$]*\$")


def mask_math(sentence):
    """The sentence with LaTeX math ($...$) blanked out, offsets unchanged.

    >>> mask_math("a $x_T$ b")
    'a       b'
    """
    if "$" not in sentence:
        return sentence
    return _MATH.sub(lambda m: " " * len(m.group(0)), sentence)


def _sentence_start(text, start):
    """Whether ``start`` begins a sentence (or a clause after a colon)."""
    before = text[max(0, start - 4) : start].rstrip(" *_")
    return not before or before[-1] in ".:!?"


def _inside_brackets_or_quotes(sentence, start):
    """Whether ``start`` is inside brackets or quotes opened earlier in its sentence."""
    before = sentence[max(0, start - 300) : start]
    cut = max(before.rfind(". "), before.rfind("? "), before.rfind("! "))
    before = before[cut + 1 :]
    return (
        before.count("(") > before.count(")")
        or before.count('"') % 2 == 1
        or before.count("“") > before.count("”")
    )


_TITLE_RUN = re.compile(
    r"[A-Z](?<![\w\-(\"“].)[\w'’]*(?:-\w+)*"
    r"(?:(?: (?:of|for|to|with|in|on|via|from))? [A-Z][\w'’]*(?:-\w+)*)+"
)


_NON_SPACE = re.compile(r"\S+")


#: Words that may open a capitalised run without being part of the name in it.
_LEADING_FUNCTION_WORDS = {
    "the",
    "a",
    "an",
    "this",
    "these",
    "those",
    "our",
    "their",
    "its",
    "while",
    "although",
    "though",
    "whereas",
    "when",
    "if",
    "since",
    "because",
    "unlike",
    "once",
    "unless",
    "both",
    "each",
    "all",
    "any",
    "some",
    "such",
}


def title_case_spans(sentence):
    """Runs of two or more capitalised words, with small connecting words inside
    ("Gradient Agreement Solver", "Divide-and-Conquer Sampling"); not at the very start
    of a sentence unless the run is three words or longer, nor inside brackets or quotes.

    >>> s = "We design the Soft Gradient Surgery and use Adam."
    >>> [s[a:b] for a, b in title_case_spans(s)]
    ['Soft Gradient Surgery']
    >>> s = "While Double Deep Experience Replay helps, The New Lasso Solvers fail."
    >>> [s[a:b] for a, b in title_case_spans(s)]
    ['Double Deep Experience Replay', 'New Lasso Solvers']
    """
    found = []
    for m in _TITLE_RUN.finditer(sentence):
        words = [
            (w.group(0), m.start() + w.start(), m.start() + w.end())
            for w in _NON_SPACE.finditer(m.group(0))
        ]
        while words and (words[-1][0].isupper() or words[-1][0] in _CONNECTORS):
            words.pop()
        while words and words[0][0].lower() in _LEADING_FUNCTION_WORDS:
            words.pop(0)
        if not words or any(w in _NON_NAMES for w, _, _ in words):
            continue
        capitals = sum(1 for w, _, _ in words if w[:1].isupper() and not w.isupper())
        before = sentence[max(0, words[0][1] - 4) : words[0][1]].rstrip(" *_")
        at_start = not before or before[-1] in ':"“).!?'
        if sentence[words[-1][2] : words[-1][2] + 2] == "**":
            continue
        if (
            capitals >= 2
            and (not at_start or capitals >= 3)
            and not _inside_brackets_or_quotes(sentence, words[0][1])
        ):
            found.append((words[0][1], words[-1][2]))
    return found


def coined_name_spans(sentence):
    """Single coined names anywhere in a sentence (SelecMix, TALE-EP, CG2A).

    A name right after "[" is a citation key ([ZRKB21]), not a coined name.

    >>> s = "Unlike SelecMix [ABC21] and the Transformer, it is fast."
    >>> [s[a:b] for a, b in coined_name_spans(s)]
    ['SelecMix']
    """
    found = []
    for start, end in name_candidates(sentence):
        word = sentence[start:end].rstrip(".")
        if sentence[start - 1 : start] == "[" or _WEB_ADDRESS.search(word):
            continue
        if is_name_shaped(word):
            found.append((start, start + len(word)))
    return found


def name_candidates(text):
    """(start, end) of the words that may be coined names: starting with a letter and
    holding a capital or digit after it.

    >>> s = "a GRPO-v2 and gFVD, not Adam, 3DGS or x+Y1."
    >>> [s[a:b] for a, b in name_candidates(s)]
    ['GRPO-v2', 'gFVD', 'x+Y1.']
    """
    found, done, size, reverse = [], 0, len(text), None
    for hit in _INNER_CAPITAL_OR_DIGIT.finditer(text):
        at = hit.start()
        if at < done:
            continue
        if reverse is None:
            reverse = text[::-1]
        start = size - _NAME_CHARACTERS.match(reverse, size - at).end()
        done = _NAME_CHARACTERS.match(text, at).end()
        for begin in _word_starts(text, start, done):
            if (
                begin < done
                and text[begin] in _ASCII_LETTERS
                and _CAPITAL_OR_DIGIT.search(text, begin + 1, done)
            ):
                found.append((begin, done))
                break
    return found


def _word_starts(text, start, end):
    """Where a word may start in the run of word characters ``text[start:end]``: at its
    start and after each "+" in it."""
    yield start
    at = text.find("+", start, end)
    while at >= 0:
        yield at + 1
        at = text.find("+", at + 1, end)


_WEB_ADDRESS = re.compile(r"\.(?:com|org|net|io|ai|edu)\b|^(?:https?|www)\b|^r/")
_NUMBERED_NAME = re.compile(r"(.*?)(\d+[A-Za-z]?)$")


def slash_parts(word):
    """The names a slash joins, as (start, end, name) within ``word``; a bare number
    after the slash takes the first name's stem ("CIFAR-10/100" names CIFAR-100).

    >>> slash_parts("CIFAR-10/100")
    [(0, 8, 'CIFAR-10'), (9, 12, 'CIFAR-100')]
    >>> slash_parts("SAG/SAGA")
    [(0, 3, 'SAG'), (4, 8, 'SAGA')]
    """
    parts, at = [], 0
    for piece in word.split("/"):
        if piece:
            name = piece
            stem = _NUMBERED_NAME.match(parts[0][2]) if parts else None
            if stem and stem.group(1) and piece[:1].isdigit():
                name = stem.group(1) + piece
            parts.append((at, at + len(piece), name))
        at += len(piece) + 1
    return parts


_SUBJECT_VERBS = {
    "is",
    "are",
    "has",
    "have",
    "remains",
    "remain",
    "plays",
    "play",
    "poses",
    "pose",
    "aims",
    "aim",
    "refers",
    "involves",
    "seeks",
    "enables",
    "allows",
    "can",
    "typically",
    "often",
    "requires",
    "require",
    "relies",
    "rely",
    "suffers",
    "suffer",
    "faces",
    "face",
    "presents",
    "present",
    "holds",
    "hold",
    "becomes",
    "become",
    "serves",
    "serve",
    "offers",
    "offer",
}
_GENERIC_SUBJECT_HEADS = {
    "advances",
    "advance",
    "methods",
    "method",
    "models",
    "model",
    "approaches",
    "approach",
    "works",
    "work",
    "studies",
    "study",
    "techniques",
    "technique",
    "progress",
    "research",
    "efforts",
    "results",
    "people",
    "humans",
    "researchers",
    "practitioners",
    "benchmarks",
    "datasets",
    "algorithms",
    "networks",
    "agents",
    "tasks",
    "task",
    "problems",
    "problem",
    "applications",
    "systems",
    "system",
    "frameworks",
    "framework",
    "paper",
    "it",
    "they",
    "this",
    "these",
    "there",
    "success",
    "performance",
    "development",
    "use",
    "training",
    "data",
    "literature",
    "theory",
    "analysis",
    "understanding",
    "ability",
    "abilities",
    "function",
    "functions",
    "unit",
    "units",
    "parameter",
    "parameters",
    "space",
    "spaces",
    "map",
    "maps",
    "overhead",
    "language",
    "languages",
    "example",
    "examples",
    "explanation",
    "explanations",
    "narrative",
    "claim",
    "claims",
    "wisdom",
    "view",
    "views",
    "belief",
    "beliefs",
}


_PLAIN_PHRASE = re.compile(r"[\w\-]+(?: [\w\-]+)*")
_PLAIN_WORD = re.compile(r"[\w\-]+")


def opening_subject_span(sentence):
    """The short noun phrase an opening sentence is about ("Annotator disagreement is ...",
    "Detecting AI-generated images remains ..."): at most five words before the verb.

    >>> s = "Multi-view clustering is a key problem."
    >>> opening_subject_span(s)
    (0, 21)
    >>> opening_subject_span("Recent advances have been made.") is None
    True
    """
    words = [
        (m.group(0), m.start(), m.end()) for m in islice(_PLAIN_WORD.finditer(sentence, 0, 120), 7)
    ]
    for i, (word, _, _) in enumerate(words):
        if word.lower() in _SUBJECT_VERBS:
            break
    else:
        return None
    if not 2 <= i <= 5 or not _PLAIN_PHRASE.fullmatch(sentence[words[0][1] : words[i - 1][2]]):
        return None
    phrase = words[:i]
    if not phrase[0][0][:1].isupper() or phrase[-1][0].lower() in _GENERIC_SUBJECT_HEADS:
        return None
    for k, (word, _, _) in enumerate(phrase):
        low = word.lower()
        if low in _TASK_MODIFIER_STOP or low in _ADJECTIVES or low.endswith("ly"):
            return None
        if (
            k
            and word[0].isupper()
            and not word.isupper()
            and not any(c.isupper() for c in word[1:])
        ):
            return None
    return phrase[0][1], phrase[-1][2]


def _outermost(spans):
    """The spans not inside another (by their first two fields, start and end)."""
    spans = sorted(set(spans), key=lambda s: (s[0], -s[1], s[2:]))
    kept = []
    for s in spans:
        if kept and s[0] < kept[-1][1]:
            continue
        kept.append(s)
    return kept
