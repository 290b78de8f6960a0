"""Author ids in structured listings: ORCID, OpenAlex and Semantic Scholar ids, as given in
an author object (``{"name": ..., "orcid": ...}``) or in a list parallel to the authors
(``author_ids``; in CSV one string separated by ``;``), written as ``scheme:value``."""

import re
from typing import Any

#: Author-object fields holding an id, by scheme, in order of preference.
ID_FIELDS = (
    ("orcid", ("orcid", "ORCID", "orcid_id")),
    ("openalex", ("openalex", "openalex_id", "openAlexId")),
    ("s2", ("authorId", "s2_id", "semantic_scholar_id", "s2AuthorId")),
)
#: The record field of ids parallel to the authors.
PARALLEL_FIELD = "author_ids"
_ORCID = re.compile(r"(?:https?://)?(?:www\.)?(?:orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])$")
_OPENALEX = re.compile(r"(?:https?://)?(?:openalex\.org/)?(A\d+)$", re.IGNORECASE)
_SCHEMES = ("orcid:", "openalex:", "s2:")


def normalise_id(value: Any, scheme: str | None = None) -> str | None:
    """``scheme:value`` for an id as a listing gives it, or None when empty or malformed.

    Without a scheme, an ORCID or an OpenAlex author id (bare or as a URL) is recognised,
    and ``scheme:value`` strings are kept.

    >>> normalise_id("https://orcid.org/0000-0002-1825-0097")
    'orcid:0000-0002-1825-0097'
    >>> normalise_id("https://openalex.org/A5023888391"), normalise_id(1741101, "s2")
    ('openalex:A5023888391', 's2:1741101')
    >>> normalise_id("not an id"), normalise_id("0000-0002", "orcid")
    (None, None)
    """
    if value is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    if not text:
        return None
    if scheme is None:
        if text.lower().startswith(_SCHEMES):
            scheme, _, text = text.partition(":")
            scheme = scheme.lower()
        elif _ORCID.match(text):
            scheme = "orcid"
        elif _OPENALEX.match(text):
            scheme = "openalex"
        else:
            return None
    if scheme == "orcid":
        match = _ORCID.match(text)
        return f"orcid:{match.group(1)}" if match else None
    if scheme == "openalex":
        match = _OPENALEX.match(text)
        return f"openalex:{match.group(1).upper()}" if match else None
    return f"{scheme}:{text}" if text.isalnum() else None


def id_of_author(author: Any) -> str | None:
    """The id an author object carries (the first scheme of ID_FIELDS it has), or None."""
    if not isinstance(author, dict):
        return None
    for scheme, fields in ID_FIELDS:
        for f in fields:
            found = normalise_id(author.get(f), scheme)
            if found:
                return found
    return None


def parallel_ids(value: Any) -> list[str | None] | None:
    """The ids of an ``author_ids`` field (a list, or a string separated by ``;``)."""
    if value in (None, "", []):
        return None
    items = value.split(";") if isinstance(value, str) else value
    if not isinstance(items, list):
        return None
    return [normalise_id(item) for item in items]
