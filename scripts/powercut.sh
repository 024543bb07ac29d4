#!/usr/bin/env bash
# make powercut: simulated power cuts inside every store's operations (Tests/Powercut: an SQLite VFS in C that keeps
# what a cut keeps, and the harness that checks every acknowledged operation after each cut), POWERCUT_CUTS cuts per
# store (default 1,500: ≥ 10,000 in all), one line per store; then the results table in docs/RELIABILITY.md (between
# the powercut markers) is rewritten. POWERCUT_SEED replays a run, POWERCUT_STORES=a,b runs some stores.
# Needs a built test bundle (swift build --build-tests). A short run (40 cuts per store) is part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export POWERCUT_CUTS="${POWERCUT_CUTS:-1500}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
started=$(date +%s)
swift test --skip-build --filter 'PowercutTests' 2>&1 | tee "$log" | grep -E '^(powercut |✘)' || true
grep -q '✘' "$log" && status=1
grep -Eq 'Test run with [0-9]+ tests? .*passed' "$log" || status=1
seconds=$(( $(date +%s) - started ))

doc=docs/RELIABILITY.md
table="$(mktemp)"
{
    echo '<!-- powercut:begin (written by scripts/powercut.sh; do not edit by hand) -->'
    echo "### Simulated power cuts ($(date -u +%Y-%m-%d), $(nproc) cores, ${POWERCUT_CUTS} cuts per store, ${seconds} s; \`make powercut\`)"
    echo
    echo '| Store | Cuts | Acknowledged | Lost | Wrong | In flight, found committed | Refused at open (file untouched) | Notes |'
    echo '|---|---:|---:|---:|---:|---:|---:|---|'
    python3 - "$log" <<'PY'
import re, sys
line_re = re.compile(r"^powercut (.+?): (\d+) cuts, (\d+) acknowledged operations, (\d+) lost, (\d+) wrong, "
                     r"(\d+) in-flight found committed, (\d+) refused at open \(([^)]*)\)(?:; (.*))?$")
for line in open(sys.argv[1]):
    m = line_re.match(line.rstrip("\n"))
    if not m:
        continue
    store, cuts, acked, lost, wrong, inflight, refused, untouched, notes = m.groups()
    refused_cell = refused if untouched == "file untouched" else f"{refused} ({untouched})"
    print(f"| `{store}` | {cuts} | {acked} | {lost} | {wrong} | {inflight} | {refused_cell} | {notes or ''} |")
PY
    echo '<!-- powercut:end -->'
} > "$table"
python3 scripts/replace-doc-section.py "$doc" "$table" powercut
rm -f "$table"
echo "powercut: figures written to $doc"
exit $status
