#!/usr/bin/env bash
# Fails on a use of an Apple API newer than the deployment floor that no availability fence
# covers, in Sources/, Tests/, Consumers/ and Playgrounds/.
#
#   bash scripts/check-availability.sh              # scan the tree
#   bash scripts/check-availability.sh --self-test  # prove the scan catches what it must
#   bash scripts/check-availability.sh FILE...      # scan these files only
#
# Why: Linux, where this package is built and tested, never enforces `@available`, so an
# unfenced use compiles here and fails only in an Apple build. The scan knows the versioned
# APIs this package touches (the table `APIS` below: Clock and Duration, `Task.sleep(for:)`,
# Observation, `Task.immediate`, Synchronization, and this package's own APIs built on them:
# the time operators, the recorders' waits, `ManualClock`, tracking properties) and follows
# scopes: a use is fenced when an enclosing declaration, type or extension carries
# `@available` naming every platform whose floor is below the API's, or when it sits in the
# body of `if #available(…)` or after `guard #available(…) else { … }` in the same block.
# The floors are read from the nearest Package.swift (the package's own, or Consumers').
# It also knows this tree's own fenced declarations: a function or type declared under an
# `@available` of its own (a test's helper, a fenced model) is a versioned API too, wherever
# it is used (an initializer is not tracked: a fenced `init` is seen only through its type).
#
# What it does not do: resolve names. A use through a type alias, or a member of an inferred
# type (`clock.now` where `clock` is a parameter), is found only where the type is named,
# which is where the compiler asks for the fence too. Comments and string literals are not
# code: they never count.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import bisect, os, re, shutil, sys, tempfile

PLATFORMS = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
# SwiftPM's deployment targets for a platform a manifest does not name (tools 6.2).
UNDECLARED = {"macOS": (10, 13), "iOS": (12, 0), "tvOS": (12, 0), "watchOS": (4, 0), "visionOS": (1, 0)}

def v(*parts):
    return tuple(parts) + (0,) * (2 - len(parts))

CLOCK = {"macOS": v(13), "iOS": v(16), "tvOS": v(16), "watchOS": v(9), "visionOS": v(1)}
OBSERVATION = {"macOS": v(14), "iOS": v(17), "tvOS": v(17), "watchOS": v(10), "visionOS": v(1)}
SYNCHRONIZATION = {"macOS": v(15), "iOS": v(18), "tvOS": v(18), "watchOS": v(11), "visionOS": v(2)}
OS26 = {p: v(26) for p in PLATFORMS}

# (what, requirement, pattern over code with comments and strings blanked)
APIS = [
    ("Clock", CLOCK, r"\b(?:ContinuousClock|SuspendingClock|Clock|InstantProtocol|DurationProtocol)\b"),
    ("Duration", CLOCK, r"\bDuration\b"),
    ("Task.sleep(for:)/Task.sleep(until:)/Clock.sleep(for:)", CLOCK,
     r"\bTask\s*\.\s*sleep\s*\(\s*(?:for|until)\s*:|\.\s*sleep\s*\(\s*for\s*:"),
    ("the testing kit's ManualClock", CLOCK, r"\bManualClock\b"),
    ("the clock-driven timer protocols", CLOCK, r"\b(?:ClockTimer|TimerDrivingClock)\b"),
    ("a time operator", CLOCK, r"\.\s*(?:debounce|throttle|delay)\s*\("),
    ("Swift Testing's time limit", CLOCK, r"\.\s*timeLimit\s*\("),
    ("a recorder's timed wait", CLOCK, r"\.\s*(?:waitForValues|waitUntilIdle)\s*\("),
    ("@Observable", OBSERVATION, r"@(?:Observation\s*\.\s*)?Observable\b(?!\s*\.)"),
    ("Observation", OBSERVATION,
     r"\b(?:withObservationTracking|ObservationRegistrar|ObservationIgnored|ObservationTracked|ObservationTracking)\b"),
    ("a tracking property", OBSERVATION, r"\b(?:TrackingProperty|ReadOnlyProperty)\s*\(\s*tracking\s*:|\bTrackingProperty\b"),
    ("Observations", OS26, r"\bObservations\b"),
    ("Task.immediate", OS26, r"\b(?:Task\s*\.\s*immediate(?:Detached)?|addImmediateTask(?:UnlessCancelled)?)\b"),
    ("Synchronization", SYNCHRONIZATION, r"\b(?:Mutex|Atomic|AtomicLazyReference|WordPair)\b"),
]
APIS = [(what, req, re.compile(pattern)) for what, req, pattern in APIS]

INTRODUCERS = {"func", "var", "let", "class", "struct", "enum", "actor", "extension", "protocol", "init",
               "subscript", "typealias", "case", "deinit", "associatedtype", "macro", "operator"}

# ---------------------------------------------------------------------------------------
def blank(text):
    """The text with comments and string literals replaced by spaces, newlines kept."""
    out = list(text)
    i, n = 0, len(text)
    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j); i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j): depth += 1; j += 2
                elif text.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            wipe(i, j); i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r'#*', text[i:]).group(0))
            start = i
            i += hashes
            multi = text.startswith('"""', i)
            quote = '"""' if multi else '"'
            i += len(quote)
            close = quote + "#" * hashes
            while i < n:
                if text.startswith(close, i):
                    i += len(close); break
                if text[i] == "\\" and hashes == 0:
                    i += 2; continue
                if text[i] == "\n" and not multi:
                    break
                i += 1
            wipe(start, i)
        else:
            i += 1
    return "".join(out)

def parse_versions(args):
    """The platforms and versions an @available/#available argument list names, or None."""
    fence = {}
    parts = [p.strip() for p in args.split(",")]
    for k, part in enumerate(parts):
        m = re.match(r"(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst)(?:ApplicationExtension)?\s+(\d+)(?:\.(\d+))?", part)
        if m:
            fence[m.group(1)] = (int(m.group(2)), int(m.group(3) or 0))
            continue
        m = re.match(r"(macOS|iOS|tvOS|watchOS|visionOS)(?:ApplicationExtension)?$", part)
        if m and k + 1 < len(parts):
            rest = parts[k + 1]
            intro = re.match(r"introduced\s*:\s*(\d+)(?:\.(\d+))?", rest)
            if intro:
                fence[m.group(1)] = (int(intro.group(1)), int(intro.group(2) or 0))
            elif rest == "unavailable":
                fence[m.group(1)] = (10**6, 0)  # never compiled there
    return fence or None

def merge(a, b):
    if not b: return a
    out = dict(a)
    for p, ver in b.items():
        out[p] = max(out.get(p, (0, 0)), ver)
    return out

TOKEN = re.compile(r"@available\s*\((?P<aa>[^)]*)\)|#available\s*\((?P<ca>[^)]*)\)|#unavailable\s*\([^)]*\)"
                   r"|@?[A-Za-z_][A-Za-z0-9_]*|[{}()\[\]]|\.")

NAMED = {"func", "class", "struct", "enum", "actor", "protocol", "typealias"}

def fences_by_token(code, decls=None):
    """For each token, the availability context that holds there: (offsets, contexts).
    Appends to `decls` each named declaration (name, context, whether its fence is its own:
    a top-level declaration, or a member with an `@available` of its own)."""
    offsets, contexts = [], []
    scopes = [{"fence": {}, "paren": 0, "guard": None}]
    attr = None    # a pending @available: fence, depth, paren, introducer seen
    cond = None    # a pending #available: fence, depth, paren, kind
    last_ident = None
    prev = None
    run_start = None  # the first token of the attributes before the declaration being read
    for m in TOKEN.finditer(code):
        tok = m.group(0)
        depth = len(scopes)
        scope = scopes[-1]
        if tok.startswith("@") and run_start is None:
            run_start = len(offsets)
        if m.group("aa") is not None:
            fence = parse_versions(m.group("aa"))
            if fence:
                # Attributes written before this one in the same run (`@Test(…, .timeLimit(…))
                # @available(…)`) belong to the same declaration: the fence covers them too.
                for k in range(run_start, len(offsets)):
                    contexts[k] = merge(contexts[k], fence)
                if attr and attr["depth"] == depth and not attr["seen"]:
                    attr["fence"] = merge(attr["fence"], fence)
                else:
                    attr = {"fence": fence, "depth": depth, "paren": scope["paren"], "seen": False}
        elif m.group("ca") is not None:
            fence = parse_versions(m.group("ca")) or {}
            cond = {"fence": fence, "depth": depth, "paren": scope["paren"],
                    "kind": "guard" if last_ident == "guard" else "if"}
        elif tok in INTRODUCERS and prev != ".":
            run_start = None
            if attr and attr["depth"] == depth and attr["paren"] == scope["paren"]:
                if attr["seen"] and not (last_ident == "class" and tok != "class"):
                    attr = None
                else:
                    attr["seen"] = True
        effective = scope["fence"]
        if attr and attr["depth"] <= depth:
            effective = merge(effective, attr["fence"])
        if cond and cond["depth"] == depth:
            effective = merge(effective, cond["fence"])
        offsets.append(m.start()); contexts.append(effective)
        if decls is not None and prev in NAMED and re.match(r"[A-Za-z_]", tok) and tok not in INTRODUCERS:
            own = depth == 1 or bool(attr and attr["depth"] == depth)
            decls.append((tok, effective, own))

        if tok in "{}":
            run_start = None
        if tok == "{":
            new = {"fence": effective, "paren": 0, "guard": None}
            if cond and cond["depth"] == depth and cond["paren"] == scope["paren"]:
                if cond["kind"] == "guard":
                    new["fence"] = scope["fence"] if not attr else merge(scope["fence"], attr["fence"])
                    new["guard"] = cond["fence"]
                cond = None
            if attr and attr["depth"] == depth and attr["paren"] == scope["paren"]:
                attr = None
            scopes.append(new)
        elif tok == "}":
            if len(scopes) > 1:
                closed = scopes.pop()
                if closed["guard"]:
                    scopes[-1]["fence"] = merge(scopes[-1]["fence"], closed["guard"])
            if attr and attr["depth"] > len(scopes): attr = None
            if cond and cond["depth"] > len(scopes): cond = None
        elif tok in "([":
            scope["paren"] += 1
        elif tok in ")]":
            scope["paren"] = max(0, scope["paren"] - 1)
        if re.match(r"[A-Za-z_]", tok):
            last_ident = tok
        prev = tok
    return offsets, contexts

FLOOR_CACHE = {}
def floors_for(path):
    d = os.path.dirname(os.path.abspath(path))
    while True:
        manifest = os.path.join(d, "Package.swift")
        if os.path.exists(manifest):
            break
        parent = os.path.dirname(d)
        if parent == d:
            return dict(UNDECLARED)
        d = parent
    if manifest not in FLOOR_CACHE:
        text = open(manifest, encoding="utf-8").read()
        m = re.search(r"platforms\s*:\s*\[(.*?)\]", text, re.S)
        floors = dict(UNDECLARED)
        if m:
            for p, major, minor in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*\.v(\d+)(?:_(\d+))?\s*\)", m.group(1)):
                floors[p] = (int(major), int(minor or 0))
        FLOOR_CACHE[manifest] = floors
    return FLOOR_CACHE[manifest]

def fmt(ver):
    return f"{ver[0]}" if ver[1] == 0 else f"{ver[0]}.{ver[1]}"

def exceeds(context, floors):
    return any(ver > floors.get(p, (0, 0)) for p, ver in context.items() if p in floors)

def fenced_names(paths, floors=None):
    """This tree's own declarations that only exist under a fence (a test's helper marked
    `@available`, a fenced top-level type): name -> the least fence any declaration of the
    name has. A name also declared without a fence (an overload) is left out."""
    fenced, unfenced = {}, set()
    for path in paths:
        decls = []
        fences_by_token(blank(open(path, encoding="utf-8").read()), decls)
        fl = floors or floors_for(path)
        for name, context, own in decls:
            if not exceeds(context, fl):
                unfenced.add(name)
            elif own:
                prior = fenced.get(name)
                fenced[name] = dict(context) if prior is None else {
                    p: min(prior[p], context[p]) for p in prior if p in context}
    return {name: fence for name, fence in fenced.items() if name not in unfenced and fence}

def scan_file(path, floors=None, names=None):
    text = open(path, encoding="utf-8").read()
    code = blank(text)
    floors = floors or floors_for(path)
    offsets, contexts = fences_by_token(code)
    findings = []
    apis = list(APIS)
    for name, fence in (names or {}).items():
        req = {p: fence.get(p, (0, 0)) for p in PLATFORMS}
        apis.append((f"{name} (declared here under @available)", req, re.compile(rf"(?<![\w.])(?:[A-Z]\w*\s*\.\s*)*{re.escape(name)}\b(?!\s*:|[ \t]+[A-Za-z_]\w*\s*:)")))
    for what, req, pattern in apis:
        for m in pattern.finditer(code):
            k = bisect.bisect_right(offsets, m.start()) - 1
            context = contexts[k] if k >= 0 else {}
            missing = [f"{p} {fmt(req[p])}" for p in PLATFORMS
                       if req[p] > floors[p] and context.get(p, (0, 0)) < req[p]]
            if missing:
                line = code.count("\n", 0, m.start()) + 1
                findings.append((path, line, what, missing))
    return sorted(set((p, l, w, tuple(ms)) for p, l, w, ms in findings))

def swift_files(roots):
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".build") and d != ".swiftpm")
            for name in sorted(filenames):
                if name.endswith(".swift") and name != "Package.swift":
                    yield os.path.join(dirpath, name)

def report(findings):
    for path, line, what, missing in findings:
        print(f"{path}:{line}: error: {what} needs {', '.join(missing)}, and no @available or "
              f"#available fence around this use says so", file=sys.stderr)

# ---------------------------------------------------------------------------------------
SELF_TEST = '''\
import Observation
import ObservableKitTesting

// A comment naming ContinuousClock, Task.sleep(for:) and @Observable is not code.
let text = "Task.sleep(for: .seconds(1)) and Mutex<Int> in a string are not code"

func unfenced() async throws {
  try await Task.sleep(for: .seconds(1))  // EXPECT
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func fenced() async throws {
  try await Task.sleep(for: .seconds(1))
  let clock = ContinuousClock()
  _ = clock
}

@available(macOS 13.0, *)
func ownSleep(lifecycle: ThreadLifecycle) { lifecycle.sleep(until: Date()) }  // not a clock's

@available(macOS 13.0, *)
func halfFenced() { _ = ContinuousClock() }  // EXPECT (iOS, tvOS and watchOS fall back to the floor)

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@MainActor
struct FencedSuite {
  let clock = ManualClock()
  func nested() { let d: Duration = .seconds(1); _ = d }
  struct Inner { func deeper() { _ = SuspendingClock() } }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func first() { _ = ContinuousClock() }
func second() { _ = ContinuousClock() }  // EXPECT (the attribute covered first() only)

struct Mixed {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  var elapsed: Duration { .zero }
  var later: Duration { .zero }  // EXPECT
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func sleep(clock: ContinuousClock,
             for duration: Duration) async throws {
    try await clock.sleep(for: duration)
  }
}

func conditional() async throws {
  if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {
    try await Task.sleep(for: .milliseconds(1))
  } else {
    try await Task.sleep(for: .milliseconds(1))  // EXPECT (the else branch is not fenced)
  }
  _ = ContinuousClock()  // EXPECT
}

func guarded() {
  guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else {
    _ = ContinuousClock()  // EXPECT (the else block runs where the API is missing)
    return
  }
  _ = ContinuousClock()
  do { _ = SuspendingClock() }
}
func afterGuard() { _ = ContinuousClock() }  // EXPECT

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func tooOldForObservation() {
  withObservationTracking { } onChange: { }  // EXPECT (needs 14/17/17/10)
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class Model { var value = 0 }

@Observable final class Unfenced { var value = 0 }  // EXPECT

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Model {
  func track() { withObservationTracking { _ = value } onChange: { } }
  func outside() { let registrar = ObservationRegistrar(); _ = registrar }
}

func synchronization() {
  let m = Mutex(0)  // EXPECT
  _ = m
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func synchronizationFenced() { let a = Atomic<Int>(0); _ = a }

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
func synchronizationWithoutVisionOS() { let a = Atomic<Int>(0); _ = a }  // EXPECT (visionOS 2)

func immediate() {
  if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
    Task.immediate { }
  }
  Task.immediate { }  // EXPECT
}

func timeOperators(source: EventSource<Int>) {
  _ = source.debounce(for: .seconds(1), clock: ContinuousClock())  // EXPECT
}

@Test(.timeLimit(.minutes(1))) func limited() {}  // EXPECT

@Test("limited", .timeLimit(.minutes(1)))
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func limitedAndFenced() {}

@MainActor @Observable
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class FencedAfterItsMacro { var value = 0 }

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func fencedHelper() -> Int { 0 }
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
final class FencedFixture {}
func usesHelpers(fencedHelper label: Int) {  // a label is not a use
  _ = fencedHelper()  // EXPECT (a helper this tree declares under @available)
  _ = FencedFixture()  // EXPECT
  _ = Fixture.FencedNested()  // EXPECT (qualified)
}
enum Fixture {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class FencedNested {}
}
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func usesHelpersFenced() { _ = fencedHelper(); _ = FencedFixture() }

@available(iOS, unavailable)
@available(macOS 13.0, tvOS 16.0, watchOS 9.0, *)
func notOnIOS() { _ = ContinuousClock() }
'''

def self_test():
    ok = True
    tmp = tempfile.mkdtemp(prefix="check-availability.")
    try:
        floors = {"macOS": (11, 0), "iOS": (15, 0), "tvOS": (15, 0), "watchOS": (8, 0), "visionOS": (1, 0)}
        fixture = os.path.join(tmp, "Fixture.swift")
        with open(fixture, "w") as f:
            f.write(SELF_TEST)
        expected = {i + 1 for i, line in enumerate(SELF_TEST.splitlines()) if "// EXPECT" in line}
        found = {line for _, line, _, _ in scan_file(fixture, floors, fenced_names([fixture], floors))}
        for line in sorted(expected - found):
            print(f"self-test: missed the unfenced use at fixture line {line}: {SELF_TEST.splitlines()[line-1].strip()}", file=sys.stderr)
            ok = False
        for line in sorted(found - expected):
            print(f"self-test: flagged the fenced use at fixture line {line}: {SELF_TEST.splitlines()[line-1].strip()}", file=sys.stderr)
            ok = False
        print(f"self-test: fixture: {len(expected)} unfenced uses caught, "
              f"{SELF_TEST.count(chr(10)) - len(expected)} other lines passed" if ok else "self-test: fixture FAILED")

        # An injected unfenced use in a copy of a real, clean test file is caught, and only it.
        real = next((p for p in swift_files(["Tests"]) if "ManualClock" in open(p, encoding="utf-8").read()), None)
        if real is None:
            print("self-test: no test file under Tests/ uses ManualClock to inject into", file=sys.stderr)
            return False
        before = scan_file(real, floors)
        copy = os.path.join(tmp, os.path.basename(real))
        shutil.copy(real, copy)
        with open(copy, "a") as f:
            f.write("\nfunc injectedUnfencedUse() async throws {\n  try await Task.sleep(for: .milliseconds(1))\n}\n")
        injected_line = open(copy).read().count("\n") - 1
        after = scan_file(copy, floors)
        caught = [line for _, line, _, _ in after]
        if before or caught != [injected_line]:
            print(f"self-test: injecting into a copy of {real}: expected exactly line {injected_line}, found {caught} "
                  f"(the original had {len(before)} findings)", file=sys.stderr)
            ok = False
        else:
            print(f"self-test: an unfenced Task.sleep(for:) injected into a copy of {real} is caught at line {injected_line}:")
            report(after)
    finally:
        shutil.rmtree(tmp)
    return ok

args = sys.argv[1:]
if args == ["--self-test"]:
    sys.exit(0 if self_test() else 1)
files = args or list(swift_files(["Sources", "Tests", "Consumers", "Playgrounds"]))
names = fenced_names(list(swift_files(["Sources", "Tests", "Consumers", "Playgrounds"])))
findings = [f for path in files for f in scan_file(path, names=names)]
report(findings)
if findings:
    print(f"check-availability: {len(findings)} unfenced use(s) of APIs newer than the floor in {len(files)} files", file=sys.stderr)
    sys.exit(1)
print(f"check-availability: {len(files)} Swift files, every use of an API newer than the floor is fenced")
PYTHON
