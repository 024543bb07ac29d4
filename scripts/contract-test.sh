#!/usr/bin/env bash
# The HTTP API against its contract: schemathesis (PyPI, pinned in scripts/contract/requirements.txt, installed into
# .build/contract-venv) generates requests from docs/openapi.yaml and runs every check, stateful sequences through the
# document's links included, against a throwaway `latchkey serve` (SQLite in a temporary directory). Called by
# `make test` after `swift test`; fails on any failure or error, on a server that does not stop cleanly, and on the
# seeded password appearing in the server's log.
#
# Bounded: LATCHKEY_CONTRACT_SECONDS (default 90) is schemathesis's time budget (its phases repeat, with the test cases
# per operation and phase set in scripts/contract/schemathesis.toml, until it is spent), LATCHKEY_CONTRACT_SEED
# (default 28) seeds the generation, a hard stop comes after LATCHKEY_CONTRACT_TIMEOUT seconds (default 600), and any
# response slower than 10 s is a failure. LATCHKEY_CONTRACT_ARGS adds schemathesis options
# (e.g. `--report har --report-dir /tmp/reports`).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.build/contract-venv
REQUIREMENTS=scripts/contract/requirements.txt
if ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt" 2>/dev/null || [ ! -x "$VENV/bin/schemathesis" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$REQUIREMENTS"
    cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi

BIN="$(${SWIFT:-swift} build --show-bin-path)/latchkey"
[ -x "$BIN" ] || ${SWIFT:-swift} build --product latchkey

WORK=$(mktemp -d /tmp/latchkey-contract.XXXXXX)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -KILL "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# Apple's key endpoint points at a closed loopback port: an identity token or notification that gets as far as a
# key lookup fails at once instead of reaching for the network. Two iOS apps make the associated-domain file a 200.
# App Attest is on for one of them with its default policy (report): the challenge endpoint answers 200, attestations
# are verified (and fail: nothing here holds an attested key), and the X-App-Attest-Assertion header schemathesis sends
# is checked and reported without refusing sign-up or refresh. The step-up max age is a day, longer than the run, so
# whether a token is recent enough for DELETE /v1/me never depends on how fast the machine is (scripts/contract/hooks.py).
"$BIN" serve --port 0 --database "sqlite:$WORK/server.sqlite" --access-log --trusted-proxy 127.0.0.1 --step-up-max-age 86400 \
    --apple-client-id org.latchkey.contract --apple-base-url http://127.0.0.1:9 \
    --apple-app-id A1B2C3D4E5.org.latchkey.contract --apple-app-id A1B2C3D4E5.org.latchkey.contract-beta \
    --app-attest-app-id A1B2C3D4E5.org.latchkey.contract \
    >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 1 3000); do
    grep -q "^listening on " "$WORK/server.out" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.err" >&2; echo "contract-test: the server did not start" >&2; exit 1; }
    sleep 0.1
done
BASE=$(sed -n 's/^listening on //p' "$WORK/server.out" | head -n 1)
[ -n "$BASE" ] || { echo "contract-test: the server did not start listening" >&2; exit 1; }

export LATCHKEY_CONTRACT_USERNAME="contract-user"
LATCHKEY_CONTRACT_PASSWORD="contract-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export LATCHKEY_CONTRACT_PASSWORD
seeded=$("$VENV/bin/python" scripts/contract/seed.py "$BASE" "$LATCHKEY_CONTRACT_USERNAME" "$LATCHKEY_CONTRACT_PASSWORD" 3)
echo "$seeded" | grep -v "^account_id="
LATCHKEY_CONTRACT_ACCOUNT_ID=$(echo "$seeded" | sed -n 's/^account_id=//p')
LATCHKEY_CONTRACT_URL=$BASE
export LATCHKEY_CONTRACT_ACCOUNT_ID LATCHKEY_CONTRACT_URL

started=$(date +%s)
status=0
# Run from the scratch directory: schemathesis and Hypothesis keep caches in the working directory.
ROOT=$PWD
(cd "$WORK" && PYTHONPATH="$ROOT/scripts/contract" timeout --signal=INT --kill-after=30 "${LATCHKEY_CONTRACT_TIMEOUT:-600}" \
    "$ROOT/$VENV/bin/schemathesis" --config-file "$ROOT/scripts/contract/schemathesis.toml" run "$ROOT/docs/openapi.yaml" \
    --url "$BASE" --checks all --seed "${LATCHKEY_CONTRACT_SEED:-28}" --max-time "${LATCHKEY_CONTRACT_SECONDS:-90}" \
    --max-response-time 10 --request-timeout 30 --no-color ${LATCHKEY_CONTRACT_ARGS:-}) \
    >"$WORK/schemathesis.txt" 2>&1 || status=$?
elapsed=$(( $(date +%s) - started ))

kill -TERM "$SERVER_PID"
server_status=0
wait "$SERVER_PID" || server_status=$?
SERVER_PID=""

cases=$(grep -E "^ +[0-9]+ generated" "$WORK/schemathesis.txt" | tail -n 1 | sed 's/^ *//')
requests=$(grep -c "method=" "$WORK/server.err" || true)
if [ "$status" -ne 0 ]; then
    cat "$WORK/schemathesis.txt"
    echo "contract-test: schemathesis failed (exit $status) after ${elapsed} s: $cases" >&2
    exit 1
fi
if [ "$server_status" -ne 0 ]; then
    tail -n 50 "$WORK/server.err" >&2
    echo "contract-test: the server exited with $server_status after SIGTERM" >&2
    exit 1
fi
if grep -qF "$LATCHKEY_CONTRACT_PASSWORD" "$WORK/server.err" "$WORK/server.out"; then
    echo "contract-test: the seeded password appears in the server's output" >&2
    exit 1
fi
sed -n '/^ *✅  Loaded/,$p' "$WORK/schemathesis.txt" | grep -v "^ *$" | sed 's/^/  /'
echo "contract-test: passed in ${elapsed} s: $cases; the server answered $requests requests"
