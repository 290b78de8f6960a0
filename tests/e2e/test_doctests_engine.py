"""The docstring examples of the embedded engine, which start its server."""

import pytest

from tests.helpers.doctests import docstring_tests, run_docstring_test
from tests.unit.test_doctests import SERVER_MODULES


@pytest.mark.parametrize("test", docstring_tests(sorted(SERVER_MODULES)))
def test_engine_docstring_examples_run(test):
    run_docstring_test(test)
