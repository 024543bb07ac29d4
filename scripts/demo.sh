#!/usr/bin/env bash
# The `latchkey vault` sample app end to end, non-interactively, in a throwaway directory with the
# simulated Touch ID sensor:
#   create an account, add a note, lock, fail a fingerprint match, unlock with the password, read the note,
#   then turn on Touch ID login, lock, and unlock with a matching finger.
# Usage: scripts/demo.sh PATH-TO-latchkey   (make demo builds it and passes the path)
set -euo pipefail

BIN=${1:?usage: scripts/demo.sh PATH-TO-latchkey}
[[ -x "$BIN" ]] || { echo "demo: $BIN is not an executable" >&2; exit 64; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/latchkey-demo.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

export LATCHKEY_VAULT="$WORK/notes.vault"
export LATCHKEY_AUTH_BACKEND=simulated
export LATCHKEY_SIMULATOR_STATE="$WORK/touch-id-simulator.json"
export LATCHKEY_LANG=${LATCHKEY_LANG:-en}
export XDG_STATE_HOME="$WORK/state"
PASSWORD='correct horse battery'   # demo only: scripts hand passwords over on stdin, never in argv

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run()  { printf '$ %s\n' "$*"; "$@"; }

step "A simulated device with Touch ID and a device passcode"
run "$BIN" auth simulate biometry touchid >/dev/null
printf '2468\n' | "$BIN" auth simulate set-passcode >/dev/null
run "$BIN" auth simulate enroll

step "First run: create the account (user name + password; only an Argon2id verifier is stored)"
printf 'mina\n%s\n%s\n' "$PASSWORD" "$PASSWORD" | run "$BIN" vault setup

step "Add a note (the body comes from stdin) and list the notes"
printf 'Door code: 4711\nSpare key under the blue pot.\n' | run "$BIN" vault add --title "House"
run "$BIN" vault list

step "Turn on Touch ID login (asks the password once, then a matching finger)"
run "$BIN" auth simulate match >/dev/null
printf '%s\n' "$PASSWORD" | run "$BIN" vault biometrics on

step "Lock the vault"
run "$BIN" vault lock

step "A finger that does not match: Touch ID fails, the app falls back to the password"
run "$BIN" auth simulate no-match >/dev/null
printf '%s\n' "$PASSWORD" | run "$BIN" vault show "House"

step "Lock again; this time the finger matches"
run "$BIN" vault lock
run "$BIN" auth simulate match >/dev/null
run "$BIN" vault show "House"

step "Five fingers that do not match: Touch ID locks out; the password still unlocks"
for attempt in 1 2 3 4 5 6; do
    "$BIN" vault lock >/dev/null 2>&1
    [[ $attempt -le 5 ]] && "$BIN" auth simulate no-match >/dev/null
    printf '%s\n' "$PASSWORD" | "$BIN" vault unlock 2>&1 | grep -E "did not recognise|locked out|Unlocked" | sed "s/^/  attempt $attempt: /"
done

step "Status: biometry type, lockout state, session, integrity findings"
run "$BIN" vault status

step "Done. The vault file holds only sealed items and HMACs:"
if command -v sqlite3 >/dev/null; then
    sqlite3 "$LATCHKEY_VAULT" 'SELECT class, length(value) AS sealed_bytes FROM items' 2>/dev/null || true
fi
if grep -rq "Door code" "$WORK" 2>/dev/null; then echo "demo: plaintext found in the vault!" >&2; exit 1; fi
echo "(no plaintext of the note in the vault, its WAL or any other file in $WORK)"
