#!/usr/bin/env python3
"""Issue 25: every Apple-framework symbol of the Linux facades, and every one the package calls, has a signature pin.

What it checks:
1. Each public declaration of the Linux facade modules with Apple's names (Security, LocalAuthentication, CryptoKit,
   CommonCrypto, AuthenticationServices, DeviceCheck) is named by a pin in Tests/ApplePinTests/ (SecurityPins.swift,
   LocalAuthenticationPins.swift, CryptoKitPins.swift, AuthenticationServicesPins.swift...): a file-level symbol by
   its name, a member as `Type.member` — with its argument labels for functions and initializers, `Type.method(_:label:)` —
   so an overload without its own pin is reported. New facade API cannot go unpinned.
2. Each Security / LocalAuthentication / Core Foundation / AuthenticationServices / DeviceCheck name (`Sec…`, `kSec…`,
   `errSec…`, `LA…`, `kLA…`, `CF…`, `kCF…`, `AS…` without an underscore, `DC…`) that the client products' code
   compiled for an Apple platform uses appears in a pin, so what the package calls on Apple platforms is pinned even
   where no facade declares it.

How: scripts/checks/swiftdecls.py lists the facades' declarations; the pin files are read as tokens (every `#if`
branch). A member reference is `Type.member`, `Type<Arguments>.member` or `\\Type.member`. A generic parameter
stands for its constraints (in `func hashing<H: HashFunction>`, `H.finalize` names `HashFunction.finalize`): that
is how a protocol's requirements are pinned. A call on a value whose type the pin file states (`var hasher: H`,
`hasher: inout SHA256`) names that type's member with the call's argument labels: that is how a `mutating` method
is pinned (it cannot be referenced as a function value), and an instance method of a generic parameter through a
closure's typed parameter (`{ (hasher: H) in hasher.finalize }`: the unapplied `H.finalize` captures `H`'s
metatype). Not listed: underscored names and labels (`_bridgeToObjectiveC`, `init(_nsError:)`), conformance
witnesses (`hash(into:)`, `description`), Linux-only extensions named for Latchkey (`LatchkeySecurityConfiguration`,
`LAContext.latchkeyAuthenticationContext`), and EXEMPT below, each with its reason. The pins' own correctness is the compiler's: the pin files compile against
the Linux modules in `make test` and against Apple's SDK on a Mac.

Usage: scripts/check-pins.py [--root DIR] [--list]. Exit 0 when every symbol is pinned, 1 otherwise, 2 on an error.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks"))

import package_graph as pg  # noqa: E402
import swiftdecls as sd  # noqa: E402
import swiftsource as ss  # noqa: E402

FACADES = ("Security", "LocalAuthentication", "CryptoKit", "CommonCrypto", "AuthenticationServices", "DeviceCheck")
PIN_DIR = os.path.join("Tests", "ApplePinTests")
CLIENT_PRODUCTS = pg.CLIENT_PRODUCTS
APPLE_NAME = re.compile(r"^(Sec[A-Z]\w*|kSec\w+|errSec\w+|LA[A-Z]\w*|kLA\w+|CF[A-Z]\w*|kCF\w+|AS[A-Z][A-Za-z0-9]*|DC[A-Z]\w*)$")
WITNESSES = {"hash(into:)", "description", "debugDescription"}

# Facade API with no Apple counterpart to pin, by signature, and why it stays.
EXEMPT = {
    "CFRelease(_:)": "unavailable in Swift on Apple platforms (Core Foundation objects are memory-managed); "
                     "a no-op for ported code, which then compiles on Linux only",
    "CFRetain(_:)": "unavailable in Swift on Apple platforms, as CFRelease",
    "kSecKeyAlgorithmECDSASignatureMessageX962SHA256": "Apple's Swift has only SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256",
    "kSecKeyAlgorithmECDSASignatureDigestX962SHA256": "Apple's Swift has only SecKeyAlgorithm.ecdsaSignatureDigestX962SHA256",
    "LAError.errorDescription": "LocalizedError on Linux only: Apple's LAError is not LocalizedError "
                                "(portable code reads localizedDescription)",
    "kSecKeyKeyExchangeParameterRequestedSize": "Apple's Swift has only SecKeyKeyExchangeParameter.requestedSize "
                                                "(a CF_STRING_ENUM constant)",
    "kSecKeyKeyExchangeParameterSharedInfo": "Apple's Swift has only SecKeyKeyExchangeParameter.sharedInfo",
    "CorecryptoCurveType": "declared from the iOS 18.4 SDK on (absent from the iOS 18.0 SDK, the oldest the package "
                           "admits): a pin would not compile with Xcode 16.0 (make check-apple-sdk)",
    "CryptoKitMetaError": "declared from the iOS 18.4 SDK on, as CorecryptoCurveType",
    "ASPasswordCredential.customMirror": "CustomReflectable on Linux only, so dump() and debuggers never show the "
                                         "password (Apple's credential is an Objective-C object)",
    "ASAuthorizationError.errorDescription": "LocalizedError on Linux only, as LAError's (English and Korean text); "
                                             "portable code reads localizedDescription",
    "PrivateKey.init(compactRepresentable:authenticationContext:)":
        "SecureEnclave keys (Linux): Apple's one creating initializer, init(compactRepresentable:accessControl:"
        "authenticationContext:), takes a SecAccessControl, which the Linux CryptoKit cannot see (Security sits above "
        "it); that form is declared by Security, and this one serves the calls that leave accessControl out (pinned "
        "as calls in SecureEnclavePins.swift)",
    "DCError.errorDescription": "LocalizedError on Linux only, as LAError's (English and Korean text); portable code reads "
                                "localizedDescription",
}


GENERIC_OWNERS = {"func", "struct", "class", "enum", "actor", "typealias"}


def generic_constraints(tokens) -> dict[str, list[tuple[int, set[str]]]]:
    """Generic parameter -> [(token index of its clause, the protocols and classes it is constrained to)], from the
    generic parameter clauses (`func f<H: HashFunction, D: CryptoKit.Digest & Sendable>`)."""
    out: dict[str, list[tuple[int, set[str]]]] = {}
    for i, t in enumerate(tokens):
        if t.text != "<" or t.kind != "punct" or i < 1 or tokens[i - 1].kind != "ident" or t.space_before:
            continue
        if tokens[i - 1].text not in ("init", "subscript") and (i < 2 or tokens[i - 2].text not in GENERIC_OWNERS):
            continue
        for start, end in ss.split_arguments(tokens, i)[0]:
            part = tokens[start:end]
            if len(part) < 3 or part[0].kind != "ident" or part[1].text != ":":
                continue
            constraints, segment = set(), []
            for x in part[2:] + [None]:
                if x is None or x.text == "&":
                    if segment:
                        constraints.add(segment[-1])   # the last name component: CryptoKit.Digest is Digest
                    segment = []
                elif x.kind == "ident":
                    segment.append(x.text)
            out.setdefault(part[0].text, []).append((i, constraints))
    return out


def typed_bindings(tokens) -> dict[str, list[tuple[int, str]]]:
    """Value name -> [(token index, its stated type's last name component)]: `var hasher: H`,
    `let box: AES.GCM.SealedBox`, `(hasher: inout SHA256, ...)`, a closure's first parameter `{ (digest: D) in`. Only
    what the pin file states; nothing is inferred."""
    out: dict[str, list[tuple[int, str]]] = {}
    for k, t in enumerate(tokens):
        if t.text != ":" or t.kind != "punct" or k < 1 or tokens[k - 1].kind != "ident" or tokens[k - 1].text == "_":
            continue
        j = k + 1
        declared = k >= 2 and tokens[k - 2].text in ("var", "let") or \
            k >= 3 and tokens[k - 2].text == "(" and tokens[k - 3].text == "{"
        if j < len(tokens) and tokens[j].text == "inout":
            j += 1
        elif not declared:
            continue
        chain = []
        while j < len(tokens) and tokens[j].kind == "ident":
            chain.append(tokens[j].text)
            if j + 1 < len(tokens) and tokens[j + 1].text == "." and not tokens[j + 1].space_before:
                j += 2
            else:
                break
        if chain:
            out.setdefault(tokens[k - 1].text, []).append((k, chain[-1]))
    return out


def latest(declarations: list, index: int):
    """The value of the last declaration before `index` (the one in scope there, as pin files are written), or None."""
    found = None
    for at, value in declarations:
        if at < index:
            found = value
    return found


def member_base(tokens, dot: int) -> str | None:
    """The type name a `.` at `dot` follows: `Type.`, or `Type<Arguments>.` (the arguments skipped)."""
    before = tokens[dot - 1]
    if before.kind == "ident":
        return before.text
    if before.kind != "punct" or before.text != ">":
        return None
    depth = 0
    for j in range(dot - 1, 0, -1):
        x = tokens[j]
        if x.kind == "punct" and x.text == ">" and tokens[j - 1].text != "-":
            depth += 1
        elif x.kind == "punct" and x.text == "<":
            depth -= 1
            if depth == 0:
                return tokens[j - 1].text if tokens[j - 1].kind == "ident" and not x.space_before else None
    return None


def pin_references(root):
    """(identifiers, member references (context, member) -> [labels or None]) of the pin files."""
    identifiers, members, files = set(), {}, []
    directory = os.path.join(root, PIN_DIR)
    for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
        if not name.endswith(".swift"):
            continue
        files.append(name)
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            tokens = [t for t in ss.tokenize(f.read()) if t.kind != "directive"]
        constraints, bindings = generic_constraints(tokens), typed_bindings(tokens)
        for i, t in enumerate(tokens):
            if t.kind == "ident":
                identifiers.add(t.text)
            if t.text != "." or t.kind != "punct" or not 0 < i < len(tokens) - 1 or tokens[i + 1].kind != "ident":
                continue
            base = member_base(tokens, i)
            if base is None:
                continue
            labels = None
            j = i + 2
            called = j < len(tokens) and tokens[j].text == "(" and not tokens[j].space_before
            if called:
                close = ss.matching_close(tokens, j)
                inner = [x.text for x in tokens[j + 1:close]]
                if inner == [] or (len(inner) % 2 == 0 and all(x == ":" for x in inner[1::2])):
                    labels = inner[0::2]
            bound = latest(bindings.get(base, []), i)
            if bound is not None:
                base = bound
                if called and labels is None:
                    labels = ss.argument_labels(tokens, j)[0]
            for type_name in {base} | (latest(constraints.get(base, []), i) or set()):
                members.setdefault((type_name, tokens[i + 1].text), []).append(labels)
    return identifiers, members, files


def exempt_reason(decl: sd.Decl):
    name = decl.signature()
    if name in EXEMPT:
        return EXEMPT[name]
    if decl.name.startswith("_") or any(p.label.startswith("_") and p.label != "_" for p in decl.params or []):
        return "underscored"
    if "latchkey" in name.lower():
        return "a Linux-only extension named for Latchkey"
    if decl.context and name.split(".")[-1] in WITNESSES:
        return "a conformance witness (the conformance is pinned)"
    return None


def pinned(decl: sd.Decl, identifiers, members) -> bool:
    if not decl.context:
        return decl.name in identifiers
    refs = members.get((decl.context, decl.name), [])
    if decl.kind in ("func", "init", "subscript") and decl.params:
        return any(labels == list(decl.labels) for labels in refs)
    return bool(refs)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--list", action="store_true", help="list every facade symbol with its pin status")
    args = parser.parse_args(argv)
    graphs = pg.load_graphs_or_report(args.root, "check-pins")
    if graphs is None:
        return 2
    linux, apple = graphs
    identifiers, members, pin_files = pin_references(args.root)
    if not pin_files:
        print(f"check-pins: no pin files in {PIN_DIR}")
        return 1

    missing, counted, exempted = [], 0, 0
    for facade in (f for f in FACADES if f in linux.targets):
        for rel in linux.swift_files(args.root, facade):
            with open(os.path.join(args.root, rel), encoding="utf-8") as f:
                decls = sd.declarations(ss.tokenize(f.read()))
            for decl in decls:
                if decl.access not in ("public", "open"):
                    continue
                reason = exempt_reason(decl)
                ok = reason is None and pinned(decl, identifiers, members)
                if args.list:
                    print(f"{'pinned ' if ok else 'exempt ' if reason else 'MISSING'} {facade}: {decl.signature()}"
                          + (f"  ({reason})" if reason else ""))
                if reason:
                    exempted += 1
                    continue
                counted += 1
                if not ok:
                    missing.append(f"{rel}:{decl.line}: public {decl.kind} `{decl.signature()}` of the Linux {facade} "
                                   f"module has no pin in {PIN_DIR}/ (pin Apple's documented signature, or list it "
                                   f"in EXEMPT in scripts/check-pins.py with the reason)")

    # What the client products call on Apple platforms.
    package_names = set()
    client_files = []
    closure = pg.apple_closure(apple, CLIENT_PRODUCTS)
    linux_only = pg.linux_only_targets(linux, apple)
    for target in linux.targets:
        if linux.targets[target].is_system:
            continue
        for rel in linux.swift_files(args.root, target):
            with open(os.path.join(args.root, rel), encoding="utf-8") as f:
                tokens = ss.tokenize(f.read())
            if target not in FACADES:
                package_names |= {d.name for d in sd.declarations(tokens)}
            if target in closure and target not in linux_only:
                client_files.append((rel, target, tokens))
    used = 0
    for rel, target, tokens in client_files:
        mask = ss.compiled_mask(tokens, pg.compile_conditions(apple, target, closure[target]))
        seen = set()
        for t, platforms in zip(tokens, mask):
            if not platforms or t.kind != "ident" or not APPLE_NAME.match(t.text) or t.text in package_names:
                continue
            if t.text in seen:
                continue
            seen.add(t.text)
            used += 1
            if t.text not in identifiers:
                missing.append(f"{rel}:{t.line}:{t.col}: `{t.text}` is called by {target} on Apple platforms but "
                               f"no pin in {PIN_DIR}/ names it")
    for line in missing:
        print(line)
    summary = (f"{counted} facade symbols ({exempted} exempt) and {used} Apple-framework names used by the client "
               f"products, against {', '.join(pin_files)}")
    if missing:
        print(f"check-pins: FAILED — {len(missing)} unpinned; {summary}")
        return 1
    print(f"check-pins: ok — {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
