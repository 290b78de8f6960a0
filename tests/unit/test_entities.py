"""The entity layer's nodes (kg/graph/entities.py): names and aliases."""

from dataclasses import replace

from kg import schema as S
from kg.extractors.choose import SHARED_HEAD
from kg.extractors.records import Mention
from kg.graph.entities import add_entity_layer
from kg.graph.papers import new_graph
from kg.graph.resolve import resolve_corpus


def mention(kind, name, *, sentence, start, rule="lexicon", score=0.9):
    """A mention of ``name``, written so, at ``start`` in ``sentence``."""
    return Mention(
        type=kind,
        text=name,
        canonical=name,
        start=start,
        end=start + len(name),
        sentence=sentence,
        rule=rule,
        score=score,
    )


def layer_of(*papers):
    """The entity layer of papers ``paper:p``, ``paper:q``, ... with these mentions."""
    G = new_graph()
    items = [(f"paper:{chr(ord('p') + i)}", ms) for i, ms in enumerate(papers)]
    for key, _ in items:
        G.add_node(key, kind=S.PAPER)
    add_entity_layer(G, items)
    return G


def test_the_modifier_a_shared_head_mention_covers_is_no_alias():
    sentence = "We study binary and multiclass classification."
    whole = mention(S.TASK, "multiclass classification", sentence=sentence, start=20)
    # "binary" stands for "binary classification": its own text names nothing.
    binary = replace(whole, text="binary", canonical="binary classification", start=9, end=15)
    binary = replace(binary, rule=SHARED_HEAD, aliases=("binary",))
    written = replace(
        binary, text="binary classifiers", rule="lexicon", aliases=(), start=50, end=68
    )
    G = layer_of([binary, whole], [written])
    assert G.nodes["task:binary-classification"]["aliases"] == ["binary classifiers"]


def test_a_shared_head_mention_merged_into_another_leaves_no_alias():
    sentence = "We use word embeddings, then learn word and sentence embeddings."
    written = mention(S.METHOD, "word embedding", sentence=sentence, start=7)
    written = replace(written, text="word embeddings", end=22)
    modifier = replace(written, text="word", rule=SHARED_HEAD, start=35, end=39)
    [(_, merged)] = resolve_corpus([("paper:p", [written, modifier])])
    assert len(merged) == 1
    G = layer_of(merged)
    assert G.nodes["method:word-embedding"]["aliases"] == ["word embeddings"]


def test_a_word_cut_at_a_line_break_hyphen_is_no_alias():
    sentence = "It is obtained in a PAC- Bayesian framework."
    cut = replace(mention(S.TASK, "PAC learning", sentence=sentence, start=20), text="PAC-")
    G = layer_of([cut, replace(cut, text="PAC-learning", start=60, end=72)])
    assert G.nodes["task:pac-learning"]["aliases"] == ["PAC-learning"]


def test_a_number_or_size_alone_is_no_alias():
    sentence = "We tune Llama-2-7B and 13B."
    size = replace(
        mention(S.METHOD, "Llama-2-13B", sentence=sentence, start=23), text="13B", end=26
    )
    spelt = replace(size, text="Llama 2 13B", start=40, end=51)
    G = layer_of([size], [spelt])
    assert G.nodes["method:llama-2-13b"]["aliases"] == ["Llama 2 13B"]


def test_task_names_one_adjective_apart_are_one_task():
    def task(name):
        sentence = f"We study {name}."
        return mention(S.TASK, name, sentence=sentence, start=9, rule="task-phrase", score=0.7)

    items = resolve_corpus(
        [
            ("paper:a", [task("logical reasoning")]),
            ("paper:b", [task("logical reasoning")]),
            ("paper:c", [task("logic reasoning")]),
            ("paper:d", [task("text summarization")]),
            ("paper:e", [task("summarization")]),
        ]
    )
    names = [m.canonical for _, ms in items for m in ms]
    assert names == [*["logical reasoning"] * 3, "text summarization", "summarization"]
