"""Author keys (the fold: what does not distinguish people) and display names."""

import unicodedata

import pytest

from kg.graph.authors import author_key, display_name, normalise_name, readable_name
from kg.graph.papers import add_author, new_graph


@pytest.mark.parametrize(
    "a, b",
    [
        ("REMI MUNOS", "Remi Munos"),
        ("Julia  Kempe", "julia kempe"),
        ("Ｊｕｌｉａ Kempe", "Julia Kempe"),
        ("Çağlar Gülçehre", "Caglar Gulcehre"),
        ("Aäron van den Oord", "Aaron Van Den Oord"),
        ("Aaron van den Oord", "Aaron vanden Oord"),
        ("T. J. Sejnowski", "T.J. Sejnowski"),
        ("T. J. Sejnowski", "TJ Sejnowski"),
        ("A C Tsoi", "A. C. Tsoi"),
        ("Abdel-rahman Mohamed", "Abdelrahman Mohamed"),
        ("Jean\u2010Pierre Dupont", "Jean-Pierre Dupont"),  # a Unicode hyphen
        ("Yann\u200b LeCun", "Yann LeCun"),  # zero-width space
        ("Yann Le\u200dCun", "Yann LeCun"),  # zero-width joiner
        ("\u202eYann LeCun\u202c", "Yann LeCun"),  # right-to-left override, pop
        ("\ufeffYann LeCun", "Yann LeCun"),  # byte-order mark
        ("Conan O\u2019Brien", "Conan O'Brien"),
        (unicodedata.normalize("NFD", "Rémi Munos"), "Rémi Munos"),  # decomposed accents
    ],
)
def test_same_author(a, b):
    assert author_key(a) == author_key(b)


@pytest.mark.parametrize(
    "a, b",
    [
        ("Aaron C. Courville", "Aaron Courville"),  # middle initials need evidence
        ("A. Courville", "Aaron Courville"),
        ("Yang Liu", "Liu Yang"),
        ("Pınar Tözün", "Pinar Tozun"),  # dotless i is a letter of its own, as ø and ł are
        ("Søren Hauberg", "Soren Hauberg"),
        ("J. Smith", "J. Smith 2"),
    ],
)
def test_different_authors(a, b):
    assert author_key(a) != author_key(b)


def test_the_key_is_the_fold():
    assert author_key("Çağlar Gülçehre") == "author:caglargulcehre"
    assert author_key("T. J. Sejnowski") == "author:tjsejnowski"
    assert author_key("江常皓") == "author:江常皓"


def test_a_name_with_no_letter_keeps_its_normalised_form():
    assert author_key(" -- ") == "author:--" == "author:" + normalise_name(" -- ")


def test_variants_fold_into_one_node_keeping_every_spelling():
    G = new_graph()
    printed = ["Caglar Gulcehre", "Çağlar Gülçehre", "CAGLAR GULCEHRE", "Caglar\u200b Gulcehre"]
    keys = {add_author(G, name) for name in printed}
    assert keys == {"author:caglargulcehre"}
    node = G.nodes["author:caglargulcehre"]
    assert node["variants"] == sorted(printed)
    # chosen as before: mixed case over capitals, then the first in sorted order, and the
    # zero-width space is not shown
    assert node["name"] == "Caglar Gulcehre"


def test_middle_initial_variants_stay_apart():
    G = new_graph()
    assert add_author(G, "Aaron C. Courville") != add_author(G, "Aaron Courville")


@pytest.mark.parametrize(
    "printed, shown",
    [
        ("Shuicheng YAN", "Shuicheng Yan"),
        ("Olivier VO VAN", "Olivier Vo Van"),
        ("R Devon Hjelm", "R Devon Hjelm"),
        ("MingYu Lu", "MingYu Lu"),
        ("Yann\u200b LeCun\u202c", "Yann LeCun"),
    ],
)
def test_readable_name(printed, shown):
    assert readable_name(printed) == shown


def test_display_prefers_mixed_case():
    assert display_name(["JULIA KEMPE", "Julia Kempe"]) == "Julia Kempe"
