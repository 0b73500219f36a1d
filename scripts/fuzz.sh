#!/bin/sh
# Builds one libFuzzer target with swiftc, seeds its corpus and runs it for N seconds (default 30);
# `openapi` is the schemathesis run of the admin and device API (scripts/fuzz-openapi.sh).
# Usage: scripts/fuzz.sh TARGET [seconds] [extra libFuzzer flags...]
#        scripts/fuzz.sh --list      the targets, one a line (`make fuzz` runs them all)
# The target is .build/fuzz-TARGET, its corpus .build/fuzz-TARGET-corpus, and a crash's input is
# written to .build/fuzz-TARGET-artifacts/.
set -eu
cd "$(dirname "$0")/.."

targets="apns-request ascii-scan condition fcm-decode http1 http-response json provider-token request-headers state-import openapi"
if [ "${1:-}" = --list ]; then
    for target in $targets; do echo "$target"; done
    exit 0
fi
[ $# -ge 1 ] || { echo "usage: scripts/fuzz.sh TARGET [seconds] [libFuzzer flags...] (scripts/fuzz.sh --list)" >&2; exit 2; }
target=$1
seconds="${2:-30}"
shift
[ $# -gt 0 ] && shift
[ "$target" = openapi ] && exec scripts/fuzz-openapi.sh "$seconds"

# Every Swift file of a module, however deep its folders.
module() { find "Sources/$1" -name '*.swift' | sort; }

corpus=.build/fuzz-$target-corpus
# seed NAME FORMAT: a seed written by printf from FORMAT (\n, \000 and the like); text NAME TEXT: as it stands.
seed() { printf "$2" > "$corpus/$1"; }
text() { printf '%s' "$2" > "$corpus/$1"; }

# The table. Each target sets: sources (the files swiftc compiles), flags (-module-name, when the
# fuzzer's file reads the module's internals), libs (the modules it links, built below with the
# fuzzers' instrumentation), max_len (empty: libFuzzer's default), words (the dictionary: libFuzzer
# strings, one a line), and seeds (a function that writes the starting corpus).
# FCMSchema's tables are built once and kept for good, but LeakSanitizer reports them at exit: Swift
# keeps an enum's case in spare bits of the payload pointer (FCMProtoKind), which LSan does not
# recognize as a reference. Targets that reach the schema suppress allocations made while building it.
flags= libs= max_len=4096 words= leaks=
# "key" becomes "\"key\"", the key as it stands in JSON.
json_keys() { for key in "$@"; do printf '"\\"%s\\""\n' "$key"; done; }
plain_words() { for word in "$@"; do printf '"%s"\n' "$word"; done; }
case $target in
apns-request)
    # The APNs provider API's request checks (path token, apns-* headers, payload) and the push's way
    # into a device queue: all of PushCore.
    sources="$(module PushCore) Tests/Fuzz/APNsRequestFuzz.swift"
    flags="-module-name PushCore" libs="ByteCoding Locking" max_len=8192 leaks=FCMSchema
    words=$(plain_words authorization apns-id apns-topic apns-priority apns-push-type apns-expiration \
        apns-collapse-id alert background location voip complication fileprovider mdm liveactivity pushtotalk \
        widgets controls .voip .complication .pushkit.fileprovider .push-type.liveactivity .location-query \
        .voip-ptt .push-type.widgets .push-type.controls aps content-available)
    # Seeds (a flags byte, the token, headers, an empty line, the body): the bench's push; one with
    # every header, an uppercase token and an apns-id; a background push without a push type; a voip
    # push without a topic (the flags byte's bit 0 clear); near misses.
    seeds() {
        seed bench '\001bebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebe\nauthorization:bearer x.y.z\napns-topic:com.example.bench\napns-push-type:alert\n\n{"aps":{"alert":{"title":"Portugal vs. Denmark","body":"great match!"},"badge":1,"sound":"default"},"matchId":"42"}'
        seed every-header '\001ABCDEF0123456789\napns-id:6F1C2A4E-9B3D-4C1E-8F00-1A2B3C4D5E6F\napns-topic:com.example.app.voip\napns-push-type:voip\napns-priority:10\napns-expiration:1795345200\napns-collapse-id:score\napns-custom:x\n\n{"callerName":"Ana"}'
        seed background '\001cdcd\napns-topic:com.example.app\napns-priority:5\n\n{"aps":{"content-available":1}}'
        seed no-topic '\000abab\napns-push-type:voip\napns-expiration:0\n\n{"aps":{"alert":"\\u00e9"}}'
        seed near-misses '\001abc\napns-id:6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6\napns-topic:.com.example\napns-priority:+5\napns-expiration:-1\napns-topic:x\n\n[1]'
    }
    ;;
ascii-scan)
    # ASCIIScan's vectorizable byte checks against their plain definitions.
    sources="$(module ByteCoding) Tests/Fuzz/ASCIIScanFuzz.swift"
    # Seeds: a device token in both cases, text that is neither hex nor capitals, a header value with controls.
    seeds() {
        text seed-token bebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebebe
        text seed-token-upper BEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBg
        text seed-bundle com.example.app-1_x.voip
        text seed-bundle-miss com.example.app/1
        seed seed-field-value 'Bearer ya29.c.b0AX-_~+/= \t\177\r'
    }
    ;;
condition)
    # The FCM topic-condition parser, from its own files.
    sources="Sources/PushCore/Topics/TopicNameCharacter.swift Sources/PushCore/Topics/TopicConditionToken.swift
        Sources/PushCore/Topics/TopicConditionTokenizer.swift Sources/PushCore/Topics/TopicConditionParser.swift
        Sources/PushCore/Topics/TopicConditionError.swift Sources/PushCore/Topics/TopicCondition.swift
        Tests/Fuzz/TopicConditionFuzz.swift"
    # Seeds: Google's example, every operator and spelling variant, and a few near misses.
    seeds() {
        text seed-google "'stock-GOOG' in topics && ('industry-tech' in topics || !('news' in topics))"
        text seed-variants "\"a\" in topics||'b'in topics&&!!'c' in topics"
        seed seed-whitespace "!(('a_b.c~d%%e' in topics\t&&\n'f' in topics) || 'g' in topics)"
        text seed-five "'a' in topics && 'b' in topics && 'c' in topics && 'd' in topics && 'e' in topics"
        text seed-broken "('a' in topic & 'b c' in topics | news"
    }
    ;;
fcm-decode)
    # The FCM send request's one-pass decoder against the general path: it reaches into the message
    # model, its validation and Google's errors, all of PushCore.
    sources="$(module PushCore) Tests/Fuzz/FCMSendRequestDecoderFuzz.swift"
    flags="-module-name PushCore" libs="ByteCoding Locking" leaks=FCMSchema
    # Every field name, so that mutations reach the decoder's keys.
    words=$(json_keys message validate_only validateOnly name token topic condition fid data notification android \
        webpush apns fcm_options fcmOptions analytics_label analyticsLabel title body image collapse_key collapseKey \
        priority ttl restricted_package_name restrictedPackageName direct_boot_ok directBootOk \
        bandwidth_constrained_ok bandwidthConstrainedOk restricted_satellite_ok restrictedSatelliteOk headers \
        payload link live_activity_token liveActivityToken channel_id notification_priority high normal HIGH 3.5s \
        aps null true false)
    # Seeds: the benchmark body, every field in both spellings, and strings with escapes.
    seeds() {
        text seed-bench.json '{"message":{"token":"bench:APA91b","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1","customKey":"customValue"},"apns":{"headers":{"apns-priority":"10"},"payload":{"aps":{"badge":1,"sound":"default"}}}}}'
        text seed-snake.json '{"validate_only":true,"message":{"name":"n","token":"t","data":{"b":"2"},"notification":{"title":"x","body":"","image":"i"},"android":{"collapse_key":"c","priority":"high","ttl":"3.5s","restricted_package_name":"p","data":{"k":"v"},"notification":{"channel_id":"g","notification_priority":"priority_high","vibrate_timings":["1s"]},"fcm_options":{"analytics_label":"a"},"direct_boot_ok":true,"bandwidth_constrained_ok":false,"restricted_satellite_ok":true},"webpush":{"headers":{"TTL":"60"},"data":{"w":"1"},"notification":{"requireInteraction":true},"fcm_options":{"link":"https://x","analytics_label":"w"}},"apns":{"headers":{"apns-priority":"5"},"payload":{"aps":{"content-available":1},"c":[1,"two",null]},"fcm_options":{"analytics_label":"i","image":"https://x"},"live_activity_token":"l"},"fcm_options":{"analytics_label":"all"}}}'
        text seed-camel.json '{"validateOnly":false,"message":{"topic":"news","android":{"collapseKey":"c","priority":"NORMAL","restrictedPackageName":"p","notification":{"channelId":"g","notificationPriority":4},"fcmOptions":{"analyticsLabel":"a"},"directBootOk":true,"bandwidthConstrainedOk":true,"restrictedSatelliteOk":true},"webpush":{"fcmOptions":{"analyticsLabel":"w"}},"apns":{"fcmOptions":{"analyticsLabel":"i"},"liveActivityToken":"l"},"fcmOptions":{"analyticsLabel":"all"}}}'
        text seed-escapes.json '{ "message" : { "condition" : "'"'"'a'"'"' in topics && !('"'"'b'"'"' in topics)", "data" : { "k\u0041\n" : "caf\u00e9 \ud83d\ude00 \"q\"" , "" : "" } } }'
    }
    ;;
http1)
    # The HTTP/1 parser, from its own files and the header list it fills.
    sources="$(find Sources/HTTPServer/HTTP1 -name 'HTTP1Parser*.swift' | sort) Sources/HTTPServer/HTTP1/HTTP1RequestHead.swift
        Sources/HTTPServer/Messages/HTTPHeaders.swift Sources/HTTPServer/Messages/HTTPHeaderFieldBytes.swift
        Sources/HTTPServer/Messages/HTTPHeadersIterator.swift Sources/HTTPServer/Messages/BytesEqualLiteral.swift
        Tests/Fuzz/HTTP1ParserFuzz.swift"
    libs="ByteCoding Locking" max_len=
    # Words of the grammar, so mutations reach framing and upgrade logic quickly.
    words='"http://"
"https://"
"\x0D\x0A"
"\x0D\x0A\x0D\x0A"
" HTTP/1.1\x0D\x0A"
" HTTP/1.0\x0D\x0A"
"GET / "
"POST / "
"Content-Length: "
"Transfer-Encoding: "
"chunked"
"Connection: "
"keep-alive"
"close"
"Upgrade: h2c\x0D\x0A"
"HTTP2-Settings: "
"Expect: 100-continue\x0D\x0A"
"Host: h\x0D\x0A"
";ext=1"
"0\x0D\x0A\x0D\x0A"'
    # Seeds: the first byte of each is the split position.
    seeds() {
        seed get '\200GET /v1/x?y=1 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n'
        seed post '\100POST /s HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhelloGET / HTTP/1.0\r\n\r\n'
        seed chunked '\060POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: v\r\n\r\n'
        seed h2c '\220GET / HTTP/1.1\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAARAAAAA\r\n\r\nPRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'
        seed absolute '\030GET hTTps://h:9/p?q HTTP/1.1\r\nHost: x\r\n\r\nGET http://h HTTP/1.0\r\n\r\n'
    }
    ;;
http-response)
    # The client's response parser (webhooks, the health probe), from its own files.
    sources="Sources/HTTPServer/Client/HTTPResponseParser.swift Sources/HTTPServer/Client/HTTPClientResponse.swift
        Sources/HTTPServer/Client/HTTPClientError.swift Tests/Fuzz/HTTPResponseParserFuzz.swift"
    words='"\x0D\x0A"
"\x0D\x0A\x0D\x0A"
"HTTP/1.1 "
"HTTP/1.0 "
"100 Continue"
"Content-Length: "
"Transfer-Encoding: "
"chunked"
";ext=1"
"0\x0D\x0A\x0D\x0A"'
    # Seeds: the first byte of each is the split position.
    seeds() {
        seed length '\200HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'
        seed chunked '\060HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\nT: v\r\n\r\n'
        seed continue '\100HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 500 Oops\r\n\r\nto the end'
        seed empty '\220HTTP/1.0 204 No Content\r\nX: y\r\n\r\n'
    }
    ;;
json)
    # The JSON parser (and JSONValidator against it).
    sources="$(module ByteCoding) Tests/Fuzz/JSONParserFuzz.swift"
    # Seeds: a few FCM-shaped documents so the fuzzer starts from realistic structure.
    seeds() {
        text seed-fcm.json '{"message":{"token":"t","data":{"a":"1"},"notification":{"title":"x\u00e9\ud83d\ude00"}},"validate_only":true}'
        text seed-values.json '[1,-0.5e10,true,false,null,{"":[]},"\\n\\"\\/"]'
    }
    ;;
provider-token)
    # The APNs provider-token (JWT) parser and the per-connection token check: Apple's reasons, the
    # modes, the clock's Timestamp, the JWT splitter and the bearer reader, and nothing else of PushCore.
    sources="Sources/PushCore/APNs/APNsAuthMode.swift Sources/PushCore/APNs/APNsReason.swift
        Sources/PushCore/APNs/ProviderKey.swift Sources/PushCore/APNs/ProviderToken.swift
        Sources/PushCore/APNs/ProviderTokenError.swift Sources/PushCore/APNs/ProviderTokenSession.swift
        Sources/PushCore/Auth/JSONWebToken.swift Sources/PushCore/Auth/BearerCredential.swift
        Sources/PushCore/Clock/Timestamp.swift Tests/Fuzz/ProviderTokenFuzz.swift"
    flags="-module-name PushCore" libs=ByteCoding max_len=1024
    words=$(json_keys alg kid iss iat typ ES256 JWT)
    # Seeds, tokens as sent (first byte even): PyJWT's (raw R‖S signature) and one in APNSwift's form
    # signed with DER. Then header, claims and signature for the target to encode (first byte odd):
    # the plain form, APNSwift's string iat with kid in the claims, and near misses.
    seeds() {
        text seed-pyjwt "0eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkciLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzk1MzQxNjAwfQ.t0JSAYczqBeS7Px_0grTJ3TTIrFi1tgR_FN1MgLEppj8-z_C5gCoeDk3nkiMyOZcLwVoo1CKHk_DlU218AoOvA"
        text seed-der "0eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoiMTc5NTM0MTYwMCIsImtpZCI6IkFCQzEyM0RFRkcifQ.MEUCIQCojcG21pWepv3oiAgNUMMwRvTnHG_FJ_DnndvoBmAg9wIgBkgiWE3X9S8TPFFfnymLzwRZXXYcvsngR6lu9n7WC44"
        seed seed-parts '1{"alg":"ES256","kid":"ABC123DEFG"}\000{"iss":"DEF123GHIJ","iat":1795341600}\000'"$(printf '%064d' 0)"
        seed seed-apnswift '1{"alg":"ES256","kid":"ABC123DEFG"}\000{"iss":"DEF123GHIJ","iat":"1795341600","kid":"ABC123DEFG"}\000sig'
        seed seed-near-misses '1{"alg":"HS256","kid":""}\000{"iss":1,"iat":1.5e3}\000'
        text seed-padding '0a.b.c=='
    }
    ;;
request-headers)
    # The emulator API's own request headers: the Basic credential of --ui-auth-file and the host
    # names of Host and Origin that the browser guard compares; and a device's app ids (a web
    # origin, an Android package name), which the device routes read from request bodies.
    sources="Sources/PushCore/Auth/BasicCredential.swift Sources/PushAPI/RequestHostNames.swift Sources/PushCore/Devices/AppIdentifiers.swift Tests/Fuzz/RequestHeadersFuzz.swift"
    libs=ByteCoding max_len=512
    words=$(plain_words "Basic " "basic " "://" "http://" "https://" "localhost" ".localhost" "[::1]" ":9499" ":80" ":443" "127.0.0.1" "null")
    # Seeds (the first byte modulo 5 picks the header: 0 Basic, 1 Host, 2 Origin, 3 a web app's origin, 4 a package name).
    seeds() {
        seed basic '\000Basic YWxpY2U6c2VjcmV0IHBhc3M='
        seed basic-colons '\005basic  YTpiOmM  '
        seed host '\001localhost:9499'
        seed host-ipv6 '\001[::1]:9499'
        seed host-ipv4 '\006127.0.0.1:80'
        seed origin '\002http://localhost:9499'
        seed origin-null '\002null'
        seed app-origin '\003https://shop.example:8443'
        seed app-origin-ipv6 '\003http://[::1]:9499'
        seed app-package '\004com.example.app'
    }
    ;;
state-import)
    # State import (PUT /emulator/v1/state, --import): refused with the state unchanged, or stable
    # through export and import and usable afterwards. It reaches every part of PushCore.
    sources="$(module PushCore) Tests/Fuzz/StateImportFuzz.swift"
    flags="-module-name PushCore" libs="ByteCoding Locking" max_len=8192 leaks=FCMSchema
    words=$(json_keys kind version clock offsetSeconds counters nextMessageId nextDeliveryNumber projects projectId \
        devices uninstalledTokens uninstalledApnsTokens topics deliveries messageLog faults next token apnsToken \
        platform bundleId appState registeredAt lastConnectedAt sequence subscriptions pendingDeliveries \
        messageLogSequences owedMessagesDeleted pending delivered expired collapsed deleted dropped fcm apns \
        android web extras channels backgroundHandler pushData ttlSeconds origin notificationServiceExtension)
    # Seed: a snapshot with a device (subscribed, one pending delivery, owed a deletion signal), an
    # uninstalled token, a topic, a delivered APNs push, the log and a seeded fault.
    seeds() {
        text seed-state.json '{"kind":"push-emulator-state","version":1,"clock":{"offsetSeconds":3600},"counters":{"nextMessageId":"1795341600000000003","nextDeliveryNumber":3},"projects":[{"projectId":"demo","devices":[{"token":"device-1","apnsToken":"abababababababababababababababababababababababababababababababab","platform":"ios","bundleId":"com.example.app","appState":"background","registeredAt":"2026-11-22T10:00:00Z","lastConnectedAt":null,"sequence":1,"subscriptions":[{"topic":"news","createdAt":"2026-11-22T10:00:00Z","sequence":1}],"pendingDeliveries":[2],"messageLogSequences":[1,2],"owedMessagesDeleted":{"reason":"tooManyPending","count":3}}],"uninstalledTokens":[{"token":"device-3","uninstalledAt":"2026-11-22T10:00:00.250Z","messageLogSequences":[]}],"uninstalledApnsTokens":[{"apnsToken":"cdcd","uninstalledAt":"2026-11-22T10:00:00Z"}],"topics":[{"name":"news","createdAt":"2026-11-22T10:00:00Z","sequence":1}],"deliveries":[{"number":1,"messageName":"projects/demo/messages/1795341600000000001","token":"device-1","origin":"apns","expiresAt":"2026-12-22T10:00:00Z","nowOrNever":false,"headers":[{"name":"apns-push-type","value":"alert"},{"name":"apns-collapse-id","value":"c"}],"payload":"{\"aps\": {\"alert\": \"hi\"}}","presentedAppState":"background","history":[{"state":"pending","at":"2026-11-22T10:00:00Z"},{"state":"delivered","at":"2026-11-22T10:00:01Z"}]},{"number":2,"messageName":"projects/demo/messages/1795341600000000002","token":"device-1","origin":"fcm","expiresAt":"2026-12-22T10:00:00Z","nowOrNever":false,"headers":[{"name":"apns-id","value":"6f1c2a4e-9b3d-4c1e-8f00-1a2b3c4d5e6f"}],"payload":"{\"aps\":{\"content-available\":1},\"k\":\"v\"}","presentedAppState":"background","history":[{"state":"pending","at":"2026-11-22T10:00:00Z"}]}],"messageLog":[{"sequence":1,"name":"projects/demo/messages/1795341600000000001","origin":"apns","sentAt":"2026-11-22T10:00:00Z","target":{"apnsToken":"abab"},"request":{"aps":{"alert":"hi"}},"firstDeliveryNumber":1,"deliveryCount":1},{"sequence":2,"name":"projects/demo/messages/1795341600000000002","origin":"fcm","sentAt":"2026-11-22T10:00:00Z","target":{"condition":"'"'"'news'"'"' in topics"},"request":{"message":{}},"firstDeliveryNumber":2,"deliveryCount":1}],"faults":[{"id":"1","match":{"token":"device-1"},"error":"UNAVAILABLE","times":5,"probability":0.5,"seed":7,"fired":1,"matched":2,"randomState":12345}],"next":{"deviceSequence":2,"topicSequence":2,"subscriptionSequence":2,"logSequence":3,"faultId":2}}]}'
    }
    ;;
*)
    echo "scripts/fuzz.sh: no target $target (scripts/fuzz.sh --list)" >&2
    exit 2
    ;;
esac

mkdir -p "$corpus" ".build/fuzz-$target-artifacts"
# The library modules a target links, with the fuzzers' instrumentation, into .build/fuzz-modules.
link=
if [ -n "$libs" ]; then
    mkdir -p .build/fuzz-modules
    link="-I .build/fuzz-modules -L .build/fuzz-modules"
    for lib in $libs; do
        swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "$lib" \
            -emit-module -emit-module-path ".build/fuzz-modules/$lib.swiftmodule" \
            -emit-library -static -o ".build/fuzz-modules/lib$lib.a" \
            $(module "$lib")
        link="$link -l$lib"
    done
fi
# shellcheck disable=SC2086  # the lists are split into words on purpose: no path holds a space
swiftc -sanitize=fuzzer,address -parse-as-library -O $flags $link $sources -o ".build/fuzz-$target"
seeds
set --  "-max_total_time=$seconds" "$@"
[ -n "$max_len" ] && set -- "-max_len=$max_len" "$@"
if [ -n "$words" ]; then
    printf '%s\n' "$words" > ".build/fuzz-$target.dict"
    set -- "-dict=.build/fuzz-$target.dict" "$@"
fi
if [ -n "$leaks" ]; then
    printf 'leak:%s\n' "$leaks" > ".build/fuzz-$target.supp"
    export LSAN_OPTIONS="suppressions=.build/fuzz-$target.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
fi
# The Swift backtracer can hang symbolicating under ASan; libFuzzer prints the stack itself and the
# fatalError message says what broke.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
exec ".build/fuzz-$target" -artifact_prefix=".build/fuzz-$target-artifacts/" "$@" "$corpus"
