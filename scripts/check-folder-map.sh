#!/usr/bin/env bash
# Checks the folder layering of Sources/ObservableKit against scripts/folder-map.txt, from the
# types the code names: each folder is a feature, Internal/ is the engine, and the map lists
# the folders each may use.
#
#   bash scripts/check-folder-map.sh                       check; print the graph it found
#   bash scripts/check-folder-map.sh --self-test           prove it catches injected faults
#   bash scripts/check-folder-map.sh --write-contributing  rewrite CONTRIBUTING's map column
#
# Fails (exit 1) on a reference the map does not allow (file:line, the type, the two
# folders), on an allowed edge no code uses any more ("stale"), on an edge whose "to remove"
# mark is missing or wrong, and when the "Depends on" column of CONTRIBUTING.md's map
# disagrees with the map.
#
# What counts (python3, no packages):
# - Declared: the names after class, struct, enum, protocol, actor and typealias, at any
#   nesting; a type declared inside `extension X { }` or inside another type is nested under
#   that type's path (X.Inner), whichever folder the extension is in.
# - Referenced: identifiers in code, after comments and string literals are removed (multi-line
#   and raw strings too; the code inside a string's interpolation is kept). Both branches of
#   every #if are code. `extension X` is a reference to X. A chain `A.B.c` is a use of the
#   folder declaring A, and of the folder declaring A.B if that is a nested type (a member such
#   as `Diagnostics.liveSubscriptionCount` is a use of Diagnostics' folder).
# - Resolution, the conservative rule for names that are not unique: the head of a chain is
#   first looked up as a type nested in the enclosing type scopes, innermost first (Swift's
#   own order), then among the top-level types. A nested name (State, Entry...) named
#   unqualified outside a scope that declares it resolves to nothing: no edge (it may be a
#   generic parameter, an inherited member type or a local). A top-level name declared in
#   several folders (only possible across #if branches) resolves to the referring folder if it
#   is one of them, and otherwise to nothing, with a warning. A name after `.` is only ever
#   resolved as a member of the chain before it, never as a top-level type.
# - The .docc folders are not scanned. A file whose braces do not balance when both branches of
#   every #if are read fails the check, since its scopes could not be trusted.
# - Only types count: a call of a free function or of an extension method declared in another
#   folder, with no type of that folder named, is no edge: such a method extends a type of a
#   folder whose use is counted where the type is named.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, shutil, sys, tempfile

SOURCES = "Sources/ObservableKit"
MAP = "scripts/folder-map.txt"
CONTRIBUTING = "CONTRIBUTING.md"
ENGINE = "Internal"
# The one engine-to-feature edge that stays: the engine's subscriptions are Disposables.
ENGINE_EXCEPTIONS = {"Disposables"}

# ---------------------------------------------------------------- lexer

IDENT_START = re.compile(r"[A-Za-z_]")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

class Lexer:
    """Tokens of Swift code: identifiers and single punctuation characters, with their line.
    Comments and the text of string literals are dropped; interpolations are lexed as code."""

    def __init__(self, src):
        self.s = src
        self.n = len(src)
        self.line = 1
        self.toks = []

    def run(self):
        i = self.code(0, stop_paren=False)
        return self.toks

    def nl(self, a, b):
        self.line += self.s.count("\n", a, b)

    def code(self, i, stop_paren):
        s, n = self.s, self.n
        depth = 0
        while i < n:
            c = s[i]
            if c == "\n":
                self.line += 1; i += 1; continue
            if c in " \t\r":
                i += 1; continue
            if s.startswith("//", i):
                j = s.find("\n", i)
                i = n if j < 0 else j
                continue
            if s.startswith("/*", i):
                i = self.block_comment(i); continue
            if c == "#" or c == '"':
                j = i
                while j < n and s[j] == "#":
                    j += 1
                if j < n and s[j] == '"':
                    i = self.string(i, j - i); continue
                if c == "#":  # a directive or #selector-like keyword: keep its name as a token
                    m = IDENT.match(s, i + 1)
                    if m:
                        self.toks.append(("#" + m.group(0), self.line)); i = m.end(); continue
                    i += 1; continue
            if c == "`":
                j = s.find("`", i + 1)
                if j > 0 and IDENT.fullmatch(s[i + 1:j]):
                    self.toks.append((s[i + 1:j], self.line)); i = j + 1; continue
            if IDENT_START.match(c):
                m = IDENT.match(s, i)
                self.toks.append((m.group(0), self.line)); i = m.end(); continue
            if c.isdigit():
                m = re.compile(r"[0-9][0-9A-Za-z_.]*").match(s, i)
                # keep `.` that starts a member access after a number literal out of the number
                txt = m.group(0).rstrip(".")
                i += len(txt); continue
            if c == "(":
                depth += 1
            elif c == ")":
                if stop_paren and depth == 0:
                    return i + 1
                depth -= 1
            self.toks.append((c, self.line)); i += 1
        return i

    def block_comment(self, i):
        s, n = self.s, self.n
        level = 0
        start = i
        while i < n:
            if s.startswith("/*", i):
                level += 1; i += 2
            elif s.startswith("*/", i):
                level -= 1; i += 2
                if level == 0:
                    break
            else:
                i += 1
        self.nl(start, i)
        return i

    def string(self, i, hashes):
        s, n = self.s, self.n
        j = i + hashes
        multi = s.startswith('"""', j)
        j += 3 if multi else 1
        close = ('"""' if multi else '"') + "#" * hashes
        esc = "\\" + "#" * hashes
        start = j
        while j < n:
            if s.startswith(esc, j):
                k = j + len(esc)
                if k < n and s[k] == "(":
                    self.nl(start, k)
                    j = self.code(k + 1, stop_paren=True)
                    start = j
                    continue
                j = k + 1; continue
            if s.startswith(close, j):
                self.nl(start, j)
                return j + len(close)
            if s[j] == "\n" and not multi:
                break  # unterminated: let the compiler say so
            j += 1
        self.nl(start, j)
        return j

# ---------------------------------------------------------------- scanning

DECL_KEYWORDS = {"class", "struct", "enum", "protocol", "actor", "typealias"}
NOT_A_NAME = {"func", "var", "let", "subscript", "init", "deinit", "override", "final",
              "private", "fileprivate", "internal", "public", "open", "package", "static",
              "in", "required", "convenience", "nonisolated", "isolated", "mutating"}

def swift_files(root):
    out = []
    for folder in sorted(os.listdir(root)):
        p = os.path.join(root, folder)
        if not os.path.isdir(p) or folder.endswith(".docc"):
            continue
        for dp, dns, fns in os.walk(p):
            dns[:] = sorted(d for d in dns if not d.endswith(".docc"))
            for fn in sorted(fns):
                if fn.endswith(".swift"):
                    out.append((folder, os.path.join(dp, fn)))
    return out

_lexed = {}

def lex_file(path):
    """The tokens of a file, lexed once per content (the self-test scans copies several times)."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    if src not in _lexed:
        _lexed[src] = Lexer(src).run()
    return _lexed[src]

def folders_of(root):
    return sorted(f for f in os.listdir(root)
                  if os.path.isdir(os.path.join(root, f)) and not f.endswith(".docc"))

def chain_at(toks, k):
    """The dotted chain of identifiers starting at k: (names, index after the chain)."""
    names = [toks[k][0]]
    j = k + 1
    while j + 1 < len(toks) and toks[j][0] == "." and IDENT.fullmatch(toks[j + 1][0]):
        names.append(toks[j + 1][0]); j += 2
    return names, j

def walk(toks, on_decl, on_ref):
    """Walks the tokens with a stack of brace scopes; calls on_decl(path, kind) for each
    declared type and on_ref(scope_path, names, line, is_extension) for each chain head."""
    stack = []          # entries: a type path (tuple) or None for other braces
    pending = None      # the type path the next `{` opens
    k = 0
    n = len(toks)
    def scope():
        for e in reversed(stack):
            if e is not None:
                return e
        return ()
    while k < n:
        t, line = toks[k]
        prev = toks[k - 1][0] if k else ""
        if t == "{":
            stack.append(pending); pending = None; k += 1; continue
        if t == "}":
            if stack:
                stack.pop()
            k += 1; continue
        if t == ";":
            pending = None
        if t in DECL_KEYWORDS and prev != "." and k + 1 < n and IDENT.fullmatch(toks[k + 1][0]) \
                and toks[k + 1][0] not in NOT_A_NAME:
            name = toks[k + 1][0]
            after = toks[k + 2][0] if k + 2 < n else ""
            if t == "actor" and after not in ("{", ":", "<", "where"):
                k += 1; continue
            path = scope() + (name,)
            on_decl(path, t)
            if t != "typealias":
                pending = path
            k += 2; continue
        if t == "extension" and k + 1 < n and IDENT.fullmatch(toks[k + 1][0]):
            names, j = chain_at(toks, k + 1)
            on_ref((), names, toks[k + 1][1], True)
            pending = tuple(names)
            k = j; continue
        if IDENT.fullmatch(t) and prev != ".":
            names, j = chain_at(toks, k)
            on_ref(scope(), names, line, False)
            k = j; continue
        k += 1

def scan(root):
    files = swift_files(root)
    lexed = []
    top = {}       # name -> set of folders declaring it at file scope
    nested = {}    # path tuple -> set of folders
    for folder, path in files:
        toks = lex_file(path)
        lexed.append((folder, path, toks))
        def on_decl(p, kind, folder=folder):
            (top.setdefault(p[0], set()) if len(p) == 1 else nested.setdefault(p, set())).add(folder)
        walk(toks, on_decl, lambda *a: None)

    uses = {}      # (from, to) -> [(file, line, type)]
    warnings = []
    unbalanced = []
    for folder, path, toks in lexed:
        depth = low = 0
        for t, _ in toks:
            depth += (t == "{") - (t == "}")
            low = min(low, depth)
        if depth or low < 0:
            # scopes would be wrong (an #if branch that opens a brace another closes, say)
            unbalanced.append(f"{path}: error: its braces do not balance when both branches of every #if are read; the folder map cannot scope its names")
    for folder, path, toks in lexed:
        def resolve_head(scope, head):
            for j in range(len(scope), 0, -1):
                p = scope[:j] + (head,)
                if p in nested:
                    return p, nested[p]
            if head in top:
                return (head,), top[head]
            return None, None
        def on_ref(scope, names, line, is_ext, folder=folder, path=path):
            p, fs = resolve_head(scope, names[0])
            if p is None:
                return
            hits = [(".".join(p), fs)]
            for m in names[1:]:
                q = p + (m,)
                if q not in nested:
                    break
                p = q
                hits.append((".".join(p), nested[p]))
            for name, fs in hits:
                if folder in fs:
                    continue
                if len(fs) > 1:
                    warnings.append(f"{path}:{line}: warning: {name} is declared in several folders ({', '.join(sorted(fs))}): no edge")
                    continue
                (to,) = fs
                uses.setdefault((folder, to), []).append((path, line, name))
        walk(toks, lambda *a: None, on_ref)
    return uses, warnings, unbalanced

# ---------------------------------------------------------------- the map

def read_map(path):
    """Folder -> (ordered deps, set marked to remove). A line: `Folder: A B C   # to remove: B`."""
    allowed, marked, order = {}, {}, []
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line, _, comment = raw.partition("#")
            if not line.strip():
                continue
            m = re.fullmatch(r"\s*([A-Za-z]+)\s*:\s*([A-Za-z ]*)", line.rstrip("\n"))
            if not m:
                raise SystemExit(f"{path}:{no}: error: expected `Folder: Dep1 Dep2 ...`")
            folder = m.group(1)
            deps = m.group(2).split()
            rm = set()
            cm = re.search(r"to remove:\s*([A-Za-z ]+)", comment)
            if cm:
                rm = set(cm.group(1).split())
            allowed[folder] = deps
            marked[folder] = rm
            order.append(folder)
    return allowed, marked, order

def contributing_cell(folder, deps, rm):
    keep = [("engine" if d == ENGINE else d) for d in deps if d not in rm]
    if folder == ENGINE:
        keep = ["the shims"] + keep
    cell = ", ".join(keep) if keep else "—"
    gone = [d for d in deps if d in rm]
    if gone:
        cell += " (to remove: " + ", ".join("engine" if d == ENGINE else d for d in gone) + ")"
    return cell

ROW = re.compile(r"^\| `([A-Za-z]+)/` \|(.*)\|([^|]*)\|\s*$")

def map_section(text):
    start = text.find("\n## The map")
    if start < 0:
        return None, None
    end = text.find("\n## ", start + 1)
    return start, (len(text) if end < 0 else end)

def contributing_rows(text):
    a, b = map_section(text)
    rows = {}
    if a is None:
        return rows
    for line in text[a:b].split("\n"):
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = m.group(3).strip()
    return rows

def rewrite_contributing(text, allowed, marked):
    a, b = map_section(text)
    out = []
    for line in text[a:b].split("\n"):
        m = ROW.match(line)
        if m and m.group(1) in allowed:
            f = m.group(1)
            line = f"| `{f}/` |{m.group(2)}| {contributing_cell(f, allowed[f], marked[f])} |"
        out.append(line)
    return text[:a] + "\n".join(out) + text[b:]

# ---------------------------------------------------------------- the check

def check(root, map_path, contributing_path, out):
    uses, warnings, unbalanced = scan(root)
    allowed, marked, _ = read_map(map_path)
    folders = folders_of(root)
    failed = bool(unbalanced)
    out.extend(unbalanced)
    for w in warnings:
        out.append(w)
    for f in folders:
        if f not in allowed:
            out.append(f"error: {map_path} has no line for folder {f}/"); failed = True
    for f in allowed:
        if f not in folders:
            out.append(f"error: {map_path} names {f}, which is not a folder of {root}"); failed = True
    used = set(uses)
    # violations
    for (a, b) in sorted(used):
        if b not in allowed.get(a, []):
            failed = True
            for path, line, name in uses[(a, b)]:
                out.append(f"{path}:{line}: error: {name} (declared in {b}/) used from {a}/, which the map does not allow ({a} -> {b})")
    # stale
    for a in allowed:
        for b in allowed[a]:
            if (a, b) not in used:
                failed = True
                out.append(f"error: stale: {map_path} allows {a} -> {b}, and no code of {a}/ names a type of {b}/ any more; remove it")
    # the marks: every edge of a two-way pair and every engine -> feature edge (but the
    # exceptions) is marked "to remove", and nothing else is
    edges = {(a, b) for a in allowed for b in allowed[a]}
    for a in allowed:
        for b in allowed[a]:
            should = ((b, a) in edges and ENGINE not in (a, b)) or (a == ENGINE and b not in ENGINE_EXCEPTIONS)
            if should and b not in marked[a]:
                failed = True
                out.append(f"error: {map_path}: {a} -> {b} is {'two-way' if a != ENGINE else 'an engine -> feature edge'}: mark it `# to remove: {b}`")
            if not should and b in marked[a]:
                failed = True
                out.append(f"error: {map_path}: {a} -> {b} is marked to remove but is neither two-way nor engine -> feature: unmark it")
        for b in marked[a] - set(allowed[a]):
            failed = True
            out.append(f"error: {map_path}: {a} marks {b} to remove but does not allow it")
    # CONTRIBUTING
    if contributing_path:
        with open(contributing_path, encoding="utf-8") as fh:
            rows = contributing_rows(fh.read())
        for f in allowed:
            want = contributing_cell(f, allowed[f], marked[f])
            have = rows.get(f)
            if have is None:
                failed = True
                out.append(f"error: {contributing_path}: the map has no row for `{f}/`")
            elif have != want:
                failed = True
                out.append(f"error: {contributing_path}: `{f}/` Depends on says '{have}', the map says '{want}' (bash scripts/check-folder-map.sh --write-contributing)")
    # report
    out.append("folder graph (from -> to: references):")
    for a in folders:
        tos = sorted({b for (x, b) in used if x == a})
        out.append(f"  {a} -> " + (", ".join(f"{b} ({len(uses[(a, b)])})" for b in tos) if tos else "nothing"))
    pairs = sorted({tuple(sorted((a, b))) for (a, b) in used if (b, a) in used and ENGINE not in (a, b)})
    out.append(f"two-way pairs of feature folders: {len(pairs)}" + (": " + ", ".join(f"{a}–{b}" for a, b in pairs) if pairs else ""))
    named = sorted({b for (a, b) in used if a == ENGINE})
    out.append(f"folders the engine names: {len(named)}" + (": " + ", ".join(f"{b} ({len(uses[(ENGINE, b)])})" for b in named) if named else "")
               + (f" (allowed exception: {', '.join(sorted(ENGINE_EXCEPTIONS))})" if named else ""))
    out.append(("FAIL" if failed else "ok") + f" folder-map: {len(used)} edges between {len(folders)} folders")
    return 1 if failed else 0

# ---------------------------------------------------------------- self-test

def self_test():
    tmp = tempfile.mkdtemp(prefix="folder-map-")
    try:
        root = os.path.join(tmp, "ObservableKit")
        shutil.copytree(SOURCES, root, ignore=shutil.ignore_patterns("*.docc"))
        shutil.copy(CONTRIBUTING, os.path.join(tmp, "CONTRIBUTING.md"))
        allowed, marked, order = read_map(MAP)
        uses, _, _ = scan(root)
        failures = []
        def expect(label, cond):
            print(("  ok   " if cond else "  FAIL ") + label)
            if not cond:
                failures.append(label)

        # 0. the real tree passes against the real map
        out = []
        expect("the committed map passes on a copy of the sources", check(root, MAP, os.path.join(tmp, "CONTRIBUTING.md"), out) == 0)

        # pick a feature type the engine may not name, and a one-way edge to make two-way
        top = {}
        for folder, path in swift_files(root):
            walk(lex_file(path), lambda p, k, folder=folder: len(p) == 1 and top.setdefault(folder, []).append(p[0]), lambda *a: None)
        forbidden = next(f for f in sorted(top) if f != ENGINE and f not in allowed[ENGINE])
        ftype = top[forbidden][0]
        a, b = next((a, b) for a in order for b in allowed[a]
                    if a != ENGINE and b != ENGINE and a not in allowed.get(b, []) and top.get(a))
        atype = top[a][0]
        # B -> A is new and makes the one-way A -> B two-way
        engine_file = os.path.join(root, ENGINE, "ZZInjected.swift")
        with open(engine_file, "w") as fh:
            fh.write("// names in comments /* and nested \"comments */ " + atype + " */ are not uses\n"
                     "let injectedText = \"\"\"\n  " + ftype + " in a multi-line string is not a use\n  \\(0)\n  \"\"\"\n"
                     "let injectedRaw = #\"" + ftype + " \\(" + atype + ") in a raw string\"#\n"
                     "let injectedUse = \"\\(" + ftype + ".self)\"\n")
        pair_file = os.path.join(root, b, "ZZInjectedPair.swift")
        with open(pair_file, "w") as fh:
            fh.write("#if DEBUG\nfunc injectedPair(_ x: " + atype + ".Type) {}\n#endif\n")
        # nested names common across folders make no edge; a member of a foreign type does
        lone = min((f for f in order if f != ENGINE), key=lambda f: len(allowed[f]))
        nested_names = {}
        for folder, path in swift_files(root):
            walk(lex_file(path), lambda p, k, folder=folder: len(p) > 1 and nested_names.setdefault(p[-1], set()).add(folder), lambda *a: None)
        common = next(nm for nm in sorted(nested_names, key=lambda nm: (-len(nested_names[nm]), nm)) if lone not in nested_names[nm] and nm not in {t for ts in top.values() for t in ts})
        other = next(f for f in sorted(top) if f != lone and f not in allowed[lone])
        otype = top[other][0]
        lone_file = os.path.join(root, lone, "ZZInjectedNested.swift")
        with open(lone_file, "w") as fh:
            fh.write("enum InjectedScope { enum " + common + " {} }\n"
                     "func injectedNested(_ a: " + common + ", _ b: InjectedScope." + common + ") {}\n"
                     "extension InjectedScope { func c(_ x: " + common + ") {} }\n"
                     "let injectedMember = " + otype + ".self\n")
        split_file = os.path.join(root, lone, "ZZInjectedSplit.swift")
        with open(split_file, "w") as fh:
            fh.write("#if DEBUG\nextension InjectedScope {\n#else\nextension InjectedScope {\n#endif\n}\n")
        out = []
        rc = check(root, MAP, None, out)
        text = "\n".join(out)
        expect(f"fails on the injected violations (exit 1)", rc == 1)
        expect(f"nested {common} (declared in {', '.join(sorted(nested_names[common]))}/) named in {lone}/ makes no edge (lines 1-3)".replace(", ", "/, "),
               not re.search(re.escape(lone_file) + r":[1-3]:", text))
        expect("reports a file whose #if branches split a brace", f"{split_file}: error: its braces do not balance" in text)
        expect(f"a member reference {otype}.self in {lone}/ is a use of {other}/ (line 4)",
               f"{lone_file}:4: error: {otype} (declared in {other}/) used from {lone}/" in text)
        expect(f"reports {ENGINE}/ naming {ftype} of {forbidden}/ at the interpolation's line (7)",
               f"{engine_file}:7: error: {ftype} (declared in {forbidden}/) used from {ENGINE}/" in text)
        expect(f"ignores the names in comments, strings and raw strings (lines 1-6)",
               not re.search(re.escape(engine_file) + r":[1-6]:", text))
        expect(f"reports the new edge {b} -> {a} (a new two-way pair with {a} -> {b}) inside #if",
               f"{pair_file}:2: error: {atype} (declared in {a}/) used from {b}/" in text)
        pa, pb = sorted((a, b))
        expect(f"reports {pa}–{pb} among the two-way pairs", f"{pa}–{pb}" in text.split("two-way pairs of feature folders:")[1].split("\n")[0])
        os.remove(engine_file); os.remove(pair_file); os.remove(lone_file); os.remove(split_file)

        # a stale edge: allow one that no code uses
        x, y = next((x, y) for x in order for y in order
                    if x != y and y != ENGINE and x != ENGINE and y not in allowed[x] and (x, y) not in uses)
        stale_map = os.path.join(tmp, "folder-map.txt")
        with open(MAP) as src, open(stale_map, "w") as dst:
            for line in src:
                if re.match(rf"\s*{x}\s*:", line):
                    head, sep, comment = line.rstrip("\n").partition("#")
                    line = head.rstrip() + " " + y + ("  " + sep + comment if sep else "") + "\n"
                dst.write(line)
        out = []
        rc = check(root, stale_map, None, out)
        expect(f"reports the unused allowed edge {x} -> {y} as stale (exit 1)",
               rc == 1 and any(l.startswith(f"error: stale: {stale_map} allows {x} -> {y},") for l in out))

        # an engine -> feature edge whose "to remove" mark is dropped
        unmarked_map = os.path.join(tmp, "folder-map-unmarked.txt")
        with open(MAP) as src, open(unmarked_map, "w") as dst:
            for line in src:
                if re.match(rf"\s*{ENGINE}\s*:", line):
                    line = line.partition("#")[0].rstrip() + "\n"
                dst.write(line)
        out = []
        rc = check(root, unmarked_map, None, out)
        want = [b for b in allowed[ENGINE] if b not in ENGINE_EXCEPTIONS]
        expect(f"reports the engine's edges to {', '.join(want) or 'nothing'} left unmarked (exit 1)",
               not want or (rc == 1 and all(any(f"{ENGINE} -> {b} is an engine -> feature edge" in l for l in out) for b in want)))

        # CONTRIBUTING disagreeing with the map
        cpath = os.path.join(tmp, "CONTRIBUTING.md")
        with open(cpath) as fh:
            text = fh.read()
        with open(cpath, "w") as fh:
            fh.write(re.sub(r"^(\| `" + x + r"/` \|.*\|)[^|]*\|\s*$", r"\1 wrong |", text, count=1, flags=re.M))
        out = []
        rc = check(root, MAP, cpath, out)
        expect(f"reports CONTRIBUTING's `{x}/` row disagreeing with the map",
               rc == 1 and any(f"`{x}/` Depends on says 'wrong'" in l for l in out))
        if failures:
            print(f"FAIL folder-map self-test: {len(failures)} of the checks above")
            return 1
        print("ok folder-map self-test: injected violations, a new two-way pair and a stale edge are caught")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if argv == ["--write-contributing"]:
        allowed, marked, _ = read_map(MAP)
        with open(CONTRIBUTING, encoding="utf-8") as fh:
            text = fh.read()
        new = rewrite_contributing(text, allowed, marked)
        with open(CONTRIBUTING, "w", encoding="utf-8") as fh:
            fh.write(new)
        print("wrote CONTRIBUTING.md's Depends on column from " + MAP)
        return 0
    if argv:
        print("usage: bash scripts/check-folder-map.sh [--self-test | --write-contributing]", file=sys.stderr)
        return 2
    out = []
    rc = check(SOURCES, MAP, CONTRIBUTING, out)
    print("\n".join(out))
    return rc

sys.exit(main(sys.argv[1:]))
PY
