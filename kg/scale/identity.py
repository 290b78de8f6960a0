"""What a worker must share with the driver for a build to come out the same: the kg
version and fingerprints of the lexicon data and of the extraction code."""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from kg import __version__
from kg.extractors.lexicon import DATA_DIR
from kg.extractors.words import USER_DATA_ENV

EXTRACTORS_DIR = DATA_DIR.parent
DATA_SUFFIXES = (".jsonl", ".tsv", ".txt")


@dataclass(frozen=True)
class Identity:
    """A process's kg version and its fingerprints (short SHA-256 digests)."""

    version: str
    lexicon: str
    code: str

    def mismatch(self, driver: "Identity") -> str | None:
        """What differs from the driver's, as a phrase, or None."""
        if self.version != driver.version:
            return f"kg {self.version} where the driver runs kg {driver.version}"
        if self.lexicon != driver.lexicon:
            return (
                f"lexicon {self.lexicon} where the driver's is {driver.lexicon} "
                f"(the data files or ${USER_DATA_ENV} differ)"
            )
        if self.code != driver.code:
            return f"extraction code {self.code} where the driver's is {driver.code}"
        return None


def fingerprint(root: Path, paths: list[Path]) -> str:
    """A digest of the files' names (relative to ``root``) and bytes, in name order."""
    digest = hashlib.sha256()
    for path in sorted(paths, key=lambda p: p.relative_to(root).as_posix()):
        name = path.relative_to(root).as_posix().encode()
        digest.update(len(name).to_bytes(4, "big") + name)
        data = path.read_bytes()
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:16]


def data_files(folder: Path) -> list[Path]:
    """The lexicon data under ``folder``: lexicon files, term tables, word lists."""
    return [p for p in folder.rglob("*") if p.suffix in DATA_SUFFIXES and p.is_file()]


def lexicon_fingerprint() -> str:
    """The shipped data files and the user's ``$KG_DATA`` folder, if set."""
    shipped = fingerprint(DATA_DIR, data_files(DATA_DIR))
    user = os.environ.get(USER_DATA_ENV)
    if not user or not Path(user).is_dir():
        return shipped
    return fingerprint(Path(user), data_files(Path(user))) + shipped


def code_fingerprint() -> str:
    """The extractors' Python source."""
    paths = [p for p in EXTRACTORS_DIR.rglob("*.py") if "__pycache__" not in p.parts]
    return fingerprint(EXTRACTORS_DIR, paths)


def this_identity() -> Identity:
    """This process's identity."""
    return Identity(__version__, lexicon_fingerprint(), code_fingerprint())
