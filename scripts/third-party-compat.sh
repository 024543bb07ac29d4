#!/usr/bin/env bash
# Builds other people's keychain libraries against Latchkey's Linux `Security` / `LocalAuthentication`
# modules and runs each library's own test suite. Fetches nothing: DIR holds checkouts the maintainer supplies.
#
# Usage: scripts/third-party-compat.sh DIR
#
# Known libraries, found in DIR by directory name, else by the library product their Package.swift declares:
#   keychain-swift (evgenyneu, KeychainSwift), SimpleKeychain (auth0), SwiftKeychainWrapper (jrendel),
#   KeychainAccess (kishikawakatsumi; tests from Lib/KeychainAccessTests, which its Package.swift does not declare),
#   Locksmith (matthewpalmer; sources in Source/, a manifest without targets).
# More libraries with the same fields as LIBRARIES below: LATCHKEY_COMPAT_EXTRA="entry;entry" (e.g. a library whose
# manifest declares no test target).
# A library that is not in DIR is skipped with a line saying so. Any other Swift package in DIR (another
# wrapper) is run too: its targets come from its own manifest (`swift package dump-package`, offline); one
# that depends on other packages is skipped with their names, since nothing can be fetched here.
#
# For each library: the .swift files of its source and test targets are copied to a temporary directory
# (never into the repository), `import Security` / `import LocalAuthentication` is added as the first line
# of files that use those frameworks' names and do not import them (the one edit Linux needs: Foundation
# cannot re-export them there), a wrapper Package.swift points targets at the copies and depends on this
# package by path, `swift build --build-tests` builds it and `swift test` runs it with a fresh HOME and
# XDG_* directories (the user's keychain and LATCHKEY_KEYCHAIN_PATH are never used). The temporary test host
# gets an Info.plist naming a bundle identifier, as an iOS test host app has (Bundle.main.bundleIdentifier),
# and, where a library's tests expect their host app's identity, that identifier and application identifier.
#
# Two lines of KeychainAccess's TESTS (not its sources) are edited where the test's platform condition or an
# Objective-C-only cast disagrees with its own library on Linux (see edit_tests below); the result line then
# says "(2 test edits, …)". LATCHKEY_COMPAT_PRISTINE=1 runs every suite without such edits.
#
# stdout: one line per library, "<name>: compiled yes|no, tests N passed / M failed" (or "skipped: ...").
# stderr: progress and the edits made. Logs are kept in the temporary directory when something fails.
# Exit status: 0 when every library found compiled and passed, 1 otherwise, 2 on bad usage / nothing found.
# Environment: LATCHKEY_COMPAT_KEEP=1 keeps the temporary directory; LATCHKEY_COMPAT_TIMEOUT (seconds per
# test run, default 900); LATCHKEY_COMPAT_SCRATCH (a build directory kept between runs); LATCHKEY_COMPAT_EXTRA
# (more libraries, see above).
set -uo pipefail

DIR=${1:-}
if [ -z "$DIR" ] || [ ! -d "$DIR" ]; then
    echo "usage: scripts/third-party-compat.sh DIR   (DIR holds the libraries' checkouts)" >&2
    exit 2
fi
DIR=$(cd "$DIR" && pwd -P)
REPO=$(cd "$(dirname "$0")/.." && pwd -P)
# A path dependency's identity is the last component of its path.
IDENTITY=$(basename "$REPO" | tr '[:upper:]' '[:lower:]')
TIMEOUT=${LATCHKEY_COMPAT_TIMEOUT:-900}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/latchkey-third-party.XXXXXX")
FAILED=0
cleanup() {
    if [ "${LATCHKEY_COMPAT_KEEP:-0}" = 1 ] || [ "$FAILED" -ne 0 ]; then
        echo "third-party-compat: logs and copies kept in $WORK" >&2
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

# name | library product = module | source dir | test dir | test module | files their manifest excludes |
# test host bundle identifier (default dev.latchkey.third-party.<name>) | test host application identifier
# ("TEAMID.bundle-id", the default access group; LATCHKEY_APPLICATION_IDENTIFIER) when their tests expect one
LIBRARIES=(
    "keychain-swift|KeychainSwift|Sources|Tests/KeychainSwiftTests|KeychainSwiftTests|ClearTests.swift||"
    "SimpleKeychain|SimpleKeychain|SimpleKeychain|SimpleKeychainTests|SimpleKeychainTests|||"
    "SwiftKeychainWrapper|SwiftKeychainWrapper|SwiftKeychainWrapper|SwiftKeychainWrapperTests|SwiftKeychainWrapperTests|||"
    # Its Xcode test target leaves SharedCredentialTests.swift (Safari shared web credentials) out of every
    # platform but iOS (Lib/Configurations/Tests.xcconfig, EXCLUDED_SOURCE_FILE_NAMES); so does Linux. Its tests
    # run inside the TestHost app (com.kishikawakatsumi.KeychainAccess.TestHost, team 27AEDK3C9F) and compare
    # the service and access group with that app's identity.
    "KeychainAccess|KeychainAccess|Lib/KeychainAccess|Lib/KeychainAccessTests|KeychainAccessTests|SharedCredentialTests.swift|com.kishikawakatsumi.KeychainAccess.TestHost|27AEDK3C9F.com.kishikawakatsumi.KeychainAccess.TestHost"
    # Its manifest (tools version 3) declares no target; SwiftPM 3 found the sources in Source/.
    "Locksmith|Locksmith|Source|Tests/LocksmithTests|LocksmithTests|||"
)
if [ -n "${LATCHKEY_COMPAT_EXTRA:-}" ]; then
    IFS=';' read -ra EXTRA <<<"$LATCHKEY_COMPAT_EXTRA"
    LIBRARIES+=("${EXTRA[@]}")
fi

SECURITY_NAMES='\b(kSec[A-Z]|errSec[A-Z]|Sec(Item|Key|AccessControl|Certificate|Trust|Policy|Identity|Random|CopyErrorMessageString)|OSStatus\b|noErr\b|CF(String|Dictionary|TypeRef|Data|Boolean|Error|Array|Number|Release|Retain|Get)|kCF[A-Z])'
# An import line, with attributes such as @preconcurrency or @testable.
IMPORT_PREFIX='^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+'
LA_NAMES='\b(LAContext|LAPolicy|LAError|LABiometryType|LACredentialType)\b'

# Finds a library's checkout: DIR/<name>, else a directory whose Package.swift declares the product.
locate() {
    local name=$1 product=$2 candidate
    if [ -f "$DIR/$name/Package.swift" ]; then echo "$DIR/$name"; return 0; fi
    for candidate in "$DIR"/*/; do
        candidate=${candidate%/}
        [ -f "$candidate/Package.swift" ] || continue
        if grep -Eq "\.library\([[:space:]]*name:[[:space:]]*\"$product\"" "$candidate"/Package*.swift; then
            echo "$candidate"; return 0
        fi
    done
    return 1
}

# Copies the .swift files of $1 to $2, leaving out the files named in $3 (comma separated).
copy_sources() {
    local from=$1 to=$2 excludes=$3 file rel skip ex
    mkdir -p "$to"
    while IFS= read -r -d '' file; do
        rel=${file#"$from"/}
        skip=0
        IFS=',' read -ra ex <<<"$excludes"
        for e in "${ex[@]}"; do [ -n "$e" ] && [ "$rel" = "$e" ] && skip=1; done
        [ "$skip" = 1 ] && continue
        mkdir -p "$to/$(dirname "$rel")"
        cp "$file" "$to/$rel"
    done < <(find "$from" -type f -name '*.swift' -print0)
}

# Adds `import Security` / `import LocalAuthentication` at the top of copies that need them; lists the edits.
add_imports() {
    local root=$1 name=$2 file
    while IFS= read -r -d '' file; do
        if grep -Eq "$LA_NAMES" "$file" && ! grep -Eq "$IMPORT_PREFIX"'LocalAuthentication\b' "$file"; then
            sed -i '1i import LocalAuthentication' "$file"
            echo "  $name: + import LocalAuthentication in ${file#"$root"/}" >&2
        fi
        if grep -Eq "$SECURITY_NAMES" "$file" && ! grep -Eq "$IMPORT_PREFIX"'Security\b' "$file"; then
            sed -i '1i import Security' "$file"
            echo "  $name: + import Security in ${file#"$root"/}" >&2
        fi
    done < <(find "$root" -type f -name '*.swift' -print0)
}

# Edits to a library's TESTS (never its sources) where the test's own platform condition or an Objective-C-only
# idiom disagrees with the library on Linux; each is listed on stderr, counted in the result line and explained
# in docs/COMPATIBILITY.md. LATCHKEY_COMPAT_PRISTINE=1 runs the tests without them.
#   KeychainAccess testAllKeys: the library asks for the secret under `#if os(iOS) || os(watchOS) || os(tvOS)`,
#     the test expects it under `#if !os(macOS)`; Linux is neither, so the test gets the library's condition.
#   KeychainAccess testStringConversionError: `catch let error as NSError` is an Objective-C bridging cast that
#     Swift on Linux does not make; the test catches the library's `Status` and converts it with `as NSError`
#     (which Linux does), keeping every assertion on domain, code and description.
TEST_EDITS=0
edit_tests() {
    local root=$1 name=$2 file
    TEST_EDITS=0
    [ "${LATCHKEY_COMPAT_PRISTINE:-0}" = 1 ] && return 0
    case $name in
    KeychainAccess)
        file="$root/Tests/KeychainAccessTests/KeychainAccessTests.swift"
        [ -f "$file" ] || return 0
        edit_in_function "$file" testAllKeys '#if !os(macOS)' '#if os(iOS) || os(watchOS) || os(tvOS)' "$name"
        edit_in_function "$file" testStringConversionError '} catch let error as NSError {' \
            '} catch let caught as Status { let error = caught as NSError' "$name"
        ;;
    esac
}

# Replaces each line equal to $3 (ignoring indentation) inside `func $2(` of file $1 by $4, keeping the
# indentation; says so on stderr. A missing anchor (another version of their tests) changes nothing.
edit_in_function() {
    local file=$1 fn=$2 from=$3 to=$4 name=$5 tmp
    tmp=$(mktemp)
    if FROM="$from" TO="$to" FN="$fn" awk '
        /func [A-Za-z_]+\(/ { inside = index($0, "func " ENVIRON["FN"] "(") > 0 }
        inside {
            line = $0; sub(/^[ \t]+/, "", line)
            if (line == ENVIRON["FROM"]) {
                match($0, /^[ \t]*/); $0 = substr($0, 1, RLENGTH) ENVIRON["TO"]; done++
            }
        }
        { print }
        END { exit done ? 0 : 1 }' "$file" >"$tmp"; then
        mv "$tmp" "$file"
        TEST_EDITS=$((TEST_EDITS + 1))
        echo "  $name: test edit in $fn: '$from' -> '$to'" >&2
    else
        rm -f "$tmp"
    fi
}

language_mode() {
    local tools
    tools=$(head -n 1 "$1/Package.swift" | sed -n 's/.*swift-tools-version:[[:space:]]*\([0-9]*\).*/\1/p')
    if [ -n "$tools" ] && [ "$tools" -ge 6 ]; then echo v6; else echo v5; fi
}

write_manifest() {
    local pkg=$1 name=$2 product=$3 tests=$4 mode=$5
    cat >"$pkg/Package.swift" <<EOF
// swift-tools-version:6.0
// Generated by Latchkey's scripts/third-party-compat.sh: $name's own sources and tests, built against
// Latchkey's Security and LocalAuthentication modules.
import PackageDescription

let frameworks: [Target.Dependency] = [
    .product(name: "Security", package: "$IDENTITY"),
    .product(name: "LocalAuthentication", package: "$IDENTITY"),
]

let package = Package(
    name: "$name-latchkey-compat",
    dependencies: [.package(path: "$REPO")],
    targets: [
        .target(name: "$product", dependencies: frameworks, path: "Sources/$product",
                swiftSettings: [.swiftLanguageMode(.$mode)]),
        .testTarget(name: "$tests", dependencies: ["$product"] + frameworks, path: "Tests/$tests",
                    swiftSettings: [.swiftLanguageMode(.$mode)]),
    ]
)
EOF
}

# An Info.plist next to the test binary gives Bundle.main a bundle identifier, as an iOS test host app has.
write_host_info() {
    local bindir=$1 name=$2 bundleid=$3
    cat >"$bindir/Info.plist" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
    <key>CFBundleIdentifier</key>
    <string>$bundleid</string>
    <key>CFBundleName</key>
    <string>$name</string>
</dict>
</plist>
EOF
}

# Counts test cases from XCTest ("Test Case '…' passed|failed") and Swift Testing ("Test x() passed|failed after").
count_tests() {
    local log=$1 passed failed started
    passed=$(grep -Ec "^Test Case '.*' passed" "$log")
    failed=$(grep -Ec "^Test Case '.*' failed" "$log")
    started=$(grep -Ec "^Test Case '.*' started" "$log")
    passed=$((passed + $(grep -E '^. Test [^r].* passed after' "$log" | grep -vc 'Test run with')))
    failed=$((failed + $(grep -E '^. Test [^r].* failed after' "$log" | grep -vc 'Test run with')))
    # A test that crashed the run started and never finished.
    local xc_done=$(( $(grep -Ec "^Test Case '.*' (passed|failed)" "$log") ))
    if [ "$started" -gt "$xc_done" ]; then failed=$((failed + started - xc_done)); fi
    echo "$passed $failed"
}

FOUND=0
# LATCHKEY_COMPAT_SCRATCH=DIR keeps the build products between runs (Latchkey is then built once).
SCRATCH="${LATCHKEY_COMPAT_SCRATCH:-$WORK/build}"
USED=()

# Builds the wrapper package $1 of library $2 and runs its tests with a fresh HOME; prints the result line.
build_and_test() {
    local pkg=$1 name=$2 bundleid=$3 appid=$4 compiled passed=0 failedcount=0 bindir home edits=""
    if swift build --build-tests --package-path "$pkg" --scratch-path "$SCRATCH" >"$WORK/$name.build.log" 2>&1; then
        compiled=yes
    else
        compiled=no
    fi
    if [ "$compiled" = yes ]; then
        bindir=$(swift build --show-bin-path --package-path "$pkg" --scratch-path "$SCRATCH" 2>/dev/null)
        write_host_info "$bindir" "$name" "${bundleid:-dev.latchkey.third-party.$name}"
        home="$WORK/home-$name"
        mkdir -p "$home/.local/share" "$home/.config" "$home/.cache" "$home/.local/state"
        local appenv=(-u LATCHKEY_APPLICATION_IDENTIFIER)
        [ -n "$appid" ] && appenv=(LATCHKEY_APPLICATION_IDENTIFIER="$appid")
        env -u LATCHKEY_KEYCHAIN_PATH "${appenv[@]}" HOME="$home" XDG_DATA_HOME="$home/.local/share" \
            XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_STATE_HOME="$home/.local/state" \
            timeout "$TIMEOUT" swift test --skip-build --package-path "$pkg" --scratch-path "$SCRATCH" \
            >"$WORK/$name.test.log" 2>&1
        read -r passed failedcount < <(count_tests "$WORK/$name.test.log")
    else
        grep -E '^/.*: error:' "$WORK/$name.build.log" | sort -u | head -n 20 >&2
    fi
    [ "$TEST_EDITS" -gt 0 ] && edits=" ($TEST_EDITS test edits, see docs/COMPATIBILITY.md)"
    echo "$name: compiled $compiled, tests $passed passed / $failedcount failed$edits"
    if [ "$compiled" != yes ] || [ "$failedcount" -ne 0 ] || [ "$passed" -eq 0 ]; then FAILED=1; fi
}

for entry in "${LIBRARIES[@]}"; do
    IFS='|' read -r name product sources tests testmodule excludes bundleid appid <<<"$entry"
    if ! checkout=$(locate "$name" "$product"); then
        echo "$name: skipped, no checkout in $DIR"
        continue
    fi
    if [ ! -d "$checkout/$sources" ] || [ ! -d "$checkout/$tests" ]; then
        echo "$name: skipped, $checkout has no $sources or $tests"
        continue
    fi
    FOUND=$((FOUND + 1))
    USED+=("$(cd "$checkout" && pwd -P)")
    pkg="$WORK/$name"
    echo "third-party-compat: $name from $checkout" >&2
    copy_sources "$checkout/$sources" "$pkg/Sources/$product" "$excludes"
    copy_sources "$checkout/$tests" "$pkg/Tests/$testmodule" "$excludes"
    add_imports "$pkg" "$name"
    edit_tests "$pkg" "$name"
    write_manifest "$pkg" "$name" "$product" "$testmodule" "$(language_mode "$checkout")"
    build_and_test "$pkg" "$name" "$bundleid" "$appid"
done

# Any other Swift package in DIR (another keychain wrapper): its manifest is read with `swift package
# dump-package` (offline), every library and test target is copied with the same single edit, and a wrapper
# manifest keeps their dependencies on each other. A package that depends on other packages is skipped with
# their names: nothing can be fetched here.
# $1: the JSON of `swift package dump-package`. Prints "skip|why", or one line per target:
# "regular|test" | name | path in the checkout | excludes | dependencies on its own targets.
plan_generic() {
    python3 - "$1" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
external = [dep[k][0].get("identity", "?") for dep in d.get("dependencies", []) for k in dep]
if external:
    print("skip|depends on packages that cannot be fetched here: " + ", ".join(external)); sys.exit()
names = {t["name"] for t in d["targets"] if t["type"] in ("regular", "test")}
rows = []
for t in d["targets"]:
    if t["type"] not in ("regular", "test"):
        continue
    path = t.get("path") or (("Tests/" if t["type"] == "test" else "Sources/") + t["name"])
    deps = []
    for dep in t.get("dependencies", []):
        for kind, value in dep.items():
            if kind in ("byName", "target") and value[0] in names:
                deps.append(value[0])
    rows.append("|".join([t["type"], t["name"], path, ",".join(t.get("exclude") or []), ",".join(deps)]))
if not any(r.startswith("test|") for r in rows):
    print("skip|declares no test target"); sys.exit()
print("\n".join(rows))
PY
}

write_generic_manifest() {
    local pkg=$1 name=$2 mode=$3 plan=$4 kind target path excludes deps list
    {
        echo "// swift-tools-version:6.0"
        echo "// Generated by Latchkey's scripts/third-party-compat.sh: $name's own targets, built against"
        echo "// Latchkey's Security and LocalAuthentication modules."
        echo "import PackageDescription"
        echo ""
        echo "let frameworks: [Target.Dependency] = ["
        echo "    .product(name: \"Security\", package: \"$IDENTITY\"),"
        echo "    .product(name: \"LocalAuthentication\", package: \"$IDENTITY\"),"
        echo "]"
        echo "let settings: [SwiftSetting] = [.swiftLanguageMode(.$mode)]"
        echo ""
        echo "let package = Package("
        echo "    name: \"$name-latchkey-compat\","
        echo "    dependencies: [.package(path: \"$REPO\")],"
        echo "    targets: ["
        while IFS='|' read -r kind target path excludes deps; do
            list=""
            IFS=',' read -ra names <<<"$deps"
            for d in "${names[@]}"; do [ -n "$d" ] && list+="\"$d\", "; done
            local where=Sources
            [ "$kind" = test ] && where=Tests
            local call=target
            [ "$kind" = test ] && call=testTarget
            echo "        .$call(name: \"$target\", dependencies: [$list] + frameworks, path: \"$where/$target\", swiftSettings: settings),"
        done <<<"$plan"
        echo "    ]"
        echo ")"
    } >"$pkg/Package.swift"
}

for candidate in "$DIR"/*/; do
    candidate=${candidate%/}
    [ -f "$candidate/Package.swift" ] || continue
    resolved=$(cd "$candidate" && pwd -P)
    known=0
    for used in "${USED[@]}"; do [ "$used" = "$resolved" ] && known=1; done
    [ "$known" = 1 ] && continue
    name=$(basename "$candidate")
    FOUND=$((FOUND + 1))
    manifest="$WORK/$name.manifest.json"
    if ! swift package dump-package --package-path "$candidate" >"$manifest" 2>"$WORK/$name.manifest.log"; then
        echo "$name: skipped, its Package.swift cannot be read here (see $WORK/$name.manifest.log)"
        FAILED=1; continue
    fi
    plan=$(plan_generic "$manifest")
    if [[ $plan == skip\|* ]]; then
        echo "$name: skipped, ${plan#skip|}"
        continue
    fi
    echo "third-party-compat: $name from $candidate (targets from its manifest)" >&2
    pkg="$WORK/$name"
    while IFS='|' read -r kind target path excludes deps; do
        where=Sources
        [ "$kind" = test ] && where=Tests
        copy_sources "$candidate/$path" "$pkg/$where/$target" "$excludes"
    done <<<"$plan"
    add_imports "$pkg" "$name"
    TEST_EDITS=0
    write_generic_manifest "$pkg" "$name" "$(language_mode "$candidate")" "$plan"
    build_and_test "$pkg" "$name" "" ""
done

if [ "$FOUND" -eq 0 ]; then
    echo "third-party-compat: no Swift package in $DIR" >&2
    exit 2
fi
exit "$FAILED"
