#!/usr/bin/env bash
# Runs the benchmark suite in release mode and prints the ratio table.
#
#   bash Benchmarks/run.sh                       # the whole suite, 3 runs (about 4.5 minutes)
#   RUNS=1 bash Benchmarks/run.sh                # one run (about 1 minute once built)
#   bash Benchmarks/run.sh --filter 'S1_.*'      # extra arguments go to `benchmark`
#
# Each run executes every benchmark once, the three contenders of a scenario back to back;
# the table gives the median ratio over the runs and its range, which shows how much a
# shared machine moved the figures. The raw exports (p0…p100 of every benchmark and metric,
# raw units) are kept in Benchmarks/.build/results/run-N/.
set -euo pipefail
cd "$(dirname "$0")"

runs=${RUNS:-3}
results=.build/results
rm -rf "$results"

# Cores: nproc on Linux, sysctl on macOS (which has no nproc).
if [ "$(uname -s)" = Darwin ]; then cores=$(sysctl -n hw.ncpu); else cores=$(nproc); fi
echo "cores: $cores" >&2
for run in $(seq 1 "$runs"); do
  echo "== run $run of $runs" >&2
  mkdir -p "$results/run-$run"
  swift package --package-path . --allow-writing-to-directory "$results/run-$run" \
    benchmark --format histogramPercentiles --path "$results/run-$run" --no-progress "$@" >&2
done

python3 format-results.py "$results"/run-*
