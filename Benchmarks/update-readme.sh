#!/usr/bin/env bash
# Regenerates the benchmark tables from one run of the suite at the current commit: the full
# dashboard in Benchmarks/README.md, and the README's short table of headline ratios:
#
#   bash Benchmarks/update-readme.sh             # the suite once, then the instruction counts
#   RUNS=3 bash Benchmarks/update-readme.sh      # three runs: medians with their ranges
#
# It runs `run.sh` (every benchmark row there is, whoever added it) and
# `count-instructions.sh` (every row of its table), then rewrites Benchmarks/README.md between
# the markers `<!-- benchmark-results:begin -->` and `<!-- benchmark-results:end -->`: the
# line naming the commit, the machine and the load, the time and memory table, the targets,
# and the instruction table; and README.md between `<!-- benchmark-headline:begin -->` and
# `<!-- benchmark-headline:end -->`: the headline rows (Tools/headline.py names them). Nothing
# else changes. Commit the two READMEs alone right after, so the commit that states the
# tables holds the code it measured.
#
# It refuses to run when Sources/, Benchmarks/ or Package.swift have uncommitted changes: the
# table would name a commit that is not what ran. ALLOW_DIRTY=1 runs anyway (for a trial;
# the line then says "uncommitted changes on top of").
set -euo pipefail
cd "$(dirname "$0")/.."

if ! git diff --quiet HEAD -- Sources Benchmarks Package.swift; then
  if [[ -z ${ALLOW_DIRTY:-} ]]; then
    echo "error: uncommitted changes in Sources/, Benchmarks/ or Package.swift; commit first (or ALLOW_DIRTY=1 for a trial)" >&2
    exit 1
  fi
  state="uncommitted changes on top of commit"
else
  state="commit"
fi
commit=$(git rev-parse --short HEAD)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || uname -p)
swift_version=$(swift --version 2>/dev/null | awk '/Swift version/ { for (i = 1; i <= NF; i++) if ($i == "version") { print $(i + 1); exit } }')
load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RUNS=${RUNS:-1} bash Benchmarks/run.sh "$@" >"$work/times.md"
bash Benchmarks/count-instructions.sh >"$work/counts.md"
load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")

{
  echo "Measured at $state \`$commit\` on $(date -u +%Y-%m-%d) by \`bash Benchmarks/update-readme.sh\`"
  echo "(${RUNS:-1} run(s) of \`Benchmarks/run.sh\`, then \`Benchmarks/count-instructions.sh\`): $(nproc)-core $(uname -m),"
  echo "$cpu, Swift $swift_version, $(uname -s); load average $load_before before, $load_after after."
  echo "Times move with the load (up to 2× on a shared machine); bytes, allocations and instruction"
  echo "counts do not."
  echo
  echo "Time and memory per unit (\`Benchmarks/run.sh\`):"
  echo
  cat "$work/times.md"
  echo
  echo "Instructions per unit (\`Benchmarks/count-instructions.sh\`, the same on every run):"
  echo
  cat "$work/counts.md"
} >"$work/section.md"

python3 Benchmarks/Tools/headline.py "$work/section.md" "$commit" >"$work/headline.md"

replace() {  # FILE BEGIN END CONTENT_FILE
  python3 - "$@" <<'PY'
import sys
path, begin, end, content = sys.argv[1], sys.argv[2], sys.argv[3], open(sys.argv[4]).read().rstrip("\n")
text = open(path).read()
if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
    sys.exit(f"error: {path} needs one {begin} … {end} pair")
head, rest = text.split(begin)
_, tail = rest.split(end)
open(path, "w").write(f"{head}{begin}\n{content}\n{end}{tail}")
PY
}
replace Benchmarks/README.md "<!-- benchmark-results:begin -->" "<!-- benchmark-results:end -->" "$work/section.md"
replace README.md "<!-- benchmark-headline:begin -->" "<!-- benchmark-headline:end -->" "$work/headline.md"
echo "Benchmarks/README.md and README.md updated from $state $commit; review and commit them." >&2
