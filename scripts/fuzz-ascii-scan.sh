#!/bin/sh
# Fuzzes ASCIIScan's vectorizable byte checks against their plain definitions with libFuzzer for
# N seconds (default 30).
# Usage: scripts/fuzz-ascii-scan.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
mkdir -p .build .build/fuzz-ascii-scan-corpus
swiftc -sanitize=fuzzer,address -parse-as-library -O \
    Sources/ByteCoding/*.swift \
    Tests/Fuzz/ASCIIScanFuzz.swift \
    -o .build/fuzz-ascii-scan
# Seeds: a device token in both cases, text that is neither hex nor capitals, a header value with controls.
corpus=.build/fuzz-ascii-scan-corpus
printf '%s' "bebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebe" > "$corpus/seed-token"
printf '%s' "BEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBg" > "$corpus/seed-token-upper"
printf '%s' "com.example.app-1_x.voip" > "$corpus/seed-bundle"
printf '%s' "com.example.app/1" > "$corpus/seed-bundle-miss"
printf 'Bearer ya29.c.b0AX-_~+/= \t\177\r' > "$corpus/seed-field-value"
exec scripts/run-fuzz-target.sh ascii-scan "$seconds" -max_len=4096 "$@"
