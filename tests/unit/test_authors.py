import pytest

from kg.graph.authors import author_key, display_name, normalise_name, readable_name


@pytest.mark.parametrize(
    "a, b",
    [
        ("REMI MUNOS", "Remi Munos"),
        ("Julia  Kempe", "julia kempe"),
        ("Ｊｕｌｉａ Kempe", "Julia Kempe"),
    ],
)
def test_same_author(a, b):
    assert author_key(a) == author_key(b)


def test_accents_are_kept_for_identity():
    assert normalise_name("Pınar Tözün") != normalise_name("Pinar Tozun")


@pytest.mark.parametrize(
    "printed, shown",
    [
        ("Shuicheng YAN", "Shuicheng Yan"),
        ("Olivier VO VAN", "Olivier Vo Van"),
        ("R Devon Hjelm", "R Devon Hjelm"),
        ("MingYu Lu", "MingYu Lu"),
    ],
)
def test_readable_name(printed, shown):
    assert readable_name(printed) == shown


def test_display_prefers_mixed_case():
    assert display_name(["JULIA KEMPE", "Julia Kempe"]) == "Julia Kempe"
