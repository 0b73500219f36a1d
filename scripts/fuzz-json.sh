#!/bin/sh
# Fuzzes the JSON parser with libFuzzer for N seconds (default 30).
# Usage: scripts/fuzz-json.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
mkdir -p .build .build/fuzz-json-corpus
swiftc -sanitize=fuzzer,address -parse-as-library -O \
    Sources/ByteCoding/*.swift \
    Tests/Fuzz/JSONParserFuzz.swift \
    -o .build/fuzz-json
# Seeds: a few FCM-shaped documents so the fuzzer starts from realistic structure.
printf '%s' '{"message":{"token":"t","data":{"a":"1"},"notification":{"title":"x\u00e9\ud83d\ude00"}},"validate_only":true}' \
    > .build/fuzz-json-corpus/seed-fcm.json
printf '%s' '[1,-0.5e10,true,false,null,{"":[]},"\\n\\"\\/"]' > .build/fuzz-json-corpus/seed-values.json
exec scripts/run-fuzz-target.sh json "$seconds" -max_len=4096 "$@"
