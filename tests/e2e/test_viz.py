"""Tests of the visualisation pages: views, text, rendering, and the pages in headless chromium."""

import os
import random
import re
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest

from kg import schema
from kg.cli import main
from kg.errors import NotFound
from kg.graph.related import add_similar_edges
from kg.store.graphfile import save_graph
from kg.viz import focus_views, standard_views, views, write_pages, write_views
from kg.viz.page import render
from kg.viz.text import display_name, edge_tooltip, node_tooltip
from tests.helpers.browser import UNAVAILABLE, Browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
HOSTILE = (
    "<script>window.__xss=1</script><img src=x onerror=window.__xss=1> \"quoted\" 'single' &amp;"
)

needs_chromium = pytest.mark.skipif(UNAVAILABLE is not None, reason=str(UNAVAILABLE))


def add_paper(G, key, abstract, *, label=None, area=None, authors=()):
    G.add_node(
        key,
        kind=schema.PAPER,
        abstract=abstract,
        title=None,
        label=label,
        area=area,
        sources=[f"seed.txt#{len(G)}"],
        hash=key.split(":")[1],
        venue=None,
        year=None,
    )
    for position, (author_key, name) in enumerate(authors, start=1):
        G.add_node(author_key, kind=schema.AUTHOR, name=name, variants=[name])
        G.add_edge(author_key, key, key=schema.AUTHORED, position=position, truncated_list=False)
    if area:
        G.add_node(schema.area_key(area), kind=schema.AREA, name=area)
        G.add_edge(key, schema.area_key(area), key=schema.IN_AREA)


def add_entity(G, kind, name, aliases=()):
    key = schema.entity_key(kind, name)
    G.add_node(key, kind=kind, name=name, aliases=sorted(aliases), long_form=None)
    return key


def mention(G, paper, entity, rel, evidence):
    G.add_edge(
        paper,
        entity,
        key=rel,
        evidence=evidence,
        start=0,
        end=len(evidence),
        text=evidence[:10],
        rule="test",
        score=1.0,
    )


def applied(G, method, dataset, papers):
    """APPLIED_TO with each paper's sentence naming the dataset as its evidence."""
    keys = sorted(papers)
    evidence = [next(iter(G.get_edge_data(p, dataset).values())) for p in keys]
    G.add_edge(
        method,
        dataset,
        key=schema.APPLIED_TO,
        papers=len(keys),
        paper_keys=keys,
        score=1.0,
        evidence=[e["evidence"] for e in evidence],
        evidence_at=[f"{e['start']}:{e['end']}" for e in evidence],
    )


def small_graph():
    """Three papers, four authors, two methods applied to two datasets, a shared concept."""
    G = nx.MultiDiGraph(schema_version=schema.SCHEMA_VERSION)
    ada, bo = ("author:ada-lovelace", "Ada Lovelace"), ("author:bo-li", "Bo Li")
    cy, di = ("author:cy-wu", "Cy Wu"), ("author:di-ng", "Di Ng")
    p1, p2, p3 = "paper:aaaaaaaaaaaa", "paper:bbbbbbbbbbbb", "paper:cccccccccccc"
    add_paper(
        G,
        p1,
        "We propose GRPO for reasoning. It beats PPO on GSM8K.",
        label="GRPO",
        area="Machine Learning",
        authors=[ada, bo],
    )
    add_paper(
        G,
        p2,
        "We evaluate PPO on MATH and GSM8K. Results follow.",
        area="Machine Learning",
        authors=[bo, cy],
    )
    add_paper(
        G,
        p3,
        "A study of reward models for reasoning in large language models. More text.",
        authors=[cy, di, ada],
    )
    grpo = add_entity(G, schema.METHOD, "GRPO", ["Group Relative Policy Optimization"])
    ppo = add_entity(G, schema.METHOD, "PPO")
    gsm = add_entity(G, schema.DATASET, "GSM8K")
    math = add_entity(G, schema.DATASET, "MATH")
    reasoning = add_entity(G, schema.CONCEPT, "reasoning")
    mention(G, p1, grpo, schema.PROPOSES, "We propose GRPO for reasoning.")
    mention(G, p1, ppo, schema.USES, "It beats PPO on GSM8K.")
    mention(G, p1, gsm, schema.EVALUATED_ON, "It beats PPO on GSM8K.")
    mention(G, p1, reasoning, schema.MENTIONS, "We propose GRPO for reasoning.")
    mention(G, p2, ppo, schema.USES, "We evaluate PPO on MATH and GSM8K.")
    mention(G, p2, math, schema.EVALUATED_ON, "We evaluate PPO on MATH and GSM8K.")
    mention(G, p2, gsm, schema.EVALUATED_ON, "We evaluate PPO on MATH and GSM8K.")
    mention(G, p3, reasoning, schema.MENTIONS, "A study of reward models for reasoning.")
    applied(G, grpo, gsm, [p1])
    applied(G, ppo, gsm, [p1, p2])
    applied(G, ppo, math, [p2])
    add_similar_edges(G)
    return G


def hostile_graph():
    """A graph whose paper text and names try to inject HTML and script wherever they appear."""
    G = nx.MultiDiGraph(schema_version=schema.SCHEMA_VERSION)
    paper = "paper:dddddddddddd"
    add_paper(
        G,
        paper,
        f"{HOSTILE}. Second sentence.",
        label=f"L{HOSTILE}",
        area=f"A{HOSTILE}",
        authors=[("author:evil", f"Eve {HOSTILE}"), ("author:ok", "Ok Person")],
    )
    method = add_entity(G, schema.METHOD, f"M{HOSTILE}", [f"alias{HOSTILE}"])
    data = add_entity(G, schema.DATASET, f"D{HOSTILE}")
    mention(G, paper, method, schema.PROPOSES, f"evidence {HOSTILE}")
    mention(G, paper, data, schema.EVALUATED_ON, f"evidence {HOSTILE}")
    applied(G, method, data, [paper])
    return G


def random_graph(n_papers, *, authors_per_paper=3, seed=0):
    """``n_papers`` papers whose author lists overlap at random, for scale tests."""
    rng = random.Random(seed)
    G = nx.MultiDiGraph(schema_version=schema.SCHEMA_VERSION)
    pool = [(f"author:a{i:05d}", f"Author {i}") for i in range(n_papers)]
    for i in range(n_papers):
        add_paper(
            G,
            f"paper:{i:012x}",
            f"Paper {i} studies things. More.",
            label=f"P{i}",
            authors=rng.sample(pool, authors_per_paper),
        )
    return G


def reversed_copy(G):
    """The same graph with nodes and edges inserted in the opposite order."""
    H = nx.MultiDiGraph(**G.graph)
    H.add_nodes_from(reversed(list(G.nodes(data=True))))
    H.add_edges_from(reversed(list(G.edges(keys=True, data=True))))
    return H


# --- text ---------------------------------------------------------------------------------------


def test_node_tooltip_paper_has_label_authors_area_first_sentence():
    G = small_graph()
    assert node_tooltip(G, "paper:aaaaaaaaaaaa") == (
        "GRPO\nAuthors: Ada Lovelace, Bo Li\nArea: Machine Learning\nWe propose GRPO for reasoning."
    )


def test_node_tooltip_entity_has_type_aliases_paper_count():
    G = small_graph()
    assert node_tooltip(G, "method:grpo") == (
        "GRPO\nType: Method\nAliases: Group Relative Policy Optimization\nPapers: 1"
    )
    assert node_tooltip(G, "dataset:gsm8k").endswith("Type: Dataset\nPapers: 2")
    assert node_tooltip(G, "author:ada-lovelace") == "Ada Lovelace\nAuthor of 2 papers"
    assert node_tooltip(G, "author:di-ng") == "Di Ng\nAuthor of 1 paper"


def test_edge_tooltip_mention_shows_evidence():
    G = small_graph()
    assert edge_tooltip(G, "paper:bbbbbbbbbbbb", "dataset:math", schema.EVALUATED_ON) == (
        "EVALUATED_ON: We evaluate PPO on MATH and GSM8K."
    )
    assert (
        edge_tooltip(G, "method:ppo", "dataset:gsm8k", schema.APPLIED_TO)
        == "APPLIED_TO in 2 papers"
    )


def test_display_name_paper_without_label_uses_first_sentence():
    G = small_graph()
    assert display_name(G, "paper:bbbbbbbbbbbb") == "We evaluate PPO on MATH and GSM8K."
    assert display_name(G, "paper:cccccccccccc") == "A study of reward models for reasoning…"


# --- views --------------------------------------------------------------------------------------


def test_overview_keeps_top_nodes_by_degree_and_counts_what_it_shows():
    G = small_graph()
    view = views.overview(G, top=3)
    assert view.nodes == ("paper:aaaaaaaaaaaa", "paper:bbbbbbbbbbbb", "dataset:gsm8k")
    assert [(e.source, e.target) for e in view.edges] == [
        ("paper:aaaaaaaaaaaa", "dataset:gsm8k"),
        ("paper:bbbbbbbbbbbb", "dataset:gsm8k"),
    ]
    assert view.note == "Showing 3 of 13 nodes and 2 of 20 edges, the most connected by degree."


def test_coauthor_network_weights_edges_by_shared_papers():
    view = views.coauthor_network(small_graph())
    weights = {(e.source, e.target): e.weight for e in view.edges}
    assert weights == {
        ("author:ada-lovelace", "author:bo-li"): 1,
        ("author:ada-lovelace", "author:cy-wu"): 1,
        ("author:ada-lovelace", "author:di-ng"): 1,
        ("author:bo-li", "author:cy-wu"): 1,
        ("author:cy-wu", "author:di-ng"): 1,
    }
    assert set(view.nodes) == {
        "author:ada-lovelace",
        "author:bo-li",
        "author:cy-wu",
        "author:di-ng",
    }
    assert all(e.arrows == "" for e in view.edges)


def test_coauthor_network_counts_repeat_collaborations():
    G = small_graph()
    add_paper(
        G,
        "paper:eeeeeeeeeeee",
        "Another paper. Text.",
        authors=[("author:bo-li", "Bo Li"), ("author:cy-wu", "Cy Wu")],
    )
    weights = {(e.source, e.target): e.weight for e in views.coauthor_network(G).edges}
    assert weights[("author:bo-li", "author:cy-wu")] == 2


def test_capped_view_keeps_centre_and_says_what_it_left_out():
    G = random_graph(50)
    authors = [k for k, kind in G.nodes(data="kind") if kind == schema.AUTHOR]
    view = views.coauthor_view(G, "some", "Some authors", authors, limit=10)
    assert len(view.nodes) == 10
    assert re.fullmatch(
        r"10 of \d+ authors, \d+ co-author links \(edge width = shared papers\)\. "
        r"Left out \d+ nodes of degree \d+ or lower \(this page shows at most 10\)\.",
        view.note,
    ), view.note
    authors = [k for k, kind in G.nodes(data="kind") if kind == schema.AUTHOR]
    least = views.by_degree(G, authors)[-1]
    network = views.coauthor_network(G, limit=10)
    assert len(network.nodes) == 10 and network.note.startswith(
        "The 10 best connected of the 47 authors in the largest group of co-authors "
        "(47 authors in all, 0 other groups), coloured by community "
    )
    nodes, note = views.capped(G, authors, limit=3, keep=[least])
    assert least in nodes and len(nodes) == 3


def test_method_dataset_whole_and_centred():
    G = small_graph()
    whole = views.method_dataset(G)
    assert set(whole.nodes) == {"method:grpo", "method:ppo", "dataset:gsm8k", "dataset:math"}
    assert {(e.source, e.target, e.weight) for e in whole.edges} == {
        ("method:grpo", "dataset:gsm8k", 1),
        ("method:ppo", "dataset:gsm8k", 2),
        ("method:ppo", "dataset:math", 1),
    }
    tooltips = {(e.source, e.target): e.tooltip for e in whole.edges}
    assert tooltips["method:ppo", "dataset:gsm8k"] == (
        "PPO applied to GSM8K in 2 papers: GRPO; paper:bbbbbbbbbbbb\n"
        "Evidence: It beats PPO on GSM8K."
    )


def test_method_and_dataset_pages_centre_on_their_node():
    G = small_graph()
    ppo = views.method_page(G, "method:ppo")
    assert (ppo.name, ppo.highlight) == ("method-ppo", ("method:ppo",))
    assert set(ppo.nodes) == {"method:ppo", "dataset:gsm8k", "dataset:math"}
    assert ppo.title == "Method PPO: where it was applied"
    math = views.dataset_page(G, "dataset:math")
    assert (math.name, math.nodes, math.highlight) == (
        "dataset-math",
        ("method:ppo", "dataset:math"),
        ("dataset:math",),
    )
    assert [(e.source, e.target, e.weight) for e in math.edges] == [
        ("method:ppo", "dataset:math", 1)
    ]


def test_author_neighbourhood_follows_depth_and_highlights_author():
    G = small_graph()
    add_paper(
        G,
        "paper:ffffffffffff",
        "Far away. Text.",
        authors=[("author:di-ng", "Di Ng"), ("author:far", "Far Person")],
    )
    one = views.author_neighbourhood(G, "author:bo-li", depth=1)
    assert set(one.nodes) == {"author:bo-li", "author:ada-lovelace", "author:cy-wu"}
    assert one.highlight == ("author:bo-li",) and one.name == "author-bo-li-depth-1"
    assert one.note.startswith("3 of 3 authors within 1 step of Bo Li, 3 co-author links")
    two = views.author_neighbourhood(G, "author:bo-li", depth=2)
    assert set(two.nodes) == {"author:bo-li", "author:ada-lovelace", "author:cy-wu", "author:di-ng"}
    three = views.author_neighbourhood(G, "author:bo-li", depth=3)
    assert "author:far" in three.nodes


def test_related_papers_shows_shared_concepts_with_evidence():
    G = small_graph()
    view = views.related_papers(G, "paper:cccccccccccc")
    assert set(view.nodes) == {"paper:cccccccccccc", "paper:aaaaaaaaaaaa", "concept:reasoning"}
    assert sorted((e.source, e.target, e.tooltip) for e in view.edges) == [
        ("paper:aaaaaaaaaaaa", "concept:reasoning", "MENTIONS: We propose GRPO for reasoning."),
        (
            "paper:cccccccccccc",
            "concept:reasoning",
            "MENTIONS: A study of reward models for reasoning.",
        ),
    ]
    assert view.note == (
        "The 1 papers most related to this one (by title and abstract, raised by shared "
        "specific concepts) and the 1 concepts they share."
    )
    view = views.related_papers(G, "paper:aaaaaaaaaaaa", top=1)
    assert "paper:bbbbbbbbbbbb" in view.nodes and "paper:cccccccccccc" not in view.nodes


def test_focus_views_look_names_up_forgivingly():
    G = small_graph()
    found = focus_views(
        G,
        author="ada lovelace",
        depth=2,
        method="ppo",
        dataset="gsm-8k",
        paper="GRPO",
        concept="Reasoning",
    )
    assert [v.name for v in found] == [
        "author-ada-lovelace-depth-2",
        "method-ppo",
        "dataset-gsm8k",
        "paper-aaaaaaaaaaaa",
        "mentions-concept-reasoning",
    ]


def test_write_pages_unknown_name_suggests_and_writes_nothing(tmp_path):
    with pytest.raises(
        NotFound, match=r"no author named 'Ada Lovelase'; did you mean: Ada Lovelace\?"
    ):
        write_pages(small_graph(), tmp_path / "out", author="Ada Lovelase")
    assert not (tmp_path / "out").exists()


def test_concept_papers_shows_mentions_with_evidence():
    view = views.concept_papers(small_graph(), "concept:reasoning")
    assert view.name == "mentions-concept-reasoning"
    assert set(view.nodes) == {"concept:reasoning", "paper:aaaaaaaaaaaa", "paper:cccccccccccc"}
    assert sorted(e.tooltip for e in view.edges) == [
        "MENTIONS: A study of reward models for reasoning.",
        "MENTIONS: We propose GRPO for reasoning.",
    ]


# --- rendering ----------------------------------------------------------------------------------


class Elements(HTMLParser):
    """The start tags of an HTML document and the names of their attributes."""

    def __init__(self, text):
        super().__init__()
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, tuple(name for name, _ in attrs)))


def hostile_views(G):
    method = next(k for k, kind in G.nodes(data="kind") if kind == schema.METHOD)
    dataset = next(k for k, kind in G.nodes(data="kind") if kind == schema.DATASET)
    return standard_views(G) + [
        views.concept_papers(G, method),
        views.method_page(G, method),
        views.dataset_page(G, dataset),
        views.related_papers(G, "paper:dddddddddddd"),
        views.author_neighbourhood(G, "author:evil"),
    ]


def test_render_escapes_hostile_text_everywhere():
    G = hostile_graph()
    expected = Elements(render(small_graph(), views.overview(small_graph()))).tags
    for view in hostile_views(G):
        html = render(G, view)
        tags = Elements(html).tags
        assert [t for t in tags if t[0] in ("script", "img", "iframe", "object")] == [
            ("script", ("id", "type")),  # the block of links, JSON
            ("script", ()),
            ("script", ()),
        ]
        assert not [t for t in tags if any(a.startswith("on") for a in t[1])], view.name
        assert {t for t in tags if t[0] != "span" and t[0] != "b"} <= set(expected), view.name
        assert "\\u003cscript\\u003ewindow.__xss=1" in html


def test_render_title_is_escaped():
    G = hostile_graph()
    html = render(
        G,
        views.concept_papers(
            G,
            "method:m-script-window-xss-1-script-img-src-x-onerror-window-xss-1-quoted-single-amp",
        ),
    )
    assert "<title>Method M&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img" in html


def test_render_is_offline():
    G = small_graph()
    html = render(G, views.overview(G))
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html, re.I)
    assert "bootstrap" not in html.lower() and "<link" not in html
    assert "default-src 'none'" in html


def test_write_views_is_deterministic(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    G = small_graph()
    first = write_views(G, tmp_path / "a", standard_views(G))
    second = write_views(reversed_copy(G), tmp_path / "b", standard_views(reversed_copy(G)))
    assert [p.name for p in first] == [
        "index.html",
        "overview.html",
        "coauthors.html",
        "methods-datasets.html",
    ]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_kg_viz_gives_same_bytes_under_different_hash_seeds(tmp_path):
    graph = tmp_path / "small.kg"
    save_graph(small_graph(), graph)
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / f"pages-{seed}"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "kg.cli",
                "viz",
                "-g",
                str(graph),
                "-o",
                str(out),
                "--author",
                "Bo Li",
                "--paper",
                "GRPO",
                "--concept",
                "reasoning",
                "--dataset",
                "GSM8K",
            ],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": "1767225600"},
        )
        outputs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert len(outputs[0]) == 8 and outputs[0] == outputs[1]


def test_index_links_every_page_and_escapes(tmp_path):
    G = hostile_graph()
    page_views = [
        *standard_views(G),
        views.concept_papers(
            G,
            "dataset:d-script-window-xss-1-script-img-src-x-onerror-window-xss-1-quoted-single-amp",
        ),
    ]
    index = write_views(G, tmp_path, page_views)[0].read_text()
    assert re.findall(r'href="([^"]+)"', index) == [f"{v.name}.html" for v in page_views]
    assert "<script" not in index and "Dataset D&lt;script&gt;" in index


# --- in the browser -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    if UNAVAILABLE:
        pytest.skip(UNAVAILABLE)
    with Browser() as b:
        yield b


def open_page(browser, path):
    """Open a page, wait for its layout to finish, and return the tab."""
    page = browser.new_page()
    page.open(path, ready="window.kgReady")
    return page


def counts(page):
    return page.evaluate("[kgNetwork.body.data.nodes.length, kgNetwork.body.data.edges.length]")


def hover_tooltip(page, node):
    """Zoom in on ``node``, move the mouse onto it and return the text of the tooltip that
    appears."""
    x, y = page.evaluate(
        f"""(() => {{ kgNetwork.focus({node!r}, {{scale: 2.5, animation: false}});
        const p = kgNetwork.canvasToDOM(kgNetwork.getPositions([{node!r}])[{node!r}]);
        const r = document.getElementById('network').getBoundingClientRect();
        return [p.x + r.left, p.y + r.top]; }})()"""
    )
    page.hover(x - 3, y - 3)
    page.hover(x, y)
    page.wait_for(
        "document.querySelector('div.vis-tooltip') && "
        "document.querySelector('div.vis-tooltip').style.visibility === 'visible'"
    )
    return page.evaluate("document.querySelector('div.vis-tooltip').innerText")


def hover_edge_tooltip(page, source, target):
    """Zoom in on an edge, move the mouse onto its midpoint and return its tooltip's text."""
    x, y = page.evaluate(
        f"""(() => {{ const ps = kgNetwork.getPositions([{source!r}, {target!r}]);
        const mid = {{x: (ps[{source!r}].x + ps[{target!r}].x) / 2,
                     y: (ps[{source!r}].y + ps[{target!r}].y) / 2}};
        kgNetwork.moveTo({{position: mid, scale: 2, animation: false}});
        const p = kgNetwork.canvasToDOM(mid);
        const r = document.getElementById('network').getBoundingClientRect();
        return [p.x + r.left, p.y + r.top]; }})()"""
    )
    page.hover(x - 3, y - 3)
    page.hover(x, y)
    page.wait_for(
        "document.querySelector('div.vis-tooltip') && "
        "document.querySelector('div.vis-tooltip').style.visibility === 'visible'"
    )
    return page.evaluate("document.querySelector('div.vis-tooltip').innerText")


def assert_clean(page):
    assert page.console_errors == [] and page.exceptions == []
    assert page.requests == [page.url], "the page made network requests"


@needs_chromium
def test_pages_load_offline_without_errors(browser, tmp_path):
    G = small_graph()
    page_views = standard_views(G) + focus_views(
        G, author="Bo Li", method="PPO", dataset="GSM8K", paper="GRPO", concept="reasoning"
    )
    write_pages(
        G,
        tmp_path,
        author="Bo Li",
        method="PPO",
        dataset="GSM8K",
        paper="GRPO",
        concept="reasoning",
    )
    for view in page_views:
        page = open_page(browser, tmp_path / f"{view.name}.html")
        assert counts(page) == [len(view.nodes), len(view.edges)], view.name
        assert page.evaluate("kgNetwork.physics.physicsEnabled") is False, (
            "physics stops after stabilising"
        )
        assert_clean(page)


@needs_chromium
def test_empty_page_says_so(browser, tmp_path):
    G = nx.MultiDiGraph(schema_version=schema.SCHEMA_VERSION)
    add_paper(G, "paper:aaaaaaaaaaaa", "Alone. Here.", authors=[("author:x", "X")])
    write_pages(G, tmp_path)
    page = open_page(browser, tmp_path / "methods-datasets.html")
    assert counts(page) == [0, 0]
    assert page.evaluate("document.getElementById('status').textContent") == "nothing to show"
    assert_clean(page)


@needs_chromium
def test_tooltip_of_known_node_shows_its_text(browser, tmp_path):
    G = small_graph()
    write_views(G, tmp_path, standard_views(G))
    page = open_page(browser, tmp_path / "overview.html")
    text = hover_tooltip(page, "paper:aaaaaaaaaaaa")
    assert (
        text == "GRPO\nAuthors: Ada Lovelace, Bo Li\nArea: Machine Learning\n"
        "We propose GRPO for reasoning."
    )
    write_pages(G, tmp_path, concept="reasoning")
    page = open_page(browser, tmp_path / "mentions-concept-reasoning.html")
    text = hover_edge_tooltip(page, "paper:cccccccccccc", "concept:reasoning")
    assert text == "MENTIONS: A study of reward models for reasoning."


@needs_chromium
def test_search_box_selects_and_focuses_node(browser, tmp_path):
    G = small_graph()
    write_views(G, tmp_path, standard_views(G))
    page = open_page(browser, tmp_path / "overview.html")

    def search(text):
        page.evaluate(
            f"(() => {{ const s = document.getElementById('search'); s.value = {text!r}; "
            "s.dispatchEvent(new Event('change')); })()"
        )
        return page.evaluate("kgNetwork.getSelectedNodes()"), page.evaluate(
            "document.getElementById('status').textContent"
        )

    assert search("ada") == (["author:ada-lovelace"], "")
    assert search("in large language models") == (["paper:cccccccccccc"], "")
    assert search("no such thing") == (["paper:cccccccccccc"], "no node matches")


@needs_chromium
def test_hostile_text_executes_nothing_and_shows_as_text(browser, tmp_path):
    G = hostile_graph()
    page_views = hostile_views(G)
    write_views(G, tmp_path, page_views)
    for path in [tmp_path / "index.html", *(tmp_path / f"{v.name}.html" for v in page_views)]:
        page = browser.new_page()
        page.open(path, ready="document.readyState === 'complete'")
        if path.name != "index.html":
            page.wait_for("window.kgReady")
        assert page.evaluate("window.__xss") is None, path.name
        assert page.evaluate("document.querySelectorAll('img, script').length") == (
            0 if path.name == "index.html" else 3  # the block of links, vis-network, ours
        )
        assert_clean(page)
    page = open_page(browser, tmp_path / "overview.html")
    assert hover_tooltip(page, "paper:dddddddddddd").startswith(
        f"L{HOSTILE}\nAuthors: Eve {HOSTILE}, Ok Person"
    )
    page = open_page(browser, tmp_path / f"{page_views[3].name}.html")
    assert (
        page.evaluate("document.querySelector('h1').textContent")
        == f"Method M{HOSTILE}: its papers"
    )
    assert page.evaluate("window.__xss") is None


@needs_chromium
def test_two_thousand_nodes_render_in_reasonable_time(browser, tmp_path):
    G = random_graph(1500)
    view = views.overview(G, top=5000)
    assert len(view.nodes) == 2000 and view.note.endswith("A page holds at most 2,000 nodes.")
    write_views(G, tmp_path, [view])
    start = time.monotonic()
    page = open_page(browser, tmp_path / "overview.html")
    seconds = time.monotonic() - start
    print(f"2,000 nodes, {len(view.edges):,} edges: laid out and still in {seconds:.1f} s")
    assert counts(page) == [2000, len(view.edges)]
    assert seconds < 90
    assert_clean(page)


@needs_chromium
def test_seed_graph_pages_in_browser_with_screenshot(browser, seed_graph, tmp_path):
    G = seed_graph
    paths = write_pages(G, tmp_path, author="Julia Kempe", depth=2)
    page = open_page(browser, tmp_path / "overview.html")
    view = views.overview(G)
    assert counts(page) == [len(view.nodes), len(view.edges)] and len(view.nodes) == 150
    page.evaluate("kgNetwork.fit()")
    page.screenshot(ARTIFACTS / "overview-seed.png")
    top = view.nodes[0]
    assert hover_tooltip(page, top) == node_tooltip(G, top)
    assert_clean(page)
    page = open_page(browser, tmp_path / "author-juliakempe-depth-2.html")
    assert hover_tooltip(page, "author:juliakempe") == "Julia Kempe\nAuthor of 3 papers"
    assert page.evaluate("kgNetwork.getSelectedNodes()") == ["author:juliakempe"]
    assert_clean(page)
    assert len(paths) == 5


def test_cli_viz_writes_pages_and_reports_unknown_names(tmp_path, capsys):
    graph = tmp_path / "small.kg"
    save_graph(small_graph(), graph)
    assert (
        main(
            [
                "viz",
                "-g",
                str(graph),
                "-o",
                str(tmp_path / "pages"),
                "--top",
                "5",
                "--method",
                "ppo",
            ]
        )
        == 0
    )
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == [
        "coauthors.html",
        "index.html",
        "method-ppo.html",
        "methods-datasets.html",
        "overview.html",
    ]
    assert "Showing 5 of 13 nodes" in (tmp_path / "pages" / "overview.html").read_text()
    assert capsys.readouterr().out == f"Wrote 5 pages; open {tmp_path / 'pages' / 'index.html'}\n"
    assert (
        main(["viz", "-g", str(graph), "-o", str(tmp_path / "more"), "--dataset", "imagenet"]) == 1
    )
    assert capsys.readouterr().err == "kg: error: no dataset or benchmark named 'imagenet'\n"
    with pytest.raises(SystemExit):
        main(
            [
                "viz",
                "-g",
                str(graph),
                "-o",
                str(tmp_path / "more"),
                "--author",
                "Bo Li",
                "--depth",
                "0",
            ]
        )
    assert "--depth: expected a whole number from 1 to 3, got '0'" in capsys.readouterr().err
    assert not (tmp_path / "more").exists()
    (tmp_path / "file").write_text("not a folder")
    assert main(["viz", "-g", str(graph), "-o", str(tmp_path / "file" / "pages")]) == 1
    assert capsys.readouterr().err.startswith(
        f"kg: error: cannot write the pages folder {tmp_path / 'file' / 'pages'}: "
    )
