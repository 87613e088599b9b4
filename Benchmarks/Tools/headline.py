"""The README's headline table, made from the dashboard that update-readme.sh generates.

    python3 Benchmarks/Tools/headline.py SECTION.md COMMIT

SECTION.md is the generated dashboard (Benchmarks/README.md between its benchmark-results
markers). It prints a short table of the rows a user meets first, with ObservableKit's
time (or memory) divided by the locked closure array's and by OpenCombine's, and a link to
the dashboard. A row the dashboard lacks is left out.
"""
import re
import sys

# Label in the README, then the dashboard row it comes from.
HEADLINE = [
    ("Notify an event, 1 observer", "S1 notify 1 obs"),
    ("Set a property, 1 observer", "S2 property set 1 obs"),
    ("Notify a `SharedEvent` observed with `observe` on the main actor, there", "S14 shared notify 1 obs via observe on the main actor"),
    ("100,000 values from a background thread to a main-actor handler (baseline: one `main.async` each, whose time varies threefold here: see Benchmarks)", "S15 hop burst to the main actor"),
    ("Observe and dispose, 10 others observing", "S3b churn observe+dispose with 10 obs"),
    ("The same on a `SharedEvent`, with `observe` on the main actor", "S16 shared churn observe+dispose with 10 obs on the main actor"),
    ("Owner-bound observe and dispose, 10 others observing", "S3o owner churn observe(with:)+dispose with 10 obs"),
    ("Fill a `DisposeBag` over 100 sources and dispose it", "S5m DisposeBag fill+dispose over 100 sources"),
    ("Memory per live subscription", "S8 memory per live subscription"),
    ("The same, `SharedEvent` with `observe` on the main actor", "S17 shared memory per live subscription via observe on the main actor"),
    ("Post to an `EventHub`, 1 observer (peer: `NotificationCenter`)", "S11 hub post 1 obs"),
]

section_path, commit = sys.argv[1], sys.argv[2]
rows = {}
for line in open(section_path):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) > 3 and re.match(r"S\d+", cells[0]) and cells[0] not in rows:
        rows[cells[0]] = cells

def ratio(cell):
    m = re.search(r"\*\*([0-9.,]+)×\*\*", cell)
    return f"{m.group(1)}×" if m else "–"

print(f"Measured at `{commit}` (time or memory; below 1× is faster or smaller):")
print()
print("| What you do | ÷ baseline: a locked closure array, or the one named | ÷ OpenCombine, or the peer named |")
print("|---|---:|---:|")
for label, name in HEADLINE:
    cells = rows.get(name)
    if not cells:
        continue
    if name.startswith(("S10", "S11")):
        # The peer table: unit, peer, ÷ peer, ÷ baseline.
        print(f"| {label} | {ratio(cells[4])} | {ratio(cells[3])} |")
    else:
        print(f"| {label} | {ratio(cells[2])} | {ratio(cells[3])} |")
print()
print("Every scenario, the method and the instruction counts: [Benchmarks/README.md](Benchmarks/README.md#results).")
