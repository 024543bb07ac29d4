#!/usr/bin/env bash
# make soak: the vault's fault-injection figures at full size — SIGKILL soak (LATCHKEY_SOAK_KILLS, default
# 1000 kills), torn and damaged files (LATCHKEY_TORN_TRIALS per kind, default 500) and disk full — then the
# results table in docs/RELIABILITY.md (between the soak markers) is rewritten from this run's figures.
# Needs a built test bundle (swift build --build-tests). The short versions run in `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export LATCHKEY_SOAK_KILLS="${LATCHKEY_SOAK_KILLS:-1000}"
export LATCHKEY_TORN_TRIALS="${LATCHKEY_TORN_TRIALS:-500}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --filter 'VaultSoakTests|VaultFaultTests|VaultDiskFullTests' 2>&1 | tee "$log" \
    | grep -E '^(soak:|torn writes:|disk full|✘)' || true
grep -q '✘' "$log" && status=1
grep -Eq 'Test run with [0-9]+ tests? .*passed' "$log" || status=1

doc=docs/RELIABILITY.md
[ -f "$doc" ] || printf '# Reliability figures\n' > "$doc"
table="$(mktemp)"
{
    echo '<!-- soak:begin (written by scripts/soak.sh; do not edit by hand) -->'
    echo "### Vault fault injection ($(date -u +%Y-%m-%d), $(nproc) cores; \`make soak\`)"
    echo
    echo '| Fault | Figures |'
    echo '|---|---|'
    grep -E '^soak:' "$log" | sed -E 's/^soak: (.*)$/| SIGKILL during add\/update\/delete\/passphrase change\/unlock | \1 |/'
    grep -E '^torn writes:' "$log" | sed -E 's/^torn writes: ([^:]*): (.*)$/| \1 | \2 |/'
    grep -E '^disk full' "$log" | sed -E 's/^disk full \(([^)]*)\): FULL acknowledged=([0-9]+) reread=([0-9]+) status=(-?[0-9]+).*\| (RECOVERED [a-z]+) \| (REOPENED [0-9]+)$/| disk full: \1 | \2 items written before the failure, \3 read back; the failing write answered OSStatus \4; \5; \6 items after restart |/'
    echo
    echo 'A file refused at open is left byte-for-byte (checked on every refusal): it is validated through a'
    echo 'read-only connection. A cut or damaged WAL is refused thanks to the generation record (`<vault>.generation`),'
    echo 'where SQLite alone would silently serve older values. "refused at read": the vault opened and an item or the'
    echo 'wrapped key failed authentication (errSecDecode / errSecAuthFailed). "fewer items": SQLite checks page'
    echo 'structure, not row contents, so a flip inside a lookup MAC or class column hides that one item (it is not'
    echo 'found; no other value is ever returned for it). "wrong" must stay 0.'
    echo '<!-- soak:end -->'
} > "$table"
python3 scripts/replace-doc-section.py "$doc" "$table" soak
rm -f "$table"
echo "soak: figures written to $doc"
exit $status
