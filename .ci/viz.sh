#!/bin/sh
# Browser for the visualisation tests (tests/test_viz.py): Debian's chromium, driven over the
# DevTools protocol by tests/browser.py (websocket-client, in the [test] extra). No browser downloads.
set -eu
if ! command -v chromium >/dev/null 2>&1; then
    apt-get update
    apt-get install -y --no-install-recommends chromium chromium-driver
fi
chromium --version
