"""One node per thing across types (kg/graph/kinds.py)."""

from kg import schema as S
from kg.extractors.records import Mention
from kg.graph.entities import add_entity_layer
from kg.graph.kinds import merge, summarise, unify_types
from kg.graph.papers import new_graph


def m(kind, name, rule="lexicon", part_of=()):
    return Mention(
        type=kind,
        text=name,
        canonical=name,
        start=0,
        end=len(name),
        sentence=name,
        rule=rule,
        score=0.9,
        part_of=part_of,
    )


def types_of(resolved):
    return {(x.type, x.canonical) for _, ms in resolved for x in ms}


def test_a_name_typed_several_ways_gets_its_strongest_type_and_keeps_the_others():
    items = [
        ("p1", [m("Benchmark", "MLQA")]),
        ("p2", [m("Method", "MLQA", "coined-name")]),
        ("p3", [m("Task", "MLQA", "task-phrase")]),
        ("p4", [m("Method", "event detection", "coined-name")]),
        ("p5", [m("Task", "event detection", "task-phrase")]),
        ("p6", [m("Task", "Event detection", "task-noun")]),
    ]
    resolved, others = unify_types(items)
    assert types_of(resolved) == {("Benchmark", "MLQA"), ("Task", "event detection")}
    assert others == {"benchmark:mlqa": ["Method", "Task"], "task:event-detection": ["Method"]}


def test_a_collection_and_the_task_named_after_it_both_well_attested_stay_two():
    items = [(f"d{i}", [m("Dataset", "FooQA")]) for i in range(4)]
    items += [(f"t{i}", [m("Task", "FooQA")]) for i in range(3)]
    items += [("x", [m("Method", "FooQA", "coined-name")])]
    resolved, others = unify_types(items)
    assert types_of(resolved) == {("Dataset", "FooQA"), ("Task", "FooQA")}
    assert others == {"dataset:fooqa": ["Method"]}
    weak = items[:4] + [("t", [m("Task", "FooQA", "task-phrase")])]
    assert types_of(unify_types(weak)[0]) == {("Dataset", "FooQA")}


def test_votes_merge_in_any_order():
    papers = [[m("Dataset", "Zed")], [m("Benchmark", "Zed", "title-case")], [m("Task", "Zed")]]
    one = merge(merge(summarise(papers[0]), summarise(papers[1])), summarise(papers[2]))
    other = merge(summarise(papers[2]), merge(summarise(papers[1]), summarise(papers[0])))
    assert one == other


def test_a_benchmark_made_a_dataset_takes_the_part_of_links_and_leaves_no_empty_twin():
    items = [
        ("paper:a", [m("Dataset", "ImageNet-1K", part_of=("ImageNet",))]),
        ("paper:b", [m("Dataset", "ImageNet")]),
        ("paper:c", [m("Dataset", "ImageNet")]),
    ]
    resolved, others = unify_types(items)
    G = new_graph()
    for paper, _ in items:
        G.add_node(paper, kind=S.PAPER)
    add_entity_layer(G, resolved, other_types=others)
    assert "benchmark:imagenet" not in G
    assert G.nodes["dataset:imagenet"]["other_types"] == ["Benchmark"]
    assert G.has_edge("dataset:imagenet-1k", "dataset:imagenet", S.PART_OF)
