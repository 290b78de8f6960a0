"""The entity layer's nodes (kg/graph/entities.py): names and aliases."""

from dataclasses import replace

from kg import schema as S
from kg.extractors.choose import SHARED_HEAD
from kg.extractors.records import Mention
from kg.graph.entities import add_entity_layer
from kg.graph.papers import new_graph


def test_the_modifier_a_shared_head_mention_covers_is_no_alias():
    sentence = "We study binary and multiclass classification."
    whole = Mention(
        type=S.TASK,
        text="multiclass classification",
        canonical="multiclass classification",
        start=20,
        end=45,
        sentence=sentence,
        rule="lexicon",
        score=0.9,
    )
    # "binary" stands for "binary classification": its own text names nothing.
    binary = replace(whole, text="binary", canonical="binary classification", start=9, end=15)
    binary = replace(binary, rule=SHARED_HEAD, aliases=("binary",))
    written = replace(
        binary, text="binary classifiers", rule="lexicon", aliases=(), start=50, end=68
    )
    G = new_graph()
    G.add_node("paper:p", kind=S.PAPER)
    G.add_node("paper:q", kind=S.PAPER)
    add_entity_layer(G, [("paper:p", [binary, whole]), ("paper:q", [written])])
    assert G.nodes["task:binary-classification"]["aliases"] == ["binary classifiers"]


def test_a_number_or_size_alone_is_no_alias():
    sentence = "We tune Llama-2-7B and 13B."
    size = Mention(
        type=S.METHOD,
        text="13B",
        canonical="Llama-2-13B",
        start=23,
        end=26,
        sentence=sentence,
        rule="lexicon",
        score=0.9,
    )
    spelt = replace(size, text="Llama 2 13B", start=40, end=51)
    G = new_graph()
    G.add_node("paper:p", kind=S.PAPER)
    G.add_node("paper:q", kind=S.PAPER)
    add_entity_layer(G, [("paper:p", [size]), ("paper:q", [spelt])])
    assert G.nodes["method:llama-2-13b"]["aliases"] == ["Llama 2 13B"]


def test_task_names_one_adjective_apart_are_one_task():
    from kg.graph.resolve import resolve_corpus

    def task(name):
        sentence = f"We study {name}."
        return Mention(
            type=S.TASK,
            text=name,
            canonical=name,
            start=9,
            end=9 + len(name),
            sentence=sentence,
            rule="task-phrase",
            score=0.7,
        )

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
