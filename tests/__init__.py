"""kg's test suite: tests/unit (fast, one module each) and tests/e2e (servers, browser,
pools, corpora)."""
