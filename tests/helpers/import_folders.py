"""Folders of ``--neo4j-import`` files, compared."""

from kg.scale.import_state import load_part


def folder(path):
    """A folder's files (bytes) and saved partitions (as loaded: pickles of equal objects
    may differ in bytes)."""
    saved = sorted((path / "extracted").glob("p*"))
    files = {p.name: p.read_bytes() for p in path.iterdir() if p.is_file()}
    return files, [(p.name, load_part(str(p))) for p in saved]
