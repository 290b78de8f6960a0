"""Finding the docstring examples of kg and its extractors, one pytest param per docstring.

The modules are imported by their installed names (``kg.extractors.lexicon``), so an example
runs exactly as a user's code would, whichever folder holds its file.
"""

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("kg", "kg.extractors")


def module_names():
    """Every module of the packages, by name, but ``__main__`` (importing it runs the CLI)."""
    names = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            if not info.name.endswith(".__main__"):  # importing it runs the CLI
                names.append(info.name)
    return sorted(set(names))


def docstring_tests(modules):
    """One pytest param per docstring with examples in the named modules."""
    finder = doctest.DocTestFinder()
    found = []
    for name in modules:
        module = importlib.import_module(name)
        for test in finder.find(module, name):
            if test.examples:
                found.append(pytest.param(test, id=test.name))
    return found


def run_docstring_test(test):
    """Run one docstring's examples; fail with doctest's report."""
    output = []
    result = doctest.DocTestRunner().run(test, out=output.append)
    if result.failed:
        pytest.fail("".join(output), pytrace=False)
