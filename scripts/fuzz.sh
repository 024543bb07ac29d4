#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser (issue 14), with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh                 build, then run every target for FUZZ_SECONDS (default 60) each
#   FUZZ_TARGETS="cbor jwt" ...     only these targets
#   scripts/fuzz.sh --build         only build .build/fuzz/release/latchkey-fuzz
#   FUZZ_BIN=/path/latchkey-fuzz    use that binary (built before) instead of building; for long campaigns, a copy
#                                   that later builds do not replace
#   FUZZ_WORK=DIR                   the growing corpora, crash artifacts and logs (default .build/fuzz)
#   FUZZ_TIMEOUT=S                  seconds one input may take before it counts as a finding (default 10)
#
# The fuzz driver exists only when Package.swift is evaluated with LATCHKEY_FUZZ=1 and is built into its own
# scratch path (.build/fuzz), so `swift build` / `swift test` never see the sanitizer flags. Seeds are
# Tests/Fuzz/Corpus/<target>/ (missing ones are written by the driver; X.509 ones are made with openssl);
# the growing corpus lives in .build/fuzz/corpus/<target>/. A crash, sanitizer report, timeout, leak or
# broken property is copied to Tests/Fuzz/Regressions/<target>/, which LatchkeyServerTests replays in
# `make test`; before fuzzing a target, its regressions are replayed here too, under AddressSanitizer and
# LeakSanitizer (a leak or crash there fails the run). The results table in docs/RELIABILITY.md is rewritten
# between its markers.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
ALL_TARGETS="cbor cose attestation client-data jwt jwk x509 phc http query-dictionary file-vault app-attest"
FUZZ_TARGETS=${FUZZ_TARGETS:-$ALL_TARGETS}
SCRATCH=.build/fuzz
BIN=${FUZZ_BIN:-$SCRATCH/release/latchkey-fuzz}
WORK=${FUZZ_WORK:-$SCRATCH}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
DOC=docs/RELIABILITY.md

if [ -z "${FUZZ_BIN:-}" ]; then
    echo "== building latchkey-fuzz (release, -sanitize=fuzzer,address) into $SCRATCH"
    LATCHKEY_FUZZ=1 $SWIFT build -c release --scratch-path "$SCRATCH" --product latchkey-fuzz \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 |
        grep -v "Cannot export local symbol '__asan_extra_spill_area'" || true
fi
[ -x "$BIN" ] || { echo "fuzz.sh: the build did not produce $BIN" >&2; exit 1; }
[ "${1:-}" = "--build" ] && exit 0

# No Swift backtracer (it would race AddressSanitizer on a crash); leaks are reported at exit.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Tests/Fuzz/lsan.supp:print_suppressions=0}

# Seeds: the driver writes the ones that are missing (never overwrites); X.509 seeds from openssl.
LATCHKEY_FUZZ_SEEDS=Tests/Fuzz/Corpus "$BIN" >/dev/null 2>&1 || true
x509=Tests/Fuzz/Corpus/x509
if [ -z "$(ls -A "$x509" 2>/dev/null)" ] && command -v openssl >/dev/null; then
    mkdir -p "$x509"
    tmp=$(mktemp -d)
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$tmp/ca.key" -subj "/CN=Fuzz Root/O=Latchkey" \
        -days 3650 -addext basicConstraints=critical,CA:true -outform DER -out "$x509/seed-00" 2>/dev/null
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$tmp/leaf.key" \
        -subj "/C=US/O=Latchkey/OU=Authenticator Attestation/CN=Fuzz Leaf" -out "$tmp/leaf.csr" 2>/dev/null
    printf 'basicConstraints=critical,CA:false\n1.3.6.1.4.1.45724.1.1.4=ASN1:FORMAT:HEX,OCTETSTRING:000102030405060708090a0b0c0d0e0f\n' >"$tmp/ext"
    openssl x509 -req -in "$tmp/leaf.csr" -CA "$x509/seed-00" -CAform DER -CAkey "$tmp/ca.key" -days 365 \
        -extfile "$tmp/ext" -outform DER -out "$x509/seed-01" 2>/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/rsa.key" -subj "/CN=Fuzz RSA" -days 30 \
        -outform DER -out "$x509/seed-02" 2>/dev/null
    rm -rf "$tmp"
fi

rows=()
total_crashes=0
for target in $FUZZ_TARGETS; do
    corpus=$WORK/corpus/$target
    artifacts=$WORK/artifacts/$target
    log=$WORK/logs/$target.log
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")" "Tests/Fuzz/Corpus/$target"
    rm -f "$artifacts"/*
    crashes=0
    regressions=(Tests/Fuzz/Regressions/"$target"/*)
    if [ -f "${regressions[0]}" ]; then
        # Each file once, with libFuzzer's leak check after it (a file that allocates more than it frees is run again,
        # then LeakSanitizer looks).
        if ! LATCHKEY_FUZZ_TARGET=$target "$BIN" "${regressions[@]}" >"$WORK/logs/$target-replay.log" 2>&1; then
            crashes=1
            echo "   replay of Tests/Fuzz/Regressions/$target failed (log: $WORK/logs/$target-replay.log)"
        fi
    fi
    echo "== $target: ${FUZZ_SECONDS}s"
    set +e
    LATCHKEY_FUZZ_TARGET=$target "$BIN" "$corpus" "Tests/Fuzz/Corpus/$target" \
        -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
    set -e
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    units=$(ls "$corpus" | wc -l)
    for artifact in "$artifacts"/*; do
        [ -f "$artifact" ] || continue
        crashes=$((crashes + 1))
        mkdir -p "Tests/Fuzz/Regressions/$target"
        cp "$artifact" "Tests/Fuzz/Regressions/$target/"
        echo "   crash: Tests/Fuzz/Regressions/$target/$(basename "$artifact") (log: $log)"
    done
    total_crashes=$((total_crashes + crashes))
    printf '   executions %s (%s/s), cov %s, ft %s, corpus %s, crashes %s\n' \
        "${executions:-0}" "${speed:-0}" "${cov:-0}" "${ft:-0}" "$units" "$crashes"
    rows+=("| \`$target\` | ${FUZZ_SECONDS} | ${executions:-0} | ${speed:-0} | ${cov:-0} | ${ft:-0} | $units | $crashes |")
done

# The results table, between the markers of docs/RELIABILITY.md (only for a run of every target).
if [ "$FUZZ_TARGETS" = "$ALL_TARGETS" ] && [ -f "$DOC" ]; then
    table=$(mktemp)
    {
        echo "<!-- fuzz-results:begin (written by scripts/fuzz.sh; do not edit by hand) -->"
        echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'), ${FUZZ_SECONDS} s per target, $(nproc) cores, $($SWIFT --version 2>/dev/null | head -1)."
        echo
        echo "| Target | Seconds | Executions | Exec/s | Coverage (cov) | Features (ft) | Corpus | Crashes |"
        echo "|---|---:|---:|---:|---:|---:|---:|---:|"
        printf '%s\n' "${rows[@]}"
        echo "<!-- fuzz-results:end -->"
    } >"$table"
    python3 scripts/replace-doc-section.py "$DOC" "$table" fuzz-results
    rm -f "$table"
    echo "== results table written to $DOC"
fi

if [ "$total_crashes" -gt 0 ]; then
    echo "fuzz.sh: $total_crashes crash(es); inputs are in Tests/Fuzz/Regressions/ (replayed by make test)" >&2
    exit 1
fi
echo "== no crashes"
