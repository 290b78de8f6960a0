"""Grow the lexicon from the TRAINING splits of public annotated corpora, with provenance.

    .venv/bin/python scripts/grow_lexicon.py          # writes data/lexicon_training.jsonl
    .venv/bin/python scripts/grow_lexicon.py --print  # shows the entries instead

Sources (training splits only; every test, dev and zero-shot split, SciREX and the dev gold
are evaluation data and are never read here):

* ``scierc/train.jsonl`` -- Method, Task, Metric (SciERC, Luan et al. 2018);
* ``tdmsci/train.jsonl`` -- TASK, METRIC, DATASET (TDMSci, Hou et al. 2021);
* ``dataset-mentions-xjaeh/train.jsonl`` -- Dataset.

A name becomes an entry only when a rule can trust it out of its sentence: a Dataset or a
Method is a proper name (a capital after the first letter or a digit, or several capitalised
words, at most five words); a Task or Metric is a phrase whose last word is a task or metric
head, or an acronym, and is labelled so at least twice; names the lexicon already has, the
word lists' stop words and names of one lowercase word are left out. Datasets and Methods
match only as written (``cased``). Each source is one block of the output file, whose block
line records the corpus, split, file and counts.
"""

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.extractors.lexicon import LEXICON_PATH, TRAINING_LEXICON_PATH, load_lexicon
from kg.extractors.names import name_key
from kg.extractors.words import word_set

EXTERNAL = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "external"
#: (block, corpus file, its label -> kg type)
SOURCES = (
    (
        "scierc-train",
        "scierc/train.jsonl",
        {"Method": "Method", "Task": "Task", "Metric": "Metric"},
    ),
    (
        "tdmsci-train",
        "tdmsci/train.jsonl",
        {"TASK": "Task", "METRIC": "Metric", "DATASET": "Dataset"},
    ),
    ("dataset-mentions-train", "dataset-mentions-xjaeh/train.jsonl", {"Dataset": "Dataset"}),
)
CORPUS_NAMES = {
    "scierc-train": "SciERC (Luan et al., EMNLP 2018), official train split",
    "tdmsci-train": "TDMSci (Hou et al., EACL 2021), train split",
    "dataset-mentions-train": "dataset-name mentions corpus, train split",
}
MAX_WORDS = 5
_EDGE = re.compile(r"^(?:the|a|an|our|their|its)\s+|[\s,;:.]+$", re.IGNORECASE)
#: A word broken by a line-end hyphen in the PDF text ("Chi-nese", "Ve-hicleID").
_BROKEN = re.compile(r"\b[A-Z][a-z]{1,2}- ?[a-z]")
#: A plural acronym ("LMs", "MFCCs"): the singular is the name, if any.
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")
#: Lowercase words that end a span without naming the data ("Gov2 collection", "PASCAL
#: VOC validation set").
_DATA_TAIL = {
    "benchmark",
    "benchmarks",
    "collection",
    "collections",
    "corpora",
    "corpus",
    "data",
    "database",
    "dataset",
    "datasets",
    "image",
    "images",
    "set",
    "sets",
    "split",
    "splits",
    "subset",
    "test",
    "testing",
    "training",
    "validation",
    "videos",
    "sequences",
    "track",
}
#: Lowercase words that end a method span without naming the method ("SMT models").
_METHOD_TAIL = {
    "algorithm",
    "algorithms",
    "approach",
    "approaches",
    "architecture",
    "framework",
    "method",
    "methods",
    "model",
    "models",
    "system",
    "systems",
    "technique",
    "techniques",
    "component",
    "components",
}


def clean(text: str, kind: str) -> list[str]:
    """The names a gold span holds: articles and trailing punctuation off; for datasets the
    head noun ("MegaFace dataset") off and coordinations ("X and Y datasets") split."""
    text = " ".join(text.split())
    parts = re.split(r"\s*(?:,|\band\b|&)\s*", text) if kind == "Dataset" else [text]
    tail = _DATA_TAIL if kind == "Dataset" else _METHOD_TAIL if kind == "Method" else set()
    names = []
    for part in parts:
        words = _EDGE.sub("", part).split()
        while len(words) > 1 and words[-1].lower() in tail:
            words.pop()
        if words:
            names.append(" ".join(words))
    return names


def is_proper(name: str) -> bool:
    """A proper name: one word with a capital after its first letter or a digit (MegaFace,
    CoNLL-2003, SQuAD; an all-capital word of four letters or more), or several capitalised
    words of which one is so marked (Reuters RCV1, TIPSTER Volume 1; not "Time Series")."""
    words = name.split()
    if sum(c.isalpha() for c in name) < 2:
        return False
    if len(words) > 1:
        capitalised = all(w[0].isupper() or w[0].isdigit() for w in words if w[0].isalnum())
        return capitalised and any(_marked(w) for w in words)
    if name.isupper() and name.isalpha():
        return len(name) >= 4
    return _marked(name)


def _marked(word: str) -> bool:
    """A word no English sentence spells so: a capital after its first letter, or a digit."""
    return any(c.isupper() or c.isdigit() for c in word[1:])


def is_headed(name: str, heads: frozenset[str]) -> bool:
    """A phrase of two or more lowercase words whose last word is one of ``heads``."""
    words = name.split()
    return 2 <= len(words) and name == name.lower() and words[-1] in heads


def trusted(name: str, kind: str) -> bool:
    """Whether a training-split name can be an entry of ``kind`` out of its sentence."""
    words = name.split()
    if not (1 <= len(words) <= MAX_WORDS) or not name[0].isalnum() or set("()[]/") & set(name):
        return False
    if (
        _BROKEN.search(name)
        or _PLURAL_ACRONYM.match(name)
        or "-to-" in name
        or name.endswith("-based")
    ):
        return False
    if name.lower() in word_set("non_names") | word_set("phrase_stops"):
        return False
    if kind in ("Dataset", "Method"):
        return is_proper(name) and len(name) >= 3
    if kind == "Task":
        return is_headed(name, word_set("task_heads")) and name.lower() not in word_set(
            "not_task_names"
        )
    if kind == "Metric":
        acronym = len(words) == 1 and name.isupper() and len(name) >= 3
        return acronym or is_headed(name, word_set("metric_heads"))
    return False


def gold_names(rows: Iterable[dict], labels: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(kg type, cleaned name) of every labelled span of the rows."""
    for row in rows:
        for entity in row["entities"]:
            kind = labels.get(entity["type"])
            if kind:
                for name in clean(entity["text"], kind):
                    yield kind, name


def mine(external: Path = EXTERNAL) -> dict[str, list[dict]]:
    """{block: entries} from the training splits; a name goes to the first source (and the
    commonest type) that trusts it, and never repeats a name the lexicon already has."""
    lexicon = load_lexicon(LEXICON_PATH)
    taken: set[str] = set()
    blocks: dict[str, list[dict]] = {}
    for block, name, labels in SOURCES:
        with open(external / name, encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        spelling: dict[str, Counter[str]] = defaultdict(Counter)
        for kind, found in gold_names(rows, labels):
            key = name_key(found)
            counts[key][kind] += 1
            spelling[key][found] += 1
        entries = []
        for key in sorted(counts):
            kind = counts[key].most_common(1)[0][0]
            shown = sorted(spelling[key].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            if key in taken or lexicon.lookup(shown) or not trusted(shown, kind):
                continue
            if kind in ("Task", "Metric") and sum(counts[key].values()) < 2:
                continue
            taken.add(key)
            entries.append(
                {"canonical": shown, "type": kind, "cased": kind in ("Dataset", "Method")}
            )
        blocks[block] = entries
    return blocks


def write(blocks: dict[str, list[dict]], path: Path = TRAINING_LEXICON_PATH) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for block, name, _ in SOURCES:
            entries = blocks[block]
            kinds = Counter(e["type"] for e in entries)
            header = {
                "block": block,
                "source": CORPUS_NAMES[block],
                "file": f"../shared/eval/external/{name}",
                "made_by": "scripts/grow_lexicon.py",
                "entries": dict(sorted(kinds.items())),
            }
            fh.write(json.dumps(header, ensure_ascii=False) + "\n")
            for entry in entries:
                fh.write(json.dumps(entry, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--print", action="store_true", help="print the entries, write nothing")
    args = ap.parse_args(argv)
    if not EXTERNAL.is_dir():
        print(
            f"grow_lexicon: {EXTERNAL} not found (../shared beside the checkout)", file=sys.stderr
        )
        return 1
    blocks = mine()
    if args.print:
        for block, entries in blocks.items():
            for entry in entries:
                print(block, entry["type"], entry["canonical"], sep="\t")
    else:
        write(blocks)
    print({block: len(entries) for block, entries in blocks.items()}, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
