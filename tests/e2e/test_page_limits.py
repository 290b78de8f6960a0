"""Pages at their limits: a paper of 1,300 authors, names too long for a file name or of no
letter, and a folder that fills up part way."""

import errno
import os

import networkx as nx
import pytest

from kg import files, schema
from kg.errors import OutputError
from kg.graph.authors import author_key
from kg.query.lookup import find_node
from kg.query.named import node_resolver
from kg.viz import views, write_pages, write_views
from kg.viz.page import render

#: What a page may weigh at most.
PAGE_BYTES = 10_000_000


def graph_of(*papers):
    """A graph of papers, each given as (key, author names)."""
    G = nx.MultiDiGraph(schema_version=schema.SCHEMA_VERSION)
    for key, names in papers:
        G.add_node(key, kind=schema.PAPER, abstract=f"We study {key}.", title=key, sources=[])
        for position, name in enumerate(names, 1):
            G.add_node(author_key(name), kind=schema.AUTHOR, name=name, variants=[name])
            G.add_edge(author_key(name), key, key=schema.AUTHORED, position=position)
    return G


def test_a_paper_of_1300_authors_gives_a_page_under_10_mb_that_says_what_it_left_out():
    names = [f"Author{i:04d} Person{chr(65 + i % 26)}" for i in range(1300)]
    G = graph_of(("paper:big", names), ("paper:two", names[:2]))
    view = views.author_neighbourhood(G, author_key(names[0]))
    assert len(view.nodes) == 1300 and len(view.edges) == views.MAX_EDGES
    assert "Left out 834,350 of 844,350 edges, of weight 1 or lower" in view.note
    # The heaviest link (two shared papers) is kept.
    assert any(e.weight == 2 for e in view.edges)
    page = render(G, views.fitted(view))
    assert len(page.encode()) < PAGE_BYTES
    assert "Left out 834,350 of 844,350 edges" in page
    # The whole-corpus page shows fewer authors, and its links are capped all the same.
    network = views.coauthor_network(G)
    assert len(network.nodes) == views.READABLE_NODES
    assert len(network.edges) == views.MAX_EDGES and "Left out 34,850 of 44,850" in network.note


def test_fitted_caps_any_view_by_weight_and_keeps_its_order():
    edges = tuple(views.Edge(f"a{i}", f"b{i}", weight=i % 3, tooltip="") for i in range(9))
    view = views.View("v", "V", (), edges, "Note.")
    fitted = views.fitted(view, max_edges=3)
    assert [e.source for e in fitted.edges] == ["a2", "a5", "a8"]
    assert (
        fitted.note == "Note. Left out 6 of 9 edges, of weight 1 or lower (a page holds at most 3)."
    )
    assert views.fitted(view) == view


def test_a_name_too_long_for_a_file_name_gets_a_short_page_name(tmp_path):
    long_name = "Wolfeschlegelsteinhausenbergerdorff " * 9
    G = graph_of(("paper:1", [long_name, "Ada Lovelace"]))
    paths = write_pages(G, tmp_path, author=long_name)
    (page,) = [p for p in paths if p.name.startswith("author-")]
    assert len(page.name.encode()) <= views.MAX_NAME_BYTES and page.is_file()
    assert f'href="{page.name}"' in (tmp_path / "index.html").read_text()


def test_an_author_of_no_letter_is_found_by_pages_and_queries_alike(tmp_path):
    G = graph_of(("paper:1", ["!!!", "Ada Lovelace"]))
    assert find_node(G, "!!!", kinds=(schema.AUTHOR,)) == "author:!!!"
    rows = [{"key": k, "name": G.nodes[k].get("name")} for k in G if k.startswith("author:")]

    def runner(cypher, params):  # a runner that knows the names and no key
        return [] if "UNWIND" in cypher else rows

    assert node_resolver(runner)((schema.AUTHOR,), "!!!") == "author:!!!"
    assert any(p.name.startswith("author-") for p in write_pages(G, tmp_path, author="!!!"))


def test_two_authors_of_no_letter_get_pages_of_their_own(tmp_path):
    G = graph_of(("paper:1", ["!!!", "Ada Lovelace"]), ("paper:2", ["???", "Alan Turing"]))
    pages = [p.name for p in write_pages(G, tmp_path, author=["!!!", "???"])]
    focus = [name for name in pages if name.startswith("author-")]
    assert len(focus) == 2 and len(set(focus)) == 2, pages


def test_a_full_disk_part_way_says_which_pages_were_written_and_the_index_comes_last(
    tmp_path, monkeypatch
):
    G = graph_of(("paper:1", ["Ada Lovelace", "Alan Turing"]))
    page_views = [views.coauthor_network(G), views.overview(G), views.method_dataset(G)]
    real_replace, calls = os.replace, []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(OutputError) as info:
        write_views(G, tmp_path, page_views)
    assert str(info.value) == (
        f"cannot write the page {tmp_path / 'overview.html'}: No space left on device; check "
        "the folder or choose another output path; written (each whole): coauthors.html; "
        "not written: overview.html, methods-datasets.html, index.html"
    )
    assert sorted(os.listdir(tmp_path)) == ["coauthors.html"]  # no temporary file left
    monkeypatch.setattr(files.os, "replace", real_replace)
    paths = write_views(G, tmp_path, page_views)
    assert paths[0].name == "index.html" and os.path.getmtime(paths[0]) >= max(
        os.path.getmtime(p) for p in paths[1:]
    )


def test_an_earlier_page_that_cannot_be_relinked_is_named_and_left_whole(tmp_path, monkeypatch):
    G = graph_of(("paper:1", ["Ada Lovelace", "Alan Turing"]))
    write_views(G, tmp_path, [views.overview(G)])
    before = (tmp_path / "overview.html").read_bytes()
    real_replace = os.replace

    def replace(src, dst):
        if os.path.basename(dst) == "overview.html":
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(OutputError) as info:
        write_views(G, tmp_path, [views.author_neighbourhood(G, author_key("Ada Lovelace"))])
    assert str(info.value) == (
        f"cannot write the page {tmp_path / 'overview.html'}: No space left on device; check "
        "the folder or choose another output path; written (each whole): "
        "author-adalovelace-depth-1.html; not written: overview.html, index.html"
    )
    assert (tmp_path / "overview.html").read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [  # no temporary file left; the first run's index
        "author-adalovelace-depth-1.html",
        "index.html",
        "overview.html",
    ]
