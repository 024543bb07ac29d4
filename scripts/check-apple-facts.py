#!/usr/bin/env python3
"""Issue 33: the Linux modules with Apple's names carry Apple's SDK facts, as Apple's SDK files state them.

docs/apple-sdk/<Module>.tsv holds, for Security, LocalAuthentication, CryptoKit, CommonCrypto, AuthenticationServices
and DeviceCheck, what Apple's headers and `.swiftinterface` files say about each declaration: availability per
platform (macOS, iOS, Mac Catalyst, tvOS, watchOS, visionOS: introduced, deprecated, unavailable), main-actor isolation
and Sendable (the columns: scripts/checks/apple_facts.py and docs/apple-sdk/README.md). This check holds the modules'
sources to the tables, without Apple's files:

1. every row names a public declaration of the module (all of its overloads are checked);
2. each such declaration's `@available` attributes, merged with its enclosing types' as Swift merges them, give
   exactly the row's availability on every platform (Swift's own inference for Mac Catalyst and visionOS);
3. `main` rows are `@MainActor` (the declaration or its type), other declarations are not;
4. types: `yes` rows (or rows dated by the SDK that made them Sendable, `18.4`) conform to Sendable (in the
   declaration or an extension), `no` rows do not;
5. every public type and file-level declaration of the module has a row, except Linux-only API (a `Latchkey` name,
   underscored bridging members); a member without a row has its type's facts, so it carries no availability of its own.

With `--sdk DIR` (a folder of Apple SDKs, as LATCHKEY_APPLE_SDK) it also compares each row with the headers found there
(Security, LocalAuthentication, AuthenticationServices, CommonCrypto, DeviceCheck) and lists the rows an SDK states differently: a
report, since the rows come from several SDK versions (scripts/check-apple-sdk.py runs it).

Usage: scripts/check-apple-facts.py [--root DIR] [--module M] [--sdk DIR]. Exit 0 clean, 1 findings, 2 error.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "checks"))

import apple_facts as af  # noqa: E402
import apple_headers as ah  # noqa: E402
import swiftdecls as sd  # noqa: E402
import swiftsource as ss  # noqa: E402

SENDABLE = {"Sendable", "Swift.Sendable", "@unchecked Sendable", "@uncheckedSendable", "Error", "Swift.Error"}
CONFORMANCE_ROW = re.compile(r"^([\w.]+): (\w+)$")


def module_declarations(root: str, module: str) -> list[tuple[str, sd.Decl]]:
    out = []
    for path in sorted(glob.glob(os.path.join(root, "Sources", module, "**", "*.swift"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            tokens = ss.tokenize(f.read())
        for d in sd.declarations(tokens, extensions=True):
            out.append((os.path.relpath(path, root), d))
    return out


def linux_only(symbol: str) -> bool:
    head = symbol.split(".")[0].split(":")[0]
    return head.startswith(("Latchkey", "latchkey", "_")) or any(part.startswith(("latchkey", "_"))
                                                                   for part in symbol.split(".")[1:])


def check_module(root: str, module: str) -> tuple[list[str], int]:
    rows = af.read_table(af.table_path(root, module))
    decls = module_declarations(root, module)
    public = [(p, d) for p, d in decls if d.kind != "extension" and d.access in ("public", "open") and not d.spi]
    by_symbol: dict[str, list[tuple[str, sd.Decl]]] = {}
    for p, d in public:
        by_symbol.setdefault(d.qualified, []).append((p, d))
    types = {d.qualified: d for _, d in public if d.kind in sd.TYPE_KINDS}
    conformances: dict[str, set[str]] = {}
    conformance_decls: dict[tuple[str, str], list[tuple[str, sd.Decl]]] = {}
    for p, d in decls:
        if d.kind in sd.TYPE_KINDS or d.kind == "extension":
            for inherited in d.inherits:
                conformances.setdefault(d.qualified, set()).add(inherited)
                if d.kind == "extension":
                    conformance_decls.setdefault((d.qualified, inherited.split(".")[-1]), []).append((p, d))
    # Protocols whose conformers are Sendable (they refine Sendable or Error), as the compiler infers it.
    sendable_protocols = {"Sendable", "Error"}
    changed = True
    while changed:
        changed = False
        for _, d in decls:
            if d.kind == "protocol" and d.name not in sendable_protocols and \
                    any(i.split(".")[-1] in sendable_protocols for i in d.inherits):
                sendable_protocols.add(d.name)
                changed = True

    def is_sendable(qualified: str, depth: int = 0) -> bool:
        inherited = conformances.get(qualified, set())
        if any(i.replace("@unchecked", "").strip().split(".")[-1] in sendable_protocols for i in inherited):
            return True
        d = types.get(qualified)   # a global-actor-isolated class or value type is Sendable
        if d is not None and d.kind != "protocol" and "@MainActor" in d.attributes:
            return True
        # a subclass of a Sendable class of the module
        return depth < 8 and d is not None and d.kind == "class" and \
            any(types.get(i) is not None and types[i].kind == "class" and is_sendable(i, depth + 1) for i in inherited)

    def effective(d: sd.Decl):
        """The declaration's availability with its enclosing types' own (an extension's members have its type's)."""
        availability = d.availability
        for c in enclosing(d):
            if c in types:
                availability = types[c].availability.merged(availability)
        return availability

    findings = []
    known = set()
    for row in rows:
        where = f"docs/apple-sdk/{module}.tsv:{row.line}"
        conformance = CONFORMANCE_ROW.match(row.symbol)
        if conformance:   # a conformance with availability of its own
            type_name, protocol = conformance.group(1), conformance.group(2)
            matches = conformance_decls.get((type_name, protocol), [])
            if not matches:
                findings.append(f"{where}: `{row.symbol}`: no `extension {type_name}: {protocol}` in Sources/{module}")
            for p, d in matches:
                compare(findings, f"{p}:{d.line}", row, d.availability)
            continue
        base, _, labels = row.symbol.partition("(")
        known.add(row.symbol)
        known.add(base)
        matches = by_symbol.get(base, [])
        if labels:
            matches = [(p, d) for p, d in matches if d.labels is not None and
                       "".join(label + ":" for label in d.labels) + ")" == labels]
        if not matches:
            findings.append(f"{where}: `{row.symbol}` is not a public declaration of Sources/{module}")
            continue
        for p, d in matches:
            compare(findings, f"{p}:{d.line}", row, effective(d))
            isolated = "@MainActor" in d.attributes or any(
                "@MainActor" in types[c].attributes for c in enclosing(d) if c in types)
            if (row.isolation == "main") != isolated:
                findings.append(f"{p}:{d.line}: `{row.symbol}` is {'' if isolated else 'not '}@MainActor; "
                                f"Apple's SDK: {'main actor' if row.isolation == 'main' else 'not isolated'} ({row.source})")
            if d.kind in sd.TYPE_KINDS and row.sendable:
                sendable = is_sendable(d.qualified)
                if (row.sendable != "no") != sendable:
                    findings.append(f"{p}:{d.line}: `{row.symbol}` is {'' if sendable else 'not '}Sendable; Apple's "
                                    f"SDK: {'not Sendable' if row.sendable == 'no' else 'Sendable'} ({row.source})")
    table = {row.symbol: row for row in rows if not CONFORMANCE_ROW.match(row.symbol)}
    for p, d in public:
        if not d.path or d.qualified in known or linux_only(d.qualified) or d.kind in sd.TYPE_KINDS:
            continue
        # A member without a row has its type's facts: no availability of its own.
        container = next((c for c in reversed(enclosing(d)) if c in table), None)
        theirs = af.normalized(table[container].cells) if container else af.normalized(af.ANYWHERE)
        ours = af.normalized(af.swift_cells(effective(d)))
        if container and ours != theirs:
            diff = ", ".join(f"{name} {ours[q]} (SDK: {theirs[q]})" for q, name in zip(af.PLATFORMS, af.COLUMNS)
                             if ours[q] != theirs[q])
            findings.append(f"{p}:{d.line}: `{d.qualified}` has no row, so it has `{container}`'s facts, but its "
                            f"attributes differ: {diff}")
    for p, d in public:
        if d.path or d.kind in ("case",) or linux_only(d.qualified) or d.qualified in known:
            continue
        findings.append(f"{p}:{d.line}: `{d.qualified}` ({d.kind}) has no row in docs/apple-sdk/{module}.tsv "
                        f"(add Apple's facts, or name it Latchkey… if it is Linux-only)")
    for symbol, d in types.items():
        if d.path and symbol not in known and not linux_only(symbol):
            findings.append(f"`{symbol}` (a type of Sources/{module}) has no row in docs/apple-sdk/{module}.tsv")
    return findings, len(rows)


def enclosing(d: sd.Decl) -> list[str]:
    parts = d.path.split(".") if d.path else []
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def compare(findings: list[str], where: str, row: af.Row, availability) -> None:
    ours = af.normalized(af.swift_cells(availability))
    theirs = af.normalized(row.cells)
    if ours != theirs:
        diff = ", ".join(f"{name} {ours[p]} (SDK: {theirs[p]})" for p, name in zip(af.PLATFORMS, af.COLUMNS)
                         if ours[p] != theirs[p])
        findings.append(f"{where}: `{row.symbol}` availability differs from Apple's SDK ({row.source}): {diff}")


# Where each Objective-C framework's headers are in an SDK (AuthenticationServices moved into the OS cryptex).
HEADER_FOLDERS = {
    "Security": ["System/Library/Frameworks/Security.framework/Headers"],
    "LocalAuthentication": ["System/Library/Frameworks/LocalAuthentication.framework/Headers"],
    "AuthenticationServices": ["System/Cryptexes/OS/System/Library/Frameworks/AuthenticationServices.framework/Headers",
                               "System/Library/Frameworks/AuthenticationServices.framework/Headers"],
    "CommonCrypto": ["usr/include/CommonCrypto"],
    "DeviceCheck": ["System/Library/Frameworks/DeviceCheck.framework/Headers"],
}


def compare_with_sdk(root: str, sdk_folder: str) -> int:
    """Lists the rows an SDK's headers state differently (a report: SDK versions differ, and a row may come from
    another version). Returns how many differ."""
    sdks = sorted({os.path.dirname(os.path.dirname(os.path.dirname(path)))
                   for path in glob.glob(os.path.join(sdk_folder, "**", "System", "Library", "Frameworks"),
                                         recursive=True)} | ({sdk_folder} if os.path.isdir(
                       os.path.join(sdk_folder, "System", "Library", "Frameworks")) else set()))
    differing = 0
    for sdk in sdks:
        for module, folders in HEADER_FOLDERS.items():
            present = [os.path.join(sdk, f) for f in folders if os.path.isdir(os.path.join(sdk, f))]
            if not present or not os.path.exists(af.table_path(root, module)):
                continue
            facts = ah.sdk_facts(present)
            rows = af.read_table(af.table_path(root, module))
            table = {r.symbol: r for r in rows}
            for row in rows:
                hit = next((facts[c] for c in ah.swift_candidates(row.symbol) if c in facts), None)
                if hit is None:
                    continue
                container = row.symbol.split("(")[0].rsplit(".", 1)[0] if "." in row.symbol else None
                outer = next((facts[c] for c in ah.swift_candidates(container) if c in facts), None) if container else None
                stated = ah.inferred(hit.facts.merged_over(outer.facts if outer else None))
                if outer:   # a member of a type a platform lacks is unavailable there too
                    stated.update({p: v for p, v in ah.inferred(outer.facts).items() if v == ah.UNAVAILABLE})
                theirs = {p: (af.Cell(True) if v == ah.UNAVAILABLE else af.Cell.make(
                    p, af.vtuple(v[0]) if v[0] else None, af.vtuple(v[1]) if v[1] else None))
                    for p, v in stated.items()}
                ours = af.normalized(row.cells)
                diff = [f"{name} {ours[p]} → {theirs[p].text()}" for p, name in zip(af.PLATFORMS, af.COLUMNS)
                        if theirs[p].text() != ours[p]]
                if diff and row.symbol in table:
                    differing += 1
                    print(f"docs/apple-sdk/{module}.tsv:{row.line}: `{row.symbol}` ({row.source}); "
                          f"{os.path.relpath(sdk, sdk_folder)} {hit.facts.source}: {', '.join(diff)}")
    return differing


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(HERE))
    parser.add_argument("--module", action="append", help="only this module (repeatable)")
    parser.add_argument("--sdk", help="also list the rows the headers of the SDKs under this folder state differently")
    args = parser.parse_args(argv)
    if args.sdk:
        differing = compare_with_sdk(args.root, args.sdk)
        print(f"check-apple-facts: {differing} row(s) stated differently by the headers under {args.sdk} "
              f"(a report: review each against the row's own source)")
    modules = args.module or [m for m in af.MODULES if os.path.exists(af.table_path(args.root, m))]
    all_findings, counts = [], []
    for module in modules:
        try:
            findings, count = check_module(args.root, module)
        except (OSError, ValueError) as error:
            print(f"check-apple-facts: {error}", file=sys.stderr)
            return 2
        all_findings += findings
        counts.append(f"{module} {count}")
    for line in all_findings:
        print(line)
    summary = f"rows: {', '.join(counts)}"
    if all_findings:
        print(f"check-apple-facts: FAILED — {len(all_findings)} finding(s); {summary}")
        return 1
    print(f"check-apple-facts: ok — every public declaration of {', '.join(modules)} carries Apple's facts; {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
