"""The chunk-caching tokenizer: the same tokens as spaCy's blank English tokenizer."""

import random
from itertools import product

import pytest
import spacy

from kg.extractors import tokenizer as tok_module
from kg.extractors.tokenizer import (
    TEXT_KEY,
    ChunkCachingTokenizer,
    SpaceFlags,
    bracketed_word_tokens,
    plain_word_tokens,
    single_spaced,
)

TEXTS = [
    "We fine-tune BERT-base (Devlin et al., 2019), e.g. on GLUE; it doesn't fail.",
    "Code: https://github.com/x/y-z. Results: 90.5% F1 vs. 3x faster ResNet-50 (10km).",
    "Llama-3-8B and ViT-B/16 beat GPT-4o's \\emph{score} [1]--[3] at 5GB.",
    "Two  spaces, a\nnewline and\ta tab.",
    " leading and trailing ",
    "x",
]


def tokens(doc):
    return [(t.text, t.whitespace_) for t in doc]


@pytest.fixture
def blank():
    return spacy.blank("en").tokenizer


@pytest.mark.parametrize(
    "text, expected",
    [
        ("We use BERT.", True),
        ("x", True),
        ("", False),
        ("two  spaces", False),
        ("a\nb", False),
        ("a\tb", False),
        ("non\u00a0breaking", False),
        (" lead", False),
        ("trail ", False),
    ],
)
def test_single_spaced(text, expected):
    assert single_spaced(text) is expected


def test_space_flags_mark_only_the_last_token():
    flags = SpaceFlags()
    assert list(map(bool, flags[1])) == [True]
    assert list(map(bool, flags[3])) == [False, False, True]


@pytest.mark.parametrize("text", TEXTS)
def test_tokenizer_matches_spacy_and_keeps_the_text(blank, text):
    tok = ChunkCachingTokenizer(blank)
    expected = tokens(spacy.blank("en").tokenizer(text))
    for _ in range(2):  # the second call reads the cache
        doc = tok(text)
        assert tokens(doc) == expected
        assert doc.text == text and doc.user_data[TEXT_KEY] == text


@pytest.mark.parametrize(
    "text",
    [
        "We cite ''a'' and ''specialist'' views.",  # "and" known: the rest is read together
        "it ' ''b c",  # spaCy reads "''b" after "'" otherwise than alone
        "the :)sentence and :(x",  # emoticons: special cases of marks
    ],
)
def test_tokenizer_follows_spacy_on_special_cases_of_marks(blank, text):
    tok = ChunkCachingTokenizer(blank)
    tok("and the")
    assert tokens(tok(text)) == tokens(spacy.blank("en").tokenizer(text))


def test_tokenizer_learns_repeated_new_chunks_once(blank):
    tok = ChunkCachingTokenizer(blank)
    doc = tok("GRPO (GRPO) beats GRPO GRPO.")
    assert [t.text for t in doc] == ["GRPO", "(", "GRPO", ")", "beats", "GRPO", "GRPO", "."]
    assert sorted(tok._orths) == ["(GRPO)", "GRPO", "GRPO.", "beats"]


def test_tokenizer_cache_starts_again_when_full(blank, monkeypatch):
    monkeypatch.setattr(tok_module, "MAX_CACHED_CHUNKS", 3)
    tok = ChunkCachingTokenizer(blank)
    tok("a b c d")
    doc = tok("e f")
    assert len(tok._orths) == 2 and [t.text for t in doc] == ["e", "f"]


def test_plain_word_tokens_are_spacys(blank):
    """Plain and hyphenated words skip spaCy's tokenizer: their tokens must be the ones it
    makes, for words of its special cases too ("Dr.", "cannot", "gonna", "m.")."""
    rng = random.Random(5)
    words = rng.sample(sorted(blank.rules), 300) + [
        "".join(rng.choice("abcxyzXYZ") for _ in range(rng.randint(1, 6))) for _ in range(300)
    ]
    plain = 0
    for word in words:
        for before in ("", "(", "[", '"', "'", "{"):
            for after in (
                "",
                ",",
                ".",
                ";",
                ":",
                ")",
                "!",
                "'s",
                "]",
                "-",
                "-x",
                "-Yz-w",
                "-m.",
                "-view,",
            ):
                chunk = before + word + after
                found = plain_word_tokens(chunk, blank.rules)
                if found is not None:
                    plain += 1
                    assert found == [t.text for t in blank(chunk)], chunk
    assert plain > 1000


def test_bracketed_word_tokens_are_spacys(blank):
    """Bracketed words and numbers skip spaCy's tokenizer too, the words of its special
    cases included ("(Dr).", "(no):" whose "):" is one, "8)"; "(RotatE." keeps its full stop)."""
    rng = random.Random(6)
    words = rng.sample(sorted(blank.rules), 300) + [
        "".join(rng.choice("abcxyzXYZ") for _ in range(rng.randint(1, 6))) for _ in range(300)
    ]
    bracketed = 0
    words += ["no", "eg", "Dr", "cannot", "SGD", "RotatE", "8", "2020", "0.5", "42,987", "3.14"]
    brackets = (("(", ")"), ("(", ""), ("", ")"), ("", ""))
    for word, (opening, closing) in product(words, brackets):
        for after in ("", ",", ".", ";", ":", "!", ")", "'s", "-x"):
            chunk = opening + word + closing + after
            found = bracketed_word_tokens(chunk, blank.rules)
            if found is not None:
                bracketed += 1
                assert found == [t.text for t in blank(chunk)], chunk
    assert bracketed > 3000
