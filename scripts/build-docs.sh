#!/usr/bin/env bash
# Builds the DocC catalog of every module that has one with the toolchain's own docc, and
# fails on any warning.
#
#   bash scripts/build-docs.sh [SYMBOL_GRAPH_DIR]
#
# With no argument it builds the package to get symbol graphs; .ci/run passes the graphs
# of its warnings-as-errors build instead, so the package is built once for both.
set -euo pipefail
cd "$(dirname "$0")/.."

graphs=${1:-}
if [ -z "$graphs" ]; then
  # Kept with the build: a module emits its graph whenever it recompiles.
  graphs=.build-docs/symbol-graphs
  mkdir -p "$graphs"
  swift build --scratch-path .build-docs \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
fi

# On macOS docc comes with Xcode, reached through xcrun; a Linux toolchain has it on PATH.
if [ "$(uname -s)" = Darwin ]; then docc=(xcrun docc); else docc=(docc); fi

for catalog in Sources/*/*.docc; do
  module=$(basename "$(dirname "$catalog")")
  module_graphs=.build-docs/graphs-$module
  rm -rf "$module_graphs" && mkdir -p "$module_graphs"
  cp "$graphs/$module".symbols.json "$module_graphs"/
  cp "$graphs/$module"@*.symbols.json "$module_graphs"/ 2>/dev/null || true
  echo "docc: $module"
  "${docc[@]}" convert "$catalog" \
    --additional-symbol-graph-dir "$module_graphs" \
    --output-dir ".build-docs/$module.doccarchive" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.observablekit.$module" \
    --warnings-as-errors
done
