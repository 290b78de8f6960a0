"""One abstract's mentions, the one way a paper's text goes: candidates from the lexicon
and the rules (:mod:`~kg.extractors.candidates`, typed by :mod:`~kg.extractors.kinds`),
the choice among them and their assembly into Mentions (:mod:`~kg.extractors.choose`)."""

import re

from spacy.tokens import Doc

from kg.extractors.candidates import find_candidates
from kg.extractors.choose import choose, mentions
from kg.extractors.lexicon import Lexicon
from kg.extractors.records import Mention
from kg.extractors.rules.sentences import sentence_bounds
from kg.extractors.tokenizer import TEXT_KEY

#: The ``doc.spans`` key of the gazetteers' matches.
SPANS_KEY = "gazetteer"
#: The ``doc.user_data`` key of the same matches as (start, end, id) in characters.
HITS_KEY = "gazetteer_hits"


def find_mentions(doc: Doc, lexicon: Lexicon, model_version: re.Pattern[str]) -> list[Mention]:
    """The deduplicated mentions of one abstract, in text order (one per type+canonical)."""
    text = doc.user_data.get(TEXT_KEY)
    if text is None:
        text = doc.text
    sents = sentence_bounds(text)
    sent_starts = [a for a, _ in sents]
    sent_ends = [b for _, b in sents]
    hits = doc.user_data.get(HITS_KEY, [])
    found = find_candidates(text, hits, lexicon, model_version, sent_starts, sent_ends)
    return mentions(text, choose(text, found), sent_starts, sent_ends)
