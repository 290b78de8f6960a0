"""The spaCy pipeline end to end on abstracts we wrote: mentions, types, roles, evidence."""

import pytest
import spacy

from kg.extractors.find import HITS_KEY, SPANS_KEY
from kg.extractors.names import task_canonical
from kg.extractors.pipeline import build_nlp, extract_mentions
from kg.extractors.records import PaperRecord

ABSTRACT = (
    "Off-policy evaluation (OPE) is a core problem. "
    "We propose OrderDP, a two-stage method that uses Group Relative Policy Optimization "
    "(GRPO) to fine-tune Llama-3-8B and GPT-4o. "
    "Experiments on CIFAR10, ImageNet-1k and the FooQA benchmark show higher accuracy and "
    "F1 than PPO. OPE with GRPO is cheap."
)


@pytest.fixture(scope="module")
def nlp():
    return build_nlp()


@pytest.fixture(scope="module")
def mentions(nlp):
    return {(m.type, m.canonical): m for m in nlp(ABSTRACT)._.mentions}


def test_pipeline_is_blank_english_with_our_components(nlp):
    assert nlp.pipe_names == ["gazetteer_cased", "gazetteer_lower", "paper_mentions"]
    assert nlp.meta["lang"] == "en"


def test_mentions_found_with_types_and_canonicals(mentions):
    assert set(mentions) >= {
        ("Task", "off-policy evaluation"),
        ("Method", "OrderDP"),
        ("Method", "GRPO"),
        ("Method", "Llama-3-8B"),
        ("Method", "GPT-4o"),
        ("Dataset", "CIFAR-10"),
        ("Dataset", "ImageNet-1K"),
        ("Benchmark", "FooQA"),
        ("Metric", "accuracy"),
        ("Metric", "F1"),
        ("Method", "PPO"),
    }


def test_acronym_pair_is_one_entity_with_long_form(mentions):
    grpo = mentions[("Method", "GRPO")]
    assert grpo.text == "Group Relative Policy Optimization"
    assert grpo.long_form == "Group Relative Policy Optimization"
    assert grpo.rule == "abbreviation+lexicon"
    assert "GRPO" not in [m.canonical for m in mentions.values() if m is not grpo]


def test_roles(mentions):
    assert mentions[("Method", "OrderDP")].role == "proposed"
    assert mentions[("Method", "GRPO")].role == "used"
    assert mentions[("Dataset", "CIFAR-10")].role == "used"


def test_evidence_offsets_slice_the_abstract(mentions):
    for m in mentions.values():
        assert ABSTRACT[m.start : m.end] == m.text
        assert m.text in m.sentence and m.sentence in ABSTRACT
        assert 0 < m.score <= 1 and m.rule


def test_part_of_from_the_lexicon(nlp):
    (mnli,) = [m for m in nlp("We fine-tune on MNLI.")._.mentions if m.canonical == "MNLI"]
    assert mnli.part_of == ("GLUE",)


def test_no_mention_inside_a_hyphenated_name(nlp):
    canon = {m.canonical for m in nlp("We build RL-MIA, a benchmark.")._.mentions}
    assert "RL-MIA" in canon and "MIA" not in canon


def test_generic_phrases_are_not_entities(nlp):
    doc = nlp(
        "Large language models (LLMs) and deep neural networks achieve state-of-the-art "
        "results in extensive experiments."
    )
    assert doc._.mentions == []


@pytest.mark.parametrize(
    "phrase, canonical",
    [
        ("Multi-view clustering", "multi-view clustering"),
        ("regression tasks", "regression"),
        ("OOD detection", "OOD detection"),
    ],
)
def test_task_canonical(phrase, canonical):
    assert task_canonical(phrase) == canonical


def test_acronym_known_in_another_sense_is_not_taken_from_the_lexicon(nlp):
    (m,) = [m for m in nlp("We study Self-Supervised Learning (SSL) at scale.")._.mentions]
    assert (m.text, m.canonical, m.type) == (
        "Self-Supervised Learning",
        "self-supervised learning",
        "Method",
    )
    (m,) = [m for m in nlp("We study semi-supervised learning (SSL) at scale.")._.mentions]
    assert m.canonical == "semi-supervised learning" and m.type == "Task"


@pytest.mark.parametrize(
    "sentence, kind",
    [
        ("We build a dynamic agent for multi-view clustering (DAMC) from two parts.", "Method"),
        (
            "We release the Fairness Benchmark for Speech Recognition (FBSR) to the public.",
            "Benchmark",
        ),
        ("Prior work studies cross-lingual stance clustering (CLSC) at scale.", "Task"),
        # Capitals alone make no Method: the long form must be proposed there.
        ("We study the case of Stop, Question, and Frisk (SQF) in detail.", "Concept"),
        ("We propose a new measure, Margin-aware Predictive Uncertainty (MPU).", "Method"),
    ],
)
def test_an_unknown_acronym_is_typed_by_the_head_of_its_long_form(nlp, sentence, kind):
    short = sentence[sentence.index("(") + 1 : sentence.index(")")]
    assert [m.type for m in nlp(sentence)._.mentions if m.canonical == short] == [kind]


def test_a_name_given_with_called_keeps_all_its_capitalised_words(nlp):
    doc = nlp("We add a module called Sparse Token Mixer to the encoder.")
    assert "Sparse Token Mixer" in [m.canonical for m in doc._.mentions]


def test_plural_uses_of_a_defined_acronym_are_the_same_entity(nlp):
    doc = nlp("We train a Sparse Gating Network (SGN). Two SGN layers and three SGNs suffice.")
    (sgn,) = [m for m in doc._.mentions if "SGN" in m.canonical]
    assert sgn.canonical == "SGN" and "SGNs" in sgn.aliases


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "We train on CIFAR-10/100 for a day.",
            {("Dataset", "CIFAR-10"), ("Dataset", "CIFAR-100")},
        ),
        (
            "It beats SAG/SAGA and Adam/RMSProp.",
            {("Method", "SAG"), ("Method", "SAGA"), ("Method", "Adam"), ("Method", "RMSProp")},
        ),
        ("Scores differ by Race/Ethnicity and English/German.", set()),
        ("Code is at github.com/someone/FooNet for all.", set()),
    ],
)
def test_slash_joined_names_are_split(nlp, sentence, expected):
    assert {(m.type, m.canonical) for m in nlp(sentence)._.mentions} == expected


def test_a_task_named_by_verb_and_object_shares_the_noun_phrase_node(nlp):
    doc = nlp(
        "We focus on predicting sepsis from records. Tools for quantifying uncertainty are scarce."
    )
    tasks = {(m.text, m.canonical) for m in doc._.mentions if m.type == "Task"}
    assert ("predicting sepsis", "sepsis prediction") in tasks
    assert ("quantifying uncertainty", "uncertainty estimation") in tasks


def test_a_capitalised_name_ending_in_a_known_method_is_its_own_method(nlp):
    doc = nlp("We compare Trimmed Graphical Lasso with the lasso on gene data.")
    assert {m.canonical for m in doc._.mentions if m.type == "Method"} >= {
        "Trimmed Graphical Lasso",
        "lasso",
    }


def test_a_known_method_after_a_connector_keeps_its_name(nlp):
    doc = nlp("Results of Schema Networks with Proximal Policy Optimization are mixed.")
    assert "PPO" in {m.canonical for m in doc._.mentions}


def test_a_named_proposal_ending_in_a_known_method_is_the_proposal(nlp):
    doc = nlp('We present a novel algorithm named "Ghost Batch Normalization" for large batches.')
    proposed = [m for m in doc._.mentions if m.role == "proposed"]
    assert [m.canonical for m in proposed] == ["Ghost Batch Normalization"]


def test_words_first_seen_after_the_build_match_the_lowercase_gazetteer(nlp):
    doc = nlp("We report top-1 on IMAGENET-1K and Tiny-ImageNet variants, then on imagenet-1k.")
    assert "ImageNet-1K" in {m.canonical for m in doc._.mentions}


def test_a_known_acronym_defined_with_a_misspelt_plural_keeps_its_entry(nlp):
    doc = nlp("We scale a Mixture of expert (MoE) layer.")
    assert ("Method", "MoE") in {(m.type, m.canonical) for m in doc._.mentions}


def test_an_acronym_followed_by_its_long_form_is_one_proposed_entity(nlp):
    doc = nlp("We introduce SCRIT (Self-evolving CRITic), a framework. SCRIT trains critics.")
    assert [(m.type, m.canonical, m.text, m.role) for m in doc._.mentions] == [
        ("Method", "SCRIT", "Self-evolving CRITic", "proposed")
    ]


@pytest.mark.parametrize(
    "sentence, kind",
    [
        ("We propose CodeArena, a program synthesis benchmark suite for code models.", "Benchmark"),
        ("We propose DistilMax, a method for dataset distillation at scale.", "Method"),
    ],
)
def test_a_proposed_name_is_typed_by_the_words_that_introduce_it(nlp, sentence, kind):
    name = sentence.split()[2].rstrip(",")
    assert [m.type for m in nlp(sentence)._.mentions if m.canonical == name] == [kind]


def test_an_acronym_defined_anew_overrides_a_generic_one_it_does_not_spell(nlp):
    # ACL and GPU are skipped as a venue and hardware, but an abstract may define its own.
    doc = nlp(
        "We propose Aligned Contrastive Learning (ACL) for long tails. It runs on "
        "graphics processing units (GPUs)."
    )
    assert {(m.type, m.canonical) for m in doc._.mentions} >= {("Method", "ACL")}
    assert "GPU" not in {m.canonical for m in doc._.mentions}


def test_an_apposition_types_a_defined_acronym_over_its_long_form(nlp):
    doc = nlp(
        "We propose Unified Adversarial Preference Learning (UniAPL), a novel framework "
        "that aligns policies."
    )
    assert [(m.type, m.canonical, m.role) for m in doc._.mentions if m.canonical == "UniAPL"] == [
        ("Method", "UniAPL", "proposed")
    ]


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "We study links between A and B and introduce FairQuant, a quantizer.",
            ("Method", "FairQuant", "proposed"),
        ),
        ("Our approach, Soft Head Mixing (SHM), improves SimCLR.", ("Method", "SHM", "proposed")),
        (
            "We evaluate a popular summarization task called Key Point Analysis.",
            ("Task", "Key Point Analysis", "used"),
        ),
    ],
)
def test_proposal_cues_far_from_their_subject(nlp, sentence, expected):
    assert expected in {(m.type, m.canonical, m.role) for m in nlp(sentence)._.mentions}


def test_a_coined_name_before_a_concept_head_is_not_a_method(nlp):
    doc = nlp("We introduce the FooBar-Generalization Conjecture: models generalize.")
    assert not [m for m in doc._.mentions if m.type == "Method"]


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("On fundus images (FairGenMed) it is fair.", ("Dataset", "FairGenMed")),
        ("It lowers the subgroup gap (ES-FID).", ("Metric", "ES-FID")),
        ("On this dataset we adopt a SFT-DPO-GRPO training paradigm.", ("Method", "SFT-DPO-GRPO")),
    ],
)
def test_a_coined_name_is_typed_by_its_context_and_its_known_last_part(nlp, sentence, expected):
    assert expected in {(m.type, m.canonical) for m in nlp(sentence)._.mentions}


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("We report scores on FooDial 2.0 and FooDial 1.0.", {"FooDial 2.0", "FooDial 1.0"}),
        ("It wins on the BarQA v1.1 dataset.", {"BarQA v1.1"}),
        ("Our FooNet 2.5 times faster than before.", {"FooNet"}),
    ],
)
def test_a_coined_name_keeps_its_release_number(nlp, sentence, expected):
    assert {m.canonical for m in nlp(sentence)._.mentions} >= expected


def test_ways_of_evaluating_and_imaging_are_no_named_measures_or_data(nlp):
    doc = nlp(
        "Human evaluation and automatic evaluation agree. We decode functional magnetic "
        "resonance imaging (fMRI) data and report BLEU."
    )
    assert {(m.type, m.canonical) for m in doc._.mentions} == {("Metric", "BLEU")}


def test_a_name_introduced_in_markdown_emphasis_is_the_papers_own(nlp):
    doc = nlp("Hence we introduce **Quorra**, a benchmark of 500 puzzles, and test on it.")
    assert ("Benchmark", "Quorra", "proposed") in {
        (m.type, m.canonical, m.role) for m in doc._.mentions
    }


@pytest.mark.parametrize(
    "sentence, is_measure",
    [
        ("Our retriever improves recall by 4 points over BM25.", True),
        ("We raise precision and recall on both sets.", True),
        ("Such networks store patterns and help their associative recall.", False),
        ("We find that LLMs recall facts unevenly across languages.", False),
        ("Errors grow with the recall of stored patterns over time.", False),
        ("Our tagger keeps high precision on noisy text.", True),
        ("We train in mixed precision with 8-bit weights.", False),
        ("The estimator penalises the entries of the precision matrix.", False),
        ("It computes the transform to machine precision.", False),
        ("The solver reaches the desired accuracy in few steps.", False),
        ("We bound the accuracy of the resulting approximation.", False),
        ("It reaches a sensitivity of 91% and a specificity of 88%.", True),
        ("Dialogue replies lack specificity.", False),
        ("We study calibration of LLM confidence.", True),
        ("We propose a calibration method for the scores.", False),
        ("We prove generalization error bounds for the learner.", False),
    ],
)
def test_recall_precision_and_accuracy_are_measures_unless_they_mean_something_else(
    nlp, sentence, is_measure
):
    measures = {m.canonical for m in nlp(sentence)._.mentions if m.type == "Metric"}
    known = {"recall", "precision", "accuracy", "specificity", "calibration"}
    known.add("generalization error")
    assert bool(measures & known) is is_measure


@pytest.mark.parametrize(
    "sentence, is_method",
    [
        ("We compare bagging and boosting on tabular data.", True),
        ("Inspired by boosting, we combine weak rankers.", True),
        ("Retrieval is a simple way of boosting the accuracy of small models.", False),
    ],
)
def test_boosting_is_a_method_unless_it_is_a_verb(nlp, sentence, is_method):
    found = ("Method", "boosting") in {(m.type, m.canonical) for m in nlp(sentence)._.mentions}
    assert found is is_method


def test_a_named_estimation_method_is_a_method_and_its_task_a_task(nlp):
    doc = nlp("We replace kernel density estimation by a flow for density estimation.")
    assert {(m.type, m.canonical) for m in doc._.mentions} >= {
        ("Method", "KDE"),
        ("Task", "density estimation"),
    }


def test_a_proposed_name_ending_in_a_known_method_is_a_method(nlp):
    doc = nlp("With a metric called Foo distance, we propose Dudley GAN that converges.")
    assert ("Method", "Dudley GAN", "proposed") in {
        (m.type, m.canonical, m.role) for m in doc._.mentions
    }


def test_a_capitalised_event_name_is_no_method(nlp):
    doc = nlp("We validate it on data of the Foo 2020 Shared Tasks and the Bar Workshop.")
    assert not [m for m in doc._.mentions if m.type == "Method"]


def test_a_capitalised_long_form_of_a_defined_acronym_is_the_acronym(nlp):
    doc = nlp(
        "We study event causality identification (ECI). We propose a reasoning framework "
        "for Event Causality Identification, named FooECI."
    )
    assert ("Task", "ECI") in {(m.type, m.canonical) for m in doc._.mentions}
    assert "Event Causality Identification" not in {m.canonical for m in doc._.mentions}


def test_an_abstract_the_extractors_fail_on_is_reported_and_the_others_land(monkeypatch):
    from kg.extractors import find

    real = find.find_mentions

    def failing_on_boom(doc, *args):
        if "BOOM" in doc.user_data["text"]:
            raise ValueError("a rule broke")
        return real(doc, *args)

    monkeypatch.setattr(find, "find_mentions", failing_on_boom)
    records = [
        PaperRecord(abstract="We fine-tune BERT.", source="a.txt", index=0, line=3),
        PaperRecord(abstract="BOOM: we fine-tune GPT-4.", source="a.txt", index=1, line=9),
        PaperRecord(abstract="We train a ResNet.", source="a.txt", index=2, line=15),
    ]
    problems = []
    found = [[m.canonical for m in ms] for _, ms in extract_mentions(records, problems=problems)]
    assert found[0] == ["BERT"] and found[1] == [] and found[2] == ["ResNet"]
    assert [str(p) for p in problems] == [
        "a.txt:9: extraction failed (ValueError: a rule broke); the paper is kept without "
        "entities; please report this as a bug"
    ]


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "It wins on four benchmark datasets, i.e., VUA-18, VUA-20, MOH-X, and TroFi.",
            {("Dataset", "TroFi")},
        ),
        (
            "It is used in several methods, including CART, ID3, C4, MARS, and others.",
            {("Method", "ID3"), ("Method", "MARS")},
        ),
        (
            "This paper introduces MediaSum, a large-scale media interview dataset.",
            {("Dataset", "MediaSum")},
        ),
    ],
)
def test_a_coined_name_in_a_list_of_datasets_is_a_dataset(nlp, sentence, expected):
    assert expected <= {(m.type, m.canonical) for m in nlp(sentence)._.mentions}


def test_a_known_name_of_several_words_matches_in_the_plural(nlp):
    doc = nlp(
        "We prove fast convergence rates and compare Laplace approximations; "
        "the model recalls facts and scores well."
    )
    assert {(m.type, m.canonical) for m in doc._.mentions} == {
        ("Metric", "convergence rate"),
        ("Method", "Laplace approximation"),
    }


@pytest.mark.parametrize(
    "text, canonical",
    [
        (
            "Fully implantable brain-machine interfaces (iBMIs) are hard to build. Our iBMIs "
            "use little power.",
            "iBMI",
        ),
        (
            "We study gated sum-product networks (GSPNs). We introduce GSPNs, a new model family.",
            "GSPN",
        ),
    ],
)
def test_a_plural_acronym_and_its_proposal_are_one_singular_entity(nlp, text, canonical):
    assert [m.canonical for m in nlp(text)._.mentions] == [canonical]


def test_the_first_of_two_modifiers_sharing_a_head_names_its_known_phrase(nlp):
    text = "We test it on image and text classification and on math and scientific reasoning."
    found = {
        (m.type, m.canonical, m.text, m.rule)
        for m in nlp(text)._.mentions
        if m.rule == "shared-head"
    }
    assert found == {
        ("Task", "image classification", "image", "shared-head"),
        ("Task", "mathematical reasoning", "math", "shared-head"),
    }


@pytest.mark.parametrize(
    "sentence, expected",
    [
        (
            "We propose agent skill induction (ASI), which lets agents adapt.",
            [("Method", "ASI", "proposed")],
        ),
        ("Prior work used agent skill induction (ASI).", []),
        (
            "We present FOO-Bench, a multi-domain evaluation.",
            [("Benchmark", "FOO-Bench", "proposed")],
        ),
        (
            "We propose REWIRE, a method that rewrites with guIded edits.",
            [("Method", "REWIRE", "proposed")],
        ),
    ],
)
def test_proposed_names_and_acronym_spelling_words(nlp, sentence, expected):
    assert [
        (m.type, m.canonical, m.role) for m in nlp(sentence)._.mentions if m.type != "Concept"
    ] == expected


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("We propose a model by which dopamine (DA) and norepinephrine (NE) act.", set()),
        ("We devise the Tree-of-Question (ToQ) methodology for QA.", {("Method", "ToQ")}),
        (
            "We introduce a novel framework, Topology-of-Question-Decomposition (ToQD), for QA.",
            {("Method", "ToQD")},
        ),
    ],
)
def test_a_proposed_acronym_is_a_method_only_where_it_is_introduced(nlp, sentence, expected):
    assert {
        (m.type, m.canonical) for m in nlp(sentence)._.mentions if m.type == "Method"
    } == expected


GAZETTEER_TEXT = (
    "We fine-tune BERT-large with DPO and reinforcement learning on MNLI and CIFAR-10 "
    "for question answering, and report the accuracy and the F1 score of GPT-4."
)


def span_ruler_like(nlp, name, attr, factory):
    """A blank pipeline's ``factory`` pipe with the patterns of ``nlp``'s gazetteer ``name``."""
    blank = spacy.blank("en")
    pipe = blank.add_pipe(factory, config={"phrase_matcher_attr": attr})
    pipe.add_patterns(nlp.get_pipe(name).patterns)
    return blank


@pytest.mark.parametrize("name, attr", [("gazetteer_cased", "ORTH"), ("gazetteer_lower", "LOWER")])
def test_gazetteer_finds_what_spacys_span_ruler_finds(nlp, name, attr):
    reference = span_ruler_like(nlp, name, attr, "span_ruler")(GAZETTEER_TEXT)
    expected = [(s.start_char, s.end_char, s.label_, s.id_) for s in reference.spans["ruler"]]
    assert len(expected) >= 3
    # as a spaCy component (spans kept, the default)...
    doc = span_ruler_like(nlp, name, attr, "gazetteer")(GAZETTEER_TEXT)
    assert [(s.start_char, s.end_char, s.label_, s.id_) for s in doc.spans[SPANS_KEY]] == expected
    assert doc.user_data[HITS_KEY] == [(a, b, id_) for a, b, _, id_ in expected]
    # ...and in build_nlp's pipeline, which keeps the hits alone
    doc = nlp.get_pipe(name)(nlp.make_doc(GAZETTEER_TEXT))
    assert SPANS_KEY not in doc.spans
    assert doc.user_data[HITS_KEY] == [(a, b, id_) for a, b, _, id_ in expected]


def test_gazetteer_hits_are_the_matches_of_both_gazetteers_in_turn(nlp):
    references = [
        span_ruler_like(nlp, name, attr, "span_ruler")(GAZETTEER_TEXT)
        for name, attr in (("gazetteer_cased", "ORTH"), ("gazetteer_lower", "LOWER"))
    ]
    expected = [(s.start_char, s.end_char, s.id_) for doc in references for s in doc.spans["ruler"]]
    assert len(expected) >= 4
    assert nlp(GAZETTEER_TEXT).user_data[HITS_KEY] == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # names beside noise survive with their offsets; keys, URLs and debris name nothing
        (
            r"We fine-tune \textbf{BERT} and ResNet-50 with wav2vec 2.0 and iBOT features "
            r"\cite{DBLP:journals/corr/abs-1810-04805}. Code: https://github.com/foo/BarNet.",
            [
                ("BERT", "Method"),
                ("ResNet-50", "Method"),
                ("wav2vec 2.0", "Method"),
                ("iBOT", "Method"),
            ],
        ),
        (
            r"UORO is a modification of \emph{NoBackTrack} \cite{DBLP:journals/corr/OllivierC15} "
            r"that is simple, as \citeHsuKLZ10 and \citep[e.g.][]{Gregor10} show.",
            [("UORO", "Method"), ("NoBackTrack", "Method")],
        ),
        # the rules read a formatting command's argument as prose
        (r"We study {\em subspace clustering} \cite{x}.", [("subspace clustering", "Task")]),
        # a long form with markup in it defines nothing; its short form is still a name
        (
            r"We propose \textbf{V}ariational \textbf{Gr}adient Fl\textbf{ow} (VGrow), a method.",
            [("VGrow", "Method")],
        ),
        (
            "We build a large **Do**cument image machine **T**ranslation dataset of **A**rXiv "
            "articles (**DoTA**). Write to dana@cs.rochester.edu.",
            [("DoTA", "Dataset")],
        ),
        (
            "We call it the Boltzmann Per(cid:173) ceptron Network; it outputs 1 with "
            "probability fCLJi, the fIring rate.",
            [],
        ),
        # sentences glued by a lost space after the full stop make no name across it
        (
            "We evaluate on Spanish.We then fine-tune BERT on MNLI.Specifically, we align it.",
            [("BERT", "Method")],
        ),
    ],
)
def test_noise_never_becomes_an_entity(nlp, abstract, expected):
    found = nlp(abstract)._.mentions
    assert [(m.text, m.type) for m in found] == expected
    assert all(abstract[m.start : m.end] == m.text for m in found)


@pytest.mark.parametrize(
    "text, kind",
    [
        ("We study multi-task learning for dialogue agents.", "Task"),
        ("Intents are learnt via multi-task learning from dialogue logs.", "Method"),
        ("We compare several metric learning methods on retrieval.", "Method"),
        ("Methods for multi-task learning often share encoders.", "Task"),
    ],
)
def test_a_learning_paradigm_used_as_a_technique_is_a_method(nlp, text, kind):
    found = {m.canonical: m.type for m in nlp(text)._.mentions}
    paradigm = next(name for name in found if name.endswith("learning"))
    assert found[paradigm] == kind


def test_a_modifier_before_a_learning_paradigm_is_part_of_its_name(nlp):
    text = "We combine model-free deep reinforcement learning with model-based RL planners."
    found = {(m.type, m.canonical, m.text) for m in nlp(text)._.mentions}
    assert ("Method", "model-free deep RL", "model-free deep reinforcement learning") in found
    assert ("Method", "model-based RL", "model-based RL") in found


@pytest.mark.parametrize(
    "text, kind",
    [
        ("The mixture is trained by EM, which converges slowly.", "Method"),
        ("Parameters are fitted with EM.", "Method"),
        ("The reader reaches 80.1 EM and 85.2 F1.", "Metric"),
        ("Results with EM and F1 improve.", "Metric"),
    ],
)
def test_em_is_the_algorithm_where_a_model_is_fit_by_it_and_the_measure_beside_figures(
    nlp, text, kind
):
    found = {m.type for m in nlp(text)._.mentions if m.text == "EM"}
    assert found == {kind}


@pytest.mark.parametrize(
    "text, kinds",
    [
        ("Exact MAP inference is hard.", {"Method"}),
        ("We find the MAP weight vector of the network.", {"Method"}),
        ("It improves MAP, MRR and NDCG on the ranking set.", {"Metric"}),
        # one abstract, one sense: the second MAP follows the first, a figure aside
        ("Marginal MAP inference involves making MAP predictions.", {"Method"}),
        ("MAP inference scales, and the ranker reaches 35.1 MAP.", {"Method", "Metric"}),
    ],
)
def test_map_is_the_estimate_where_its_context_says_so_in_the_whole_abstract(nlp, text, kinds):
    assert {m.type for m in nlp(text)._.mentions if m.text == "MAP"} == kinds


def test_no_name_spans_two_sentences_glued_by_a_lost_space(nlp):
    text = "We analyse the different components.DMix being general, it helps on Last.FM data."
    names = {m.text for m in nlp(text)._.mentions}
    assert not any(".DMix" in name for name in names)
    assert "Last.FM" in names


def test_a_known_compound_is_one_method_in_an_abstract(nlp):
    mentions = nlp("We approximate the marginals with loopy belief propagation.")._.mentions
    assert [(m.type, m.canonical) for m in mentions] == [("Method", "loopy belief propagation")]


def test_a_model_tier_after_a_space_is_part_of_the_name(nlp):
    found = {
        (m.canonical, m.text)
        for m in nlp("We compare Gemini 1.5 Pro, Claude 3 Opus and GPT-4 Turbo.")._.mentions
    }
    assert found == {
        ("Gemini-1.5-Pro", "Gemini 1.5 Pro"),
        ("Claude-3-Opus", "Claude 3 Opus"),
        ("GPT-4-Turbo", "GPT-4 Turbo"),
    }


def test_a_task_named_with_task_after_it_takes_the_lexicons_name(nlp):
    found = [
        (m.type, m.canonical) for m in nlp("We test it on a textual entailment task.")._.mentions
    ]
    assert found == [("Task", "natural language inference")]
