"""Author identity: normalised keys and readable display names."""

import re
import unicodedata
from collections.abc import Sequence

_ROMAN = {"II", "III", "IV", "VI", "VII", "VIII", "IX"}


def normalise_name(name: str) -> str:
    """Identity form of a printed name: NFKC, whitespace collapsed, casefolded.

    >>> normalise_name("REMI  MUNOS") == normalise_name("Remi Munos")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def author_key(name: str) -> str:
    """``author:<normalised name>``.

    >>> author_key("Julia  Kempe")
    'author:julia kempe'
    """
    return f"author:{normalise_name(name)}"


def _readable_word(word: str) -> str:
    if not word.isupper():
        return word
    letters = [c for c in word if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters) and word not in _ROMAN:
        return re.sub(r"[^\W\d_]+", lambda m: m.group(0).capitalize(), word)
    return word


def readable_name(name: str) -> str:
    """A display form: words printed all in capitals become capitalised.

    >>> readable_name("REMI MUNOS"), readable_name("Fan JIA"), readable_name("J. Bagnell")
    ('Remi Munos', 'Fan Jia', 'J. Bagnell')
    >>> readable_name("Jean-Pierre DUPONT-LEROY III")
    'Jean-Pierre Dupont-Leroy III'
    """
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    return " ".join(_readable_word(w) for w in name.split(" "))


def display_name(variants: Sequence[str]) -> str:
    """The name to show for one author, given every printed variant (in order seen).

    A variant printed in mixed case wins over one in capitals; ties go to the first seen.

    >>> display_name(["REMI MUNOS", "Rémi Munos"])
    'Rémi Munos'
    >>> display_name(["REMI MUNOS"])
    'Remi Munos'
    """

    def shouting(v: str) -> int:
        return sum(1 for w in v.split() if _readable_word(w) != w)

    best = min(variants, key=shouting)
    return readable_name(best)
