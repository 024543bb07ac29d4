#!/usr/bin/env python3
"""Issue 25: on iOS, tvOS, watchOS, visionOS and macOS the client products link only Apple's frameworks.

What it checks: for each client product (Latchkey, LatchkeyUI, LatchkeyKeychain, LatchkeyAuth, LatchkeyCrypto,
LatchkeyWebAuthn) and each Apple platform, the targets reachable through the dependency edges that apply to
that platform must include no C system library (`.systemLibrary`: COpenSSL, CSodium, CSQLite, CPostgres,
CMicroHTTPD, CPAM, CSecret, CKeyutils...) and no Linux-only Swift target. Reached targets must not link a
library outside Apple's SDKs either (`linkedLibrary` / linker `unsafeFlags` settings active there).

How: the graph is computed here from `swift package dump-package`, twice — the manifest as this machine
evaluates it, and as a Mac does (a copy of Package.swift with `os(...)`/`canImport(...)` in `#if` lines
rewritten for a macOS host, so targets declared only under `#if os(Linux)` vanish as they do in Xcode). An
edge applies to a platform when it has no `.when(platforms:)` condition or its condition lists the platform.
"Linux-only" (scripts/checks/package_graph.py, `linux_only_targets`): declared only on Linux; or named so in
issue 25 (LatchkeyAuthLinux, LatchkeyKeychainLinux, LatchkeyOpenSSL, Security, LocalAuthentication,
CryptoKit, CommonCrypto, AuthenticationServices); or named `*Linux`; or every edge into it from a non-test
target is conditioned to non-Apple platforms. Each failure prints the path (product -> target -> ... ->
offender) and the edges on it that let it through.

Limits: configuration (debug/release) and trait conditions count as applying; products of other packages
are not followed (this package has none). It reads the manifest, not the sources: an `import` of a module
the graph does not reach is the compiler's to refuse.

Usage: scripts/check-apple-platforms.py [--report-only] [--verbose] [--dump FILE [--apple-dump FILE]]
Exit status: 0 when clean (or --report-only), 1 on a violation, 2 when dump-package fails. Takes ~2 s.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks"))

import package_graph as pg  # noqa: E402

CLIENT_PRODUCTS = pg.CLIENT_PRODUCTS


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--report-only", action="store_true", help="print violations but exit 0")
    parser.add_argument("--verbose", action="store_true", help="also list what each product reaches")
    parser.add_argument("--dump", help="use this dump-package JSON (the Linux-host evaluation) instead of running it")
    parser.add_argument("--apple-dump", help="with --dump: the Mac-host evaluation (default: same as --dump)")
    parser.add_argument("--products", nargs="*", default=CLIENT_PRODUCTS)
    args = parser.parse_args(argv)

    import json
    try:
        if args.dump:
            with open(args.dump) as f:
                linux_dump = json.load(f)
            with open(args.apple_dump or args.dump) as f:
                apple_dump = json.load(f)
        else:
            linux_dump = pg.load_dump(args.root, "linux")
            apple_dump = pg.load_dump(args.root, "apple")
    except (RuntimeError, OSError, ValueError) as error:
        print(f"check-apple-platforms: {error}", file=sys.stderr)
        return 2

    linux, apple = pg.Graph(linux_dump), pg.Graph(apple_dump)
    linux_only = pg.linux_only_targets(linux, apple)
    violations, problems = [], []
    for host, graph in (("Mac-host", apple), ("Linux-host", linux)):
        v, p = pg.check_reachability(graph, host, args.products, pg.forbidden_targets(graph, linux_only))
        violations += v
        problems += p

    if args.verbose:
        print("Linux-only Swift targets:")
        for name, why in sorted(linux_only.items()):
            print(f"  {name}: {why}")
        for product in args.products:
            for platform in pg.APPLE_PLATFORMS:
                seen = apple.reachable(apple.products.get(product, []), platform)
                print(f"  {product} on {platform}: {', '.join(sorted(seen))}")

    # One entry per (product, offender, path), with the manifests and platforms it happens on.
    grouped: dict[tuple, list] = {}
    for v in violations:
        entry = grouped.setdefault((v.product, v.target, tuple(v.path)), [v, {}])
        entry[1].setdefault(v.host, []).append(v.platform)
    for v, hosts in grouped.values():
        v.host = " and ".join(hosts)
        v.platform = "; ".join(dict.fromkeys(", ".join(platforms) for platforms in hosts.values()))
        print(v.describe())
    for p in dict.fromkeys(problems):
        print(p)

    if not violations and not problems:
        print(f"check-apple-platforms: ok — {', '.join(args.products)} reach no C system library and no "
              f"Linux-only target on {', '.join(pg.APPLE_PLATFORMS)}")
        return 0
    offenders = sorted({v.target for v in violations})
    print(f"check-apple-platforms: FAILED — {len(grouped)} reachable path(s) to {', '.join(offenders) or 'nothing'}"
          f"{'; ' + str(len(set(problems))) + ' link problem(s)' if problems else ''}"
          + (" (report only)" if args.report_only else ""))
    return 0 if args.report_only else 1


if __name__ == "__main__":
    sys.exit(main())
