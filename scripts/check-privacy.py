#!/usr/bin/env python3
"""Issue 26: each privacy manifest declares exactly the required-reason APIs its code calls.

Apple asks apps and third-party SDKs that call a "required reason" API (file timestamps, system boot time, disk space,
active keyboards, user defaults) to declare the API's category with an approved reason in a `PrivacyInfo.xcprivacy`;
App Store Connect refuses an upload whose code calls one that no manifest in the app declares.

What it checks, for two manifests:
1. `Sources/LatchkeySupport/PrivacyInfo.xcprivacy`, the client products' one manifest: a resource of LatchkeySupport,
   which every client product reaches on every Apple platform, so it ships with whichever product an app adds
   (dump-package, as Linux and as a Mac evaluate the manifest). Its code: the Swift files of every target the client
   products reach on an Apple platform, in the `#if` regions an Apple platform compiles.
2. `Examples/SecureNotes.swiftpm/App/PrivacyInfo.xcprivacy`, the example app's: a resource of its AppModule target
   (read from the example's Package.swift text: it imports AppleProductTypes, which only Xcode has). Its code: every
   Swift file of the example package, as iOS compiles it.
For each: the categories the code uses (the scan below) must be exactly those declared — an undeclared use would be
refused by App Store Connect, a declaration without a use is a claim the code does not make; each category once, with
at least one reason, every reason one Apple lists for that category; `NSPrivacyTracking` a boolean,
`NSPrivacyCollectedDataTypes` and `NSPrivacyAccessedAPITypes` arrays.

How: scripts/checks/swiftsource.py drops comments and string contents and evaluates `#if` per platform; the tokens are
matched against CATEGORIES: calls (the name followed by `(`, not a `func` declaration), names (any use of the
identifier) and qualified members (`FileAttributeKey.creationDate`) — Apple's list in the Swift spellings that reach
it (`attributesOfItem` returns creation and modification dates; `attributesOfFileSystem` free space).

Limits: names, not types. A listed API reached through another library, through a name not listed here, or through
Objective-C is not seen; a listed name used for something else is reported (conservative). The keychain's
`creationDate` / `modificationDate` item attributes (kSecAttrCreationDate) are not file APIs and are not listed: only
their `FileAttributeKey` / `URLResourceKey` spellings are. Apple revises its list ("Describing use of required reason
API"): keep CATEGORIES in step.

Usage: scripts/check-privacy.py [--root DIR]. Exit 0 when clean, 1 with findings, 2 on an error.
"""

from __future__ import annotations

import argparse
import os
import plistlib
import sys
from dataclasses import dataclass, field

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks"))

import package_graph as pg  # noqa: E402
import swiftsource as ss  # noqa: E402


@dataclass(frozen=True)
class Category:
    reasons: frozenset[str]
    calls: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    qualified: frozenset[tuple[str, str]] = frozenset()


# Apple's required-reason API categories, their approved reason codes, and the Swift spellings of their APIs.
CATEGORIES: dict[str, Category] = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": Category(
        reasons=frozenset({"DDA9.1", "C617.1", "3B52.1", "0A2A.1"}),
        calls=frozenset({"stat", "fstat", "fstatat", "lstat", "getattrlist", "getattrlistbulk", "fgetattrlist",
                         "getattrlistat"}),
        names=frozenset({"attributesOfItem", "fileModificationDate", "creationDateKey", "contentModificationDateKey",
                         "contentModificationDate", "attributeModificationDateKey", "NSFileCreationDate",
                         "NSFileModificationDate", "NSURLCreationDateKey", "NSURLContentModificationDateKey"}),
        qualified=frozenset({("FileAttributeKey", "creationDate"), ("FileAttributeKey", "modificationDate"),
                             ("URLResourceValues", "creationDate")})),
    "NSPrivacyAccessedAPICategorySystemBootTime": Category(
        reasons=frozenset({"35F9.1", "8FFB.1", "3D61.1"}),
        calls=frozenset({"mach_absolute_time"}),
        names=frozenset({"systemUptime"})),
    "NSPrivacyAccessedAPICategoryDiskSpace": Category(
        reasons=frozenset({"85F4.1", "E174.1", "7D9E.1", "B728.1"}),
        calls=frozenset({"statfs", "statvfs", "fstatfs", "fstatvfs", "getattrlist", "fgetattrlist", "getattrlistat"}),
        names=frozenset({"volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey",
                         "volumeAvailableCapacityForOpportunisticUsageKey", "volumeTotalCapacityKey",
                         "volumeAvailableCapacity", "volumeAvailableCapacityForImportantUsage",
                         "volumeAvailableCapacityForOpportunisticUsage", "volumeTotalCapacity", "systemFreeSize",
                         "systemSize", "attributesOfFileSystem"})),
    "NSPrivacyAccessedAPICategoryActiveKeyboards": Category(
        reasons=frozenset({"3EC4.1", "54BD.1"}),
        names=frozenset({"activeInputModes"})),
    "NSPrivacyAccessedAPICategoryUserDefaults": Category(
        reasons=frozenset({"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"}),
        names=frozenset({"UserDefaults", "NSUserDefaults", "AppStorage"})),
}

KIT_MANIFEST = "Sources/LatchkeySupport/PrivacyInfo.xcprivacy"
KIT_MANIFEST_TARGET = "LatchkeySupport"
EXAMPLE_PACKAGE = "Examples/SecureNotes.swiftpm"
EXAMPLE_MANIFEST = EXAMPLE_PACKAGE + "/App/PrivacyInfo.xcprivacy"


@dataclass
class Use:
    category: str
    symbol: str
    where: str


def uses_in(tokens: list[ss.Token], mask: list[frozenset], rel: str) -> list[Use]:
    """The required-reason API uses among the tokens compiled on some platform of the mask."""
    found: list[Use] = []
    for i, t in enumerate(tokens):
        if t.kind != "ident" or not mask[i]:
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        previous = tokens[i - 1] if i > 0 else None
        is_call = following is not None and following.text == "(" and not following.space_before \
            and not (previous is not None and previous.text == "func")
        qualifier = tokens[i - 2].text if i > 1 and previous is not None and previous.text == "." else None
        for name, category in CATEGORIES.items():
            if (is_call and t.text in category.calls) or t.text in category.names \
                    or (qualifier, t.text) in category.qualified:
                symbol = f"{qualifier}.{t.text}" if (qualifier, t.text) in category.qualified else t.text
                found.append(Use(name, symbol, f"{rel}:{t.line}:{t.col}"))
    return found


def scan_file(root: str, rel: str, conditions: dict) -> list[Use]:
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        tokens = ss.tokenize(f.read())
    return uses_in(tokens, ss.compiled_mask(tokens, conditions), rel)


def declared(manifest: dict, label: str) -> tuple[dict[str, list[str]], list[str]]:
    """The manifest's accessed-API categories with their reasons, and what is wrong with its shape."""
    problems: list[str] = []
    if not isinstance(manifest.get("NSPrivacyTracking"), bool):
        problems.append(f"{label}: NSPrivacyTracking is not a boolean")
    for key in ("NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"):
        if not isinstance(manifest.get(key), list):
            problems.append(f"{label}: {key} is not an array")
    categories: dict[str, list[str]] = {}
    for entry in manifest.get("NSPrivacyAccessedAPITypes") or []:
        name = entry.get("NSPrivacyAccessedAPIType") if isinstance(entry, dict) else None
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons") if isinstance(entry, dict) else None
        if name not in CATEGORIES:
            problems.append(f"{label}: {name!r} is not a required-reason API category")
            continue
        if name in categories:
            problems.append(f"{label}: {name} is declared twice")
        if not isinstance(reasons, list) or not reasons:
            problems.append(f"{label}: {name} has no reason")
            reasons = []
        for reason in reasons:
            if reason not in CATEGORIES[name].reasons:
                problems.append(f"{label}: {reason!r} is not a reason Apple lists for {name} "
                                f"({', '.join(sorted(CATEGORIES[name].reasons))})")
        categories[name] = list(reasons)
    return categories, problems


def compare(label: str, manifest: dict, uses: list[Use]) -> list[str]:
    """What is wrong between a manifest and the uses of its code."""
    categories, problems = declared(manifest, label)
    used = {u.category for u in uses}
    for u in uses:
        if u.category not in categories:
            problems.append(f"{u.where}: `{u.symbol}` is a required-reason API ({u.category}) that {label} does not "
                            f"declare")
    for name in sorted(set(categories) - used):
        problems.append(f"{label}: declares {name}, which its code does not use (declare exactly what it uses)")
    return problems


def load_manifest(root: str, rel: str) -> tuple[dict | None, list[str]]:
    try:
        with open(os.path.join(root, rel), "rb") as f:
            value = plistlib.load(f)
    except (OSError, plistlib.InvalidFileException, ValueError) as error:
        return None, [f"{rel}: cannot be read as a property list: {error}"]
    if not isinstance(value, dict):
        return None, [f"{rel}: is not a dictionary"]
    return value, []


def resource_paths(graph: pg.Graph, target: str) -> list[str]:
    for t in graph.dump["targets"]:
        if t["name"] == target:
            return [r.get("path", "") for r in t.get("resources") or []]
    return []


def check_kit(root: str, linux: pg.Graph, apple: pg.Graph) -> tuple[list[str], int, set[str]]:
    problems: list[str] = []
    manifest, errors = load_manifest(root, KIT_MANIFEST)
    problems += errors
    name = os.path.basename(KIT_MANIFEST)
    for host, graph in (("Linux", linux), ("Mac", apple)):
        if name not in [os.path.basename(p) for p in resource_paths(graph, KIT_MANIFEST_TARGET)]:
            problems.append(f"[{host} manifest] {KIT_MANIFEST} is not a resource of {KIT_MANIFEST_TARGET}")
    for product in pg.CLIENT_PRODUCTS:
        for platform in pg.APPLE_PLATFORMS:
            if KIT_MANIFEST_TARGET not in apple.reachable(apple.products.get(product, []), platform):
                problems.append(f"[Mac manifest; {platform}] {product} does not reach {KIT_MANIFEST_TARGET}: the "
                                f"privacy manifest would not ship with it")
    linux_only = pg.linux_only_targets(linux, apple)
    closure = pg.apple_closure(apple, pg.CLIENT_PRODUCTS)
    uses: list[Use] = []
    files = 0
    targets = sorted(t for t in closure if t in apple.targets and not apple.targets[t].is_system and t not in linux_only)
    for target in targets:
        conditions = pg.compile_conditions(apple, target, [p for p in pg.APPLE_PLATFORMS if p in closure[target]])
        for rel in linux.swift_files(root, target):
            files += 1
            uses += scan_file(root, rel, conditions)
    if manifest is not None:
        problems += compare(KIT_MANIFEST, manifest, uses)
    return problems, files, {u.category for u in uses}


def check_example(root: str) -> tuple[list[str], int, set[str]]:
    problems: list[str] = []
    manifest, errors = load_manifest(root, EXAMPLE_MANIFEST)
    problems += errors
    package = os.path.join(root, EXAMPLE_PACKAGE, "Package.swift")
    with open(package, encoding="utf-8") as f:
        text = f.read()
    start = text.find('name: "AppModule"')
    rest = text[start:] if start >= 0 else ""
    ends = [i for i in (rest.find(".target(", 1), rest.find(".executableTarget(", 1)) if i > 0]
    if start < 0 or '.copy("PrivacyInfo.xcprivacy")' not in rest[:min(ends, default=len(rest))]:
        problems.append(f"{EXAMPLE_PACKAGE}/Package.swift: the AppModule target does not copy PrivacyInfo.xcprivacy")
    conditions = {"ios": ss.Conditions("ios")}
    uses: list[Use] = []
    files = 0
    base = os.path.join(root, EXAMPLE_PACKAGE)
    for directory, _, names in sorted(os.walk(base)):
        for name in sorted(names):
            if name.endswith(".swift") and name != "Package.swift":
                files += 1
                uses += scan_file(root, os.path.relpath(os.path.join(directory, name), root), conditions)
    if manifest is not None:
        problems += compare(EXAMPLE_MANIFEST, manifest, uses)
    return problems, files, {u.category for u in uses}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args(argv)
    graphs = pg.load_graphs_or_report(args.root, "check-privacy")
    if graphs is None:
        return 2
    try:
        kit, kit_files, kit_used = check_kit(args.root, *graphs)
        example, example_files, example_used = check_example(args.root)
    except (OSError, ss.LexError) as error:
        print(f"check-privacy: {error}", file=sys.stderr)
        return 2
    for problem in kit + example:
        print(problem)
    if kit or example:
        print(f"check-privacy: FAILED — {len(kit) + len(example)} problem(s)")
        return 1

    def describe(used):
        return ", ".join(sorted(used)) or "no required-reason API"
    print(f"check-privacy: ok — client products ({kit_files} files): {describe(kit_used)}, as {KIT_MANIFEST} declares; "
          f"example app ({example_files} files): {describe(example_used)}, as {EXAMPLE_MANIFEST} declares")
    return 0


if __name__ == "__main__":
    sys.exit(main())
