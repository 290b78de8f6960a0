"""Benchmarks, run by hand from the repository root: ``python -m bench.<name>``."""
