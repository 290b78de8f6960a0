"""trie_regex against the plain longest-first alternation it replaces."""

import random
import re

import pytest

from kg.extractors.trie import (
    lowered_in_place,
    matches_led_by,
    trie_regex,
    word_start_ignorecase,
    word_start_matches,
    word_start_regexes,
)

WORDS = [
    "GPT",
    "GPT-4",
    "GPT-4o",
    "GPT-4o-mini",
    "BERT",
    "BART",
    "RoBERTa",
    "T5",
    "mT5",
    "DALL·E",
    "IWSLT'14",
    "Qwen2.5",
    "Qwen2.5-VL",
    "a+b",
    "x",
]
TEXT = (
    "We compare GPT-4o-mini, GPT-4, GPT-3 and xGPT with RoBERTa, mT5, T5-XL, DALL·E "
    "and Qwen2.5-VL-7B on IWSLT'14; a+b and x-y and -BART and BERT."
)


def plain(words):
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@pytest.mark.parametrize("not_after, before", [(None, ""), (r"[\w\-]", r"(?<![\w\-])")])
def test_trie_regex_matches_as_the_longest_first_alternation(not_after, before):
    trie = re.compile("(" + trie_regex(WORDS, not_after=not_after) + r")(?:-\w+)?(?!\w)")
    ref = re.compile(before + "(" + plain(WORDS) + r")(?:-\w+)?(?!\w)")
    found = [(m.span(), m.group(1)) for m in trie.finditer(TEXT)]
    assert found == [(m.span(), m.group(1)) for m in ref.finditer(TEXT)]
    at = TEXT.index("Qwen2.5-VL-7B")
    assert ((at, at + 13), "Qwen2.5-VL") in found
    inside_xgpt = ((TEXT.index("xGPT") + 1, TEXT.index("xGPT") + 4), "GPT")
    assert (inside_xgpt in found) is (not_after is None)
    assert len(found) == (14 if not_after is None else 12)


def test_trie_regex_guard_rejects_words_inside_longer_words():
    assert re.findall(trie_regex(["GPT"], not_after=r"\w"), "xGPT GPT") == ["GPT"]


def test_trie_regex_rejects_an_empty_word():
    with pytest.raises(ValueError, match="must not be empty"):
        trie_regex(["BERT", ""])


@pytest.mark.parametrize(
    "text",
    [
        "We propose; WE PROPOSE; a tower; Our score, SCORE, ſcore and xscore",
        "İt ıt it IT Kin kin KIN skin",
    ],
)
def test_word_start_ignorecase_matches_as_a_word_boundary_with_ignorecase(text):
    branches = {"w": "e propose", "o": "ur", "s": "core", "i": "t", "k": "in"}
    plain = re.compile(r"\b(?:we propose|our|score|it|kin)", re.IGNORECASE)
    fast = re.compile(word_start_ignorecase(branches))
    found = [m.span() for m in fast.finditer(text)]
    assert found == [m.span() for m in plain.finditer(text)]
    assert len(found) == (6 if text.startswith("We") else 7)


def random_texts(alphabet, count=3000, seed=7):
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(count)]


@pytest.mark.parametrize(
    "pattern, not_after",
    [(r"ab|c|abc", r"\w"), (r"(?i:we|our)\b", r"\w"), (r"task(?![a-z\-])", "a-z")],
)
def test_word_start_regexes_match_as_the_look_behind(pattern, not_after):
    behind = re.compile(f"(?<![{not_after}])({pattern})")
    pair = word_start_regexes(pattern, not_after)
    for text in random_texts("abcWeOurtsk -,") + ["task-task task", "We, our abc"]:
        for pos, endpos in ((0, len(text)), (2, len(text)), (1, max(1, len(text) - 2))):
            assert [m.span(1) for m in word_start_matches(*pair, text, pos, endpos)] == [
                m.span(1) for m in behind.finditer(text, pos, endpos)
            ], (text, pos, endpos)


@pytest.mark.parametrize(
    "pattern, literals",
    [
        (r"(?<!\w)(?i:rate|ratio|score|gap)\b", ("rate", "ratio", "score", "gap")),
        (r"(?i:is|kit)s?", ("is", "kit")),
    ],
)
def test_matches_led_by_finds_what_finditer_finds(pattern, literals):
    regex = re.compile(pattern)
    # "İ" and the Kelvin sign lower to "i" and "k"; "ı" and "ſ" match "i" and "s" only in re.
    alphabet = "rateioscgpkRATEISCGPK -,İıſ\u212a"
    for text in random_texts(alphabet, count=6000) + ["RATİO ſcore Kit ratıo", "gaps gap,GAP"]:
        found = [m.span() for m in matches_led_by(regex, text, literals)]
        assert found == [m.span() for m in regex.finditer(text)], text


def test_lowered_in_place_keeps_offsets():
    text = "İSTANBUL and \u212aelvin"
    assert lowered_in_place(text) == "istanbul and kelvin"
    assert len(lowered_in_place(text)) == len(text)
