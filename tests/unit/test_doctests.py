"""Every docstring example of kg and its extractors runs, one test per docstring; the
examples that start the embedded engine's server run in tests/e2e/test_doctests_engine.py."""

import pytest

from tests.helpers.doctests import docstring_tests, module_names, run_docstring_test

#: Modules whose examples start a server (they are end-to-end).
SERVER_MODULES = {"kg.query.engine", "kg.query.engine_cache"}


@pytest.mark.parametrize(
    "test", docstring_tests([m for m in module_names() if m not in SERVER_MODULES])
)
def test_docstring_examples_run(test):
    run_docstring_test(test)
