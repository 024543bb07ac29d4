"""The package's target graph as `swift package dump-package` describes it, per platform.

Shared by scripts/check-apple-platforms.py (reachability), check-availability.py and check-glibc.py (which
files an Apple platform compiles). Stdlib only.

- `load_dump(root, host)` runs `swift package dump-package`: `host="linux"` evaluates Package.swift as this
  machine does; `host="apple"` evaluates a copy whose `#if`/`#elseif` lines are rewritten as a Mac evaluates
  them (`os(macOS)` true, any other `os(...)` false, `canImport(Glibc)` false, `canImport(Darwin)` true...),
  so targets declared only under `#if os(Linux)` disappear, as they do in Xcode. A manifest is evaluated for
  the host, not for the target platform: on a Mac building for iOS, `os(macOS)` is true.
- `Graph(dump)`: edges carry their `.when(platforms:)` condition; `edges(target, platform)` keeps those that
  apply to that platform (no condition, or the platform listed). Configuration and trait conditions are
  treated as applying (conservative).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import deque
from dataclasses import dataclass, field

APPLE_PLATFORMS = ("macos", "ios", "tvos", "watchos", "visionos")

# Swift's spelling in `os(...)` for each dump-package platform name.
OS_NAMES = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS",
            "linux": "Linux"}

# Modules that exist on every Apple platform (true in `canImport` on an Apple host) and modules that never do.
APPLE_MODULES = {"Darwin", "ObjectiveC", "Security", "LocalAuthentication", "CryptoKit", "CommonCrypto",
                 "AuthenticationServices", "DeviceCheck", "os", "Network", "CoreFoundation", "Combine", "SwiftUI"}
NON_APPLE_MODULES = {"Glibc", "Musl", "Android", "Bionic", "WinSDK", "WASILibc", "FoundationNetworking",
                     "FoundationXML"}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    kind: str                    # "target" (this package) or "product" (another package's product)
    platforms: tuple[str, ...]   # empty: every platform
    package: str | None = None   # for product edges

    def applies(self, platform: str) -> bool:
        return not self.platforms or platform in self.platforms

    def describe(self) -> str:
        if not self.platforms:
            return f"{self.source} -> {self.target} (no platform condition)"
        return f"{self.source} -> {self.target} (.when(platforms: [{', '.join(self.platforms)}]))"


@dataclass
class Target:
    name: str
    type: str                    # regular, executable, test, system, binary, plugin, macro
    path: str | None
    exclude: list[str]
    sources: list[str] | None
    settings: list[dict] = field(default_factory=list)

    @property
    def is_system(self) -> bool:
        return self.type == "system"

    @property
    def is_test(self) -> bool:
        return self.type == "test"


def _condition_platforms(condition) -> tuple[str, ...]:
    if not condition:
        return ()
    return tuple(condition.get("platformNames") or ())


class Graph:
    def __init__(self, dump: dict):
        self.dump = dump
        self.targets: dict[str, Target] = {}
        for t in dump["targets"]:
            self.targets[t["name"]] = Target(t["name"], t["type"], t.get("path"), t.get("exclude") or [],
                                             t.get("sources"), t.get("settings") or [])
        self.products: dict[str, list[str]] = {p["name"]: list(p["targets"]) for p in dump["products"]}
        self.product_types: dict[str, str] = {p["name"]: next(iter(p["type"])) for p in dump["products"]}
        self.out: dict[str, list[Edge]] = {name: [] for name in self.targets}
        for t in dump["targets"]:
            for dep in t.get("dependencies") or []:
                self.out[t["name"]].append(self._edge(t["name"], dep))
        self.platforms = {p["platformName"]: p["version"] for p in dump.get("platforms") or []}

    def _edge(self, source: str, dep: dict) -> Edge:
        (kind, value), = dep.items()
        if kind == "product":
            name, package, _aliases, condition = value
            return Edge(source, name, "product", _condition_platforms(condition), package)
        name, condition = value
        # byName names a target of this package when one has that name, else a product of a dependency.
        resolved = "target" if kind == "target" or name in self.targets else "product"
        return Edge(source, name, resolved, _condition_platforms(condition))

    def edges(self, target: str, platform: str) -> list[Edge]:
        return [e for e in self.out.get(target, []) if e.applies(platform)]

    def incoming(self, target: str) -> list[Edge]:
        return [e for edges in self.out.values() for e in edges if e.target == target and e.kind == "target"]

    def reachable(self, roots: list[str], platform: str) -> dict[str, Edge | None]:
        """Every target reachable from `roots` on `platform`, with the edge it was first reached by (BFS, so
        following those edges back gives a shortest path). Roots map to None."""
        seen: dict[str, Edge | None] = {}
        queue = deque()
        for r in roots:
            if r not in seen:
                seen[r] = None
                queue.append(r)
        while queue:
            current = queue.popleft()
            for e in self.edges(current, platform):
                if e.kind != "target" or e.target in seen:
                    continue
                seen[e.target] = e
                queue.append(e.target)
        return seen

    @staticmethod
    def path(seen: dict[str, Edge | None], target: str) -> list[Edge]:
        edges: list[Edge] = []
        while (e := seen.get(target)) is not None:
            edges.append(e)
            target = e.source
        return list(reversed(edges))

    def active_settings(self, target: str, platform: str) -> list[dict]:
        return [s for s in self.targets[target].settings if not _condition_platforms(s.get("condition"))
                or platform in _condition_platforms(s.get("condition"))]

    def defines(self, target: str, platform: str) -> set[str]:
        """Compilation flags `-D` set for the target's Swift code on `platform` (`define` and `unsafeFlags`)."""
        flags: set[str] = set()
        for s in self.active_settings(target, platform):
            if s.get("tool") not in ("swift", None):
                continue
            kind = s["kind"]
            if "define" in kind:
                flags.add(kind["define"]["_0"].split("=", 1)[0])
            elif "unsafeFlags" in kind:
                args = kind["unsafeFlags"]["_0"]
                for i, a in enumerate(args):
                    if a.startswith("-D") and len(a) > 2:
                        flags.add(a[2:].split("=", 1)[0])
                    elif a == "-D" and i + 1 < len(args):
                        flags.add(args[i + 1].split("=", 1)[0])
        return flags

    def source_dir(self, root: str, target: str) -> str | None:
        t = self.targets[target]
        if t.path:
            return os.path.join(root, t.path)
        for base in (("Tests",) if t.is_test else ("Sources", "Source", "src", "srcs")):
            candidate = os.path.join(root, base, target)
            if os.path.isdir(candidate):
                return candidate
        return None

    def swift_files(self, root: str, target: str) -> list[str]:
        """The target's .swift files (paths relative to `root`), honouring `path`, `sources` and `exclude`."""
        base = self.source_dir(root, target)
        if not base or not os.path.isdir(base):
            return []
        t = self.targets[target]
        excluded = [os.path.normpath(os.path.join(base, x)) for x in t.exclude]
        roots = [os.path.normpath(os.path.join(base, s)) for s in t.sources] if t.sources else [base]
        files: list[str] = []
        for r in roots:
            if os.path.isfile(r):
                candidates = [r]
            else:
                candidates = [os.path.join(d, f) for d, _, fs in os.walk(r) for f in fs]
            for f in sorted(candidates):
                norm = os.path.normpath(f)
                if f.endswith(".swift") and not any(norm == x or norm.startswith(x + os.sep) for x in excluded):
                    files.append(os.path.relpath(norm, root))
        return files


# --- Running dump-package ---------------------------------------------------------------------------------

_CONDITION_LINE = re.compile(r"^([ \t]*#(?:if|elseif)\b)(.*)$", re.MULTILINE)


def apple_host_manifest(text: str) -> str:
    """Package.swift as a Mac evaluates it: in `#if`/`#elseif` lines, `os(...)` and `canImport(...)` of known
    modules become `true`/`false` literals (other conditions are left for the compiler)."""
    def rewrite(condition: str) -> str:
        condition = re.sub(r"\bos\(\s*(\w+)\s*\)", lambda m: "true" if m.group(1) == "macOS" else "false", condition)

        def can_import(m):
            module = m.group(1)
            if module in APPLE_MODULES:
                return "true"
            if module in NON_APPLE_MODULES:
                return "false"
            return m.group(0)
        return re.sub(r"\bcanImport\(\s*([\w.]+)\s*\)", can_import, condition)

    return _CONDITION_LINE.sub(lambda m: m.group(1) + rewrite(m.group(2)), text)


def swift_executable() -> str:
    return os.environ.get("SWIFT", "swift")


def run_dump(package_dir: str, env: dict | None = None) -> dict:
    proc = subprocess.run([swift_executable(), "package", "--package-path", package_dir, "dump-package"],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"swift package dump-package failed in {package_dir}:\n{proc.stderr.strip()}")
    return json.loads(proc.stdout)


def load_dump(root: str, host: str = "linux") -> dict:
    """dump-package of the package at `root`, evaluated on this machine (`linux`) or as a Mac would (`apple`:
    a rewritten copy of Package.swift in a temporary directory, LATCHKEY_APPLE_FRAMEWORKS unset). Cached in
    .build/latchkey-checks/ by the manifest's text, the host and the LATCHKEY_* environment (what it reads)."""
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as f:
        text = f.read()
    environment = sorted((k, v) for k, v in os.environ.items() if k.startswith("LATCHKEY_"))
    key = hashlib.sha256(json.dumps([text, host, environment, swift_executable()]).encode()).hexdigest()[:20]
    cache = os.path.join(root, ".build", "latchkey-checks", f"dump-{host}-{key}.json")
    if os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            return json.load(f)
    dump = _load_dump(root, host, text)
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache + ".tmp", "w", encoding="utf-8") as f:
        json.dump(dump, f)
    os.replace(cache + ".tmp", cache)
    return dump


def load_graphs(root: str) -> tuple["Graph", "Graph"]:
    """The package's graph as this machine evaluates the manifest, and as a Mac does."""
    return Graph(load_dump(root, "linux")), Graph(load_dump(root, "apple"))


def load_graphs_or_report(root: str, tool: str):
    """`load_graphs(root)`, or None after printing why dump-package failed (the scripts then exit with 2)."""
    try:
        return load_graphs(root)
    except (RuntimeError, ValueError, OSError) as error:
        print(f"{tool}: {error}", file=sys.stderr)
        return None


def compile_conditions(graph: "Graph", target: str, platforms=APPLE_PLATFORMS) -> dict:
    """swiftsource.Conditions for `target`'s files on each of `platforms`: the target's `define`s there, and the
    targets it reaches there as importable modules."""
    import swiftsource
    return {p: swiftsource.Conditions(p, graph.defines(target, p), importable=set(graph.reachable([target], p)) - {target})
            for p in platforms}


def _load_dump(root: str, host: str, text: str) -> dict:
    if host == "linux":
        return run_dump(root)
    manifest = apple_host_manifest(text)
    scratch = tempfile.mkdtemp(prefix="latchkey-apple-host-")
    try:
        with open(os.path.join(scratch, "Package.swift"), "w", encoding="utf-8") as f:
            f.write(manifest)
        env = {k: v for k, v in os.environ.items() if k != "LATCHKEY_APPLE_FRAMEWORKS"}
        return run_dump(scratch, env)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# --- Which targets are Linux-only, which are forbidden on Apple platforms -------------------------------

# Swift targets issue 25 names as Linux-only (the Linux backends and the Linux facades with Apple's names).
NAMED_LINUX_ONLY = ("LatchkeyAuthLinux", "LatchkeyKeychainLinux", "LatchkeyOpenSSL", "Security",
                    "LocalAuthentication", "CryptoKit", "CommonCrypto", "AuthenticationServices", "DeviceCheck")

# The products an app on an Apple platform adds: what the Apple-platform checks hold to Apple's frameworks.
CLIENT_PRODUCTS = ["Latchkey", "LatchkeyUI", "LatchkeyKeychain", "LatchkeyAuth", "LatchkeyCrypto", "LatchkeyWebAuthn"]

# Targets of this package compiled from Examples/ (the example app's portable logic, which runs on iOS): held to the
# client products' Apple-platform rules on iOS by check-availability and check-glibc, though no product contains them.
EXAMPLE_APP_TARGETS = {"SecureNotesExampleCore": ("ios",)}

# The Linux modules named after Apple's frameworks: on Apple platforms `import Security` (and the rest) is the SDK's.
APPLE_FRAMEWORK_NAMES = frozenset({"Security", "LocalAuthentication", "CryptoKit", "CommonCrypto",
                                   "AuthenticationServices", "DeviceCheck"})

# System libraries Apple ships in its SDKs that a client product may link there (none is wanted today:
# add a name here, with the reason, to allow one).
APPLE_SHIPPED_SYSTEM_LIBRARIES: set[str] = set()

# Libraries a `linkedLibrary` setting may name on Apple platforms (they are in every Apple SDK).
APPLE_SDK_LIBRARIES = {"z", "c++", "sqlite3", "xml2", "resolv", "iconv", "objc", "bz2", "compression"}


def _applies_to_apple(edge: Edge) -> bool:
    return any(edge.applies(p) for p in APPLE_PLATFORMS)


def linux_only_targets(linux: Graph, apple: Graph | None) -> dict[str, str]:
    """Swift targets that must not be compiled for Apple platforms, each with the reason it is one.

    A target is Linux-only when it is declared only when the manifest is evaluated on Linux (absent from
    `apple`, the Mac-host evaluation), when issue 25 names it so, when its name ends in `Linux`, or when every
    edge into it from a non-test target that exists on an Apple host is conditioned to non-Apple platforms."""
    reasons: dict[str, str] = {}
    apple_names = set(apple.targets) if apple else set(linux.targets)
    for name, t in linux.targets.items():
        if t.is_system:
            continue
        if apple is not None and name not in apple_names:
            reasons[name] = "declared only when Package.swift is evaluated on Linux"
        elif name in NAMED_LINUX_ONLY:
            reasons[name] = "a Linux backend or facade named in issue 25"
        elif name.endswith("Linux"):
            reasons[name] = "its name ends in 'Linux'"
    reference = apple or linux
    for name, t in reference.targets.items():
        if t.is_system or name in reasons:
            continue
        inbound = [e for e in reference.incoming(name)
                   if not reference.targets[e.source].is_test and e.source not in reasons]
        if inbound and not any(_applies_to_apple(e) for e in inbound):
            reasons[name] = "every edge into it is conditioned to non-Apple platforms: " + \
                "; ".join(e.describe() for e in inbound)
    return reasons


def forbidden_targets(graph: Graph, linux_only: dict[str, str]) -> dict[str, str]:
    """Targets no client product may reach on an Apple platform, with why."""
    out = {name: "C system library (not shipped by Apple)" for name, t in graph.targets.items()
           if t.is_system and name not in APPLE_SHIPPED_SYSTEM_LIBRARIES}
    out.update({name: "Linux-only Swift target: " + why for name, why in linux_only.items()})
    for name in NAMED_LINUX_ONLY:
        out.setdefault(name, "Linux-only Swift target: a Linux backend or facade named in issue 25")
    return out


@dataclass
class Violation:
    host: str
    platform: str
    product: str
    target: str
    reason: str
    path: list[Edge]

    def describe(self) -> str:
        chain = " -> ".join([self.product + " (product)"] + [self.path[0].source if self.path else self.target]
                            + [e.target for e in self.path])
        open_edges = [e.describe() for e in self.path if not e.platforms]
        conditioned = [e.describe() for e in self.path if e.platforms]
        lines = [f"[{self.host} manifest{'s' if ' and ' in self.host else ''}; {self.platform}] {self.product} reaches {self.target} ({self.reason})",
                 f"    path: {chain}"]
        if open_edges:
            lines.append("    unconditioned edges on the path: " + "; ".join(open_edges))
        if conditioned:
            lines.append("    conditioned edges that still include it: " + "; ".join(conditioned))
        return "\n".join(lines)


def check_reachability(graph: Graph, host: str, products: list[str], forbidden: dict[str, str],
                       platforms=APPLE_PLATFORMS) -> tuple[list[Violation], list[str]]:
    """Violations (a forbidden target reachable from a product on a platform) and problems (a product
    missing, a linked library not in Apple's SDKs)."""
    violations: list[Violation] = []
    problems: list[str] = []
    for product in products:
        roots = graph.products.get(product)
        if roots is None:
            problems.append(f"[{host} manifest] product {product} is not declared")
            continue
        for platform in platforms:
            seen = graph.reachable(roots, platform)
            for name in sorted(seen):
                if name in forbidden:
                    violations.append(Violation(host, platform, product, name, forbidden[name],
                                                graph.path(seen, name)))
                if name not in graph.targets:
                    continue
                for s in graph.active_settings(name, platform):
                    kind = s["kind"]
                    if "linkedLibrary" in kind and kind["linkedLibrary"]["_0"] not in APPLE_SDK_LIBRARIES:
                        problems.append(f"[{host} manifest, {platform}] {product} reaches {name}, which links "
                                        f"library '{kind['linkedLibrary']['_0']}' on {platform} (not in Apple's SDKs)")
                    if "unsafeFlags" in kind and s.get("tool") == "linker":
                        problems.append(f"[{host} manifest, {platform}] {product} reaches {name}, which passes "
                                        f"linker unsafeFlags {kind['unsafeFlags']['_0']} on {platform}")
    return violations, problems


def apple_closure(graph: Graph, products: list[str]) -> dict[str, set[str]]:
    """For each target reachable from `products` on some Apple platform, the Apple platforms it is reached on."""
    out: dict[str, set[str]] = {}
    for product in products:
        for platform in APPLE_PLATFORMS:
            for name in graph.reachable(graph.products.get(product, []), platform):
                out.setdefault(name, set()).add(platform)
    return out


def with_example_targets(graph: Graph, closure: dict[str, set[str]]) -> dict[str, set[str]]:
    """`closure` (target → Apple platforms) with the example app's targets added on their platforms."""
    out = {name: set(platforms) for name, platforms in closure.items()}
    for name, platforms in EXAMPLE_APP_TARGETS.items():
        if name in graph.targets:
            out.setdefault(name, set()).update(platforms)
    return out


def apple_compiled_targets(linux: Graph, apple: Graph, linux_only: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """Targets a Mac would compile for some Apple platform (libraries, executables, tests), and the skipped
    ones with why: Linux-only targets, system libraries, and targets that depend on a Linux-only target on
    every Apple platform (they cannot be built there at all)."""
    compiled: list[str] = []
    skipped: dict[str, str] = {}
    for name, t in linux.targets.items():
        if t.is_system:
            continue
        if name in linux_only:
            skipped[name] = "Linux-only: " + linux_only[name]
            continue
        graph = apple if name in apple.targets else linux
        blocked = []
        for platform in APPLE_PLATFORMS:
            seen = graph.reachable([name], platform)
            hit = sorted(n for n in seen if n in linux_only)
            if not hit:
                break
            blocked.append(hit[0])
        else:
            skipped[name] = f"depends on Linux-only {blocked[0]} on every Apple platform"
            continue
        compiled.append(name)
    return compiled, skipped
