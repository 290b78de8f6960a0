"""Shared fixtures: where ../shared is, and the seed listings."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEEDS = SHARED / "seeds"
PAPERLISTS = SHARED / "eval" / "external" / "paper-metadata-paperlists"


@pytest.fixture(scope="session")
def seed_files():
    files = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    if not files:
        pytest.skip(f"seed listings not found at {SEEDS} (../shared is absent)")
    return [str(f) for f in files]


@pytest.fixture(scope="session")
def seed_graph(seed_files):
    from kg.build import build_graph

    G, _ = build_graph(seed_files)
    return G
