#!/usr/bin/env python3
"""Issue 25: nothing in the client products uses an API above the package's `platforms:` floor unguarded.

What it checks: the Swift files of every target the client products (Latchkey, LatchkeyUI, LatchkeyKeychain,
LatchkeyAuth, LatchkeyCrypto, LatchkeyWebAuthn) reach on some Apple platform (the graph of
scripts/check-apple-platforms.py), and of the example app's portable target (SecureNotesExampleCore, on iOS), must not use a declaration whose `@available` introduces it, on a platform
the file is compiled for, above the floor dump-package reports (macOS 14, iOS 17, Mac Catalyst 17, tvOS 17,
watchOS 10, visionOS 1), unless the use is inside a declaration marked `@available` or an `if #available` /
`guard #available` scope that covers it. A use of a declaration unavailable on such a platform is reported
too. The platforms are iOS, Mac Catalyst (`os(iOS)` code with `targetEnvironment(macCatalyst)`; availability follows
iOS unless a declaration names Mac Catalyst, as Swift infers it), macOS, tvOS, watchOS and visionOS.

How:
1. The toolchain's API is read from its interfaces: the textual `.swiftinterface` of Swift, _Concurrency,
   _StringProcessing, RegexBuilder, Synchronization, Observation and Distributed, and interfaces synthesized
   with `swift-synthesize-interface` for the binary-only Foundation, FoundationEssentials,
   FoundationInternationalization and Dispatch (cached in .build/latchkey-checks/, keyed by the toolchain
   files). Their `@available(macOS 15.0, iOS 18.0, ...)` attributes carry Apple-platform versions even in the
   Linux toolchain. The package's own declarations are indexed too (an `@available` function of ours is then
   checked at its call sites as well). visionOS versions missing from an attribute follow iOS (iOS 18 =
   visionOS 2), as the compiler infers them. The package's modules with Apple's names (Security,
   LocalAuthentication, CryptoKit, CommonCrypto, AuthenticationServices) stand for Apple's frameworks: their public
   declarations carry Apple's availability (docs/apple-sdk/*.tsv, scripts/check-apple-facts.py) and are indexed like
   the toolchain's, file-level constants and functions included (`kSecUseKeychain`, unavailable on iOS).
2. Each use in a scanned file is named by what the lexer can see: a type name (`Mutex`), an initializer call
   with its argument labels (`String(validating:as:)`), a member or function call with its labels
   (`.withLock(_:)`), a member (`.span`). A use is reported only when EVERY declaration it could refer to —
   in any indexed module or in the package, of any type — is above the floor: `count`, or a `withLock` the
   package declares itself, never is. Generic and protocol members cannot be told apart without types, so a
   name shared by a gated and an ungated declaration is not reported (a false negative, never a positive) — except
   that a member access on a variable whose type the file states (`var controller: ASAuthorizationController?`, a
   parameter) is narrowed to that type's declarations when it has one of that name (`controller?.cancel()`).
3. `#if` regions are evaluated per Apple platform (scripts/checks/swiftsource.py): code under
   `#if os(Linux)` or `canImport(Glibc)` is not checked; `#if os(macOS)` code is checked against macOS only.

Limits: no type inference (see 2); operators, protocol conformances of the toolchain's types and
declarations of C modules are not indexed, nor is SwiftUI (no Linux interface: LatchkeyUI's uses of it are
unchecked); Apple's frameworks are indexed through this package's modules of their names, so an Apple API they do not
declare is not checked; the synthesized Foundation interface is swift-corelibs-
foundation's, whose availability follows Apple's Foundation for the API they share (not for Objective-C-only
API, which does not exist here). A Mac build stays the final word.

Known findings that belong to a change in flight are listed in scripts/checks/availability-known.txt
(file, symbol, reason): they are printed but do not fail; an entry that no longer matches fails (remove it).

Usage: scripts/check-availability.py [--root DIR] [--all-targets] [--no-cache]
Exit 0 when clean, 1 with findings, 2 on an error. ~3 s with a warm cache, ~12 s cold.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "checks"))

import package_graph as pg  # noqa: E402
import swiftdecls as sd  # noqa: E402
import swiftsource as ss  # noqa: E402

CLIENT_PRODUCTS = pg.CLIENT_PRODUCTS
TEXTUAL_MODULES = ["Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization", "Observation",
                   "Distributed"]
BINARY_MODULES = ["Foundation", "FoundationEssentials", "FoundationInternationalization", "Dispatch"]
# SwiftPM's deployment targets when `platforms:` does not name a platform.
DEFAULT_FLOOR = {"macos": (10, 13, 0), "ios": (12, 0, 0), "maccatalyst": (13, 0, 0), "tvos": (12, 0, 0),
                 "watchos": (4, 0, 0), "visionos": (1, 0, 0)}
CHECKED_PLATFORMS = pg.APPLE_PLATFORMS + ("maccatalyst",)
# The package's modules with Apple's names stand for Apple's frameworks on Apple platforms: their declarations carry
# Apple's availability (docs/apple-sdk/*.tsv, scripts/check-apple-facts.py) and are checked as the SDK's are.
FRAMEWORK_MODULES = pg.APPLE_FRAMEWORK_NAMES
MODULE_NAMES = set(TEXTUAL_MODULES) | set(BINARY_MODULES) | {"Glibc", "Darwin"}


# --- The toolchain's index ----------------------------------------------------------------------------------

def toolchain() -> tuple[str, str, str]:
    """(the swift driver's directory, the Linux module directory, the target triple)."""
    swift = pg.swift_executable()
    info = json.loads(subprocess.run([swift, "-print-target-info"], capture_output=True, text=True,
                                     check=True).stdout)
    resource = info["paths"]["runtimeResourcePath"]
    bindir = os.path.dirname(os.path.realpath(shutil.which(swift) or swift))
    return bindir, os.path.join(resource, "linux"), info["target"]["triple"]


def interface_files(cache_dir: str) -> list[tuple[str, str]]:
    bindir, moddir, triple = toolchain()
    files = []
    for module in TEXTUAL_MODULES:
        path = os.path.join(moddir, f"{module}.swiftmodule", f"{triple}.swiftinterface")
        if os.path.exists(path):
            files.append((module, path))
    synthesizer = os.path.join(bindir, "swift-synthesize-interface")
    if not os.path.exists(synthesizer):
        print(f"check-availability: {synthesizer} is missing: Foundation and Dispatch are not indexed", file=sys.stderr)
        return files
    os.makedirs(cache_dir, exist_ok=True)
    for module in BINARY_MODULES:
        binary = os.path.join(moddir, f"{module}.swiftmodule", f"{triple}.swiftmodule")
        if not os.path.exists(binary):
            continue
        stamp = hashlib.sha256(f"{binary}:{os.path.getmtime(binary)}:{os.path.getsize(binary)}".encode()).hexdigest()[:16]
        out = os.path.join(cache_dir, f"{module}-{stamp}.swiftinterface")
        if not os.path.exists(out):
            subprocess.run([synthesizer, "-module-name", module, "-target", triple, "-o", out + ".tmp"],
                           check=True, capture_output=True)
            os.replace(out + ".tmp", out)
        files.append((module, out))
    return files


def toolchain_index(cache_dir: str, use_cache: bool) -> list[sd.Decl]:
    files = interface_files(cache_dir)
    parser_stamp = "".join(str(os.path.getmtime(os.path.join(HERE, "checks", f)))
                           for f in ("swiftsource.py", "swiftdecls.py"))
    key = hashlib.sha256(json.dumps([[m, p, os.path.getmtime(p), os.path.getsize(p)] for m, p in files]
                                    + [parser_stamp]).encode()).hexdigest()
    cache = os.path.join(cache_dir, "availability-index.json")
    if use_cache and os.path.exists(cache):
        with open(cache) as f:
            data = json.load(f)
        if data.get("key") == key:
            return [sd.Decl.from_json(d) for d in data["decls"]]
    decls = []
    for module, path in files:
        with open(path, encoding="utf-8") as f:
            tokens = ss.tokenize(f.read())
        for d in sd.declarations(tokens):
            if d.spi or d.access not in ("public", "open") or d.name.startswith("_"):
                continue
            decls.append(d)
    with open(cache + ".tmp", "w") as f:
        json.dump({"key": key, "decls": [d.to_json() for d in decls]}, f)
    os.replace(cache + ".tmp", cache)
    return decls


# --- Matching a use to declarations -------------------------------------------------------------------------

def labels_match(params: list[sd.Param], labels: list[str], trailing: int) -> bool:
    """Whether a call with `labels` and `trailing` trailing closures can bind to `params`."""
    k = 0
    for label in labels:
        while k < len(params) and params[k].label != label:
            if not params[k].has_default and not (params[k].variadic and k > 0 and label == "_"):
                return False
            k += 1
        if k >= len(params):
            if label == "_" and params and params[-1].variadic:
                continue
            return False
        if not params[k].variadic:
            k += 1
    rest = params[k:]
    required = [p for p in rest if not p.has_default and not p.variadic]   # a variadic parameter may take none
    return len(required) <= trailing <= len(rest)


class Index:
    def __init__(self, decls: list[sd.Decl], floor: dict[str, tuple]):
        self.by_name: dict[str, list[sd.Decl]] = {}
        self.protocols: set[str] = set()
        # Names with at least one declaration above the floor somewhere: the only ones worth matching.
        self.gated = {d.name for d in decls
                      if any(required(d, p) is not None and required(d, p) > floor[p] for p in floor)}
        self._memo: dict[tuple, list[sd.Decl]] = {}
        for d in decls:
            self.by_name.setdefault(d.name, []).append(d)
            if d.kind in sd.TYPE_KINDS:
                self.by_name.setdefault("type:" + d.name, []).append(d)
            if d.kind == "protocol":
                self.protocols.add(d.name)

    def is_type(self, name):
        return "type:" + name in self.by_name

    def types(self, name):
        return self.by_name.get("type:" + name, []) if name in self.gated else []

    def callables(self, name, context=None, labels=None, trailing=0):
        if name not in self.gated:
            return []
        key = (name, context, None if labels is None else tuple(labels), trailing)
        if key not in self._memo:
            self._memo[key] = self._callables(name, context, labels, trailing)
        return self._memo[key]

    def _callables(self, name, context, labels, trailing):
        out = []
        for d in self.by_name.get(name, []):
            if d.kind not in ("func", "init", "case", "macro") or d.params is None:
                if d.kind in ("var", "let") and labels is not None:
                    out.append(d)   # a stored closure or callAsFunction: cannot be told apart, count it
                continue
            if context and d.context and d.context != context and d.context_kind != "protocol" \
                    and d.context not in self.protocols:
                continue
            if labels is None or labels_match(d.params, labels, trailing):
                out.append(d)
        return out

    def globals(self, name):
        """File-level constants and functions of the framework modules with this name."""
        if name not in self.gated:
            return []
        return [d for d in self.by_name.get(name, []) if d.kind in ("var", "let", "func") and not d.context
                and d.framework]

    def members(self, name):
        if name not in self.gated:
            return []
        return [d for d in self.by_name.get(name, []) if d.kind in {"var", "let", "case", "func", "typealias",
                                                                      "associatedtype"} | sd.TYPE_KINDS]


def required(decl: sd.Decl, platform: str) -> tuple | None:
    """The version `decl` needs on `platform` (None: none); (10000, 0, 0) when it does not exist there. Mac Catalyst
    follows iOS unless the declaration names it, as Swift infers it."""
    a = decl.availability
    if platform == "maccatalyst" and platform not in a.unavailable and platform not in a.introduced:
        platform = "ios"
    if platform in a.unavailable or a.everywhere_unavailable:
        return (10_000, 0, 0)
    return a.introduced.get(platform)


def guard_version(guard: sd.Availability, platform: str) -> tuple:
    """What a scope's `@available` / `#available` guarantees on `platform` (Mac Catalyst: iOS's unless named)."""
    if platform == "maccatalyst" and platform not in guard.introduced:
        platform = "ios"
    return guard.introduced.get(platform, (0, 0, 0))


# --- Guards in the package's files ----------------------------------------------------------------------------

def guard_vectors(tokens: list[ss.Token]) -> list[sd.Availability]:
    """For each token, the availability the code at that point may assume (enclosing `@available`
    declarations, `if #available` blocks, the rest of a scope after `guard #available`)."""
    n = len(tokens)
    brace_guard: dict[int, sd.Availability] = {}
    after_guard: dict[int, sd.Availability] = {}
    for i, t in enumerate(tokens):
        if t.kind != "ident" or t.text not in ("#available", "#unavailable") or i + 1 >= n or tokens[i + 1].text != "(":
            continue
        close = ss.matching_close(tokens, i + 1)
        parsed = sd.parse_available(" ".join(x.text for x in tokens[i + 2:close]).replace(" . ", "."))
        if parsed is None:
            continue
        # The statement keyword before the condition list (if / guard / while).
        k = i - 1
        depth = 0
        while k >= 0 and not (tokens[k].kind == "ident" and tokens[k].text in ("if", "guard", "while") and depth == 0):
            if tokens[k].text in ")]":
                depth += 1
            elif tokens[k].text in "([":
                depth -= 1
            if tokens[k].text in ("{", "}", ";") and depth == 0:
                break
            k -= 1
        keyword = tokens[k].text if k >= 0 else ""
        j = close + 1
        depth = 0
        while j < n and not (tokens[j].text == "{" and depth == 0):
            if tokens[j].text in "([":
                depth += 1
            elif tokens[j].text in ")]":
                depth -= 1
            j += 1
        if j >= n:
            continue
        block_close = ss.matching_close(tokens, j)
        positive = t.text == "#available"
        if keyword in ("if", "while") and positive:
            brace_guard[j] = parsed
        elif keyword == "if" and not positive and block_close + 2 < n and tokens[block_close + 1].text == "else" \
                and tokens[block_close + 2].text == "{":
            brace_guard[block_close + 2] = parsed
        elif keyword == "guard" and positive:
            after_guard[block_close + 1] = parsed   # from the statement after the else block
        elif keyword == "guard" and not positive:
            brace_guard[j] = parsed
    out: list[sd.Availability] = []
    stack: list[tuple[int, sd.Availability]] = [(n, sd.Availability())]
    pending: sd.Availability | None = None
    pending_seen_keyword = False
    for i, t in enumerate(tokens):
        while len(stack) > 1 and i > stack[-1][0]:
            stack.pop()
        if i in after_guard:
            stack[-1] = (stack[-1][0], stack[-1][1].merged(after_guard[i]))
        current = stack[-1][1]
        if t.kind == "ident" and t.text == "@available" and i + 1 < n and tokens[i + 1].text == "(":
            close = ss.matching_close(tokens, i + 1)
            parsed = sd.parse_available(" ".join(x.text for x in tokens[i + 2:close]).replace(" . ", "."))
            if parsed is not None:
                pending = parsed if pending is None else pending.merged(parsed)
                pending_seen_keyword = False
        elif pending is not None and t.kind == "ident" and t.text in sd.DECL_KEYWORDS:
            if pending_seen_keyword and t.newline_before:
                pending = None
            pending_seen_keyword = True
        elif pending is not None and t.text == "}" and t.kind == "punct":
            pending = None
        effective = current.merged(pending)
        out.append(effective)
        if t.kind == "punct" and t.text == "{":
            guard = effective.merged(brace_guard.get(i))
            stack.append((ss.matching_close(tokens, i), guard))
            pending = None
    return out


# --- Scanning ------------------------------------------------------------------------------------------------

def local_names(tokens: list[ss.Token]) -> set[str]:
    """Names the package gives to variables, parameters and functions anywhere (they shadow global names)."""
    names = set()
    for i, t in enumerate(tokens[:-1]):
        if t.kind == "ident" and t.text in ("let", "var", "func", "case") and tokens[i + 1].kind == "ident":
            names.add(tokens[i + 1].text)
        if t.kind == "ident" and tokens[i + 1].text == ":" and i > 0 and tokens[i - 1].text in ("(", ","):
            names.add(t.text)
        if t.kind == "ident" and tokens[i + 1].kind == "ident" and tokens[i + 1].text not in ("in",) and \
                i > 0 and tokens[i - 1].text in ("(", ",") and i + 2 < len(tokens) and tokens[i + 2].text == ":":
            names.add(tokens[i + 1].text)
    return names


def version_text(v: tuple) -> str:
    """(15, 0, 0) as "15", (10, 14, 4) as "10.14.4", (15, 4, 0) as "15.4"."""
    parts = list(v)
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return ".".join(map(str, parts))


def describe(platforms_needed: dict[str, tuple]) -> str:
    parts = []
    for p in sd.PLATFORMS:
        if p in platforms_needed:
            v = platforms_needed[p]
            parts.append(f"{sd.DISPLAY[p]} {'unavailable' if v[0] == 10_000 else version_text(v)}")
    return ", ".join(parts)


def declared_types(tokens: list[ss.Token]) -> dict[str, str]:
    """Names the file declares with a stated type (`var controller: ASAuthorizationController?`, a parameter
    `controller: ASAuthorizationController`): a member access on them names that type's member."""
    out: dict[str, str] = {}
    for i in range(len(tokens) - 2):
        a, colon, t = tokens[i], tokens[i + 1], tokens[i + 2]
        if a.kind == "ident" and colon.text == ":" and t.kind == "ident" and t.text[:1].isupper() \
                and a.text[:1].islower():
            j, name = i + 2, t.text
            while j + 2 < len(tokens) and tokens[j + 1].text == "." and tokens[j + 2].kind == "ident":
                j += 2
                name = tokens[j].text
            out.setdefault(a.text, name)
    return out


def scan_file(rel, tokens, mask, index: Index, floor, shadowed: set[str], package_types: set[str]):
    findings = []
    guards = guard_vectors(tokens)
    bodies = ss.statement_braces(tokens)
    n = len(tokens)
    typed = declared_types(tokens)

    def receiver_type(i: int) -> str | None:
        """The stated type of the variable before `.member` at `i` (`controller?.cancel()`), if the file states one."""
        k = i - 2
        while k >= 0 and tokens[k].text in ("?", "!"):
            k -= 1
        if k >= 0 and tokens[k].kind == "ident" and (k == 0 or tokens[k - 1].text != "."):
            return typed.get(tokens[k].text)
        return None

    def check(i, symbol, candidates):
        if not candidates:
            return
        platforms = mask[i]
        needed: dict[str, tuple] = {}
        for p in platforms:
            allowed = max(floor[p], guard_version(guards[i], p))
            if p in guards[i].unavailable or (p == "maccatalyst" and "ios" in guards[i].unavailable):
                continue
            versions = [required(c, p) for c in candidates]
            if any(v is None or v <= allowed for v in versions):
                continue
            needed[p] = min(versions)
        if needed:
            modules = sorted({c.context or "(top level)" for c in candidates})
            findings.append((rel, tokens[i].line, tokens[i].col, symbol,
                             f"`{symbol}` needs {describe(needed)} (floor: "
                             f"{', '.join(sd.DISPLAY[p] + ' ' + version_text(floor[p]) for p in sd.PLATFORMS if p in needed)})"
                             f" and is used outside an @available / #available scope that covers it"
                             f" [{len(candidates)} declaration(s) in {', '.join(modules)}]"))

    for i, t in enumerate(tokens):
        if t.kind != "ident" or not mask[i] or t.text.startswith(("#", "@", "$")):
            continue
        prev = tokens[i - 1] if i else None
        nxt = tokens[i + 1] if i + 1 < n else None
        after_dot = prev is not None and prev.kind == "punct" and prev.text == "." 
        qualifier = tokens[i - 2].text if after_dot and i >= 2 and tokens[i - 2].kind == "ident" else None
        if prev is not None and prev.kind == "ident" and prev.text in sd.DECL_KEYWORDS | {"import"}:
            continue   # a declaration's own name
        if nxt is not None and nxt.text == ":" and prev is not None and prev.text in ("(", ","):
            continue   # an argument label
        # The call's argument labels, if this is a call (also `Type?(...)` and trailing closures).
        j = i + 1
        if j < n and tokens[j].text in ("?", "!") and not tokens[j].space_before:
            j += 1
        if j < n and tokens[j].text == "<" and not tokens[j].space_before:
            depth = 0
            for k in range(j, min(n, j + 64)):
                if tokens[k].text == "<":
                    depth += 1
                elif tokens[k].text == ">":
                    depth -= 1
                    if depth == 0:
                        j = k + 1
                        break
        labels = None
        trailing = 0
        if j < n and tokens[j].text == "(" and not tokens[j].space_before:
            labels, close = ss.argument_labels(tokens, j)
            k = close + 1
            while k < n and tokens[k].text == "{" and not tokens[k].newline_before and k not in bodies:
                trailing += 1
                k = ss.matching_close(tokens, k) + 1
                if k < n and tokens[k].kind == "ident" and k + 1 < n and tokens[k + 1].text == ":":
                    k += 2   # a labeled trailing closure
        elif j < n and tokens[j].text == "{" and not tokens[j].newline_before and after_dot and j not in bodies:
            labels, trailing = [], 1

        name = t.text
        if name in ("init", "subscript") and not after_dot:
            continue   # a declaration (a call of an initializer always has a dot: `Type.init`, `self.init`)
        if name == "init" and after_dot:
            context = qualifier if qualifier and qualifier[:1].isupper() and qualifier != "Self" else None
            if labels is not None:
                check(i, f"{context or ''}.init({''.join(x + ':' for x in labels)})",
                      index.callables("init", context, labels, trailing))
            continue
        is_type_name = name[:1].isupper()
        if is_type_name and (not after_dot or qualifier in MODULE_NAMES):
            if name in package_types:
                continue
            check(i, name, index.types(name))
            if labels is not None and index.is_type(name):
                check(i, f"{name}({''.join(x + ':' for x in labels)})", index.callables("init", name, labels, trailing))
            continue
        owner = receiver_type(i) if after_dot else None
        if labels is not None:
            if not after_dot and name in shadowed:
                continue
            candidates = index.callables(name, qualifier if qualifier and qualifier[:1].isupper() else None,
                                         labels, trailing)
            if owner and any(c.context == owner for c in index.by_name.get(name, [])):
                candidates = [c for c in index.callables(name, owner, labels, trailing) if c.context == owner]
            check(i, f"{'.' if after_dot else ''}{name}({''.join(x + ':' for x in labels)})", candidates)
        elif after_dot:
            candidates = index.members(name)
            if owner and any(c.context == owner for c in candidates):
                candidates = [c for c in candidates if c.context == owner]
            check(i, "." + name, candidates)
        elif name not in shadowed:
            check(i, name, index.globals(name))   # a constant or function of a framework module (`kSecUseKeychain`)
    return findings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(HERE))
    parser.add_argument("--all-targets", action="store_true",
                        help="scan every target a Mac compiles, not only the client products' (report only)")
    parser.add_argument("--no-cache", action="store_true")
    args = parser.parse_args(argv)
    cache_dir = os.path.join(args.root, ".build", "latchkey-checks")
    try:
        linux, apple = pg.load_graphs(args.root)
        toolchain_decls = toolchain_index(cache_dir, not args.no_cache)
    except (RuntimeError, ValueError, OSError, subprocess.CalledProcessError) as error:
        print(f"check-availability: {error}", file=sys.stderr)
        return 2
    floor = dict(DEFAULT_FLOOR)
    for p, v in apple.platforms.items():
        if p in floor:
            floor[p] = sd.parse_version(v)
    linux_only = pg.linux_only_targets(linux, apple)
    closure = pg.with_example_targets(apple, pg.apple_closure(apple, CLIENT_PRODUCTS))
    for product in CLIENT_PRODUCTS:   # Mac Catalyst: what the products reach on it (`.when(platforms: [.macCatalyst])`)
        for name in apple.reachable(apple.products.get(product, []), "maccatalyst"):
            closure.setdefault(name, set()).add("maccatalyst")
    if args.all_targets:
        compiled, _ = pg.apple_compiled_targets(linux, apple, linux_only)
        closure = {t: set(pg.APPLE_PLATFORMS) for t in compiled}
    targets = [t for t in closure if t in apple.targets and not apple.targets[t].is_system and t not in linux_only]

    # The package's own declarations and names, from every target's files (they shadow or add to the toolchain's).
    package_decls, shadowed, package_types, files = [], set(), set(), {}
    for target in linux.targets:
        if linux.targets[target].is_system:
            continue
        framework = target in FRAMEWORK_MODULES
        for rel in linux.swift_files(args.root, target):
            with open(os.path.join(args.root, rel), encoding="utf-8") as f:
                try:
                    tokens = ss.tokenize(f.read())
                except ss.LexError as error:
                    print(f"{rel}: cannot be read by the checker: {error}")
                    return 2
            files[rel] = (target, tokens)
            decls = sd.declarations(tokens)
            if framework:   # Apple's declarations, as the SDK has them: indexed like the toolchain's
                for d in decls:
                    d.framework = True
                package_decls += [d for d in decls if not d.name.startswith("_") and d.access in ("public", "open")]
                continue
            package_decls += [d for d in decls if not d.name.startswith("_")]
            package_types |= {d.name for d in decls if d.kind in sd.TYPE_KINDS | {"typealias", "associatedtype"}}
            shadowed |= local_names(tokens)
    index = Index(toolchain_decls + package_decls, floor)

    findings = []
    scanned = 0
    for rel, (target, tokens) in files.items():
        if target not in targets:
            continue
        scanned += 1
        conditions = pg.compile_conditions(apple, target, [p for p in CHECKED_PLATFORMS if p in closure[target]])
        try:
            mask = ss.compiled_mask(tokens, conditions)
        except ss.LexError as error:
            findings.append((rel, 0, 0, "", f"cannot be read by the checker: {error}"))
            continue
        findings += scan_file(rel, tokens, mask, index, floor, shadowed, package_types)

    known_path = os.path.join(HERE, "checks", "availability-known.txt")
    known = {}
    if os.path.exists(known_path):
        with open(known_path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    path, symbol, reason = (line.rstrip("\n").split("\t") + ["", ""])[:3]
                    known[(path, symbol)] = reason
    failing, tolerated, matched = [], [], set()
    for rel, line, col, symbol, message in findings:
        entry = (rel, symbol)
        if entry in known and not args.all_targets:
            matched.add(entry)
            tolerated.append(f"{rel}:{line}:{col}: (known: {known[entry]}) {message}")
        else:
            failing.append(f"{rel}:{line}:{col}: {message}")
    stale = [] if args.all_targets else [f"{p}\t{s}" for (p, s) in known if (p, s) not in matched]
    for line in tolerated:
        print(line)
    for line in failing:
        print(line)
    for entry in stale:
        print(f"scripts/checks/availability-known.txt: stale entry (no such use any more; remove it): {entry}")
    summary = (f"{scanned} files of {len(targets)} targets ({', '.join(sorted(targets))}), "
               f"{len(toolchain_decls)} toolchain declarations, floor "
               + ", ".join(f"{sd.DISPLAY[p]} {version_text(floor[p])}" for p in sd.PLATFORMS))
    if failing or stale:
        print(f"check-availability: FAILED — {len(failing)} use(s) above the floor, {len(stale)} stale known "
              f"entr{'y' if len(stale) == 1 else 'ies'}; {summary}")
        return 0 if args.all_targets else 1
    print(f"check-availability: ok{' (' + str(len(tolerated)) + ' known)' if tolerated else ''} — {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
