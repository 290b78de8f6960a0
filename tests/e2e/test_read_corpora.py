"""Reading the shared seed listings (../shared)."""

from kg.extractors.read import read_listings


def read(paths):
    problems = []
    return list(read_listings([str(p) for p in paths], problems=problems)), problems


def test_read_seed_files(seed_files):
    records, problems = read(seed_files)
    assert problems == []
    assert len(records) == 180
    assert sum(1 for r in records if r.authors) == 60
    assert sum(len(r.authors) for r in records) == 306
    assert sum(r.authors_truncated for r in records) == 3
    assert sum(1 for r in records if r.area) == 55
    conference = [r for r in records if r.authors]
    assert all(r.source.startswith(("000_", "002_", "003_")) for r in conference)
