#!/usr/bin/env bash
# Instruction counts per call (valgrind callgrind) of one latchkey-bench figure's baseline and subject.
#   scripts/bench-instructions.sh NAME [N] [BINARY]
# NAME is a figure's exact name (as --list prints it); N calls per side (default 200); BINARY defaults to the
# release build. Prints "baseline <instr/call>  subject <instr/call>  ratio <x>". Needs valgrind (apt-get install valgrind).
set -euo pipefail
name=${1:?usage: scripts/bench-instructions.sh NAME [N] [BINARY]}
n=${2:-200}
bin=${3:-.build/release/latchkey-bench}
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install -y valgrind)" >&2; exit 69; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file="$dir/out.%p" --toggle-collect="*$1*" \
        "$bin" --filter "=$name" --instructions "$n" >"$dir/stdout" 2>"$dir/stderr" || { cat "$dir/stderr" >&2; exit 1; }
    grep -q "measured" "$dir/stdout" || { cat "$dir/stdout" >&2; exit 1; }
    grep -o 'Collected : [0-9]*' "$dir/stderr" | awk '{print $3}' | tail -1
}
base=$(count callgrindBaselineLoop)
subject=$(count callgrindSubjectLoop)
awk -v b="$base" -v s="$subject" -v n="$n" -v name="$name" \
    'BEGIN { printf "%s: baseline %.0f instr/call  subject %.0f instr/call  ratio %.3fx\n", name, b / n, s / n, s / b }'
