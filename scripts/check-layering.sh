#!/usr/bin/env bash
# Checks that the compatibility module `Observable` uses only the public API of ObservableKit.
#
#   bash scripts/check-layering.sh
#
# Builds ObservableKit, then type-checks every file of Sources/Observable against the built
# module under a package name of its own, not the one SwiftPM gives both modules, so that
# ObservableKit's `package` symbols are invisible: a use of one fails the check. (The
# compatibility module may still declare `package` members of its own, for its tests.)
# Prints one line; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! swift build --target ObservableKit >"$log" 2>&1; then
  cat "$log" >&2
  echo "FAIL layering: ObservableKit does not build (see above)"
  exit 2
fi
bin=$(swift build --show-bin-path)

sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/Observable -name '*.swift' | sort)

if ! swiftc -typecheck -swift-version 6 -module-name Observable -package-name observable-layering-check -diagnostic-style llvm \
  -I "$bin/Modules" -I "$bin" -Xcc -fmodule-map-file="$bin/ObservableKitShims.build/module.modulemap" \
  "${sources[@]}" >"$log" 2>&1; then
  grep -E 'error:' "$log" >&2 || cat "$log" >&2
  echo "FAIL layering: Sources/Observable uses ObservableKit beyond its public API (errors above)"
  exit 1
fi
echo "ok   layering: Sources/Observable (${#sources[@]} files) type-checks against ObservableKit's public API only"
