#!/bin/sh
# Runs a libFuzzer target that a scripts/fuzz-*.sh script has built: .build/fuzz-NAME on the corpus
# .build/fuzz-NAME-corpus for SECONDS, crash inputs written to .build/fuzz-NAME-artifacts/.
# Usage: scripts/run-fuzz-target.sh NAME SECONDS [libFuzzer flags...]
set -eu
cd "$(dirname "$0")/.."
name=$1 seconds=$2
shift 2
# The Swift backtracer can hang symbolicating under ASan; libFuzzer prints the stack itself and the
# fatalError message says what broke.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
mkdir -p ".build/fuzz-$name-artifacts"
exec ".build/fuzz-$name" -artifact_prefix=".build/fuzz-$name-artifacts/" -max_total_time="$seconds" \
    "$@" ".build/fuzz-$name-corpus"
