#!/usr/bin/env bash
# Builds and runs Tests/Packages/CryptoKitVectors: an app-style package that uses only `import CryptoKit`, checked
# against published test vectors (RFCs, FIPS 180-4, NIST CAVP; see its README.md). On Linux its `CryptoKit` is this
# repository's module, so this builds only CryptoKit and what it needs (LatchkeySupport, LatchkeyOpenSSL, and for
# SecureEnclave LatchkeyTPM, LatchkeyAuthCore, LatchkeyAuthLinux, LocalAuthentication), not the rest of the package. The scratch path is under this repository's .build/, so a fresh clone works and `make clean`
# removes it.
#
# Usage: scripts/cryptokit-vectors.sh [extra `swift test` arguments, e.g. --filter ECDSA]
# Environment: SWIFT (default swift), SWIFT_FLAGS (passed to swift build and swift test, as in the Makefile).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
SWIFT=${SWIFT:-swift}
PACKAGE="$REPO/Tests/Packages/CryptoKitVectors"
SCRATCH="$REPO/.build/cryptokit-vectors"

# shellcheck disable=SC2086  # SWIFT_FLAGS is a list of flags
"$SWIFT" build ${SWIFT_FLAGS:-} --package-path "$PACKAGE" --scratch-path "$SCRATCH" --build-tests
# shellcheck disable=SC2086
"$SWIFT" test ${SWIFT_FLAGS:-} --package-path "$PACKAGE" --scratch-path "$SCRATCH" --skip-build "$@"
