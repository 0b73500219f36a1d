#!/bin/sh
# Fuzzes the admin and device API with schemathesis for N seconds (default 30): a live emulator,
# the OpenAPI document it serves (docs/openapi.json), every check but Allow conformance (see
# Tests/EndToEnd/openapi_fuzz.py), a fresh seed each run (printed, to replay with --seed).
# Usage: scripts/fuzz-openapi.sh [seconds] [examples per operation and phase, default 1000]
# The binary is PUSH_EMULATOR_BIN (default the release build), the Python the one in PYTHON
# (default .venv/bin/python, which `make fuzz` installs with Tests/EndToEnd/requirements.txt).
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-30}"
examples="${2:-${FUZZ_EXAMPLES:-1000}}"
export PUSH_EMULATOR_BIN="${PUSH_EMULATOR_BIN:-.build/release/push-emulator}"
[ -x "$PUSH_EMULATOR_BIN" ] || swift build -c release
exec "${PYTHON:-.venv/bin/python}" Tests/EndToEnd/openapi_fuzz.py --seconds "$seconds" --examples "$examples"
