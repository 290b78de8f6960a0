"""End-to-end tests: servers, the browser, process pools, subprocess CLI runs and the
../shared corpora."""
