"""Mine the shipped compounds (extractors/data/compounds.tsv) from a corpus of abstracts.

    .venv/bin/python scripts/mine_compounds.py [JSONL ...] [-o extractors/data/compounds.tsv]

Reads the ``text`` of each record (default: the paperlists corpus in ``../shared``), leaving
out the papers of the unseen gold set (bench/data/unseen-gold.jsonl, by id only) so that set
stays unseen; finds the lexicon's Method names with the pipeline's gazetteers, counts each
"modifier name" pair once per paper (kg.extractors.compounds; names inside a longer one
left out) and keeps those that MIN_PAPERS papers or more write, but for modifiers that as
many papers use as verbs and modifiers the lexicon knows as names, with a provenance line.
"""

import datetime
import json
import sys
from collections import Counter

from mine_terms import corpus_records  # scripts/, beside this one

from kg.extractors.compounds import COMPOUNDS_PATH, MIN_PAPERS, decide, format_compounds
from kg.extractors.compounds import paper_compounds as compounds_of
from kg.extractors.find import HITS_KEY
from kg.extractors.nlp import build_nlp, load_lexicon_cached
from kg.extractors.records import METHOD
from kg.extractors.rules.context import outermost


def main(argv: list[str] | None = None) -> int:
    inputs, output, records, left_out = corpus_records(__doc__.split("\n")[0], COMPOUNDS_PATH, argv)
    texts = [record["text"] for record in records]
    nlp, lexicon = build_nlp(), load_lexicon_cached()
    counts: Counter[str] = Counter()
    with nlp.select_pipes(disable=["paper_mentions"]):
        for doc in nlp.pipe(texts):
            hits = outermost(doc.user_data.get(HITS_KEY, []))
            names = [
                (start, lexicon.entries[key].canonical)
                for start, _, key in hits
                if lexicon.entries[key].type == METHOD
            ]
            counts.update(compounds_of(doc.text, names))
    # a modifier that is itself a method ("actor-critic deep RL") names two things
    compounds = [(c, n) for c, n in decide(counts) if lexicon.lookup(c.split(" ", 1)[0]) is None]
    provenance = {
        "source": [f"{p.parent.name}/{p.name}" for p in inputs],
        "script": "scripts/mine_compounds.py",
        "date": datetime.date.today().isoformat(),
        "papers": len(texts),
        "left_out": {"unseen-gold papers": left_out},
        "thresholds": {"min_papers": MIN_PAPERS},
        "candidates": len(counts),
        "compounds": len(compounds),
    }
    output.write_text(format_compounds(compounds, provenance), encoding="utf-8")
    print(json.dumps(provenance, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
