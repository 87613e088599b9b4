#!/usr/bin/env bash
# The fast test loop: builds the package and runs the tests of one feature (or several),
# across every test target, in well under a minute once built.
#
#   bash scripts/test-feature.sh Time            one feature
#   bash scripts/test-feature.sh Owners Hub      several
#   bash scripts/test-feature.sh --list          the features it knows
#
# A feature is a folder of Sources/ObservableKit. Its tests are the suites declared in the
# test folders of the same name in every test target (Tests/*/FEATURE/); `Testing` is the
# ObservableKitTesting module, whose tests are the top of Tests/ObservableKitTestingTests.
# The cross-feature stress, schedule-exploration and model-based suites (Tests/*/Stress/)
# run in the full suite: see CONTRIBUTING.md, "Where the tests are".
set -euo pipefail
cd "$(dirname "$0")/.."

extra() {
  case "$1" in
    Testing) echo Tests/ObservableKitTestingTests/*.swift ;;
  esac
}

features() { { ls Sources/ObservableKit | grep -v '\.docc$'; echo Testing; } | sort -u; }

if [ "${1:-}" = --list ] || [ $# -eq 0 ]; then
  echo "usage: bash scripts/test-feature.sh FEATURE... ; features:"; features | sed 's/^/  /'
  exit 0
fi

files=()
for feature in "$@"; do
  grep -qx "$feature" <<<"$(features)" || { echo "error: no feature '$feature' (--list names them)" >&2; exit 2; }
  for f in Tests/*/"$feature"/*.swift $(extra "$feature"); do [ -f "$f" ] && files+=("$f"); done
done
[ ${#files[@]} -gt 0 ] || { echo "error: no test files for $*" >&2; exit 1; }

# The suites those files declare: the types that follow a @Suite attribute.
suites=$(awk '/@Suite/ { want = 1 } want && match($0, /(struct|final class|class|enum|actor) [A-Za-z0-9_]+/) {
  split(substr($0, RSTART, RLENGTH), w, " "); print w[length(w)]; want = 0 }' "${files[@]}" | sort -u)
[ -n "$suites" ] || { echo "error: no suites in ${files[*]}" >&2; exit 1; }
filter=$(echo "$suites" | paste -sd'|')
echo "suites: ${filter//|/, }"
swift build --build-tests
swift test --skip-build --filter "\\.($filter)(/|$)"
