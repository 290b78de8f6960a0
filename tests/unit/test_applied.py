"""APPLIED_TO pairs of one paper: evaluation sentences, proposed methods, background and
generic building blocks (sentences written for these tests)."""

from dataclasses import replace

import pytest

from kg.extractors.records import BENCHMARK, DATASET, METHOD, Mention
from kg.graph.applied import (
    PROPOSED_ELSEWHERE,
    SAME_SENTENCE,
    WEAK_SCORE,
    Evidence,
    paper_pairs,
)


def mentions(abstract, *names, proposed=()):
    """(key, Mention) of each (type, name) at its first occurrence in ``abstract``
    (``name@n``: its n-th occurrence)."""
    out = []
    for type_, spec in names:
        name, _, nth = spec.partition("@")
        start = -1
        for _ in range(int(nth or 1)):
            start = abstract.index(name, start + 1)
        out.append(
            (
                f"{type_.lower()}:{name.lower()}",
                Mention(
                    type=type_,
                    text=name,
                    canonical=name,
                    start=start,
                    end=start + len(name),
                    sentence="",
                    rule="test",
                    score=0.9,
                    role="proposed" if spec in proposed else "used",
                ),
            )
        )
    return out


def span(abstract, sentence):
    start = abstract.index(sentence)
    return start, start + len(sentence)


def test_applied_an_evaluation_sentence_pairs_the_methods_and_datasets_it_names():
    s1 = "We compare LayerSkip with ResNet-50 on CIFAR-10 and report top-1 accuracy."
    abstract = "Vision models are large. " + s1
    found = paper_pairs(
        abstract,
        mentions(abstract, (METHOD, "LayerSkip"), (METHOD, "ResNet-50"), (DATASET, "CIFAR-10")),
    )
    evidence = Evidence(SAME_SENTENCE, *span(abstract, s1), s1)
    assert found == {
        ("method:layerskip", "dataset:cifar-10"): evidence,
        ("method:resnet-50", "dataset:cifar-10"): evidence,
    }


@pytest.mark.parametrize(
    "sentence",
    [
        "Previous studies trained BERT on SQuAD and reported strong results.",
        "Recently, BERT has achieved state-of-the-art results on SQuAD.",
        "BERT was evaluated on SQuAD [12].",
        "BERT is fine-tuned on SQuAD (Devlin et al., 2019).",
        "BERT and SQuAD are described in the appendix.",
    ],
)
def test_applied_background_or_non_evaluation_sentences_make_no_pair(sentence):
    abstract = "We study reading. " + sentence
    found = paper_pairs(abstract, mentions(abstract, (METHOD, "BERT"), (DATASET, "SQuAD")))
    assert found == {}


@pytest.mark.parametrize("generic", ["CNN", "Adam", "dropout", "Transformers", "attention"])
def test_applied_generic_building_blocks_make_no_pair(generic):
    abstract = f"We train a {generic} on ImageNet and evaluate it on ImageNet-A."
    found = paper_pairs(
        abstract,
        mentions(abstract, (METHOD, generic), (DATASET, "ImageNet"), (DATASET, "ImageNet-A")),
    )
    assert found == {}


def test_applied_a_proposed_method_pairs_with_the_datasets_of_evaluation_sentences():
    s0 = "We introduce TinyHop, a sparse retriever for long queries."
    s1 = "Experiments on MS MARCO rerank the candidates of BM25 and gain three points."
    s2 = "Prior work indexed Wikipedia with BM25."
    abstract = " ".join([s0, s1, s2])
    found = paper_pairs(
        abstract,
        mentions(
            abstract,
            (METHOD, "TinyHop"),
            (METHOD, "BM25"),
            (BENCHMARK, "MS MARCO"),
            (DATASET, "Wikipedia"),
            (METHOD, "BM25@2"),
            proposed=("TinyHop",),
        ),
    )
    assert found == {
        ("method:tinyhop", "benchmark:ms marco"): Evidence(
            PROPOSED_ELSEWHERE, *span(abstract, s1), s1
        ),
        ("method:bm25", "benchmark:ms marco"): Evidence(SAME_SENTENCE, *span(abstract, s1), s1),
    }


def test_applied_a_used_method_of_another_sentence_makes_no_pair():
    abstract = "BM25 is a strong baseline. Experiments on MS MARCO show gains."
    found = paper_pairs(abstract, mentions(abstract, (METHOD, "BM25"), (BENCHMARK, "MS MARCO")))
    assert found == {}


def test_applied_the_first_evaluation_sentence_is_the_evidence():
    s0 = "We evaluate LoRA on GSM8K."
    s1 = "LoRA also improves GSM8K accuracy when trained longer."
    abstract = f"{s0} {s1}"
    found = paper_pairs(
        abstract,
        mentions(
            abstract, (METHOD, "LoRA"), (DATASET, "GSM8K"), (METHOD, "LoRA@2"), (DATASET, "GSM8K@2")
        ),
    )
    assert found == {("method:lora", "dataset:gsm8k"): Evidence(SAME_SENTENCE, 0, len(s0), s0)}


def test_applied_a_method_listed_among_datasets_is_no_pair():
    # "Clothing1M" typed as a method by mistake: one more item of the list of datasets.
    s0 = "We evaluate NoisyMix on CIFAR-10, SVHN and Clothing1M."
    found = paper_pairs(
        s0,
        mentions(
            s0,
            (METHOD, "NoisyMix"),
            (DATASET, "CIFAR-10"),
            (DATASET, "SVHN"),
            (METHOD, "Clothing1M"),
        ),
    )
    evidence = Evidence(SAME_SENTENCE, 0, len(s0), s0)
    assert found == {
        ("method:noisymix", "dataset:cifar-10"): evidence,
        ("method:noisymix", "dataset:svhn"): evidence,
    }


def test_applied_a_proposed_dataset_pairs_with_methods_evaluated_on_the_papers_own_data():
    s0 = "We introduce TabQuiz, a dataset of table puzzles."
    s1 = "We evaluate GPT-4 and Llama-2 on our new dataset and find large gaps."
    s2 = "GPT-4 writes fluent text."
    abstract = " ".join([s0, s1, s2])
    found = paper_pairs(
        abstract,
        mentions(
            abstract,
            (DATASET, "TabQuiz"),
            (METHOD, "GPT-4"),
            (METHOD, "Llama-2"),
            proposed=("TabQuiz",),
        ),
    )
    evidence = Evidence(PROPOSED_ELSEWHERE, *span(abstract, s1), s1)
    assert found == {
        ("method:gpt-4", "dataset:tabquiz"): evidence,
        ("method:llama-2", "dataset:tabquiz"): evidence,
    }


def test_applied_the_sentence_proposing_a_dataset_does_not_evaluate_the_proposed_method():
    s0 = "We propose SolverNet for table puzzles."
    s1 = "We also build TabQuiz to test solvers."
    abstract = f"{s0} {s1}"
    found = paper_pairs(
        abstract,
        mentions(
            abstract, (METHOD, "SolverNet"), (DATASET, "TabQuiz"), proposed=("SolverNet", "TabQuiz")
        ),
    )
    assert found == {}


@pytest.mark.parametrize(("role", "pairs"), [("used", 0), ("proposed", 1)])
def test_applied_a_weakly_found_method_pairs_only_when_the_paper_proposes_it(role, pairs):
    abstract = "We evaluate FooNet on CIFAR-10."
    (method, m), target = mentions(abstract, (METHOD, "FooNet"), (DATASET, "CIFAR-10"))
    weak = replace(m, score=WEAK_SCORE - 0.1, role=role)
    assert len(paper_pairs(abstract, [(method, weak), target])) == pairs


def test_applied_a_method_named_only_inside_a_longer_method_makes_no_pair():
    abstract = (
        "We propose the ladder capsule network. "
        "Experiments on MNIST show the ladder capsule network generalises."
    )
    found = paper_pairs(
        abstract,
        mentions(
            abstract,
            (METHOD, "ladder capsule network"),
            (METHOD, "capsule network@2"),
            (DATASET, "MNIST"),
            proposed=("ladder capsule network",),
        ),
    )
    assert set(found) == {("method:ladder capsule network", "dataset:mnist")}


def test_applied_a_dataset_named_after_the_method_makes_no_pair():
    abstract = "We evaluate RepoST and GPT-4 on RepoST-Eval."
    found = paper_pairs(
        abstract,
        mentions(abstract, (METHOD, "RepoST"), (METHOD, "GPT-4"), (DATASET, "RepoST-Eval")),
    )
    assert set(found) == {("method:gpt-4", "dataset:repost-eval")}


def test_applied_a_proposed_method_pairs_not_where_another_proposed_one_is_evaluated():
    abstract = (
        "We propose KID with a frame graph FKG. "
        "Experiments show that KID outperforms prior work on FrameNet."
    )
    found = paper_pairs(
        abstract,
        mentions(
            abstract,
            (METHOD, "KID"),
            (METHOD, "FKG"),
            (DATASET, "FrameNet"),
            proposed=("KID", "FKG"),
        ),
    )
    assert set(found) == {("method:kid", "dataset:framenet")}


def test_applied_a_method_pairs_not_across_a_clause_that_names_another_method():
    abstract = (
        "Our LogicLLM based on FLAN-T5 attains strong results, and evaluations with LLaMA "
        "on RACE show no loss."
    )
    found = paper_pairs(
        abstract, mentions(abstract, (METHOD, "FLAN-T5"), (METHOD, "LLaMA"), (DATASET, "RACE"))
    )
    assert set(found) == {("method:llama", "dataset:race")}


def test_applied_what_a_result_beats_is_no_pair_unless_proposed():
    abstract = "Experiments on ImageNet show that DenseNet outperforms previous ResNet models."
    names = [(METHOD, "DenseNet"), (METHOD, "ResNet"), (DATASET, "ImageNet")]
    # ResNet is what the result is compared with, not what the paper evaluates ...
    assert set(paper_pairs(abstract, mentions(abstract, *names))) == {
        ("method:densenet", "dataset:imagenet")
    }
    # ... unless the paper proposes it.
    found = paper_pairs(abstract, mentions(abstract, *names, proposed=("ResNet",)))
    assert ("method:resnet", "dataset:imagenet") in found


@pytest.mark.parametrize("cue", ["rivaling", "competitive with", "comparable to", "on par with"])
def test_applied_what_a_result_matches_is_no_pair(cue):
    abstract = f"Evaluated on GSM8K, our 7B FooLM is {cue} Llama-2 at half the cost."
    names = [(METHOD, "FooLM"), (METHOD, "Llama-2"), (DATASET, "GSM8K")]
    assert set(paper_pairs(abstract, mentions(abstract, *names))) == {
        ("method:foolm", "dataset:gsm8k")
    }


def test_applied_a_method_in_a_list_of_baselines_is_no_pair():
    abstract = "We evaluate on GSM8K with strong baselines such as Pythia and Mistral."
    names = [(METHOD, "Pythia"), (METHOD, "Mistral"), (DATASET, "GSM8K")]
    assert set(paper_pairs(abstract, mentions(abstract, *names))) == set()
    abstract = "We fine-tune Pythia on GSM8K and report a new baseline."
    names = [(METHOD, "Pythia"), (DATASET, "GSM8K")]
    assert set(paper_pairs(abstract, mentions(abstract, *names))) == {
        ("method:pythia", "dataset:gsm8k")
    }


def test_applied_the_method_a_proposed_one_is_built_on_makes_no_pair():
    abstract = (
        "We propose a compositional SLIP model (ComSLIP). Experiments on ImageNet and "
        "Places365 show the gains of our method, which boosts SLIP and SLIPBig."
    )
    found = paper_pairs(
        abstract,
        mentions(
            abstract,
            (METHOD, "ComSLIP"),
            (METHOD, "SLIP@3"),
            (METHOD, "SLIPBig"),
            (DATASET, "ImageNet"),
            (DATASET, "Places365"),
            proposed=("ComSLIP",),
        ),
    )
    assert ("method:comslip", "dataset:imagenet") in found
    assert ("method:slipbig", "dataset:places365") in found  # not built on, just named
    assert not any(method == "method:slip" for method, _ in found)
