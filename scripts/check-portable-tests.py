#!/usr/bin/env python3
"""Issue 33: test code said to compile against Apple's SDK uses only Apple's public API at the package's floor.

Which files: the pins (Tests/ApplePinTests), Tests/Packages/CryptoKitVectors, and the test targets of the
apple-frameworks mode (LatchkeyCryptoTests, LatchkeyWebAuthnTests, LatchkeyTests) — as an Apple platform compiles
them (`LATCHKEY_APPLE_FRAMEWORKS` defined, iOS): code under `#if !LATCHKEY_APPLE_FRAMEWORKS` or `#if os(Linux)` is the
Linux build's and is not held to this.

What it refuses there (each would compile on Linux and fail with Apple's SDK):
1. a member the package's modules with Apple's names declare only as package or internal API, never public — Apple's
   modules do not have it (`hash(bufferPointer:)`, internal in Apple's CryptoKit; the raw-buffer AEAD forms
   `authenticatingBytes:` / `combinedBytes:`);
2. `CryptoKitError` compared with `==`, `!=` or `#expect(throws: CryptoKitError.x)`: its Equatable conformance is
   iOS 17.4 / macOS 14.4, above the floor (`expectCryptoKitError(.x)` or `if case` match the case instead).
The rest of Apple's API at the floor is checked by compiling the same files against Apple's interfaces
(`make check-apple-sdk`) and against the modules' Apple facts (scripts/check-apple-facts.py).

Usage: scripts/check-portable-tests.py [--root DIR]. Exit 0 clean, 1 findings, 2 error.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "checks"))

import package_graph as pg  # noqa: E402
import swiftdecls as sd  # noqa: E402
import swiftsource as ss  # noqa: E402

PORTABLE_TEST_DIRS = ["Tests/ApplePinTests", "Tests/Packages/CryptoKitVectors", "Tests/LatchkeyCryptoTests",
                      "Tests/LatchkeyWebAuthnTests", "Tests/LatchkeyTests"]


def _declarations(path: str) -> list[sd.Decl]:
    with open(path, encoding="utf-8") as f:
        return sd.declarations(ss.tokenize(f.read()))


def _key(d: sd.Decl) -> str:
    return d.name if d.kind not in ("func", "init") else f"{d.name}({''.join(p + ':' for p in d.labels)})"


def non_public_members(root: str) -> set[str]:
    """Methods the modules with Apple's names declare on a public type (or a type of another module) with package or
    internal access only, never public, and that no other module or test of the package declares (a test helper
    `store(_:)` is not the Linux Keychain's)."""
    apple_decls, elsewhere = [], set()
    apple = tuple(os.path.join(root, "Sources", m) + os.sep for m in pg.APPLE_FRAMEWORK_NAMES)
    for folder in ("Sources", "Tests"):
        for path in glob.glob(os.path.join(root, folder, "**", "*.swift"), recursive=True):
            if f"{os.sep}.build{os.sep}" in path:
                continue
            if path.startswith(apple):
                apple_decls += _declarations(path)
            else:
                elsewhere.update(_key(d) for d in _declarations(path))
    types = {d.name: d.access in ("public", "open") for d in apple_decls if d.kind in sd.TYPE_KINDS}
    public = {_key(d) for d in apple_decls if d.access in ("public", "open")}
    hidden = {_key(d) for d in apple_decls
              if d.kind == "func" and d.context and types.get(d.context, True) and d.access not in ("public", "open")
              and not d.name.startswith("_")}
    return hidden - public - elsewhere


def scan(rel: str, tokens: list[ss.Token], mask: list[frozenset], hidden: set[str]) -> list[str]:
    findings = []
    n = len(tokens)
    for i, t in enumerate(tokens):
        if not mask[i] or t.kind != "ident":
            continue
        after_dot = i > 0 and tokens[i - 1].text == "."
        if after_dot and i + 1 < n and tokens[i + 1].text == "(" and not tokens[i + 1].space_before:
            labels, _ = ss.argument_labels(tokens, i + 1)
            key = f"{t.text}({''.join(label + ':' for label in labels)})"
            if key in hidden:
                findings.append(f"{rel}:{t.line}:{t.col}: `{key}` is package API of the Linux module, not Apple's")
        if t.text == "CryptoKitError" and i + 2 < n and tokens[i + 1].text == ".":
            before = "".join(x.text for x in tokens[max(0, i - 2):i])
            after = "".join(x.text for x in tokens[i + 3:i + 5])
            if before in ("throws:", "==", "!=") or after in ("==", "!="):
                findings.append(f"{rel}:{t.line}:{t.col}: `CryptoKitError` compared: Equatable is iOS 17.4 / macOS "
                                f"14.4, above the floor (use expectCryptoKitError(.{tokens[i + 2].text}) or `if case`)")
    return findings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(HERE))
    args = parser.parse_args(argv)
    hidden = non_public_members(args.root)
    conditions = {"ios": ss.Conditions("ios", defines={"LATCHKEY_APPLE_FRAMEWORKS"})}
    findings, scanned = [], 0
    for folder in PORTABLE_TEST_DIRS:
        for path in sorted(glob.glob(os.path.join(args.root, folder, "**", "*.swift"), recursive=True)):
            if f"{os.sep}.build{os.sep}" in path:
                continue
            rel = os.path.relpath(path, args.root)
            with open(path, encoding="utf-8") as f:
                try:
                    tokens = ss.tokenize(f.read())
                    mask = ss.compiled_mask(tokens, conditions)
                except ss.LexError as error:
                    print(f"{rel}: cannot be read by the checker: {error}", file=sys.stderr)
                    return 2
            scanned += 1
            findings += scan(rel, tokens, mask, hidden)
    for line in findings:
        print(line)
    summary = f"{scanned} test files, {len(hidden)} package-only members of the modules with Apple's names"
    if findings:
        print(f"check-portable-tests: FAILED — {len(findings)} use(s); {summary}")
        return 1
    print(f"check-portable-tests: ok — {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
