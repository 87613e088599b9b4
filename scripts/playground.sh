#!/usr/bin/env bash
# Runs the pages of Playgrounds/ObservableKit.playground as command-line programs, on Linux
# and macOS, with nothing but a Swift toolchain.
#
#   bash scripts/playground.sh              run every page, in the playground's order
#   bash scripts/playground.sh Operators    run the named page(s)
#   bash scripts/playground.sh --check      run every page and compare what it prints with
#                                           Playgrounds/Expected/<Page>.txt (CI)
#   bash scripts/playground.sh --record     run every page and write its output there
#   bash scripts/playground.sh --list       list the pages
#
# With OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1 (the delivery path of Apple platforms before the
# 26 releases), --check compares with Playgrounds/Expected/before-26/<Page>.txt where that
# exists (pages whose output differs on that path), and --record writes only such files.
#
# How: it generates a throwaway SwiftPM package under .build-playground/pages that depends
# on this package by path, with one executable per page (see scripts/lib/snippets.sh). The
# pages stay the only source; warnings are errors, as in the rest of the package.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/snippets.sh
playground=Playgrounds/ObservableKit.playground
expected=Playgrounds/Expected
package=.build-playground/pages

die() { printf 'playground.sh: %s\n' "$*" >&2; exit 2; }

mode=run
requested=()
for argument in "$@"; do
  case $argument in
    --check) mode=check ;;
    --record) mode=record ;;
    --list) mode=list ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $argument (try --help)" ;;
    *) requested+=("$argument") ;;
  esac
done

# The pages, in the order contents.xcplayground lists them (the order Xcode shows).
pages=()
while IFS= read -r page; do pages+=("$page"); done < <(
  sed -n "s/.*<page name='\([^']*\)'.*/\1/p" "$playground/contents.xcplayground")
[ ${#pages[@]} -gt 0 ] || die "no pages listed in $playground/contents.xcplayground"

# Every listed page exists, and every page folder is listed.
# Whether a page of that name exists. A loop, not `printf | grep -q`: under pipefail, grep's
# early exit can kill printf with SIGPIPE and fail the pipeline although the page exists.
has_page() {
  local page
  for page in "${pages[@]}"; do [ "$page" = "$1" ] && return 0; done
  return 1
}

for page in "${pages[@]}"; do
  [ -f "$playground/Pages/$page.xcplaygroundpage/Contents.swift" ] ||
    die "$playground/contents.xcplayground lists '$page', but Pages/$page.xcplaygroundpage/Contents.swift does not exist"
done
for folder in "$playground"/Pages/*.xcplaygroundpage; do
  page=$(basename "$folder" .xcplaygroundpage)
  has_page "$page" ||
    die "$folder is not listed in $playground/contents.xcplayground"
done

if [ "$mode" = list ]; then
  printf '%s\n' "${pages[@]}"
  exit 0
fi

if [ ${#requested[@]} -gt 0 ]; then
  for page in "${requested[@]}"; do
    has_page "$page" ||
      die "no page named '$page'; the pages are: ${pages[*]}"
  done
  selected=("${requested[@]}")
else
  selected=("${pages[@]}")
fi

# Generate the package: the playground's Sources/ become the library PlaygroundSources, as
# Xcode makes them a module that every page imports, and each page an executable.
begin_snippet_sources "$package"
mkdir -p "$package/Sources.next/PlaygroundSources"
cp "$playground"/Sources/*.swift "$package/Sources.next/PlaygroundSources/"
for page in "${pages[@]}"; do
  write_snippet_main "$package" "${page}Page" PlaygroundSources \
    "$playground/Pages/$page.xcplaygroundpage/Contents.swift" 1
done
finish_snippet_package "$package" PlaygroundPages PlaygroundSources

echo "Building the playground pages (the first build also builds the package) ..." >&2
build_snippet_package "$package" || { echo "playground.sh: the pages do not build" >&2; exit 1; }
bin=$(swift build --package-path "$package" --show-bin-path)

# Runs a page with a time limit where the system offers one: a page that deadlocks fails.
run_page() {
  if command -v timeout >/dev/null 2>&1; then
    timeout 120 "$bin/$1Page"
  else
    "$bin/$1Page"
  fi
}

# On the path before the 26 releases, a page whose output differs there has its own file.
before26=false
[ "${OBSERVABLEKIT_SIMULATE_OS_BEFORE_26:-}" = 1 ] && before26=true
# A macOS before 26 takes that path for real.
if [ "$(uname -s)" = Darwin ] && [ "$(sw_vers -productVersion | cut -d. -f1)" -lt 26 ]; then before26=true; fi
expected_for() {
  local file=$expected/$1.txt variant=$expected/before-26/$1.txt
  if [ "$before26" = true ] && { [ -f "$variant" ] || [ "$mode" = record ]; }; then file=$variant; fi
  printf '%s\n' "$file"
}

failed=()
for page in "${selected[@]}"; do
  file=$(expected_for "$page")
  case $mode in
    run)
      printf '\n==== %s ====\n\n' "$page"
      run_page "$page" || failed+=("$page")
      ;;
    record)
      mkdir -p "$(dirname "$file")"
      if ! run_page "$page" >"$file"; then
        echo "FAIL $page: exited with status $?; $file is incomplete"
        failed+=("$page")
      elif [ "$before26" = true ] && cmp -s "$file" "$expected/$page.txt"; then
        rm -f "$file"
        echo "same on the path before the 26 releases: $page"
      else
        echo "recorded $file"
      fi
      ;;
    check)
      actual=$(mktemp)
      status=0
      run_page "$page" >"$actual" || status=$?
      if [ "$status" -ne 0 ]; then
        echo "FAIL $page: exited with status $status"
        failed+=("$page")
      elif [ ! -f "$file" ]; then
        echo "FAIL $page: $file does not exist (bash scripts/playground.sh --record $page)"
        failed+=("$page")
      elif diff -u --label "$file" --label "$page (actual)" "$file" "$actual"; then
        echo "ok   $page"
      else
        echo "FAIL $page: its output differs from $file (diff above)"
        failed+=("$page")
      fi
      rm -f "$actual"
      ;;
  esac
done

# In a full check, every expected output belongs to a page.
if [ "$mode" = check ] && [ ${#requested[@]} -eq 0 ]; then
  for file in "$expected"/*.txt "$expected"/before-26/*.txt; do
    [ -e "$file" ] || continue
    page=$(basename "$file" .txt)
    if ! has_page "$page"; then
      echo "FAIL $file belongs to no page; delete it"
      failed+=("$file")
    fi
  done
fi

if [ ${#failed[@]} -gt 0 ]; then
  printf '\nplayground.sh: failed: %s\n' "${failed[*]}" >&2
  exit 1
fi
