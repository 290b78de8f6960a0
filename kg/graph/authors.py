"""Author identity: folded keys and readable display names.

Two printed names are one Author node when they fold to the same string
(:func:`kg.extractors.names.fold`: accents, invisible characters, case, periods, spaces,
hyphens and other punctuation do not distinguish people). The key is that fold, so it is
stable: it depends on the name alone, never on which variant was seen first. Every printed
variant stays on the node (``variants``) and the display name is chosen from them.
Middle-initial variants ("Aaron C. Courville", "Aaron Courville") fold apart and stay apart.
"""

import re
import unicodedata
from collections.abc import Sequence

from kg.extractors.names import fold

_ROMAN = {"II", "III", "IV", "VI", "VII", "VIII", "IX"}


def normalise_name(name: str) -> str:
    """Identity form of a printed name: NFKC, whitespace collapsed, casefolded.

    >>> normalise_name("REMI  MUNOS") == normalise_name("Remi Munos")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def author_key(name: str) -> str:
    """``author:<folded name>``; a name with no letter or digit keeps its normalised form.

    >>> author_key("Julia  Kempe")
    'author:juliakempe'
    >>> author_key("Çağlar Gülçehre") == author_key("Caglar Gulcehre")
    True
    >>> author_key("T. J. Sejnowski") == author_key("T.J. Sejnowski")
    True
    >>> author_key("Aaron C. Courville") == author_key("Aaron Courville")
    False
    """
    return f"author:{fold(name) or normalise_name(name)}"


def _readable_word(word: str) -> str:
    if not word.isupper():
        return word
    letters = [c for c in word if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters) and word not in _ROMAN:
        return re.sub(r"[^\W\d_]+", lambda m: m.group(0).capitalize(), word)
    return word


def readable_name(name: str) -> str:
    """A display form: words printed all in capitals become capitalised; invisible format
    characters (zero-width, bidi controls) are dropped.

    >>> readable_name("REMI MUNOS"), readable_name("Fan JIA"), readable_name("J. Bagnell")
    ('Remi Munos', 'Fan Jia', 'J. Bagnell')
    >>> readable_name("Jean-Pierre DUPONT-LEROY III")
    'Jean-Pierre Dupont-Leroy III'
    >>> readable_name("Yann\u200b LeCun\u202c")
    'Yann LeCun'
    """
    name = unicodedata.normalize("NFKC", name)
    name = " ".join("".join(c for c in name if unicodedata.category(c) != "Cf").split())
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
