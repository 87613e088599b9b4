#!/usr/bin/env bash
# The size figures of Sources/ObservableKit that the consolidation of the engine tracks:
# lines of Swift (DocC excluded), lines of Delivery/ and Owners/, non-public types,
# unsafeBitCast uses, @unchecked Sendable conformances. The folder graph (two-way pairs, the
# folders the engine names) is scripts/check-folder-map.sh's.
#
#   bash scripts/engine-figures.sh
set -euo pipefail
cd "$(dirname "$0")/../Sources/ObservableKit"
python3 - <<'PY'
import os, re
files = [os.path.join(d, f) for d, _, fs in os.walk(".") if ".docc" not in d for f in fs if f.endswith(".swift")]
def lines(paths): return sum(sum(1 for _ in open(p)) for p in paths)
def code(path):
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return [re.sub(r"//.*", "", l) for l in text.splitlines()]
decl = re.compile(r"^\s*((?:@\w+(?:\([^)]*\))?\s+|\w+\s+)*?)(class|struct|enum|protocol|actor)\s+([A-Za-z_]\w*)")
nonpublic = bitcasts = unchecked = 0
for p in files:
    for l in code(p):
        m = decl.match(l)
        if m and "func" not in m.group(1) and not re.search(r"\b(public|open)\b", m.group(1)):
            nonpublic += 1
        bitcasts += len(re.findall(r"\bunsafeBitCast\(", l))
        unchecked += len(re.findall(r"@unchecked\s+Sendable", l))
sub = [p for p in files if p.startswith(("./Delivery/", "./Owners/"))]
print(f"lines (Swift, DocC excluded)      {lines(files):>7,}")
print(f"lines in Delivery/ and Owners/    {lines(sub):>7,}")
print(f"non-public types                  {nonpublic:>7}")
print(f"unsafeBitCast uses                {bitcasts:>7}")
print(f"@unchecked Sendable conformances  {unchecked:>7}")
PY
