"""Unit tests: fast tests of one module, no servers, browser, process pools or ../shared corpora."""
