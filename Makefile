# The two doors: `make quickstart` (set up, build the sample graph, print its stats)
# and `make test` (set up, run the whole test suite).
GRAPH ?= out/graph.kg

.PHONY: setup quickstart test

setup:
	bash scripts/setup.sh

quickstart: setup
	.venv/bin/kg build samples/ -o $(GRAPH)

test: setup
	.venv/bin/python -m pytest
