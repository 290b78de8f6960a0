"""Placeholder until the extraction branch lands: no mentions."""


def extract_mentions(records, *, workers=1):
    for record in records:
        yield record, []
