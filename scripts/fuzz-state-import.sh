#!/bin/sh
# Fuzzes state import (PUT /emulator/v1/state, --import) with libFuzzer for N seconds (default 30).
# Usage: scripts/fuzz-state-import.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
corpus=.build/fuzz-state-import-corpus
mkdir -p .build "$corpus"
# Import reaches every part of the core: all of PushCore, over the ByteCoding and Locking modules.
scripts/build-fuzz-modules.sh
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PushCore \
    -I .build/fuzz-modules -L .build/fuzz-modules -lByteCoding -lLocking \
    Sources/PushCore/*.swift Sources/PushCore/*/*.swift \
    Tests/Fuzz/StateImportFuzz.swift \
    -o .build/fuzz-state-import
# Seed: a snapshot with a device (subscribed, one pending delivery, owed a deletion signal), an
# uninstalled token, a topic, a delivered APNs push, the log and a seeded fault.
printf '%s' '{"kind":"push-emulator-state","version":1,"clock":{"offsetSeconds":3600},"counters":{"nextMessageId":"1795341600000000003","nextDeliveryNumber":3},"projects":[{"projectId":"demo","devices":[{"token":"device-1","apnsToken":"abababababababababababababababababababababababababababababababab","platform":"ios","bundleId":"com.example.app","appState":"background","registeredAt":"2026-11-22T10:00:00Z","lastConnectedAt":null,"sequence":1,"subscriptions":[{"topic":"news","createdAt":"2026-11-22T10:00:00Z","sequence":1}],"pendingDeliveries":[2],"messageLogSequences":[1,2],"owedMessagesDeleted":{"reason":"tooManyPending","count":3}}],"uninstalledTokens":[{"token":"device-3","uninstalledAt":"2026-11-22T10:00:00.250Z","messageLogSequences":[]}],"uninstalledApnsTokens":[{"apnsToken":"cdcd","uninstalledAt":"2026-11-22T10:00:00Z"}],"topics":[{"name":"news","createdAt":"2026-11-22T10:00:00Z","sequence":1}],"deliveries":[{"number":1,"messageName":"projects/demo/messages/1795341600000000001","token":"device-1","origin":"apns","expiresAt":"2026-12-22T10:00:00Z","nowOrNever":false,"headers":[{"name":"apns-push-type","value":"alert"},{"name":"apns-collapse-id","value":"c"}],"payload":"{\"aps\": {\"alert\": \"hi\"}}","presentedAppState":"background","history":[{"state":"pending","at":"2026-11-22T10:00:00Z"},{"state":"delivered","at":"2026-11-22T10:00:01Z"}]},{"number":2,"messageName":"projects/demo/messages/1795341600000000002","token":"device-1","origin":"fcm","expiresAt":"2026-12-22T10:00:00Z","nowOrNever":false,"headers":[{"name":"apns-id","value":"6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6f"}],"payload":"{\"aps\":{\"content-available\":1},\"k\":\"v\"}","presentedAppState":"background","history":[{"state":"pending","at":"2026-11-22T10:00:00Z"}]}],"messageLog":[{"sequence":1,"name":"projects/demo/messages/1795341600000000001","origin":"apns","sentAt":"2026-11-22T10:00:00Z","target":{"apnsToken":"abab"},"request":{"aps":{"alert":"hi"}},"firstDeliveryNumber":1,"deliveryCount":1},{"sequence":2,"name":"projects/demo/messages/1795341600000000002","origin":"fcm","sentAt":"2026-11-22T10:00:00Z","target":{"condition":"'"'"'news'"'"' in topics"},"request":{"message":{}},"firstDeliveryNumber":2,"deliveryCount":1}],"faults":[{"id":"1","match":{"token":"device-1"},"error":"UNAVAILABLE","times":5,"probability":0.5,"seed":7,"fired":1,"matched":2,"randomState":12345}],"next":{"deviceSequence":2,"topicSequence":2,"subscriptionSequence":2,"logSequence":3,"faultId":2}}]}' \
    > "$corpus/seed-state.json"
dict=.build/fuzz-state-import.dict
: > "$dict"
for name in kind version clock offsetSeconds counters nextMessageId nextDeliveryNumber projects projectId devices \
    uninstalledTokens uninstalledApnsTokens topics deliveries messageLog faults next token apnsToken platform bundleId \
    appState registeredAt lastConnectedAt sequence subscriptions pendingDeliveries messageLogSequences \
    owedMessagesDeleted pending delivered expired collapsed deleted dropped fcm apns; do
    printf '"\\"%s\\""\n' "$name" >> "$dict"
done
printf 'leak:FCMSchema\n' > .build/fuzz-state-import.supp
export LSAN_OPTIONS="suppressions=.build/fuzz-state-import.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec scripts/run-fuzz-target.sh state-import "$seconds" -max_len=8192 -dict="$dict" "$@"
