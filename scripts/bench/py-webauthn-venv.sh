#!/usr/bin/env bash
# py_webauthn for `make bench`: installs the versions pinned in scripts/bench/py-webauthn-requirements.txt (PyPI, through
# pip, no other dependency resolution) into .build/py-webauthn-venv, again only when the pins change, and prints the
# path of the venv's python (latchkey-bench reads it from LATCHKEY_BENCH_PY_WEBAUTHN). Same scheme as
# scripts/contract-test.sh's schemathesis venv.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=.build/py-webauthn-venv
REQUIREMENTS=scripts/bench/py-webauthn-requirements.txt
if ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt" 2>/dev/null || [ ! -x "$VENV/bin/python" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$REQUIREMENTS" >&2
    "$VENV/bin/python" -c "import webauthn" >&2
    cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi
echo "$PWD/$VENV/bin/python"
