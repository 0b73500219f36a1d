#!/bin/sh
# Fuzzes the FCM topic-condition parser with libFuzzer for N seconds (default 30).
# Usage: scripts/fuzz-condition.sh [seconds] [extra libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
[ $# -gt 0 ] && shift
mkdir -p .build .build/fuzz-condition-corpus
swiftc -sanitize=fuzzer,address -parse-as-library -O \
    Sources/PushCore/Topics/TopicNameCharacter.swift \
    Sources/PushCore/Topics/TopicConditionToken.swift \
    Sources/PushCore/Topics/TopicConditionTokenizer.swift \
    Sources/PushCore/Topics/TopicConditionParser.swift \
    Sources/PushCore/Topics/TopicConditionError.swift \
    Sources/PushCore/Topics/TopicCondition.swift \
    Tests/Fuzz/TopicConditionFuzz.swift \
    -o .build/fuzz-condition
# Seeds: Google's example, every operator and spelling variant, and a few near misses.
corpus=.build/fuzz-condition-corpus
printf '%s' "'stock-GOOG' in topics && ('industry-tech' in topics || !('news' in topics))" > "$corpus/seed-google"
printf '%s' "\"a\" in topics||'b'in topics&&!!'c' in topics" > "$corpus/seed-variants"
printf '%s' "!(('a_b.c~d%e' in topics	&&
'f' in topics) || 'g' in topics)" > "$corpus/seed-whitespace"
printf '%s' "'a' in topics && 'b' in topics && 'c' in topics && 'd' in topics && 'e' in topics" > "$corpus/seed-five"
printf '%s' "('a' in topic & 'b c' in topics | news" > "$corpus/seed-broken"
exec scripts/run-fuzz-target.sh condition "$seconds" -max_len=4096 "$@"
