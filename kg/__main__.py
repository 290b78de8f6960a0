"""``python -m kg``: the command line."""

from kg.cli import run

run()
