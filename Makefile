# The two doors: `make quickstart` (set up, build the sample graph, print its stats, write
# its pages) and `make test` (set up, run the whole test suite); `make test-fast` runs the
# unit tests only, `make lint` the linters and the type checker. The tests and the type
# checker also install the dask extra (`kg build --dask`); the quickstart does without.
GRAPH ?= out/graph.kg
PAGES ?= out/pages

.PHONY: setup setup-dask quickstart test test-fast lint

setup:
	bash scripts/setup.sh

setup-dask:
	bash scripts/setup.sh dask

quickstart: setup
	.venv/bin/kg build samples/ -o $(GRAPH)
	.venv/bin/kg viz -g $(GRAPH) -o $(PAGES)
	@echo "Query it: .venv/bin/kg query --list; .venv/bin/kg query top_collaborators -g $(GRAPH)"

test: setup-dask
	.venv/bin/python -m pytest

test-fast: setup
	.venv/bin/python -m pytest tests/unit -m "not e2e"

lint: setup-dask
	.venv/bin/ruff check kg extractors queries tests bench
	.venv/bin/ruff format --check kg extractors queries tests bench
	bash scripts/typecheck.sh
