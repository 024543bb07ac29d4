#!/usr/bin/env python3
"""Issue 33: the client products and the portable tests compile against Apple's own declarations (or the oldest
admitted SDK's CryptoKit as the facts model it).

`LATCHKEY_APPLE_SDK` (or `--sdk`) names what to compile against:
- a folder holding Apple's interface files that a maintainer placed there — any layout: every
  `CryptoKit.swiftmodule/*.swiftinterface` under it is one SDK (e.g. `ios18.0/System/Library/Frameworks/…` and
  `ios18.4/…` side by side). Apple's Objective-C frameworks (Security, LocalAuthentication,
  AuthenticationServices) cannot be imported without Objective-C interop, so on Linux they stay this package's
  modules of those names; CryptoKit, a Swift module, is Apple's;
- Xcode's SDK on a Mac (a folder with `SDKSettings.json`): the client targets, LatchkeyCryptoTests,
  LatchkeyWebAuthnTests, the pins and CryptoKitVectors are built for that SDK's platform with `swift build --sdk`
  (every framework is Apple's). Not verifiable on Linux; see docs/COMPATIBILITY.md.
Without one it says so and exits 0 (`make test` runs it; the facts it needs Apple's files for are carried into
the modules and checked by scripts/check-apple-facts.py without them).

`--model` needs no Apple file (`make test` runs it first): the oldest SDK the package admits (iOS 18.0) is modeled
from this package's CryptoKit — its public interface, emitted from the apple-frameworks build's own command with
library evolution, declaring `Sendable` only where that SDK does (docs/apple-sdk/CryptoKit.tsv: rows dated `18.4`
lose it), without `-package-name` (nothing `package`, such as `hash(bufferPointer:)`, is visible, as in Apple's),
in Swift 5 mode as Apple's interfaces are — and everything below is compiled against it.

How an interface is loaded on Linux (each step printed):
1. The interface as Apple ships it, with the edits the compiler needs: the `// swift-module-flags:` line's
   `-target <apple triple>` becomes this machine's triple (and `-enable-objc-interop` goes; the package's C module
   maps are added, which its `import LocalAuthentication` reaches), the `Security` imports go (`Security.SecAccessControl`
   is a Clang submodule), and so do the two declarations using Security — the SecureEnclave keys'
   `init(compactRepresentable:accessControl:authenticationContext:)`: this package's `Security` imports CryptoKit, so
   importing it back would be a module cycle; its own declaration of those initializers (as an extension) serves the
   calls. Everything else stays as Apple wrote it, SecureEnclave and `import LocalAuthentication` included.
2. `swift-frontend -compile-module-from-interface` makes a module of it (declarations only: nothing links or runs).
3. The apple-frameworks build (`.build/apple-frameworks`, as `make apple-frameworks` makes it) provides the
   stand-ins for Security, LocalAuthentication, CommonCrypto and AuthenticationServices. Every other module of that
   build — each client target, each test target of the mode, the pins — is compiled again, in dependency order,
   with SwiftPM's own arguments (read from the build's llbuild manifest) and Apple's CryptoKit first on the search
   path, whole-module (`-wmo -emit-module`: the type checker and the SIL diagnostics, region isolation included).
4. The same for `Tests/Packages/CryptoKitVectors` (its build in `.build/cryptokit-vectors`).
Before that, the Linux CryptoKit's public interface is compared with each of Apple's: a public declaration Apple's
lacks (a member counts when Apple declares it on a protocol the type conforms to, or a standard conformance implies
it; `Latchkey…` names, BEYOND_APPLE and the `Sendable` conformances the facts date later aside) is a failure —
Linux-only API is `package` (item 4 of issue 33).
A target that fails is listed with its first errors, one that warns with its warnings (warnings are bugs, as in the
package's own build); the exit status is 1 when any failed or warned.

Usage: scripts/check-apple-sdk.py [--sdk DIR | --model] [--keep] [--targets A,B]
Environment: LATCHKEY_APPLE_SDK, SWIFT (default swift), SWIFT_FLAGS (passed to the builds it starts).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "checks"))

import apple_facts as af  # noqa: E402
import apple_interface as ai  # noqa: E402
import package_graph as pg  # noqa: E402

APPLE_SCRATCH = os.path.join(ROOT, ".build", "apple-frameworks")
VECTORS_PACKAGE = os.path.join(ROOT, "Tests", "Packages", "CryptoKitVectors")
VECTORS_SCRATCH = os.path.join(ROOT, ".build", "cryptokit-vectors")
# The oldest SDK the package admits: swift-tools-version 6.0 admits Xcode 16.0 (docs/COMPATIBILITY.md).
OLDEST_SDK = (18, 0)


def swift() -> str:
    return os.environ.get("SWIFT", "swift")


def swift_flags() -> list[str]:
    return shlex.split(os.environ.get("SWIFT_FLAGS", ""))


def run(argv, env=None, quiet=False) -> subprocess.CompletedProcess:
    if not quiet:
        print("+ " + " ".join(shlex.quote(a) for a in argv), flush=True)
    return subprocess.run(argv, env=env, capture_output=True, text=True)


def build(scratch: str, package: str, extra_env: dict) -> None:
    """Builds a package with its tests into `scratch` (incremental: quick when `make test` built it already)."""
    env = dict(os.environ, **extra_env)
    result = run([swift(), "build", *swift_flags(), "--build-tests", "--package-path", package,
                  "--scratch-path", scratch], env=env)
    if result.returncode != 0:
        sys.stdout.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise RuntimeError(f"the build in {scratch} failed")


def host_triple() -> str:
    info = json.loads(subprocess.run([swift(), "-print-target-info"], capture_output=True, text=True,
                                     check=True).stdout)
    return info["target"]["triple"]


def stand_ins() -> set[str]:
    """The Linux-only targets (the stand-ins for Apple's frameworks and the backends below them): compiled once, against
    this package's CryptoKit (step 3 of the docstring), never against Apple's."""
    linux, apple = pg.load_graphs(ROOT)
    return set(pg.linux_only_targets(linux, apple))


@dataclass
class Interface:
    """A CryptoKit interface to compile against: its label, a note on how it was made loadable, its text."""
    label: str
    note: str
    text: str
    load: list[str] = field(default_factory=list)  # frontend arguments its own imports need


def split_load(load: list[str]) -> tuple[str, list[str]]:
    """(the C modules' maps, for an interface's flags line — its own build reads only that —, the `-I` arguments)."""
    maps = " ".join(a for a in load if a.startswith("-fmodule-map-file=") or a == "-Xcc")
    return maps, [a for i, a in enumerate(load) if a == "-I" or (i > 0 and load[i - 1] == "-I")]


def apple_interfaces(sdks: list[ai.InterfaceSDK], triple: str, load: list[str]) -> list[Interface]:
    maps, includes = split_load(load)
    out = []
    for sdk in sdks:
        with open(sdk.interface, encoding="utf-8") as f:
            text, cut = ai.loadable_interface(f.read(), triple, maps)
        out.append(Interface(sdk.label, f"{sdk.interface}\n   flags line set to {triple}; the Security imports and "
                             f"{cut} declaration(s) using Security (SecAccessControl) cut", text, includes))
    return out


def linux_interface(work: str) -> tuple[str, list[str]]:
    """(this package's CryptoKit as its public interface — emitted from the apple-frameworks build's own command with
    library evolution —, what loading it needs: the build's module directory and the C modules' maps)."""
    command = ai.BuildManifest.load(APPLE_SCRATCH).commands["CryptoKit"]
    out = os.path.join(work, "linux-cryptokit")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "CryptoKit.swiftinterface")
    emit = ["-enable-library-evolution", "-emit-module-interface-path", path, "-no-verify-emitted-module-interface"]
    result = run(command.recompiled(search_first=[], modules_out=out) + emit, quiet=True)
    if result.returncode != 0:
        raise RuntimeError("the Linux CryptoKit's interface could not be emitted:\n"
                           + ai.first_errors(result.stdout + result.stderr))
    with open(path, encoding="utf-8") as f:
        return f.read(), ["-I", command.module_directory(), *command.clang_module_maps()]


def modeled_oldest(linux: tuple[str, list[str]]) -> Interface:
    """The oldest admitted SDK's CryptoKit as modeled from this package's: the Linux module's public interface,
    declaring `Sendable` as that SDK does (docs/apple-sdk/CryptoKit.tsv: rows dated `18.4` lose it)."""
    text, load = linux
    text, edited = ai.oldest_sdk_model(text, cryptokit_rows(), OLDEST_SDK)
    maps, load = split_load(load)
    text = re.sub(r"^(// swift-module-flags:.*)$", lambda m: f"{m.group(1)} {maps}", text, count=1, flags=re.M)
    label = f"iOS {'.'.join(map(str, OLDEST_SDK))} (modeled)"
    note = (f"this package's CryptoKit, public interface; Sendable as the iOS {'.'.join(map(str, OLDEST_SDK))} SDK "
            f"declares it: {len(edited)} declaration(s) without it (docs/apple-sdk/CryptoKit.tsv)")
    return Interface(label, note, text, load)


def cryptokit_rows():
    return af.read_table(af.table_path(ROOT, "CryptoKit"))


# Public declarations of the Linux CryptoKit that Apple's lacks on purpose, and why.
BEYOND_APPLE = {
    "SecureEnclave.P256.Signing.PrivateKey.init(compactRepresentable:authenticationContext:)":
        "Apple's one initializer takes a SecAccessControl (defaulted), which the Linux CryptoKit cannot see (Security "
        "sits above it and declares that form); this one serves the calls that leave it out",
    "SecureEnclave.P256.KeyAgreement.PrivateKey.init(compactRepresentable:authenticationContext:)": "the same",
    "CorecryptoCurveType": "declared from the iOS 18.4 SDK on (the Linux module follows the newest); nothing the package "
                           "or its pins compile uses it",
    "CryptoKitMetaError": "declared from the iOS 18.4 SDK on, as CorecryptoCurveType",
}


def beyond(linux_text: str, sdk: ai.InterfaceSDK) -> list[str]:
    """The Linux CryptoKit's public declarations that this SDK's interface lacks, but for the `Sendable` conformances
    the facts date after the SDK (the Linux module follows the newest)."""
    with open(sdk.interface, encoding="utf-8") as f:
        apple = f.read()
    version = tuple(int(p) for p in re.findall(r"\d+", sdk.label.split(" (")[0])[:2])
    later = {r.symbol for r in cryptokit_rows()
             if r.sendable_since and tuple(int(p) for p in r.sendable_since.split(".")) > version}
    return [name for name in ai.beyond_apple(linux_text, apple) if name not in BEYOND_APPLE
            and not (name.endswith(": Sendable") and name[:-len(": Sendable")] in later)]


def check_interface(interface: Interface, work: str, triple: str, only: set[str] | None,
                    skip: set[str]) -> list[tuple[str, str]]:
    """Compiles the targets against one CryptoKit interface; returns (target and what, errors or warnings) of those
    that failed or warned."""
    print(f"\n== {interface.label}: {interface.note}", flush=True)
    apple_dir = os.path.join(work, "apple")
    os.makedirs(apple_dir, exist_ok=True)
    loadable = os.path.join(apple_dir, "CryptoKit.swiftinterface")
    with open(loadable, "w", encoding="utf-8") as f:
        f.write(interface.text)
    result = run([ai.frontend(swift()), "-compile-module-from-interface", loadable, "-module-name", "CryptoKit",
                  "-target", triple, *interface.load, "-o", os.path.join(apple_dir, "CryptoKit.swiftmodule")])
    if result.returncode != 0:
        return [(f"CryptoKit ({interface.label}) does not load", ai.first_errors(result.stdout + result.stderr))]
    failures = []
    for label, package, scratch in (("package", ROOT, APPLE_SCRATCH), ("CryptoKitVectors", VECTORS_PACKAGE, VECTORS_SCRATCH)):
        manifest = ai.BuildManifest.load(scratch)
        modules_out = os.path.join(work, label, "Modules")
        os.makedirs(modules_out, exist_ok=True)
        compiled = 0
        wanted = manifest.with_dependencies(only) if only else None
        for command in manifest.own_modules_in_order(package):
            if command.module in skip or (wanted is not None and command.module not in wanted):
                continue
            argv = command.recompiled(search_first=[apple_dir, modules_out], modules_out=modules_out)
            result = run(argv, quiet=True)
            compiled += 1
            warnings = sorted({line for line in (result.stdout + result.stderr).splitlines() if ": warning: " in line})
            status = "FAILED" if result.returncode != 0 else "WARNED" if warnings else "ok"
            note = f", {len(warnings)} warning(s)" if warnings else ""
            print(f"   {status:6} {command.module} ({len(command.sources)} files{note})", flush=True)
            for line in warnings[:5]:
                print(f"          {line}")
            if result.returncode != 0:
                failures.append((f"{command.module} ({label}) does not compile",
                                 ai.first_errors(result.stdout + result.stderr)))
            elif warnings:  # warnings are bugs here as in the package's own build
                failures.append((f"{command.module} ({label}) compiles with warnings", "\n".join(warnings)))
        print(f"   {label}: {compiled} module(s) compiled against {interface.label}'s CryptoKit")
    return failures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdk", default=os.environ.get("LATCHKEY_APPLE_SDK", ""))
    parser.add_argument("--model", action="store_true",
                        help="compile against the oldest admitted SDK's CryptoKit as modeled from this package's and "
                             "the facts (no Apple files needed; Linux only)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (printed)")
    parser.add_argument("--targets", default="", help="only these modules and their dependencies (comma-separated)")
    args = parser.parse_args(argv)
    if args.model:
        if not sys.platform.startswith("linux"):
            print("check-apple-sdk --model: models the SDK from the Linux CryptoKit, which only Linux builds")
            return 0
    elif not args.sdk:
        print("check-apple-sdk: no Apple SDK given (LATCHKEY_APPLE_SDK unset): nothing compiled against Apple's "
              "declarations. Set it to Xcode's SDK on a Mac, or to a folder holding Apple's interface files "
              "(docs/COMPATIBILITY.md, \"Checking against Apple's SDK\"). `--model` compiles against the oldest "
              "admitted SDK as modeled from the facts.")
        return 0
    elif not os.path.isdir(args.sdk):
        print(f"check-apple-sdk: LATCHKEY_APPLE_SDK={args.sdk} is not a directory", file=sys.stderr)
        return 2
    elif os.path.exists(os.path.join(args.sdk, "SDKSettings.json")) and sys.platform == "darwin":
        return ai.xcode_sdk_build(args.sdk, swift(), swift_flags(), ROOT, VECTORS_PACKAGE)
    sdks = []
    if not args.model:
        # The headers there against docs/apple-sdk/*.tsv (a report: the rows come from several SDK versions).
        subprocess.run([sys.executable, os.path.join(HERE, "check-apple-facts.py"), "--sdk", args.sdk], check=False)
        sdks = ai.find_interface_sdks(args.sdk)
        if not sdks:
            print(f"check-apple-sdk: no CryptoKit .swiftinterface under {args.sdk}: nothing compiled", file=sys.stderr)
            return 0
    only = {t for t in args.targets.split(",") if t} or None
    work = tempfile.mkdtemp(prefix="latchkey-apple-sdk-", dir=os.path.join(ROOT, ".build"))
    all_failures, labels = [], []
    try:
        try:
            build(APPLE_SCRATCH, ROOT, {"LATCHKEY_APPLE_FRAMEWORKS": "1"})
            build(VECTORS_SCRATCH, VECTORS_PACKAGE, {})
            triple = host_triple()
            skip = stand_ins()
            linux = linux_interface(work)
            interfaces = [modeled_oldest(linux)] if args.model else apple_interfaces(sdks, triple, linux[1])
        except (RuntimeError, ValueError, OSError, subprocess.CalledProcessError) as error:
            print(f"check-apple-sdk: {error}", file=sys.stderr)
            return 2
        for sdk in sdks:
            extra = beyond(linux[0], sdk)
            print(f"\n== {sdk.label}: public declarations of the Linux CryptoKit it lacks: {len(extra)}"
                  + "".join(f"\n   {name}" for name in extra))
            if extra:
                all_failures.append((sdk.label, "the Linux CryptoKit's public API beyond Apple's (Linux-only API is "
                                     "package, docs/COMPATIBILITY.md)", "\n".join("      " + n for n in extra)))
        for index, interface in enumerate(interfaces):
            labels.append(interface.label)
            for target, errors in check_interface(interface, os.path.join(work, str(index)), triple, only, skip):
                all_failures.append((interface.label, target, errors))
    finally:
        if args.keep:
            print(f"check-apple-sdk: work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print()
    if all_failures:
        for label, target, errors in all_failures:
            print(f"check-apple-sdk: {label}: {target}:\n{errors}")
        print(f"check-apple-sdk: FAILED — {len(all_failures)} module(s) against {len(labels)} CryptoKit interface(s)")
        return 1
    print(f"check-apple-sdk: ok — every module compiled against the CryptoKit of {', '.join(labels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
