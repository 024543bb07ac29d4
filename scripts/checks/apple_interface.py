"""Apple's `.swiftinterface` files on Linux, and SwiftPM's compile commands replayed against them
(scripts/check-apple-sdk.py). Stdlib only.

- `find_interface_sdks(folder)`: every CryptoKit interface under a folder, one per SDK (the arm64 iOS one when an
  SDK has several), labelled by the `-target` of its module-flags line (`arm64-apple-ios18.0` → "iOS 18.0").
- `loadable_interface(text, triple, flags)`: the edits that let this compiler load it (module-flags target, the
  `Security` imports and the declarations using `Security`: the SecureEnclave keys' `SecAccessControl` initializers).
- `oldest_sdk_model(text, rows, oldest)`: this package's CryptoKit interface declaring `Sendable` as the oldest
  admitted SDK does, from the facts (docs/apple-sdk/CryptoKit.tsv).
- `BuildManifest.load(scratch)`: the "Compiling Swift Module" commands of a SwiftPM build (`debug.yaml`), in
  dependency order, each re-runnable whole-module against other module directories.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass

PLATFORM_LABELS = {"ios": "iOS", "macosx": "macOS", "macos": "macOS", "tvos": "tvOS", "watchos": "watchOS",
                   "xros": "visionOS", "visionos": "visionOS"}


@dataclass
class InterfaceSDK:
    label: str          # "iOS 18.0"
    interface: str      # path of CryptoKit's .swiftinterface


def interface_target(text: str) -> str | None:
    m = re.search(r"^// swift-module-flags:.*?-target (\S+)", text, re.M)
    return m.group(1) if m else None


def label_of(target: str | None) -> str:
    m = re.match(r"[^-]+-apple-([a-z]+?)(\d[\d.]*)", target or "")
    if not m:
        return target or "unknown SDK"
    return f"{PLATFORM_LABELS.get(m.group(1), m.group(1))} {m.group(2)}"


def find_interface_sdks(folder: str) -> list[InterfaceSDK]:
    """One CryptoKit interface per `CryptoKit.swiftmodule` directory (arm64 preferred), sorted by label."""
    found = []
    for directory, _, files in os.walk(folder):
        if os.path.basename(directory) != "CryptoKit.swiftmodule":
            continue
        interfaces = sorted(f for f in files if f.endswith(".swiftinterface") and not f.endswith(".private.swiftinterface"))
        if not interfaces:
            continue
        preferred = next((f for f in interfaces if f.startswith("arm64-apple-")), interfaces[0])
        path = os.path.join(directory, preferred)
        with open(path, encoding="utf-8") as f:
            label = label_of(interface_target(f.read(4096)))
        found.append(InterfaceSDK(label, path))
    labels = [s.label for s in found]
    for sdk in found:
        if labels.count(sdk.label) > 1:
            sdk.label += f" ({os.path.relpath(sdk.interface, folder).split(os.sep)[0]})"
    return sorted(found, key=lambda s: _version_key(s.label))


def _version_key(label: str):
    m = re.search(r"(\d+(?:\.\d+)*)", label)
    return (label.split()[0], tuple(int(p) for p in m.group(1).split(".")) if m else (), label)


def loadable_interface(text: str, triple: str, flags: str = "") -> tuple[str, int]:
    """(the interface with the edits the module docstring lists, how many declarations using Security were cut)."""
    lines, cut = [], 0
    skip_depth = None
    for line in text.split("\n"):
        if skip_depth is not None:  # inside the body of a cut declaration
            skip_depth += line.count("{") - line.count("}")
            if skip_depth <= 0:
                skip_depth = None
            continue
        if line.startswith("// swift-module-flags:"):
            line = re.sub(r"-target \S+", f"-target {triple}", line).replace(" -enable-objc-interop", "")
            line += f" {flags}" if flags else ""
        if line.strip() in ("import Security", "import Security.SecAccessControl"):
            continue
        if re.search(r"\bSecurity\.", line) and not line.lstrip().startswith("//"):
            cut += 1
            while lines and lines[-1].lstrip().startswith("@"):  # its attributes
                lines.pop()
            depth = line.count("{") - line.count("}")
            skip_depth = depth if depth > 0 else None
            continue
        lines.append(line)
    return "\n".join(lines), cut


# --- The oldest admitted SDK's CryptoKit, modeled --------------------------------------------------------------

_SENDABLE = r"(?:@unchecked )?Swift\.Sendable"


def _without_sendable(line: str) -> str:
    """An interface line with `Swift.Sendable` taken out of its inheritance clause (or associated type constraint)."""
    line = re.sub(r",\s*" + _SENDABLE + r"\b", "", line, count=1)
    line = re.sub(r"(\s:\s*)" + _SENDABLE + r"\s*,\s*", r"\1", line, count=1)
    return re.sub(r"\s:\s*" + _SENDABLE + r"(?=\s*(?:\{|where\b|$))", "", line, count=1)


def oldest_sdk_model(text: str, rows: list, oldest: tuple) -> tuple[str, list[str]]:
    """This package's CryptoKit, as its public interface, made to declare what the oldest admitted SDK declares where the
    facts say SDKs differ: a type whose row dates its `Sendable` after `oldest` (`18.4` > (18, 0)) loses the
    conformance, and a protocol its associated types' `Sendable` constraints. The module-flags line loses
    `-package-name` (Apple's module is not in this package: nothing `package` shows, as nothing does in Apple's) and
    says `-swift-version 5`, as Apple's interfaces do (a `static let` of a type not Sendable there is Swift 5 code).
    Returns (the text, the symbols edited)."""
    import swiftdecls as sd  # noqa: E402 — sibling modules of this folder
    import swiftsource as ss  # noqa: E402

    since = {r.symbol: tuple(int(p) for p in r.sendable_since.split(".")) for r in rows if r.sendable_since}
    later = {symbol for symbol, version in since.items() if version > oldest}
    lines = text.split("\n")
    edited, protocols = [], set()
    declarations = sd.declarations(ss.tokenize(text), extensions=True)
    for d in declarations:
        if d.kind in sd.TYPE_KINDS | {"extension"} and d.qualified in later \
                and any(i.replace("@unchecked", "").strip() in ("Sendable", "Swift.Sendable") for i in d.inherits):
            new = _without_sendable(lines[d.line - 1])
            if new != lines[d.line - 1]:
                lines[d.line - 1] = new
                edited.append(d.qualified)
            if d.kind == "protocol":
                protocols.add(d.qualified)
    for d in declarations:
        if d.kind == "associatedtype" and d.path in protocols:
            lines[d.line - 1] = _without_sendable(lines[d.line - 1])
    for i, line in enumerate(lines):
        if line.startswith("// swift-module-flags:"):
            lines[i] = re.sub(r" -package-name \S+", "", line).replace("-swift-version 6", "-swift-version 5")
    return "\n".join(lines), sorted(set(edited))


# --- Public API beyond Apple's -----------------------------------------------------------------------------------

# Members a conformance to these standard protocols implies: compared through the conformance, wherever declared.
_IMPLIED = {"Hashable": {"hash(into:)", "hashValue"}, "Sequence": {"makeIterator()", "underestimatedCount",
            "withContiguousStorageIfAvailable(_:)"}, "CustomStringConvertible": {"description"},
            "CustomReflectable": {"customMirror"}, "ContiguousBytes": {"withUnsafeBytes(_:)"}}


def _short(name: str) -> str:
    for prefix in ("@unchecked ", "Swift.", "FoundationEssentials.", "Foundation.", "CryptoKit."):
        name = name.replace(prefix, "")
    return name.strip()


def public_surface(text: str) -> tuple[set[str], dict[str, set[str]]]:
    """(`Type.member(labels:)` / `Type: Protocol` of an interface's public declarations, each type's conformances)."""
    import swiftdecls as sd  # noqa: E402
    import swiftsource as ss  # noqa: E402
    names, conforms = set(), {}
    for d in sd.declarations(ss.tokenize(text), extensions=True):
        if d.kind in sd.TYPE_KINDS | {"extension"}:
            conforms.setdefault(d.qualified, set()).update(_short(i) for i in d.inherits)
            names.update(f"{d.qualified}: {_short(i)}" for i in d.inherits)
            if d.kind == "extension":
                continue
        if d.access in ("public", "open"):
            names.add(d.qualified + ("" if d.labels is None else "(" + "".join(l + ":" for l in d.labels) + ")"))
    return names, conforms


def beyond_apple(ours_text: str, apple_text: str) -> list[str]:
    """What this package's CryptoKit declares publicly that Apple's interface does not: a member counts as Apple's
    when Apple declares it on the type, on a protocol the type conforms to (`HashFunction.hash(data:)` for
    `SHA256.hash(data:)`), or implies it by a standard conformance (`hash(into:)` of Hashable)."""
    ours, _ = public_surface(ours_text)
    apple, conforms = public_surface(apple_text)

    def protocols(type_name: str, depth: int = 0) -> set[str]:
        direct = conforms.get(type_name, set())
        return direct | {q for p in direct if depth < 8 for q in protocols(p, depth + 1)}

    out = []
    for name in sorted(ours - apple):
        if "Latchkey" in name:  # Linux-only API, named so (LatchkeySecureEnclaveConfiguration)
            continue
        if ": " not in name and "." in name:
            owner, member = name.rsplit(".", 1) if "(" not in name else name[:name.index("(")].rsplit(".", 1)
            member = name[len(owner) + 1:]
            inherited = protocols(owner)
            if any(f"{p}.{member}" in apple for p in inherited) or \
                    any(member in _IMPLIED.get(p, ()) for p in inherited | {owner}):
                continue
        out.append(name)
    return out


def frontend(swift: str) -> str:
    """swift-frontend beside the swift driver."""
    from shutil import which
    driver = os.path.realpath(which(swift) or swift)
    return os.path.join(os.path.dirname(driver), "swift-frontend")


def first_errors(output: str, limit: int = 12) -> str:
    errors = [l for l in output.splitlines() if re.search(r": error: ", l)]
    seen, unique = set(), []
    for e in errors:
        if e not in seen:
            seen.add(e)
            unique.append(e)
    shown = unique[:limit]
    more = f"\n      … {len(unique) - limit} more" if len(unique) > limit else ""
    return "\n".join("      " + e for e in shown) + more if shown else "      " + output.strip()[-1500:]


# --- SwiftPM's commands --------------------------------------------------------------------------------------

@dataclass
class ModuleCommand:
    module: str
    args: list[str]
    inputs: list[str]
    sources: list[str]

    def clang_module_maps(self) -> list[str]:
        """The `-Xcc -fmodule-map-file=…` pairs of the command (the package's C modules its imports reach)."""
        args = self.args
        return [x for i, a in enumerate(args[:-1]) if a == "-Xcc" and args[i + 1].startswith("-fmodule-map-file=")
                for x in (a, args[i + 1])]

    def module_directory(self) -> str:
        """The build's module directory (where SwiftPM's command finds this module's dependencies)."""
        args = self.args
        return next(args[i + 1] for i, a in enumerate(args[:-1]) if a == "-I" and args[i + 1].endswith(os.sep + "Modules"))

    def dependencies(self) -> set[str]:
        return {os.path.basename(i)[:-len(".swiftmodule")] for i in self.inputs if i.endswith(".swiftmodule")}

    def recompiled(self, search_first: list[str], modules_out: str) -> list[str]:
        """SwiftPM's command as a whole-module `-emit-module` into `modules_out`, with `search_first` before the
        build's own module directory (and the outputs, incremental state and index store left out)."""
        drop_with_value = {"-output-file-map", "-index-store-path", "-emit-objc-header-path", "-emit-module-path",
                           "-serialize-diagnostics-path", "-emit-dependencies-path"}
        drop = {"-emit-dependencies", "-incremental", "-enable-batch-mode", "-serialize-diagnostics",
                "-parseable-output", "-emit-objc-header", "-c", "-emit-module"}
        out, i = [], 0
        args = self.args
        while i < len(args):
            a = args[i]
            if a in drop_with_value:
                i += 2
                continue
            if a in drop or a.startswith("-j"):
                i += 1
                continue
            if a.startswith("@"):
                out.extend(self.sources)
                i += 1
                continue
            if a == "-I" and i + 1 < len(args) and args[i + 1].endswith(os.sep + "Modules"):
                for d in search_first:
                    out += ["-I", d]
                out += ["-I", args[i + 1]]
                i += 2
                continue
            out.append(a)
            i += 1
        return out + ["-wmo", "-emit-module", "-emit-module-path", os.path.join(modules_out, self.module + ".swiftmodule")]


class BuildManifest:
    def __init__(self, commands: list[ModuleCommand]):
        self.commands = {c.module: c for c in commands}

    @staticmethod
    def load(scratch: str) -> "BuildManifest":
        path = os.path.join(scratch, "debug.yaml")
        if not os.path.exists(path):
            raise RuntimeError(f"{path} is missing: build first")
        commands = []
        with open(path, encoding="utf-8") as f:
            block: dict[str, str] = {}
            for line in f:
                if line.startswith('  "') and line.rstrip().endswith('":'):
                    block = {}
                    continue
                m = re.match(r"    (inputs|args|description): (.*)$", line)
                if not m:
                    continue
                block[m.group(1)] = m.group(2)
                if m.group(1) == "args" and "description" in block:
                    d = re.match(r"\"Compiling Swift Module '([^']+)'", block["description"])
                    if d and "inputs" in block:
                        args = json.loads(block["args"])
                        inputs = json.loads(block["inputs"])
                        commands.append(ModuleCommand(d.group(1), args, inputs, _sources(args)))
        return BuildManifest(commands)

    def own_modules_in_order(self, package: str) -> list[ModuleCommand]:
        """The modules of `package`'s own targets (sources under its folder, not the build's), dependencies first:
        not those of packages it depends on, nor the test runners SwiftPM generates."""
        root = os.path.realpath(package) + os.sep
        build = os.path.join(root, ".build") + os.sep

        def own(command):
            paths = [os.path.realpath(src) for src in command.sources]
            return any(p.startswith(root) and not p.startswith(build) for p in paths)
        return [c for c in self.swift_modules_in_order() if own(c)]

    def with_dependencies(self, names: set[str]) -> set[str]:
        """`names` and every module they depend on, transitively (a module compiled against Apple's CryptoKit needs
        its dependencies compiled against it too)."""
        out, todo = set(), list(names)
        while todo:
            name = todo.pop()
            if name not in out:
                out.add(name)
                todo += self.commands[name].dependencies() if name in self.commands else []
        return out

    def swift_modules_in_order(self) -> list[ModuleCommand]:
        order, seen = [], set()

        def visit(name):
            if name in seen or name not in self.commands:
                return
            seen.add(name)
            for dep in sorted(self.commands[name].dependencies()):
                visit(dep)
            order.append(self.commands[name])

        for name in sorted(self.commands):
            visit(name)
        return order


def _sources(args: list[str]) -> list[str]:
    for a in args:
        if a.startswith("@") and os.path.exists(a[1:]):
            with open(a[1:], encoding="utf-8") as f:
                return [l.strip() for l in f if l.strip()]
    return [a for a in args if a.endswith(".swift")]


# --- Xcode's SDK on a Mac ------------------------------------------------------------------------------------

# What a Mac builds for an Xcode SDK: the client targets and the test targets written against Apple's frameworks.
# LatchkeyTests is not among them: its fixtures configure this package's Linux modules (the Apple ID stand-in, the
# simulated user verification), so it is compiled against Apple's CryptoKit only, on Linux.
XCODE_TARGETS = ["LatchkeySupport", "LatchkeyCrypto", "LatchkeyWebAuthn", "LatchkeyAuthCore", "LatchkeyAuth",
                 "LatchkeyKeychainCore", "LatchkeyKeychain", "Latchkey", "LatchkeyUI", "SecureNotesExampleCore",
                 "LatchkeyCryptoTests", "LatchkeyWebAuthnTests", "ApplePinTests"]


def xcode_sdk_build(sdk: str, swift: str, flags: list[str], root: str, vectors: str) -> int:
    """On a Mac: each client and portable test target, and CryptoKitVectors, built for the SDK's platform (Apple's
    frameworks throughout)."""
    with open(os.path.join(sdk, "SDKSettings.json"), encoding="utf-8") as f:
        settings = json.load(f)
    platform = settings.get("DefaultProperties", {}).get("PLATFORM_NAME", "macosx")
    version = settings.get("Version", "")
    os_name = {"iphoneos": "ios", "macosx": "macosx", "appletvos": "tvos", "watchos": "watchos",
               "xros": "xros"}.get(platform, platform)
    floor = {"ios": "17.0", "macosx": "14.0", "tvos": "17.0", "watchos": "10.0", "xros": "1.0"}.get(os_name, "")
    triple = f"arm64-apple-{os_name}{floor}"
    common = [*flags, "--sdk", sdk, "--triple", triple]
    builds = [(t, [swift, "build", *common, "--package-path", root, "--target", t]) for t in XCODE_TARGETS]
    builds.append(("CryptoKitVectors", [swift, "build", *common, "--package-path", vectors, "--build-tests"]))
    failed = []
    for name, argv in builds:
        print("+ " + " ".join(argv), flush=True)
        if subprocess.run(argv).returncode != 0:
            failed.append(name)
    label = f"{PLATFORM_LABELS.get(os_name, os_name)} {version}"
    print(f"check-apple-sdk: {'FAILED: ' + ', '.join(failed) if failed else 'ok'} — {len(builds) - len(failed)} of "
          f"{len(builds)} built for {triple} with the {label} SDK")
    return 1 if failed else 0
