"""Noise spans (kg.extractors.noise): LaTeX, citation keys, URLs, e-mail addresses and
PDF-extraction debris found; names beside them, and names shaped like debris, left alone."""

import pytest

from kg.extractors.noise import (
    blank,
    classified_noise,
    debris_spans,
    latex_spans,
    merge_spans,
    noise_spans,
    overlaps,
    url_spans,
)


def noise(text):
    return [text[a:b] for a, b in noise_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # key commands swallow their argument, optional arguments included
        (
            r"as in \cite{DBLP:journals/corr/OllivierC15}.",
            [r"\cite{DBLP:journals/corr/OllivierC15}"],
        ),
        (r"CCA~\citep[e.g.,][]{BachJordan05a} and", [r"\citep[e.g.,][]{BachJordan05a}"]),
        (r"see \citet*{a,b} or Sec.~\ref{sec:x}", [r"\citet*{a,b}", r"\ref{sec:x}"]),
        (r"at \url{https://github.com/a/b}.", [r"\url{https://github.com/a/b}"]),
        (r"our \href{https://x.org}{project page}", [r"\href{https://x.org}"]),
        (r"\cite{a{b}c} d", [r"\cite{a{b}c}"]),
        # formatting commands lose only their word: the argument may name something
        (r"We fine-tune \textbf{BERT}.", [r"\textbf"]),
        (r"for {\em subspace clustering}", [r"\em"]),
        (r"\emph{NoBackTrack} \footnote{see x}", [r"\emph", r"\footnote"]),
        # braces lost in the listing: the key is glued to its command, a word to its format
        (r"classification \citeHsuKLZ10. We", [r"\citeHsuKLZ10"]),
        (r"method \citeProc:Datar_SCG04, which", [r"\citeProc:Datar_SCG04"]),
        (r"stochastic \textitAppGrad is", [r"\textit"]),
        # a paper's own macros and math commands
        (r"using \ModelName~achieves", [r"\ModelName"]),
        (r"Weighted \ell_1 (GrOWL)", [r"\ell"]),
        # a backslash left for an opening quote is no command
        ('The problem of \\Structure From Motion" is central', []),
    ],
)
def test_latex_commands(text, expected):
    assert noise(text) == expected


def test_latex_spans_tell_markup_from_macros():
    text = r"\textbf{BERT} \cite{x} \ours \times"
    markup, macros = latex_spans(text)
    assert [text[a:b] for a, b in markup] == [r"\textbf", r"\cite{x}"]
    assert [text[a:b] for a, b in macros] == [r"\ours", r"\times"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("iterated prediction [LF88] as", ["[LF88]"]),
        ("sparse patterns [Ste61, WBLH69], is", ["[Ste61, WBLH69]"]),
        ("(arXiv:1403.8144) shows", ["arXiv:1403.8144"]),
        ("in DBLP:journals/corr/ZhangZMW17.", ["DBLP:journals/corr/ZhangZMW17"]),
        ("@article{devlin2019bert, title", ["@article{devlin2019bert"]),
        # names in brackets and arXiv the corpus are not keys
        ("on arXiv and PubMed [3, 4]", []),
        ("a subset of DBLP publication records", []),
        # author-year citations, one or several; a name and a year are not one
        ("than [Le Cun, Denker and Sol1a, 1990], which", ["[Le Cun, Denker and Sol1a, 1990]"]),
        ("RASP (Weiss et al., 2021) is", ["(Weiss et al., 2021)"]),
        ("(Ng & Jordan, 2002; Müller 2001a).", ["(Ng & Jordan, 2002; Müller 2001a)"]),
        (
            "see (LeCun et al., 2015; Dauphin et al., 2014).",
            ["(LeCun et al., 2015; Dauphin et al., 2014)"],
        ),
        ("on (ImageNet, 2012), (GPT-4, 2023) and (NeurIPS 2023)", []),
    ],
)
def test_citation_keys(text, expected):
    assert noise(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Code: https://github.com/NUSTM/ACOS.", ["https://github.com/NUSTM/ACOS"]),
        ("(https://github.com/liushulinle/PLOME).", ["https://github.com/liushulinle/PLOME"]),
        ("see https://en.wikipedia.org/wiki/A_(b) now", ["https://en.wikipedia.org/wiki/A_(b)"]),
        ("at www.cs.toronto.edu, and", ["www.cs.toronto.edu"]),
        (
            "at github.com/sahaisaumya/informal_fallacies.",
            ["github.com/sahaisaumya/informal_fallacies"],
        ),
        ("demo at lupantech.github.io now", ["lupantech.github.io"]),
        ("doi:10.1000/182; and 10.18653/v1/N19-1423.", ["doi:10.1000/182", "10.18653/v1/N19-1423"]),
        # slashes that are no URL
        ("CNN/DailyMail and ViT-B/16 and/or Amazon.com reviews", []),
    ],
)
def test_urls(text, expected):
    assert [text[a:b] for a, b in url_spans(text)] == expected
    assert noise(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Mail dana@cs.rochester.edu now", ["dana@cs.rochester.edu"]),
        ("{ann,bob}@cs.cmu.edu", ["{ann,bob}@cs.cmu.edu"]),
        # metrics at a cutoff are no addresses
        ("R@0.3, NDCG@10.Furthermore, pass@k and Hits@1", []),
    ],
)
def test_email_addresses(text, expected):
    assert noise(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a PDF character id with the pieces of its word; after a soft hyphen, the rest
        ("the Boltzmann Per(cid:173) ceptron Network", ["Per(cid:173) ceptron"]),
        ("the User Rating Pro(cid:12)le model", ["Pro(cid:12)le"]),
        ("a new ef(cid:2)cient method", ["ef(cid:2)cient"]),
        ("picky(cid:148) variant", ["picky(cid:148)"]),
        # character recognition garbled the words of text with character ids
        (
            "a back(cid:173) propagation net: probability fCLJi WiXi, fIring of iIi cells",
            ["back(cid:173) propagation", "fCLJi", "fIring", "iIi"],
        ),
        # a word split by emphasis markup, but not a plural or an accent
        ("a dataset of **A**rXiv articles (**DoTA**)", ["A**rXiv"]),
        (
            r"\textbf{V}ariational \textbf{Gr}adient",
            [r"\textbf", "V}ariational", r"\textbf", "Gr}adient"],
        ),
        ("several **LLM**s and **BERT** models", []),
        (r"the generalized Nystr\"{o}m method", []),
    ],
)
def test_pdf_debris(text, expected):
    assert noise(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # mixed-case coined names are names where nothing shows a garbled extraction
        "We train ResNet-50, wav2vec 2.0, iBOT, fastText, GPT-4o and bAbI models on an iPhone.",
        "mAP, kNN, fMRI, xLSTM, mBERT, eXtreme Multi-label Text Classification (XMTC)",
        "Tool leaRning wIth exeCution fEedback (TRICE), naIve methods, the fIring rate",
    ],
)
def test_names_are_no_noise(text):
    assert noise_spans(text) == []


def test_debris_alone_is_not_markup():
    text = r"\textbf{BERT} Per(cid:173) ceptron \ours at https://a.io/b"
    markup, other = classified_noise(text)
    assert sorted(text[a:b] for a, b in markup) == [r"\textbf", "https://a.io/b"]
    assert sorted(text[a:b] for a, b in other) == ["Per(cid:173) ceptron", r"\ours"]
    assert debris_spans("plain text, no debris") == []


def test_merge_overlaps_and_blank():
    assert merge_spans([(5, 9), (0, 2), (1, 3), (9, 10)]) == [(0, 3), (5, 10)]
    spans = [(0, 3), (5, 10)]
    assert [overlaps(spans, a, b) for a, b in [(3, 5), (2, 4), (4, 6), (9, 12), (10, 11)]] == [
        False,
        True,
        True,
        True,
        False,
    ]
    assert not overlaps([], 0, 5)
    text = r"see \cite{x} for {\em subspace clustering}"
    blanked = blank(text, noise_spans(text))
    assert len(blanked) == len(text)
    assert blanked == "see          for {    subspace clustering}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a regret of O(sqrt(KT)) and omega(sqrt(KT)).", ["O(sqrt(KT))", "omega(sqrt(KT))"]),
        ("runs in log(NK) time", ["log(NK)"]),
        ("the dialog(NK) module and YOLO(v3) stay", []),
    ],
)
def test_plain_text_math_is_noise(text, expected):
    assert noise(text) == expected


def test_a_math_command_takes_its_argument_along():
    assert noise(r"better than \sqrt{kT} and \frac{d}{n} rates") == [r"\sqrt{kT}", r"\frac{d}"]
