#!/bin/sh
# Fuzzes the APNs provider API's request checks (path token, apns-* headers, payload) and the push's
# way into a device queue with libFuzzer for N seconds (default 30).
# Usage: scripts/fuzz-apns-request.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
corpus=.build/fuzz-apns-request-corpus
mkdir -p .build "$corpus"
# A push reaches the checks, the JSON validator and parser, and the queues: all of PushCore, over
# the ByteCoding and Locking modules.
scripts/build-fuzz-modules.sh
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PushCore \
    -I .build/fuzz-modules -L .build/fuzz-modules -lByteCoding -lLocking \
    Sources/PushCore/*.swift Sources/PushCore/*/*.swift \
    Tests/Fuzz/APNsRequestFuzz.swift \
    -o .build/fuzz-apns-request
# Seeds (a flags byte, the token, headers, an empty line, the body): the bench's push; one with every
# header, an uppercase token and an apns-id; a background push without a push type; a voip push
# without a topic (the flags byte's bit 0 clear); near misses.
seed() { printf "$2" > "$corpus/$1"; }
seed bench '\001bebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebe\nauthorization:bearer x.y.z\napns-topic:com.example.bench\napns-push-type:alert\n\n{"aps":{"alert":{"title":"Portugal vs. Denmark","body":"great match!"},"badge":1,"sound":"default"},"matchId":"42"}'
seed every-header '\001ABCDEF0123456789\napns-id:6F1C2A4E-9B3D-4C1E-8F00-1A2B3C4D5E6F\napns-topic:com.example.app.voip\napns-push-type:voip\napns-priority:10\napns-expiration:1795345200\napns-collapse-id:score\napns-custom:x\n\n{"callerName":"Ana"}'
seed background '\001cdcd\napns-topic:com.example.app\napns-priority:5\n\n{"aps":{"content-available":1}}'
seed no-topic '\000abab\napns-push-type:voip\napns-expiration:0\n\n{"aps":{"alert":"\\u00e9"}}'
seed near-misses '\001abc\napns-id:6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6\napns-topic:.com.example\napns-priority:+5\napns-expiration:-1\napns-topic:x\n\n[1]'
dict=.build/fuzz-apns-request.dict
: > "$dict"
for word in authorization apns-id apns-topic apns-priority apns-push-type apns-expiration apns-collapse-id alert \
    background location voip complication fileprovider mdm liveactivity pushtotalk widgets controls .voip \
    .complication .pushkit.fileprovider .push-type.liveactivity .location-query .voip-ptt .push-type.widgets \
    .push-type.controls aps content-available; do
    printf '"%s"\n' "$word" >> "$dict"
done
printf 'leak:FCMSchema\n' > .build/fuzz-apns-request.supp
export LSAN_OPTIONS="suppressions=.build/fuzz-apns-request.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec scripts/run-fuzz-target.sh apns-request "$seconds" -max_len=8192 -dict="$dict" "$@"
