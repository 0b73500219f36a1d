#!/bin/sh
# Fuzzes the APNs provider-token (JWT) parser and the per-connection token check with libFuzzer
# for N seconds (default 30). Usage: scripts/fuzz-provider-token.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
corpus=.build/fuzz-provider-token-corpus
mkdir -p .build "$corpus"
# The parser reads base64url and JSON from ByteCoding; the check needs Apple's reasons, the modes
# the clock's Timestamp, the JWT splitter (Auth/JSONWebToken) and the bearer reader
# (Auth/BearerCredential), and nothing else of PushCore.
scripts/build-fuzz-modules.sh
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PushCore \
    -I .build/fuzz-modules -L .build/fuzz-modules -lByteCoding \
    Sources/PushCore/APNs/APNsAuthMode.swift \
    Sources/PushCore/APNs/APNsReason.swift \
    Sources/PushCore/APNs/ProviderKey.swift \
    Sources/PushCore/APNs/ProviderToken.swift \
    Sources/PushCore/APNs/ProviderTokenError.swift \
    Sources/PushCore/APNs/ProviderTokenSession.swift \
    Sources/PushCore/Auth/JSONWebToken.swift \
    Sources/PushCore/Auth/BearerCredential.swift \
    Sources/PushCore/Clock/Timestamp.swift \
    Tests/Fuzz/ProviderTokenFuzz.swift \
    -o .build/fuzz-provider-token
# Seeds, tokens as sent (first byte even): PyJWT's (raw R‖S signature) and one in APNSwift's form
# signed with DER. Then header, claims and signature for the target to encode (first byte odd):
# the plain form, APNSwift's string iat with kid in the claims, and near misses.
printf '%s' "0eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkciLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzk1MzQxNjAwfQ.t0JSAYczqBeS7Px_0grTJ3TTIrFi1tgR_FN1MgLEppj8-z_C5gCoeDk3nkiMyOZcLwVoo1CKHk_DlU218AoOvA" \
    > "$corpus/seed-pyjwt"
printf '%s' "0eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoiMTc5NTM0MTYwMCIsImtpZCI6IkFCQzEyM0RFRkcifQ.MEUCIQCojcG21pWepv3oiAgNUMMwRvTnHG_FJ_DnndvoBmAg9wIgBkgiWE3X9S8TPFFfnymLzwRZXXYcvsngR6lu9n7WC44" \
    > "$corpus/seed-der"
printf '1{"alg":"ES256","kid":"ABC123DEFG"}\000{"iss":"DEF123GHIJ","iat":1795341600}\000%064d' 0 > "$corpus/seed-parts"
printf '1{"alg":"ES256","kid":"ABC123DEFG"}\000{"iss":"DEF123GHIJ","iat":"1795341600","kid":"ABC123DEFG"}\000sig' > "$corpus/seed-apnswift"
printf '1{"alg":"HS256","kid":""}\000{"iss":1,"iat":1.5e3}\000' > "$corpus/seed-near-misses"
printf '0a.b.c==' > "$corpus/seed-padding"
dict=.build/fuzz-provider-token.dict
: > "$dict"
for word in alg kid iss iat typ ES256 JWT; do
    printf '"\\"%s\\""\n' "$word" >> "$dict"
done
exec scripts/run-fuzz-target.sh provider-token "$seconds" -max_len=1024 -dict="$dict" "$@"
