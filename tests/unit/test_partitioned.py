"""The merge of shared nodes' partials (kg.scale.partitioned): what each partition saw of a
node, made into the row the whole corpus's graph holds; the text part of SIMILAR_TO read a
partition at a time."""

import numpy as np

from kg.graph import related
from kg.rows import NodeRow, RelationshipRow
from kg.scale.partitioned import Partial, Rows, bucket_of, merged_bucket, similar_text


def entity(name, origin, spellings, **props):
    row = NodeRow("dataset:isnotes", "Dataset", {"name": name, **props})
    return Partial(row, origin=origin, spellings=frozenset(spellings))


def merged(*partials):
    shares = [({p.row.key: p}, {}) for p in partials]
    return merged_bucket(shares).nodes


def test_the_first_paper_by_key_names_an_entity_and_every_other_spelling_is_an_alias():
    later = entity("ISNotes", "paper:bb", {"ISNotes"})
    first = entity("ISNOTES", "paper:aa", {"ISNOTES"})
    [row] = merged(later, first)["Dataset"]
    assert row.props == {"aliases": ["ISNotes"], "name": "ISNOTES"}
    [row] = merged(entity("ISNotes", "paper:bb", {"ISNotes"}))["Dataset"]
    assert row.props == {"name": "ISNotes"}


def test_a_node_made_only_as_a_variant_parent_yields_its_name_to_any_paper():
    parent = entity("Llama", "", set())
    named = entity("LLaMA", "paper:zz", {"LLaMA", "Llama"})
    [row] = merged(parent, named)["Dataset"]
    assert row.props == {"aliases": ["Llama"], "name": "LLaMA"}


def test_an_authors_coauthors_are_counted_over_the_union_of_its_partitions():
    def author(partners):
        row = NodeRow("author:ada", "Author", {"name": "Ada L", "variants": ["Ada L"]})
        return Partial(row, partners=frozenset(partners))

    [row] = merged(author({"author:b", "author:c"}), author({"author:c", "author:d"}))["Author"]
    assert row.props["coauthors"] == 3


def test_relationships_among_shared_nodes_come_once_in_key_order():
    rel = RelationshipRow("VARIANT_OF", "method:b", "Method", "method:a", "Method", {})
    other = rel._replace(start="method:a2")
    rows = merged_bucket([({}, {("VARIANT_OF", r.start, r.end): r}) for r in (rel, other, rel)])
    assert rows == Rows({}, {"VARIANT_OF": [other, rel]})


def test_a_key_goes_to_the_same_bucket_in_every_process():
    assert bucket_of("author:ada", 8) == 5  # crc32, not the salted hash()
    assert {bucket_of(f"method:m{i}", 4) for i in range(40)} == {0, 1, 2, 3}


def test_the_text_part_read_a_partition_at_a_time_equals_the_local_builds():
    rng = np.random.default_rng(11)
    words = [f"w{i}" for i in range(30)]
    papers = [
        (f"paper:{rng.integers(1 << 40):010x}", None, " ".join(rng.choice(words, 8)), [])
        for _ in range(40)
    ]
    parts = [papers[i : i + 7] for i in range(0, len(papers), 7)]  # partitions: not by key
    read = []

    def one_at_a_time():
        for part in parts:
            read.append(len(part))
            yield part

    streamed = similar_text(one_at_a_time())
    local = related.text_part([text for _, _, text, _ in sorted(papers)], related.DEFAULTS)
    assert read == [len(p) for p in parts] and len(streamed.rows) > 0
    for a, b in zip(streamed, local, strict=True):
        assert np.array_equal(a, b)
