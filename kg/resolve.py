"""Placeholder until the extraction branch lands: canonical names as extracted."""


def resolve_corpus(items, *, graph=None):
    return list(items)
