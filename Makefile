# The two doors: `make quickstart` (set up, build the sample graph, print its stats, write
# its pages) and `make test` (set up, run the whole test suite).
GRAPH ?= out/graph.kg
PAGES ?= out/pages

.PHONY: setup quickstart test

setup:
	bash scripts/setup.sh

quickstart: setup
	.venv/bin/kg build samples/ -o $(GRAPH)
	.venv/bin/kg viz -g $(GRAPH) -o $(PAGES)
	@echo "Query it: .venv/bin/kg query --list; .venv/bin/kg query top_collaborators -g $(GRAPH)"

test: setup
	.venv/bin/python -m pytest
