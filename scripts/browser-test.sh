#!/usr/bin/env bash
# Passkeys in a real browser (headless Chromium + virtual authenticator) against `latchkey serve`.
# Selenium comes from PyPI into .venv (offline after the first install); Chromium and its driver from Debian.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import selenium" 2>/dev/null; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check "selenium>=4.20,<5"
fi
BIN="$(swift build --show-bin-path)/latchkey"
[ -x "$BIN" ] || swift build --product latchkey
.venv/bin/python Tests/Browser/passkey_browser_test.py "$BIN"
