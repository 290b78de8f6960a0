"""Mine the shipped term inventory (extractors/data/terms.tsv) from a corpus of abstracts.

    .venv/bin/python scripts/mine_terms.py [JSONL ...] [-o extractors/data/terms.tsv]

Reads the ``text`` and ``title`` of each record (default: the paperlists corpus in
``../shared``), leaving out the papers of the unseen gold set (bench/data/unseen-gold.jsonl,
by id only) so that set stays unseen; finds candidate terms per paper, keeps those at least
MIN_DF papers use with a C-value of MIN_CVALUE or more, drops the names the lexicon holds,
types the rest (kg.extractors.terms) and writes them with a provenance line.
"""

import argparse
import datetime
import json
import sys
from collections import Counter
from pathlib import Path

from kg.extractors.lexicon import load_lexicon
from kg.extractors.term_inventory import TERMS_PATH, format_inventory
from kg.extractors.terms import MIN_CVALUE, MIN_DF, TermStats, decide, paper_terms, summarise

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "eval" / "external" / "paper-metadata-paperlists"
UNSEEN = REPO / "bench" / "data" / "unseen-gold.jsonl"


def corpus_records(description: str, default_output: Path, argv: list[str] | None):
    """The command line's inputs (the paperlists corpus by default) and output, and the
    records with a ``text`` that are not in the unseen gold set, with how many were."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("inputs", nargs="*", type=Path)
    parser.add_argument("-o", "--output", type=Path, default=default_output)
    args = parser.parse_args(argv)
    inputs = args.inputs or sorted(CORPUS.glob("*.jsonl"))
    held_out = {json.loads(line)["id"] for line in UNSEEN.read_text().splitlines() if line}
    records, left_out = [], 0
    for path in inputs:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("id") in held_out:
                left_out += 1
            elif record.get("text"):
                records.append(record)
    return inputs, args.output, records, left_out


def main(argv: list[str] | None = None) -> int:
    inputs, output, records, left_out = corpus_records(__doc__.split("\n")[0], TERMS_PATH, argv)
    stats, papers = TermStats(), len(records)
    for record in records:
        stats.merge(summarise(paper_terms(record["text"], record.get("title"))))
    lexicon = load_lexicon()
    decided = decide(stats)
    terms = [t for t in decided.values() if lexicon.lookup(t.form) is None]
    provenance = {
        "source": [f"{p.parent.name}/{p.name}" for p in inputs],
        "script": "scripts/mine_terms.py",
        "date": datetime.date.today().isoformat(),
        "papers": papers,
        "left_out": {"unseen-gold papers": left_out},
        "thresholds": {"min_df": MIN_DF, "min_cvalue": MIN_CVALUE},
        "candidates": len(stats.df),
        "decided": len(decided),
        "held_by_lexicon": len(decided) - len(terms),
        "terms": len(terms),
        "by_type": dict(sorted(Counter(t.type for t in terms).items())),
    }
    output.write_text(format_inventory(terms, provenance), encoding="utf-8")
    print(json.dumps(provenance, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
