"""The pages' labels, details panel, forgiving search and the folder index (issue 20);
the browser tests open the pages in headless chromium."""

import json
import os
import re
from html.parser import HTMLParser

import pytest

from kg import schema
from kg.cli import main
from kg.cli_viz import DEPTH_HELP
from kg.errors import KgError
from kg.store.graphfile import save_graph
from kg.viz import views, write_pages, write_views
from kg.viz.page import LINKS_BLOCK, TOP_LABELS, build_network, top_nodes
from kg.viz.text import display_name, node_details
from tests.e2e.test_viz import (
    add_paper,
    assert_clean,
    browser,  # noqa: F401  (the fixture)
    needs_chromium,
    open_page,
    random_graph,
    small_graph,
)

SCHOLKOPF = ("author:bernhardscholkopf", "Bernhard Schölkopf")
BREAKOUT = "</script><script>alert(1)</script>"


def links_of(path):
    """A page's block of links: {node key: file name of its own page, or None}."""
    return json.loads(LINKS_BLOCK.search(path.read_text(encoding="utf-8")).group(1))


def accented_graph():
    G = small_graph()
    add_paper(
        G,
        "paper:eeeeeeeeeeee",
        "Kernel methods at scale. More.",
        authors=[SCHOLKOPF, ("author:bo-li", "Bo Li")],
    )
    return G


def test_top_nodes_carry_labels_and_the_rest_too():
    G = random_graph(200)
    view = views.overview(G, top=150)
    nodes = {n["id"]: n for n in build_network(G, view).nodes}
    top = top_nodes(G, view)
    assert len(top) == TOP_LABELS and top == list(view.nodes[:TOP_LABELS])
    assert all(nodes[k]["top"] is True and nodes[k]["label"] == display_name(G, k) for k in top)
    assert not any(nodes[k].get("top") for k in view.nodes[TOP_LABELS:])


def test_coauthor_page_is_coloured_by_community():
    G = random_graph(300)
    view = views.coauthor_network(G, limit=60)
    found = dict(view.communities)
    assert set(found) == set(view.nodes) and len(set(found.values())) > 1
    colours = {n["id"]: n["color"] for n in build_network(G, view).nodes}
    assert len(set(colours.values())) == min(len(set(found.values())), 10)
    other = views.overview(G, top=40)
    assert not other.communities
    assert len({n["color"] for n in build_network(G, other).nodes}) <= 2  # by label


def test_node_details_of_an_entity_and_a_paper():
    G = small_graph()
    assert node_details(G, "dataset:gsm8k") == {
        "kind": "Dataset",
        "papers": ["GRPO", "We evaluate PPO on MATH and GSM8K."],
        "paperCount": 2,
        "papersHeading": "Papers",
        "evidence": ["It beats PPO on GSM8K.", "We evaluate PPO on MATH and GSM8K."],
    }
    paper = node_details(G, "paper:aaaaaaaaaaaa")
    assert paper["papers"] == ["Ada Lovelace", "Bo Li"] and paper["kind"] == "Paper"


def test_index_keeps_earlier_pages_and_says_which_graph_and_when(tmp_path, monkeypatch):
    G = small_graph()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    write_pages(G, tmp_path, top=5, author="Bo Li", source="/data/one.kg")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767229200")
    write_pages(G, tmp_path, method="PPO", source="/data/two.kg")
    index = (tmp_path / "index.html").read_text()
    listed = re.findall(r'href="([^"]+)"', index)
    assert sorted(listed) == sorted(
        p.name for p in tmp_path.glob("*.html") if p.name != "index.html"
    )
    assert listed[:3] == ["overview.html", "coauthors.html", "methods-datasets.html"]
    assert "author-bo-li-depth-1.html" in listed and "method-ppo.html" in listed
    assert "/data/one.kg (3 papers), 2026-01-01 00:00 UTC" in index
    assert "/data/two.kg (3 papers), 2026-01-01 01:00 UTC" in index
    assert "the last written from /data/two.kg (3 papers) at 2026-01-01 01:00 UTC" in index
    # the second run keeps the first run's --top; its co-author page links Bo Li to his page
    assert "Showing 5 of 13 nodes" in (tmp_path / "overview.html").read_text()
    assert links_of(tmp_path / "coauthors.html")["author:bo-li"] == "author-bo-li-depth-1.html"


def test_index_lists_foreign_files_by_name(tmp_path):
    (tmp_path / "notes.html").write_text("<p>mine</p>")
    write_views(small_graph(), tmp_path, [views.overview(small_graph())])
    assert '<a href="notes.html">notes.html</a>' in (tmp_path / "index.html").read_text()


def test_an_earlier_page_links_to_a_node_page_written_later(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    G = small_graph()
    overview = views.overview(G)
    write_views(G, tmp_path, [overview])
    first = links_of(tmp_path / "overview.html")
    assert first == dict.fromkeys(overview.nodes) and "method:ppo" in first
    before = (tmp_path / "overview.html").read_text()
    method = views.method_page(G, "method:ppo")
    paths = write_views(G, tmp_path, [method])
    assert [p.name for p in paths] == ["index.html", "method-ppo.html", "overview.html"]
    assert links_of(tmp_path / "overview.html") == {**first, "method:ppo": "method-ppo.html"}
    assert links_of(tmp_path / "method-ppo.html")["method:ppo"] is None  # not to itself
    after = (tmp_path / "overview.html").read_text()
    assert LINKS_BLOCK.sub("", before) == LINKS_BLOCK.sub("", after)  # nothing else changed
    # the bytes of the overview written after the method page
    write_views(G, tmp_path / "b", [method])
    write_views(G, tmp_path / "b", [overview])
    assert (tmp_path / "b" / "overview.html").read_text() == after
    # a page whose links are current is left alone
    mtime = os.stat(tmp_path / "overview.html").st_mtime_ns
    paths = write_views(G, tmp_path, [method])
    assert [p.name for p in paths] == ["index.html", "method-ppo.html"]
    assert os.stat(tmp_path / "overview.html").st_mtime_ns == mtime


def test_files_not_kgs_or_without_a_block_of_links_are_left_untouched(tmp_path):
    G = small_graph()
    block = '<script id="kg-own-pages" type="application/json">{"method:ppo":null}</script>'
    meta = '<meta name="kg-page" content="{&#34;title&#34;: &#34;Old&#34;}">'
    files = {
        "notes.html": "<p>mine</p>\r\n",
        "mine.html": f"<html>{block}</html>",  # a block, but not kg's
        "older.html": f"<html>{meta}<p>a page of an older kg</p></html>",
        "broken.html": f"<html>{meta}{block.replace('null', 'nul')}</html>",
        "list.html": f"<html>{meta}{block.replace('{', '[').replace('}', ']')}</html>",
    }
    for name, text in files.items():
        (tmp_path / name).write_bytes(text.encode())
    stat = {name: os.stat(tmp_path / name).st_mtime_ns for name in files}
    paths = write_views(G, tmp_path, [views.method_page(G, "method:ppo")])
    assert [p.name for p in paths] == ["index.html", "method-ppo.html"]
    for name, text in files.items():
        assert (tmp_path / name).read_bytes() == text.encode(), name
        assert os.stat(tmp_path / name).st_mtime_ns == stat[name], name
    assert len(re.findall(r'href="([^"]+)"', (tmp_path / "index.html").read_text())) == 6


class Scripts(HTMLParser):
    """The script elements of a page: (attributes, text)."""

    def __init__(self, text):
        super().__init__()
        self.scripts = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts.append([dict(attrs), ""])

    def handle_data(self, data):
        if self.lasttag == "script" and self.scripts:
            self.scripts[-1][1] += data


def test_hostile_node_keys_stay_inside_the_block_of_links(tmp_path):
    G = small_graph()
    key = f"method:{BREAKOUT}"
    G.add_node(key, kind=schema.METHOD, name=BREAKOUT, aliases=[], long_form=None)
    G.add_edge("paper:aaaaaaaaaaaa", key, key=schema.USES, evidence=BREAKOUT, start=0, end=1)
    overview = views.overview(G, top=50)
    assert key in overview.nodes
    write_views(G, tmp_path, [overview])
    page = views.method_page(G, key)
    write_views(G, tmp_path, [page])
    text = (tmp_path / "overview.html").read_text()
    assert BREAKOUT not in text and "<script>alert" not in text
    block = {"id": "kg-own-pages", "type": "application/json"}
    scripts = Scripts(text).scripts
    assert [attrs for attrs, _ in scripts] == [block, {}, {}]  # no script broke out
    assert "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)" in scripts[0][1]
    assert json.loads(scripts[0][1])[key] == f"{page.name}.html"
    assert re.fullmatch(r"method-[a-z0-9-]+\.html", f"{page.name}.html"), page.name


def test_repeated_author_keeps_every_one(tmp_path, capsys):
    graph = tmp_path / "small.kg"
    save_graph(small_graph(), graph)
    argv = ["viz", "-g", str(graph), "-o", str(tmp_path / "p"), "--author", "Bo Li"]
    assert main([*argv, "--author", "ada lovelace", "--concept", "reasoning"]) == 0
    names = {p.name for p in (tmp_path / "p").iterdir()}
    assert {"author-bo-li-depth-1.html", "author-ada-lovelace-depth-1.html"} <= names
    assert "mentions-concept-reasoning.html" in names


def test_depth_is_bounded(tmp_path, capsys):
    graph = tmp_path / "small.kg"
    save_graph(small_graph(), graph)
    with pytest.raises(SystemExit):
        main(
            [
                "viz",
                "-g",
                str(graph),
                "-o",
                str(tmp_path / "p"),
                "--author",
                "Bo Li",
                "--depth",
                "4",
            ]
        )
    err = capsys.readouterr().err
    assert "--depth: expected a whole number from 1 to 3, got '4'" in err
    assert not (tmp_path / "p").exists()
    assert f"1 to {views.MAX_DEPTH} " in DEPTH_HELP
    with pytest.raises(KgError, match="depth 4: an author's page goes 1 to 3 co-authorship"):
        views.author_neighbourhood(small_graph(), "author:bo-li", depth=4)


def test_help_names_paper_titles_and_export_formats(capsys):
    for argv in (["viz", "-h"], ["export", "-h"]):
        with pytest.raises(SystemExit):
            main(argv)
    out = " ".join(capsys.readouterr().out.split())
    assert "--paper KEY|TITLE" in out and "(by key, title or label)" in out
    assert "neo4j-csv (files and the command for neo4j-admin), graphml or gexf" in out


# --- in the browser -----------------------------------------------------------------------------


def node_point(page, node):
    """Viewport (x, y) of a node's centre on the canvas."""
    return page.evaluate(
        f"""(() => {{ const p = kgNetwork.canvasToDOM(kgNetwork.getPositions([{node!r}])[{node!r}]);
        const r = document.getElementById('network').getBoundingClientRect();
        return [p.x + r.left, p.y + r.top]; }})()"""
    )


def click(page, x, y):
    for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
        page.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)


def click_node(page, node):
    """Zoom in on a node and click it; wait for its details."""
    page.evaluate(f"kgNetwork.focus({node!r}, {{scale: 2, animation: false}})")
    click(page, *node_point(page, node))
    page.wait_for("!document.getElementById('details').hidden")


@needs_chromium
def test_top_labels_are_in_the_network_data_and_readable(browser, tmp_path):  # noqa: F811
    G = random_graph(300)
    view = views.overview(G, top=200)
    write_views(G, tmp_path, [view])
    page = open_page(browser, tmp_path / "overview.html")
    page.evaluate("kgNetwork.fit({animation: false})")
    top = top_nodes(G, view)
    rows = page.evaluate(f"kgNetwork.body.data.nodes.get({top!r}).map(n => [n.id, n.label, n.top])")
    assert rows == [[k, display_name(G, k), True] for k in top]
    page.wait_for(
        f"kgNetwork.body.data.nodes.get({top[0]!r}).font.size * kgNetwork.getScale() >= 13.9"
    )
    assert_clean(page)


@needs_chromium
def test_click_shows_details_with_a_working_link(browser, tmp_path):  # noqa: F811
    G = small_graph()
    write_pages(G, tmp_path, dataset="GSM8K")
    write_pages(G, tmp_path, method="PPO")
    page = open_page(browser, tmp_path / "methods-datasets.html")
    assert page.evaluate("document.getElementById('details').hidden") is True
    click_node(page, "method:ppo")
    assert page.evaluate("document.getElementById('details-name').textContent") == "PPO"
    assert page.evaluate("document.getElementById('details-kind').textContent") == "Method"
    assert page.evaluate("document.getElementById('details-papers').innerText") == (
        "GRPO\nWe evaluate PPO on MATH and GSM8K."
    )
    assert "It beats PPO on GSM8K." in page.evaluate(
        "document.getElementById('details-evidence').innerText"
    )
    href = page.evaluate("document.getElementById('details-link').href")
    assert href == (tmp_path / "method-ppo.html").as_uri()
    assert_clean(page)
    page.evaluate("document.getElementById('details-link').click()")
    page.wait_for(f"location.href === {href!r} && window.kgReady", timeout=60)
    assert page.evaluate("document.querySelector('h1').textContent") == (
        "Method PPO: where it was applied"
    )
    # the dataset page, written by the first run, links PPO to its page of the second
    earlier = open_page(browser, tmp_path / "dataset-gsm8k.html")
    click_node(earlier, "method:ppo")
    assert earlier.evaluate("document.getElementById('details-name').textContent") == "PPO"
    assert earlier.evaluate("document.getElementById('details-link').href") == href
    click_node(earlier, "dataset:gsm8k")  # the page's own node: no link
    assert earlier.evaluate("document.getElementById('details-name').textContent") == "GSM8K"
    assert earlier.evaluate("document.getElementById('details-page').hidden") is True
    assert_clean(earlier)


@needs_chromium
def test_search_forgives_accents_case_and_punctuation(browser, tmp_path):  # noqa: F811
    G = accented_graph()
    write_views(G, tmp_path, [views.coauthor_network(G)])
    page = open_page(browser, tmp_path / "coauthors.html")

    def search(text):
        page.evaluate(
            f"(() => {{ const s = document.getElementById('search'); s.value = {text!r}; "
            "s.dispatchEvent(new Event('change')); })()"
        )
        return page.evaluate("kgNetwork.getSelectedNodes()")

    for typed in ("Bernhard Scholkopf", "bernhard schölkopf", "SCHOLKOPF", "Bern-hard Schol"):
        assert search(typed) == [SCHOLKOPF[0]], typed
    assert search("BO-LI") == ["author:bo-li"]
    assert page.evaluate("document.getElementById('details-name').textContent") == "Bo Li"
    assert_clean(page)


def test_seed_author_key_is_folded_for_search():
    G = accented_graph()
    nodes = {n["id"]: n for n in build_network(G, views.coauthor_network(G)).nodes}
    assert nodes[SCHOLKOPF[0]]["search"] == ["bernhardscholkopf"]
    assert schema.AUTHOR == nodes[SCHOLKOPF[0]]["details"]["kind"]
