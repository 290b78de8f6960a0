#!/bin/sh
# Debian packages the tests need: chromium for the browser tests of the pages (driven over
# the DevTools protocol by tests/helpers/browser.py; no browser downloads); libgomp1,
# which the embedded engine's falkordb.so links against (present wherever gcc is, absent on
# a machine without a compiler toolchain), and node with npm for Neo4j's Cypher linter
# (scripts/cypher-lint/; machines of this kind ship node 20, which it runs on).
set -eu
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium chromium-driver"
ldconfig -p 2>/dev/null | grep -q 'libgomp\.so\.1' || missing="$missing libgomp1"
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
if [ -n "$missing" ]; then
    apt-get update
    # shellcheck disable=SC2086
    apt-get install -y --no-install-recommends $missing
fi
chromium --version
