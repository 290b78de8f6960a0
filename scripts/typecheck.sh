#!/usr/bin/env bash
# mypy over kg as it is installed: extractors/ as kg/extractors and queries/ as kg/queries
# (pyproject's package-dir), laid out as links in build/typecheck so mypy sees one package.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
stage="$repo/build/typecheck"
rm -rf "$stage"
mkdir -p "$stage/kg"
for entry in kg/*; do
    case "$entry" in kg/__pycache__) continue ;; esac
    ln -s "$repo/$entry" "$stage/kg/"
done
ln -s "$repo/extractors" "$stage/kg/extractors"
ln -s "$repo/queries" "$stage/kg/queries"
cd "$stage"
exec "$repo/.venv/bin/mypy" --config-file "$repo/pyproject.toml" -p kg "$@"
