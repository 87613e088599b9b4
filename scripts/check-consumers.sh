#!/usr/bin/env bash
# Checks the library as its users write code, in Swift 6 mode. Run it from anywhere:
#
#   bash scripts/check-consumers.sh            build, run and compare, then the compile checks
#   bash scripts/check-consumers.sh --record   write what each program prints to Expected/
#
# 1. Builds Consumers/, a package that depends on this one by path, with warnings as errors.
# 2. Checks that AppDefaultsUse is MainActorUse without its @MainActor annotations.
# 3. Runs each executable of Consumers/Sources and compares what it prints with
#    Consumers/Expected/<Target>.txt. With OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1 (the delivery
#    path of Apple platforms before the 26 releases), Expected/before-26/<Target>.txt instead
#    where the output differs on that path; --record then writes there only such files.
# 4. Compiles each file of Consumers/CompileFail on its own against the built ObservableKit
#    module: it must fail, with errors on exactly the marked lines, and every error on a
#    marked line must be what its marker expects:
#      // expected: data race            a concurrency diagnostic (Sendable, sending, data race)
#      // expected error: <regex>        a message matching <regex>, an extended regular
#                                        expression (grep -E), to the end of the line
#    Each file of Consumers/CompilePass must compile with the same command. The command
#    emits SIL, not just -typecheck: the region checks behind "sending ... risks causing data
#    races" run on SIL.
set -euo pipefail
cd "$(dirname "$0")/.."
package=Consumers
scratch=$package/.build
marker='// expected: data race'
error_marker='// expected error: '
concurrency='sendable|sending|data race'

die() { printf 'check-consumers.sh: %s\n' "$*" >&2; exit 2; }

record=false
case ${1:-} in
  '') ;;
  --record) record=true ;;
  *) die "unknown option $1 (try --record)" ;;
esac

failed=()
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed+=("${1%%:*}"); }

echo "Building $package with warnings as errors (the first build also builds ObservableKit) ..." >&2
swift build --package-path "$package" --scratch-path "$scratch" -Xswiftc -warnings-as-errors >&2 ||
  { echo "FAIL build: $package does not build without warnings (see above)"; exit 1; }
ok "build: $package builds in Swift 6 mode without warnings"
bin=$(swift build --package-path "$package" --scratch-path "$scratch" --show-bin-path)

# The two view-model targets must not drift apart.
drift=false
for file in "$package"/Sources/MainActorUse/*.swift; do
  copy=$package/Sources/AppDefaultsUse/${file##*/}
  if [ ! -f "$copy" ] || ! diff -u --label "$file without @MainActor" --label "$copy" \
    <(sed 's/@MainActor //g' "$file") "$copy"; then
    drift=true
  fi
done
if [ "$drift" = true ] ||
  [ "$(ls "$package"/Sources/MainActorUse)" != "$(ls "$package"/Sources/AppDefaultsUse)" ]; then
  fail "AppDefaultsUse: differs from MainActorUse without @MainActor (diff above)"
else
  ok "AppDefaultsUse: MainActorUse without @MainActor"
fi

# Runs an executable with a time limit where the system offers one: a hang fails.
run_target() {
  if command -v timeout >/dev/null 2>&1; then timeout 60 "$bin/$1"; else "$bin/$1"; fi
}

# On the path before the 26 releases, a target whose output differs there has its own file.
before26=false
[ "${OBSERVABLEKIT_SIMULATE_OS_BEFORE_26:-}" = 1 ] && before26=true
# A macOS before 26 takes that path for real.
if [ "$(uname -s)" = Darwin ] && [ "$(sw_vers -productVersion | cut -d. -f1)" -lt 26 ]; then before26=true; fi
expected_for() {
  local file=$package/Expected/$1.txt variant=$package/Expected/before-26/$1.txt
  if [ "$before26" = true ] && { [ -f "$variant" ] || [ "$record" = true ]; }; then file=$variant; fi
  printf '%s\n' "$file"
}

targets=()
for dir in "$package"/Sources/*/; do targets+=("$(basename "$dir")"); done
for target in "${targets[@]}"; do
  expected=$(expected_for "$target")
  actual=$(mktemp)
  status=0
  run_target "$target" >"$actual" || status=$?
  if [ "$status" -ne 0 ]; then
    fail "$target: exited with status $status"
  elif [ "$record" = true ] && [ "$before26" = true ] && cmp -s "$actual" "$package/Expected/$target.txt"; then
    rm -f "$expected"
    ok "$target: prints the same on the path before the 26 releases; no variant kept"
  elif [ "$record" = true ]; then
    mkdir -p "$(dirname "$expected")"
    cp "$actual" "$expected"
    ok "$target: recorded $expected"
  elif [ ! -f "$expected" ]; then
    fail "$target: $expected does not exist (bash scripts/check-consumers.sh --record)"
  elif diff -u --label "$expected" --label "$target (actual)" "$expected" "$actual"; then
    ok "$target: prints $expected"
  else
    fail "$target: its output differs from $expected (diff above)"
  fi
  rm -f "$actual"
done
for file in "$package"/Expected/*.txt "$package"/Expected/before-26/*.txt; do
  [ -e "$file" ] || continue
  # A here-string, not a pipe: under pipefail, grep's early exit can fail `printf | grep -q`.
  grep -qxF "$(basename "$file" .txt)" <<<"$(printf '%s\n' "${targets[@]}")" ||
    fail "$file: belongs to no target; delete it"
done

# One file, compiled on its own against the ObservableKit module just built. A first line
# `// compile-flags: <flags>` adds compiler flags (such as a default isolation) for that file.
compile() {
  local flags=()
  read -r -a flags <<<"$(sed -nE '1s|^// compile-flags: (.*)$|\1|p' "$1")"
  swiftc -swift-version 6 -warnings-as-errors -diagnostic-style llvm -emit-sil -o /dev/null \
    -I "$bin/Modules" -I "$bin" -Xcc -fmodule-map-file="$bin/ObservableKitShims.build/module.modulemap" \
    -module-cache-path "$scratch/compile-checks-cache" ${flags[@]+"${flags[@]}"} "$1" 2>&1
}

for file in "$package"/CompilePass/*.swift; do
  name=$(basename "$file" .swift)
  if output=$(compile "$file"); then
    ok "$name: compiles"
  else
    printf '%s\n' "$output"
    fail "$name: does not compile (errors above)"
  fi
done

# Prints the errors (the compiler's "error:" lines, $2) that the marker on their line of the
# file $1 does not expect. Errors on unmarked lines are left to the comparison of lines.
unexpected_errors() {
  local error line text
  while IFS= read -r error; do
    [ -n "$error" ] || continue
    line=$(sed -nE 's/^[^:]*:([0-9]+):[0-9]+: error: .*/\1/p' <<<"$error")
    [ -n "$line" ] || { printf '%s\n' "$error"; continue; }
    text=$(sed -n "${line}p" "$1")
    if [[ $text == *"$marker"* ]]; then
      grep -qiE -- "$concurrency" <<<"${error#*: error: }" || printf '%s\n' "$error"
    elif [[ $text == *"$error_marker"* ]]; then
      grep -qE -- "${text#*"$error_marker"}" <<<"${error#*: error: }" || printf '%s\n' "$error"
    fi
  done <<<"$2"
}

cases=0
for file in "$package"/CompileFail/*.swift; do
  name=$(basename "$file" .swift)
  cases=$((cases + 1))
  if output=$(compile "$file"); then
    fail "$name: compiles, but must fail with the errors its markers expect"
    continue
  fi
  # Only errors in the case itself: an error inside a macro's expansion (such as
  # #isolation's `nil` in nonisolated code) is reported in a generated buffer, or at its line
  # in the file that uses the macro; neither is the case's own error.
  errors=$(grep -E ': error: ' <<<"$output" | grep -F -- "$file:" | grep -v '/swift-generated-sources/@__swiftmacro' || true)
  others=$(unexpected_errors "$file" "$errors")
  # Line numbers, one per line: where the errors are, and where the file expects them.
  found=$(sed -nE 's/^[^:]*:([0-9]+):[0-9]+: error: .*/\1/p' <<<"$errors" | sort -un)
  marked=$({ grep -nF -e "$marker" -e "$error_marker" "$file" || true; } | cut -d: -f1 | sort -un)
  if [ -z "$errors" ] || [ -n "$others" ]; then
    printf '%s\n' "$output"
    fail "$name: fails, but not with the errors its markers expect (above)"
  elif [ -z "$marked" ] || [ "$found" != "$marked" ]; then
    printf '%s\n' "$output"
    fail "$name: errors on lines [$(echo $found)], but markers on lines [$(echo $marked)]"
  else
    more=$(($(wc -l <<<"$errors") - 1))
    ok "$name: fails to compile: $(sed -E 's/^[^:]*:([0-9]+):[0-9]+: error: /line \1: /' <<<"$errors" | head -1)$([ "$more" -eq 0 ] || echo " (and $more more)")"
  fi
done
[ "$cases" -gt 0 ] || fail "CompileFail: no cases in $package/CompileFail"

if [ ${#failed[@]} -gt 0 ]; then
  printf '\ncheck-consumers.sh: failed: %s\n' "${failed[*]}" >&2
  exit 1
fi
echo "check-consumers.sh: all checks passed"
