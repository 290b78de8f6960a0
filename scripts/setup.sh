#!/usr/bin/env bash
# Create .venv with Python 3.12+ and install kg with its test and dev extras, and any more
# named as the argument (`bash scripts/setup.sh dask`: Dask for `kg build --dask`).
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {
    local candidates=()
    command -v pyenv >/dev/null 2>&1 && candidates+=("$(pyenv root)"/versions/3.1[2-9]*/bin/python3)
    candidates+=(python3.13 python3.12 python3)
    for py in "${candidates[@]}"; do
        if command -v "$py" >/dev/null 2>&1 &&
           "$py" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
            echo "$py"; return 0
        fi
    done
    echo "kg setup: no Python 3.12+ found; install one (e.g. pyenv install 3.12)" >&2
    return 1
}

if [ ! -x .venv/bin/python ]; then
    "$(find_python)" -m venv .venv
fi
.venv/bin/python -m pip install -qq --upgrade pip
.venv/bin/python -m pip install -qq -e ".[test,dev${1:+,$1}]"
# An editable install leaves our own modules uncompiled; where PYTHONDONTWRITEBYTECODE is
# set they would be compiled again by every run (a tenth of a second per process).
.venv/bin/python -m compileall -q kg extractors
