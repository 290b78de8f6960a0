"""The shipped term inventory (extractors/data/terms.tsv) against its provenance and the
corpus it was mined from (../shared)."""

import json
import random
from pathlib import Path

import pytest

from kg.extractors.lexicon import load_lexicon
from kg.extractors.names import plural
from kg.extractors.records import TYPE_NAMES
from kg.extractors.term_inventory import TERMS_PATH, parse_inventory
from kg.extractors.terms import MAX_WORDS, MIN_CVALUE, MIN_DF, term_key

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "eval" / "external"


@pytest.fixture(scope="module")
def inventory():
    return parse_inventory(TERMS_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def corpus(inventory):
    provenance, _ = inventory
    unseen = REPO / "bench" / "data" / "unseen-gold.jsonl"
    held_out = {json.loads(line)["id"] for line in unseen.read_text().splitlines() if line}
    texts = []
    for name in provenance["source"]:
        for line in (SHARED / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("text") and record["id"] not in held_out:
                texts.append(f"{record['text']} {record.get('title') or ''}".lower())
    return texts


def test_the_provenance_record_says_where_the_terms_come_from(inventory):
    provenance, terms = inventory
    assert provenance["script"] == "scripts/mine_terms.py"
    assert (REPO / provenance["script"]).exists()
    assert provenance["thresholds"]["min_df"] == MIN_DF == 3
    assert provenance["thresholds"]["min_cvalue"] == MIN_CVALUE
    assert provenance["terms"] == len(terms)
    assert provenance["by_type"] == {
        kind: sum(t.type == kind for t in terms.values())
        for kind in sorted({t.type for t in terms.values()})
    }
    assert all((SHARED / name).exists() for name in provenance["source"])
    assert provenance["date"][:4] >= "2026"


def test_every_term_has_df_3_its_c_value_a_type_and_a_normal_key(inventory):
    _, terms = inventory
    lexicon = load_lexicon()
    for key, term in terms.items():
        assert term.df >= MIN_DF and term.cvalue >= MIN_CVALUE, key
        assert term.type in TYPE_NAMES, key
        assert 2 <= len(key.split()) <= MAX_WORDS and term_key(key.split()) == key
        assert lexicon.lookup(term.form) is None, f"the lexicon holds {key!r}"


def test_the_papers_counted_are_the_corpus_less_the_unseen_set(inventory, corpus):
    provenance, _ = inventory
    assert provenance["papers"] == len(corpus) == 19406
    assert provenance["left_out"] == {"unseen-gold papers": 50}


def test_a_sample_of_terms_is_written_in_at_least_df_papers(inventory, corpus):
    _, terms = inventory
    sample = random.Random(16).sample(sorted(terms), 40)
    for key in sample:
        found = sum(1 for text in corpus if key in text or plural(key) in text)
        assert found >= terms[key].df >= MIN_DF, key
