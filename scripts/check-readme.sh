#!/usr/bin/env bash
# Compiles every ```swift block of README.md against this package, so that the README
# cannot drift from the code. Run from anywhere: bash scripts/check-readme.sh
#
# - Each block is compiled on its own, as the main.swift of an executable, in Swift 6
#   language mode with warnings as errors. Blocks are compiled, not run.
# - A block may use the few names that scripts/readme-prelude.swift declares (a stand-in
#   label, a save function); the prelude also imports ObservableKit. A block that uses
#   anything else, such as the Observable library or Foundation, imports it itself.
# - A block that is not Swift source on its own, such as a fragment of Package.swift, is
#   marked by this line right above its fence:
#     <!-- readme-check: skip -->
#   Shell commands and output use other fence languages (```sh, ```text).
#
# Errors point at README.md lines. The generated package lives in .build-playground/readme.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/snippets.sh
readme=README.md
package=.build-playground/readme
skip_marker='<!-- readme-check: skip -->'

begin_snippet_sources "$package"
mkdir -p "$package/Sources.next/ReadmePrelude"
cp scripts/readme-prelude.swift "$package/Sources.next/ReadmePrelude/"

if grep -nE '^[[:space:]]+```swift' "$readme" >&2; then
  echo "check-readme.sh: indented \`\`\`swift fences are not checked; start them at column 1" >&2
  exit 1
fi

# "<first line> <line count>" of each ```swift block that is not marked.
blocks=$(awk -v marker="$skip_marker" '
  inside && /^```[[:space:]]*$/ { if (!skip) print first, NR - first; inside = 0; next }
  !inside && /^```swift[[:space:]]*$/ { inside = 1; first = NR + 1; skip = (previous == marker); next }
  { previous = $0 }
  END { if (inside) { print "unterminated block at line " first - 1 > "/dev/stderr"; exit 1 } }
' "$readme")

compiled=0
skipped=$(grep -cxF -- "$skip_marker" "$readme" || true)
while read -r first count; do
  [ -n "$first" ] || continue
  write_snippet_main "$package" "ReadmeLine$first" ReadmePrelude "$readme" "$first" "$count"
  compiled=$((compiled + 1))
done <<<"$blocks"
[ "$compiled" -gt 0 ] || { echo "check-readme.sh: no \`\`\`swift blocks in $readme" >&2; exit 1; }
finish_snippet_package "$package" ReadmeBlocks ReadmePrelude

echo "Compiling $compiled Swift blocks of $readme ($skipped marked not compiled) ..." >&2
if build_snippet_package "$package"; then
  echo "check-readme.sh: all $compiled blocks of $readme compile"
else
  echo "check-readme.sh: a block of $readme does not compile (see the errors above)" >&2
  exit 1
fi
