"""The graph file: round trip, determinism, atomic writes, refusing foreign files."""

import os
import re
import warnings

import orjson
import pytest

from kg import files
from kg.errors import GraphFileError, OutputError
from kg.graph.papers import new_graph
from kg.schema import SCHEMA_VERSION
from kg.store import graphfile as store
from kg.store.graphfile import MAGIC, load_graph, save_graph


def small_graph():
    G = new_graph()
    G.add_node("paper:1", kind="Paper", abstract="x <b>", title=None, sources=["a#0"])
    G.add_node("author:ada", kind="Author", name="Ada", variants=["Ada"])
    G.add_edge("author:ada", "paper:1", key="AUTHORED", position=1, truncated_list=False)
    return G


def test_round_trip(tmp_path):
    from kg.extractors.records import Mention
    from kg.store.graphfile import load_mentions

    G = small_graph()
    mentions = {
        "paper:1": [
            Mention(
                type="Method",
                text="GRPO",
                canonical="GRPO",
                start=0,
                end=4,
                sentence="GRPO.",
                rule="lexicon",
                score=0.9,
                aliases=("grpo",),
                part_of=(),
            )
        ],
        "paper:2": [],
    }
    path = save_graph(G, tmp_path / "g.kg", mentions=mentions)
    assert load_mentions(path) == mentions
    H = load_graph(path)
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))
    assert list(H.edges(keys=True, data=True)) == list(G.edges(keys=True, data=True))
    assert H.graph["schema_version"] == G.graph["schema_version"]


def test_insertion_order_does_not_change_bytes(tmp_path):
    G = small_graph()
    H = new_graph()
    for n, a in reversed(list(G.nodes(data=True))):
        H.add_node(n, **a)
    H.add_edges_from(G.edges(keys=True, data=True))
    save_graph(G, tmp_path / "g.kg")
    save_graph(H, tmp_path / "h.kg")
    assert (tmp_path / "g.kg").read_bytes() == (tmp_path / "h.kg").read_bytes()


def test_crash_mid_save_keeps_previous_graph(tmp_path, monkeypatch):
    path = tmp_path / "g.kg"
    save_graph(small_graph(), path)
    before = path.read_bytes()
    G = small_graph()
    G.add_node("paper:2", kind="Paper", abstract="y", title=None, sources=[])

    def crash(*args):
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "fsync", crash)
    with pytest.raises(OutputError, match=f"cannot write the graph file {path}: disk full"):
        save_graph(G, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["g.kg"]


def test_file_mode_is_not_private(tmp_path):
    path = save_graph(small_graph(), tmp_path / "g.kg")
    assert os.stat(path).st_mode & 0o044


def header(**fields):
    """A header line of the current schema, as kg writes it (with its checksum)."""
    return MAGIC + store.header_line({"format": "kg-graph", **fields}) + b"\n"


@pytest.mark.parametrize(
    "content, message",
    [
        (b"hello world\n", "not a kg graph file"),
        (b"", r"an empty file, not a kg graph; `kg build INPUT -o \S+ --fresh` replaces it"),
        (MAGIC + b"{broken\n", r"damaged \(its header is not JSON\)"),
        (MAGIC + b'["kg-graph", 4]\n', r"damaged \(its header is a JSON list, not an object\)"),
        (header(schema_version=99), r"newer kg \(schema 99"),
        (header(schema_version=SCHEMA_VERSION) + b"not zstd", "older development version"),
        (
            header(schema_version=SCHEMA_VERSION, compression="zlib", sections={"graph": 8})
            + b"not zlib",
            "older development version",
        ),
        (
            header(schema_version=SCHEMA_VERSION, compression="zstd", sections=[["graph", "8"]]),
            r"its header lists a section as",
        ),
        (
            header(
                schema_version=SCHEMA_VERSION,
                compression="zstd",
                sections=[["graph", -8, "0"], ["entities", 8, "0"], ["mentions", 0, "0"]],
            )
            + b"not zstd",
            r"its header lists a section as b'\[\"graph\",-8",
        ),
        (
            header(
                schema_version=SCHEMA_VERSION,
                compression="zstd",
                sections=[["graph", 8, "0"], ["entities", 0, "0"], ["mentions", 0, "0"]],
            )
            + b"not zst",
            r"\d+ bytes where its header describes \d+: truncated or cut",
        ),
        (
            header(
                schema_version=SCHEMA_VERSION,
                compression="zstd",
                sections=[["graph", 8, "0"], ["entities", 0, "0"], ["mentions", 0, "0"]],
            )
            + b"not zstd",
            r"its graph section fails its checksum",
        ),
        # An old header (no checksum) with a bad schema version: one line each, none "newer".
        *(
            (
                MAGIC + orjson.dumps({"format": "kg-graph", "schema_version": v}) + b"\n",
                rf"damaged \(its schema version is {re.escape(orjson.dumps(v).decode())}\)",
            )
            for v in (None, "2", 1.5, 0, -1, True)
        ),
    ],
)
def test_foreign_or_damaged_files_are_refused_with_one_line(tmp_path, content, message):
    path = tmp_path / "g.kg"
    path.write_bytes(content)
    with pytest.raises(GraphFileError, match=message) as info:
        load_graph(path)
    assert "\n" not in str(info.value)


def test_a_section_that_fails_its_checksum_is_refused_before_decoding(tmp_path, monkeypatch):
    path = save_graph(small_graph(), tmp_path / "g.kg")
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01  # the last byte of the mentions section
    path.write_bytes(bytes(data))
    load_graph(path)  # the graph and entities sections are whole
    monkeypatch.setattr(store.zstandard, "ZstdDecompressor", None)  # nothing is decoded
    with pytest.raises(GraphFileError) as info:
        store.load_mentions(path)
    assert str(info.value) == (
        f"{path}: graph file is damaged (its mentions section fails its checksum); restore it "
        f"from a copy or rebuild it with `kg build INPUT -o {path} --fresh`"
    )


def schema_3_file(path, G=None):
    """A graph file as kg wrote it at schema 3: the same sections, no checksums."""
    save_graph(small_graph() if G is None else G, path)
    data = path.read_bytes()[len(MAGIC) :]
    line, _, rest = data.partition(b"\n")
    head = orjson.loads(line)
    del head["checksum"]
    head["schema_version"] = 3
    head["sections"] = [entry[:2] for entry in head["sections"]]
    path.write_bytes(MAGIC + orjson.dumps(head, option=orjson.OPT_SORT_KEYS) + b"\n" + rest)
    return path


def test_a_schema_3_file_loads_unverified_with_a_note_and_the_next_write_upgrades_it(tmp_path):
    path = schema_3_file(tmp_path / "g.kg")
    with pytest.warns(store.GraphFileNote, match="read unverified; the next build into it"):
        H = load_graph(path)
    assert dict(H.nodes(data=True)) == dict(small_graph().nodes(data=True))
    save_graph(H, path)
    assert path.read_bytes() == save_graph(small_graph(), tmp_path / "new.kg").read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_graph(path)


def older_schema_file(path, version=2):
    """A graph file as a kg of an older schema wrote it (the header's version differs)."""
    schema_3_file(path)
    data = path.read_bytes()
    old = data.replace(b'"schema_version":3', f'"schema_version":{version}'.encode(), 1)
    assert old != data
    path.write_bytes(old)
    return path


def test_older_schema_is_refused_with_the_rebuild_command(tmp_path):
    path = older_schema_file(tmp_path / "g.kg")
    with pytest.raises(GraphFileError) as info:
        load_graph(path)
    assert str(info.value) == (
        f"{path}: written by an older kg (schema 2; this kg reads schema "
        f"{SCHEMA_VERSION}, whose keys differ); rebuild it with `kg build --fresh`"
    )


def test_schema_4_checksums():
    # Schema 2 changed author keys to folded names; schema 3 added the model versions and
    # sizes with their VARIANT_OF links (docs/graph.md), author identity (docs/identity.md),
    # APPLIED_TO's evaluation meaning and evidence, entity keys by acronym sense with one
    # type per name, and SIMILAR_TO; schema 4 the checksums of the graph file.
    assert SCHEMA_VERSION == 4 == store.CHECKED_SCHEMA


def test_missing_file(tmp_path):
    with pytest.raises(GraphFileError, match="no such graph file"):
        load_graph(tmp_path / "none.kg")


def test_paused_gc_restores_the_collector():
    import gc

    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with store.paused_gc():
            assert not gc.isenabled()
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_paused_gc_leaves_the_callers_heap_unfrozen():
    import gc

    gc.unfreeze()
    with store.paused_gc():
        made = [[i] for i in range(1000)]  # lists: objects the collector tracks
    assert gc.get_freeze_count() == 0
    young = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    assert all(id(d) in young for d in made)


def test_paused_gc_keeps_a_paused_collector_paused():
    import gc

    gc.disable()
    try:
        with store.paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_mentions_round_trip_and_damaged_rows_are_refused(tmp_path):
    from kg.extractors.records import Mention

    m = Mention(
        type="Method",
        text="GRPO",
        canonical="GRPO",
        start=3,
        end=7,
        sentence="Use GRPO.",
        rule="lexicon",
        score=0.9,
        aliases=("G",),
        part_of=("B",),
    )
    path = save_graph(small_graph(), tmp_path / "g.kg", mentions={"paper:1": [m]})
    (loaded,) = store.load_mentions(path)["paper:1"]
    assert loaded == m and hash(loaded) == hash(m) and loaded.aliases == ("G",)
    with pytest.raises(ValueError, match="has 2 fields"):
        store.data_to_mentions({"paper:1": [["Method", "GRPO"]]})
