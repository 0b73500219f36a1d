#!/bin/sh
# Fuzzes the FCM send request fast decoder against the general path with libFuzzer for N
# seconds (default 30). Usage: scripts/fuzz-fcm-decode.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
corpus=.build/fuzz-fcm-decode-corpus
mkdir -p .build "$corpus"
# The decoder reaches into the message model, its validation and Google's errors: all of PushCore,
# over the ByteCoding module.
scripts/build-fuzz-modules.sh
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PushCore \
    -I .build/fuzz-modules -L .build/fuzz-modules -lByteCoding -lLocking \
    Sources/PushCore/*.swift Sources/PushCore/*/*.swift \
    Tests/Fuzz/FCMSendRequestDecoderFuzz.swift \
    -o .build/fuzz-fcm-decode
# Seeds: the benchmark body, every field in both spellings, and strings with escapes.
printf '%s' '{"message":{"token":"bench:APA91b","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1","customKey":"customValue"},"apns":{"headers":{"apns-priority":"10"},"payload":{"aps":{"badge":1,"sound":"default"}}}}}' \
    > "$corpus/seed-bench.json"
printf '%s' '{"validate_only":true,"message":{"name":"n","token":"t","data":{"b":"2"},"notification":{"title":"x","body":"","image":"i"},"android":{"collapse_key":"c","priority":"high","ttl":"3.5s","restricted_package_name":"p","data":{"k":"v"},"notification":{"channel_id":"g","notification_priority":"priority_high","vibrate_timings":["1s"]},"fcm_options":{"analytics_label":"a"},"direct_boot_ok":true,"bandwidth_constrained_ok":false,"restricted_satellite_ok":true},"webpush":{"headers":{"TTL":"60"},"data":{"w":"1"},"notification":{"requireInteraction":true},"fcm_options":{"link":"https://x","analytics_label":"w"}},"apns":{"headers":{"apns-priority":"5"},"payload":{"aps":{"content-available":1},"c":[1,"two",null]},"fcm_options":{"analytics_label":"i","image":"https://x"},"live_activity_token":"l"},"fcm_options":{"analytics_label":"all"}}}' \
    > "$corpus/seed-snake.json"
printf '%s' '{"validateOnly":false,"message":{"topic":"news","android":{"collapseKey":"c","priority":"NORMAL","restrictedPackageName":"p","notification":{"channelId":"g","notificationPriority":4},"fcmOptions":{"analyticsLabel":"a"},"directBootOk":true,"bandwidthConstrainedOk":true,"restrictedSatelliteOk":true},"webpush":{"fcmOptions":{"analyticsLabel":"w"}},"apns":{"fcmOptions":{"analyticsLabel":"i"},"liveActivityToken":"l"},"fcmOptions":{"analyticsLabel":"all"}}}' \
    > "$corpus/seed-camel.json"
printf '%s' '{ "message" : { "condition" : "'"'"'a'"'"' in topics && !('"'"'b'"'"' in topics)", "data" : { "k\u0041\n" : "caf\u00e9 \ud83d\ude00 \"q\"" , "" : "" } } }' \
    > "$corpus/seed-escapes.json"
# Every field name, so that mutations reach the decoder's keys.
dict=.build/fuzz-fcm-decode.dict
: > "$dict"
for name in message validate_only validateOnly name token topic condition fid data notification android webpush \
    apns fcm_options fcmOptions analytics_label analyticsLabel title body image collapse_key collapseKey priority ttl \
    restricted_package_name restrictedPackageName direct_boot_ok directBootOk bandwidth_constrained_ok \
    bandwidthConstrainedOk restricted_satellite_ok restrictedSatelliteOk headers payload link live_activity_token \
    liveActivityToken channel_id notification_priority high normal HIGH 3.5s aps null true false; do
    printf '"\\"%s\\""\n' "$name" >> "$dict"
done
# FCMSchema's tables are built once and kept for good, but LeakSanitizer reports them at exit:
# Swift keeps an enum's case in spare bits of the payload pointer (FCMProtoKind), which LSan does
# not recognize as a reference. Only allocations made while building the schema are suppressed.
printf 'leak:FCMSchema\n' > .build/fuzz-fcm-decode.supp
export LSAN_OPTIONS="suppressions=.build/fuzz-fcm-decode.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec scripts/run-fuzz-target.sh fcm-decode "$seconds" -max_len=4096 -dict="$dict" "$@"
