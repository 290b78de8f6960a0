"""Every single-bit flip in the header of the graph file built from samples/, and at 1,000
random positions of each section, is refused with one line: the checksums are read before
anything is decoded, so each case loads only as far as its verification."""

import random
from pathlib import Path

import pytest

from kg.errors import GraphFileError
from kg.graph.build import build
from kg.store import graphfile

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
FLIPS_PER_SECTION = 1000


@pytest.fixture(scope="module")
def sample_graph(tmp_path_factory):
    path = tmp_path_factory.mktemp("damage") / "samples.kg"
    build([SAMPLES], path, fresh=True)
    return path


def section_spans(path):
    with graphfile._opened(path) as fh:
        header, start, size = graphfile._read_head(path, fh)
    return graphfile._sections(path, header, start, size), start


#: What loads each section (and, as verification goes in file order, the ones before it).
LOADERS = {
    "graph": lambda path: graphfile.load_graph(path, entity_layer=False),
    "entities": graphfile.load_graph,
    "mentions": graphfile.load_mentions,
}


def refused(path, offset, bit, load):
    """Flip one bit in place, load, flip it back; the one-line message of the refusal."""
    with open(path, "r+b") as fh:
        fh.seek(offset)
        byte = fh.read(1)[0]
        fh.seek(offset)
        fh.write(bytes([byte ^ (1 << bit)]))
    try:
        with pytest.raises(GraphFileError) as info:
            load(path)
    finally:
        with open(path, "r+b") as fh:
            fh.seek(offset)
            fh.write(bytes([byte]))
    message = str(info.value)
    assert "\n" not in message and str(path) in message, message
    return message


def test_every_bit_flip_in_the_header_is_refused(sample_graph):
    _, start = section_spans(sample_graph)
    messages = {
        refused(sample_graph, offset, bit, graphfile.read_header)
        for offset in range(start)
        for bit in range(8)
    }
    assert any("its header fails its checksum" in m for m in messages)
    assert not any("newer kg" in m for m in messages)  # a damaged version is damage
    graphfile.load_graph(sample_graph)  # every flip was undone


@pytest.mark.parametrize("name", list(LOADERS))
def test_bit_flips_in_each_section_are_refused(sample_graph, name):
    sections, _ = section_spans(sample_graph)
    section = sections[name]
    rng = random.Random(f"kg-{name}")
    for _ in range(FLIPS_PER_SECTION):
        offset = section.offset + rng.randrange(section.size)
        message = refused(sample_graph, offset, rng.randrange(8), LOADERS[name])
        assert f"its {name} section fails its checksum" in message
    graphfile.load_graph(sample_graph)
    graphfile.load_mentions(sample_graph)
