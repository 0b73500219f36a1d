#!/bin/sh
# Builds the ByteCoding module with the fuzzers' instrumentation into .build/fuzz-bytecoding, for
# fuzz targets whose sources import it (scripts/fuzz-fcm-decode.sh, scripts/fuzz-http1.sh).
set -eu
cd "$(dirname "$0")/.."
out=.build/fuzz-bytecoding
mkdir -p "$out"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ByteCoding \
    -emit-module -emit-module-path "$out/ByteCoding.swiftmodule" \
    -emit-library -static -o "$out/libByteCoding.a" \
    Sources/ByteCoding/*.swift
