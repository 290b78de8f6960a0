"""Small graphs built by hand following the graph conventions, for the Neo4j and export tests."""

import networkx as nx

from kg.schema import (
    ADDRESSES,
    APPLIED_TO,
    AREA,
    AUTHOR,
    AUTHORED,
    BENCHMARK,
    CONCEPT,
    DATASET,
    EVALUATED_ON,
    IN_AREA,
    MENTIONS,
    METHOD,
    PAPER,
    PART_OF,
    PROPOSES,
    SCHEMA_VERSION,
    TASK,
    USES,
    area_key,
    content_hash,
    entity_key,
)

ABSTRACTS = {
    "grpo": "We propose GRPO, a policy optimisation method. GRPO beats PPO on GSM8K and MATH.",
    "lora": "We use LoRA to fine-tune models on MNLI from GLUE for natural language inference.",
    "mix": 'We compare PPO and LoRA on GSM8K; reasoning improves with "quoted" text and ü.',
}
AUTHORS = {
    "grpo": ["Ada Lovelace", "Alan Turing"],
    "lora": ["Alan Turing", "Grace Hopper"],
    "mix": ["Grace Hopper", "Ada Lovelace", "Edsger Dijkstra"],
}


def author_key(name):
    return "author:" + " ".join(name.casefold().split())


def paper(name):
    return f"paper:{content_hash(ABSTRACTS[name])}"


def add_entity(G, kind, name, *, aliases=(), long_form=None):
    key = entity_key(kind, name)
    G.add_node(key, kind=kind, name=name, aliases=sorted(aliases), long_form=long_form)
    return key


def add_mention(G, paper_key, rel, entity, text, *, rule="lexicon", score=0.9):
    abstract = G.nodes[paper_key]["abstract"]
    start = abstract.index(text)
    sentence = next(s for s in abstract.split(". ") if text in s)
    G.add_edge(
        paper_key,
        entity,
        key=rel,
        evidence=sentence,
        start=start,
        end=start + len(text),
        text=text,
        rule=rule,
        score=score,
    )


def small_graph():
    """Three papers, four authors, methods, datasets, a benchmark, a task, a concept, an area."""
    G = nx.MultiDiGraph(schema_version=SCHEMA_VERSION)
    area = area_key("Reinforcement Learning")
    G.add_node(area, kind=AREA, name="Reinforcement Learning")
    for index, (name, abstract) in enumerate(ABSTRACTS.items()):
        key = paper(name)
        G.add_node(
            key,
            kind=PAPER,
            abstract=abstract,
            title=f"On {name}",
            label=None,
            area="Reinforcement Learning",
            sources=[f"seed.txt#{index}"],
            hash=content_hash(abstract),
            venue="Test",
            year=2024,
        )
        G.add_edge(key, area, key=IN_AREA)
        for position, author in enumerate(AUTHORS[name], start=1):
            G.add_node(author_key(author), kind=AUTHOR, name=author, variants=[author])
            G.add_edge(
                author_key(author), key, key=AUTHORED, position=position, truncated_list=False
            )
    grpo = add_entity(G, METHOD, "GRPO", long_form="Group Relative Policy Optimization")
    ppo = add_entity(G, METHOD, "PPO")
    lora = add_entity(G, METHOD, "LoRA", aliases=["Low-Rank Adaptation"])
    gsm8k = add_entity(G, DATASET, "GSM8K")
    math = add_entity(G, DATASET, "MATH")
    mnli = add_entity(G, DATASET, "MNLI")
    glue = add_entity(G, BENCHMARK, "GLUE")
    nli = add_entity(G, TASK, "natural language inference")
    reasoning = entity_key(CONCEPT, "reasoning")
    G.add_node(reasoning, kind=CONCEPT, name="reasoning")
    G.nodes[paper("grpo")]["label"] = "GRPO"
    add_mention(G, paper("grpo"), PROPOSES, grpo, "GRPO")
    add_mention(G, paper("grpo"), USES, ppo, "PPO")
    add_mention(G, paper("grpo"), EVALUATED_ON, gsm8k, "GSM8K")
    add_mention(G, paper("grpo"), EVALUATED_ON, math, "MATH")
    add_mention(G, paper("lora"), USES, lora, "LoRA")
    add_mention(G, paper("lora"), EVALUATED_ON, mnli, "MNLI")
    add_mention(G, paper("lora"), EVALUATED_ON, glue, "GLUE")
    add_mention(G, paper("lora"), ADDRESSES, nli, "natural language inference")
    add_mention(G, paper("mix"), USES, ppo, "PPO")
    add_mention(G, paper("mix"), USES, lora, "LoRA")
    add_mention(G, paper("mix"), EVALUATED_ON, gsm8k, "GSM8K")
    add_mention(G, paper("mix"), MENTIONS, reasoning, "reasoning", rule="keyphrase", score=0.4)
    G.add_edge(mnli, glue, key=PART_OF)
    applied = {
        (grpo, gsm8k): ["grpo"],
        (grpo, math): ["grpo"],
        (ppo, gsm8k): ["grpo", "mix"],
        (ppo, math): ["grpo"],
        (lora, mnli): ["lora"],
        (lora, glue): ["lora"],
        (lora, gsm8k): ["mix"],
    }
    for (method, dataset), papers in applied.items():
        keys = sorted(paper(p) for p in papers)
        G.add_edge(method, dataset, key=APPLIED_TO, **applied_props(G, keys, dataset))
    return G


def applied_props(G, keys, dataset):
    """APPLIED_TO properties of ``keys`` (sorted paper keys): each paper's evidence is its
    sentence naming ``dataset``."""
    evidence = []
    for key in keys:
        (attrs,) = G.get_edge_data(key, dataset).values()
        abstract = G.nodes[key]["abstract"]
        start = abstract.index(attrs["evidence"])
        evidence.append((attrs["evidence"], f"{start}:{start + len(attrs['evidence'])}"))
    return {
        "papers": len(keys),
        "paper_keys": keys,
        "score": float(len(keys)),
        "evidence": [e for e, _ in evidence],
        "evidence_at": [at for _, at in evidence],
    }


def reingest_lora(G):
    """The LoRA paper re-ingested: LoRA now evaluated on GSM8K only, MNLI/GLUE/NLI gone from it."""
    G = G.copy()
    key = paper("lora")
    for target, rel in [
        (entity_key(DATASET, "MNLI"), EVALUATED_ON),
        (entity_key(BENCHMARK, "GLUE"), EVALUATED_ON),
        (entity_key(TASK, "natural language inference"), ADDRESSES),
    ]:
        G.remove_edge(key, target, key=rel)
    lora = entity_key(METHOD, "LoRA")
    for dataset in ("MNLI", "GLUE"):
        target = entity_key(DATASET if dataset == "MNLI" else BENCHMARK, dataset)
        G.remove_edge(lora, target, key=APPLIED_TO)
    G.remove_edge(entity_key(DATASET, "MNLI"), entity_key(BENCHMARK, "GLUE"), key=PART_OF)
    for orphan in ("dataset:mnli", "benchmark:glue", "task:natural-language-inference"):
        G.remove_node(orphan)
    G.remove_edge(author_key("Alan Turing"), key, key=AUTHORED)
    G.nodes[key]["title"] = None
    G.add_edge(
        key,
        entity_key(DATASET, "GSM8K"),
        key=EVALUATED_ON,
        evidence="We use LoRA",
        start=0,
        end=5,
        text="GSM8K",
        rule="lexicon",
        score=0.8,
    )
    gsm8k = entity_key(DATASET, "GSM8K")
    G.edges[lora, gsm8k, APPLIED_TO].update(applied_props(G, sorted([key, paper("mix")]), gsm8k))
    return G
