"""The spaCy pipeline: blank English, our tokenizer, two gazetteers and the mention finder.

``build_nlp()`` makes it: spaCy's tokenizer cached per chunk (:mod:`kg.extractors.tokenizer`),
two gazetteers over the lexicon (spaCy's ``span_ruler``, case-sensitive for all-capital
names, lowercase for the rest) and the ``paper_mentions`` component, which puts the
abstract's Mentions (:func:`kg.extractors.find.find_mentions`) on ``doc._.mentions``.
The custom components are registered here, and this is the only module that reaches into
spaCy's internals (the span ruler's ``_match_label_id_map``).
"""

from functools import cached_property, lru_cache
from typing import cast

import spacy
from spacy.attrs import IDX, IS_SPACE, LENGTH, LOWER, NORM
from spacy.language import Language
from spacy.pipeline import SpanRuler
from spacy.tokens import Doc, Span

from kg.extractors import find
from kg.extractors.candidates import model_version_pattern
from kg.extractors.find import HITS_KEY, SPANS_KEY
from kg.extractors.lexicon import Lexicon, load_lexicon, phrase_patterns
from kg.extractors.tokenizer import ChunkCachingTokenizer

#: The lexical attributes a word of the vocabulary gets when first seen: the ones the
#: gazetteers match on. The other twenty (shape, stop word, like_num, ...) are never read,
#: and computing them for each new word cost a third of tokenising a new abstract.
LEXICAL_ATTRIBUTES_READ = (LOWER, NORM, IS_SPACE)

if not Doc.has_extension("mentions"):
    Doc.set_extension("mentions", default=None)
if not Doc.has_extension("extraction_error"):
    Doc.set_extension("extraction_error", default=None)


@lru_cache(maxsize=1)
def load_lexicon_cached() -> Lexicon:
    """The lexicon, read once per process."""
    return load_lexicon()


def build_nlp() -> Language:
    """The spaCy pipeline: blank English, gazetteers, mention finder."""
    lexicon = load_lexicon_cached()
    nlp = spacy.blank("en")
    getters = nlp.vocab.lex_attr_getters  # type: ignore[attr-defined]
    nlp.vocab.lex_attr_getters = {  # type: ignore[attr-defined]
        attr: getters[attr] for attr in LEXICAL_ATTRIBUTES_READ
    }
    cased, lower = phrase_patterns(lexicon)
    ruler = cast(
        "Gazetteer",
        nlp.add_pipe(
            "gazetteer",
            name="gazetteer_cased",
            config={"spans_key": SPANS_KEY, "phrase_matcher_attr": "ORTH", "spans": False},
        ),
    )
    ruler.add_patterns(cased)
    ruler = cast(
        "Gazetteer",
        nlp.add_pipe(
            "gazetteer",
            name="gazetteer_lower",
            config={"spans_key": SPANS_KEY, "phrase_matcher_attr": "LOWER", "spans": False},
        ),
    )
    # A ruler tokenises its patterns through the pipes before it; keep the first out.
    with nlp.select_pipes(disable=["gazetteer_cased"]):
        ruler.add_patterns(lower)
    nlp.add_pipe("paper_mentions")
    nlp.tokenizer = ChunkCachingTokenizer(nlp.tokenizer)
    return nlp


# ---------------------------------------------------------------- components


@Language.factory(
    "gazetteer",
    assigns=["doc.spans"],
    default_config={"spans_key": SPANS_KEY, "phrase_matcher_attr": None, "spans": True},
)
def make_gazetteer(
    nlp: Language, name: str, spans_key: str, phrase_matcher_attr: str | None, spans: bool
) -> "Gazetteer":
    """The ``gazetteer`` factory: a :class:`Gazetteer`."""
    ruler = Gazetteer(nlp, name, spans_key=spans_key, phrase_matcher_attr=phrase_matcher_attr)
    ruler.spans = spans
    return ruler


@Language.factory("paper_mentions", default_config={})
def make_paper_mentions(nlp: Language, name: str) -> "PaperMentions":
    """The ``paper_mentions`` factory: a :class:`PaperMentions` over the lexicon."""
    return PaperMentions(load_lexicon_cached())


class Gazetteer(SpanRuler):
    """spaCy's ``span_ruler``, adding its matches to ``doc.spans`` as that does
    (``overwrite=False``), with a lean path for phrase patterns: the span ruler's
    warning filter and double matching cost five times the PhraseMatcher itself.

    With ``spans`` False (as :func:`build_nlp` makes it) a phrase-pattern gazetteer only
    appends its matches to ``doc.user_data[HITS_KEY]``, all the mention finder reads: no
    Span is made."""

    spans = True

    def __call__(self, doc: Doc) -> Doc:
        if self.spans or len(self.matcher):
            return super().__call__(doc)
        found = self._found(doc)
        if found:
            at = doc.to_array([IDX, LENGTH])
            strings = self.nlp.vocab.strings
            doc.user_data.setdefault(HITS_KEY, []).extend(
                (int(at[start, 0]), int(at[end - 1, 0] + at[end - 1, 1]), strings[id_])
                for start, end, _, id_ in found
            )
        else:
            doc.user_data.setdefault(HITS_KEY, [])
        return doc

    def _found(self, doc: Doc) -> list[tuple[int, int, int, int]]:
        """The phrase matches deduplicated and sorted as plain tuples, in the order of the
        Spans they become: (start, end, label, span id), as string ids."""
        keys = self._span_keys
        return sorted({(start, end) + keys[key] for key, start, end in self.phrase_matcher(doc)})

    def match(self, doc: Doc) -> list[Span]:
        if len(self.matcher):  # token patterns: the span ruler's own way
            return super().match(doc)
        return [
            Span(doc, start, end, label=label, span_id=id_)
            for start, end, label, id_ in self._found(doc)
        ]

    def set_annotations(self, doc: Doc, matches: list[Span]) -> None:
        """spaCy's, and the matches as (start, end, id) in characters appended to
        ``doc.user_data[HITS_KEY]``, for the mention finder: read back from ``doc.spans``,
        each would be made a Span anew."""
        super().set_annotations(doc, matches)
        hits = doc.user_data.setdefault(HITS_KEY, [])
        hits.extend((span.start_char, span.end_char, span.id_) for span in matches)

    @cached_property
    def _span_keys(self) -> "SpanKeys":
        return SpanKeys(self)


class SpanKeys(dict[int, tuple[int, int]]):
    """The string ids of a span ruler's match keys' (label, span id), found on first use
    (a match key is the string id of its label and span id, so it never changes)."""

    def __init__(self, ruler: SpanRuler) -> None:
        super().__init__()
        self.ruler = ruler

    def __missing__(self, key: int) -> tuple[int, int]:
        names = self.ruler._match_label_id_map[key]
        strings = self.ruler.nlp.vocab.strings
        self[key] = ids = (strings.add(names["label"]), strings.add(names["id"]))
        return ids


class PaperMentions:
    """spaCy component: finds the entity mentions of one abstract (``doc._.mentions``)."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.model_version = model_version_pattern(lexicon)

    def __call__(self, doc: Doc) -> Doc:
        try:
            doc._.mentions = find.find_mentions(doc, self.lexicon, self.model_version)
        except Exception as error:  # a bug on one abstract must not sink the whole build
            doc._.mentions = []
            doc._.extraction_error = f"{type(error).__name__}: {error}"
        return doc
