# The two doors: `make quickstart` (install what running needs, build the sample graph, print
# its stats, write its pages) and `make test` (install every extra, run the whole test suite);
# `make test-fast` runs the unit tests only, `make lint` the linters and the type checker,
# `make cypher-lint` Neo4j's linter over queries/.
# Everything but the quickstart installs every extra (tests, linters, the dask extra).
GRAPH ?= out/graph.kg
PAGES ?= out/pages
# Neo4j's Cypher linter (npm, versions pinned by package-lock.json), in a folder of its own.
LINTER = scripts/cypher-lint
LINTER_INSTALLED = $(LINTER)/node_modules/.package-lock.json

.PHONY: setup setup-all quickstart test test-fast lint cypher-lint

setup:
	bash scripts/setup.sh

setup-all:
	bash scripts/setup.sh --all

quickstart: setup
	.venv/bin/kg build samples/ -o $(GRAPH)
	.venv/bin/kg viz -g $(GRAPH) -o $(PAGES)
	@echo "Query it: .venv/bin/kg query --list; .venv/bin/kg query top_collaborators -g $(GRAPH)"

$(LINTER_INSTALLED): $(LINTER)/package-lock.json
	npm ci --prefix $(LINTER) --loglevel=error --no-audit --no-fund

test: setup-all $(LINTER_INSTALLED)
	.venv/bin/python -m pytest

test-fast: setup-all
	.venv/bin/python -m pytest tests/unit -m "not e2e"

lint: setup-all
	.venv/bin/ruff check kg extractors queries tests bench
	.venv/bin/ruff format --check kg extractors queries tests bench
	bash scripts/typecheck.sh

cypher-lint: setup $(LINTER_INSTALLED)
	@mkdir -p build
	.venv/bin/python $(LINTER)/schema.py > build/cypher-lint.json
	node $(LINTER)/lint.mjs build/cypher-lint.json
