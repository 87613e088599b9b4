#!/usr/bin/env bash
# The two families offer the same operators: every public operator of the confined family
# (EventSource, PropertySource, collections of them) has a namesake with the same argument
# labels in the shared family (SharedEventSource, SharedPropertySource, collections of them),
# and the other way round, unless it is listed below with the reason it differs.
#
#   bash scripts/check-parity.sh
#
# It reads the extensions of Sources/ObservableKit/{Operators,Time,Async,Owners,Delivery}:
# a public func or var inside `extension EventSource …` counts for the confined events, and so
# on. An operator is named by its base name and argument labels, e.g. `throttle(for:clock:latest:)`.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PY'
import re, sys, glob

# Operators that exist in one family only, and why. Keep each reason a rule a user can read.
EXCEPTIONS = {
    # ("events", "name(label:)"): "why the other family has no such operator",
}
# The families' own subscriptions, which are not operators: the confined family's are
# requirements of EventSource and PropertySource that each source declares (Events/,
# Properties/), the shared family's, whose handlers keep their isolation, are deliveries
# defined once on `observeNonisolated` (Delivery/). Both families have them; this scan reads
# extensions only, so it leaves them out.
SUBSCRIPTIONS = {("events", "observe(_:)"), ("properties", "observeChanges(_:)")}
# An `isolation:` parameter (`= #isolation`) names the caller's actor, which the call site
# never writes: it is left out of the comparison, so `observe(with:policy:isolation:_:)`
# (confined: the caller's actor runs the handler) matches `observe(with:policy:_:)` (shared:
# the handler's own isolation does).
IGNORED_LABELS = {"isolation:"}
FAMILY = {
    "EventSource": ("confined", "events"), "PropertySource": ("confined", "properties"),
    "SharedEventSource": ("shared", "events"), "SharedPropertySource": ("shared", "properties"),
}

def labels(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch in "(<[": depth += 1
        if ch in ")>]": depth -= 1
        if ch == "," and depth == 0: out.append(cur); cur = ""
        else: cur += ch
    if cur.strip(): out.append(cur)
    names = []
    for p in out:
        p = p.strip()
        if not p: continue
        head = p.split(":")[0].strip().split()
        head = [h for h in head if not h.startswith("@")]
        label = (head[0] if head else "_") + ":"
        if label not in IGNORED_LABELS: names.append(label)
    return "".join(names)

found = {("confined", k): set() for k in ("events", "properties")}
found.update({("shared", k): set() for k in ("events", "properties")})
folders = ["Operators", "Time", "Async", "Owners", "Delivery"]
for path in sorted(p for f in folders for p in glob.glob(f"Sources/ObservableKit/{f}/*.swift")):
    text = open(path).read()
    # Each top-level extension, by brace depth.
    for m in re.finditer(r"^extension ([^\n{]+)\{", text, re.M):
        header = m.group(1)
        start, depth, i = m.end(), 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0); i += 1
        body = text[start:i]
        target = None
        t = re.match(r"\s*(\w+)", header).group(1)
        if t in FAMILY: target = FAMILY[t]
        else:
            e = re.search(r"Element\s*:\s*(\w+)", header)
            if t in ("Collection", "Sequence", "Array") and e and e.group(1) in FAMILY:
                fam, kind = FAMILY[e.group(1)]; target = (fam, kind + "[]")
        if not target: continue
        found.setdefault(target, set())
        for f in re.finditer(r"public (?:static )?func (\w+)\s*(?:<[^{]*?>)?\s*\(", body):
            j, d = f.end(), 1
            while d: d += {"(": 1, ")": -1}.get(body[j], 0); j += 1
            found[target].add(f"{f.group(1)}({labels(body[f.end():j-1])})")
        for v in re.finditer(r"public var (\w+)\s*:", body):
            found[target].add(v.group(1))

errors = 0
kinds = sorted({k for (_, k) in found})
for kind in kinds:
    confined, shared = found.get(("confined", kind), set()), found.get(("shared", kind), set())
    for name in sorted(confined - shared):
        if (kind, name) not in EXCEPTIONS:
            print(f"error: {kind}: {name} is in the confined family only"); errors += 1
    for name in sorted(shared - confined):
        if (kind, name) in SUBSCRIPTIONS:
            continue
        if (kind, name) not in EXCEPTIONS and (kind, name.replace("Nonisolated", "")) not in EXCEPTIONS:
            print(f"error: {kind}: {name} is in the shared family only"); errors += 1
    print(f"{kind}: {len(confined & shared)} operators in both families")
if errors:
    print("Add the operator to the other family, or list it in EXCEPTIONS with the reason it differs.")
    sys.exit(1)
print("ok   parity: the confined and shared families offer the same operators")
PY
