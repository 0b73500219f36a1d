#!/bin/sh
# Builds the library modules that fuzz targets import (ByteCoding, Locking) with the fuzzers'
# instrumentation into .build/fuzz-modules, for targets that compile a target's sources beside
# them (scripts/fuzz-fcm-decode.sh, scripts/fuzz-http1.sh).
set -eu
cd "$(dirname "$0")/.."
out=.build/fuzz-modules
mkdir -p "$out"
for module in ByteCoding Locking; do
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "$module" \
        -emit-module -emit-module-path "$out/$module.swiftmodule" \
        -emit-library -static -o "$out/lib$module.a" \
        Sources/"$module"/*.swift
done
