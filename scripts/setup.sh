#!/usr/bin/env bash
# Create .venv with Python 3.12+ and install kg from this checkout (editable).
#   bash scripts/setup.sh         what running kg needs (make quickstart)
#   bash scripts/setup.sh --all   and every extra of pyproject.toml: tests, linters (make test)
# Packages come as wheels through uv (installed into .venv by pip; a wheel of its own), which
# fetches them in parallel: a cold install takes seconds, not minutes. uv reads no pip
# configuration: a private index is set with UV_DEFAULT_INDEX (docs/architecture.md#install).
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

case "${1:-}" in
    "" | --all) ;;
    *) echo "kg setup: unknown option $1 (use --all for the test and lint extras)" >&2; exit 2 ;;
esac

if [ ! -x .venv/bin/python ]; then
    "$(find_python)" -m venv .venv
fi
if [ ! -x .venv/bin/uv ]; then
    .venv/bin/python -m pip install -qq --disable-pip-version-check 'uv>=0.5'
fi
target="."
if [ "${1:-}" = --all ]; then
    extras=$(.venv/bin/python -c 'import tomllib
print(",".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]))')
    target=".[$extras]"
fi
# Where PYTHONDONTWRITEBYTECODE is set nothing would ever be compiled, and every run would
# compile what it imports again (seconds per command): compile at install time instead.
compile=()
if [ -n "${PYTHONDONTWRITEBYTECODE:-}" ]; then compile=(--compile-bytecode); fi
# Wheels only (kg's own editable build aside): a package without a wheel for this machine is
# an error here, not minutes of compiling.
.venv/bin/uv pip install --quiet --python .venv/bin/python --only-binary :all: "${compile[@]}" \
    -e "$target"
if [ -n "${PYTHONDONTWRITEBYTECODE:-}" ]; then
    # The editable install leaves our own modules uncompiled, whatever the flag says.
    .venv/bin/python -m compileall -q kg extractors
fi
