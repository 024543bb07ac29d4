#!/usr/bin/env bash
# Rewrites the documents generated from the conformance tables in docs/conformance/:
#   docs/conformance/access-control-combinations.tsv   every SecAccessControlCreateFlags combination, from the
#                                                        rules of access-control.tsv
#   docs/COMPATIBILITY.md, between <!-- conformance:begin --> and <!-- conformance:end -->
# `make test` fails while either differs from what the tables give (KeychainConformanceTests, Documents suite);
# run this after editing a table.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
LATCHKEY_WRITE_CONFORMANCE=1 swift test --skip-build --filter 'KeychainConformanceTests.*Documents'
git --no-pager diff --stat -- docs/COMPATIBILITY.md docs/conformance || true
