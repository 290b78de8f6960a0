"""Helpers shared by the tests and the benchmarks: the Bolt test server, the browser, graphs."""
