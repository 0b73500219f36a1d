#!/usr/bin/env bash
# make perf-count: user-space instructions per request, counted by callgrind over the whole server
# process (every thread), for an FCM send (to an Apple and to an Android device) and an APNs push
# (as `make bench` sends it, with an `apns-id`, with every header) to an offline device and
# GET /healthz on the release binary, over
# h2c, the FCM send (with firebase-admin's headers) and GET /healthz over HTTP/1.1 too, and nghttpd
# serving a static file over h2c, all in the same run. Unlike `make bench`, the counts do not
# depend on the machine's speed of the moment: repeated runs agree to a few instructions.
#
# Each workload gets a fresh server process under callgrind, started with instrumentation off. After
# a warm-up, h2load (one connection, a fixed number of requests) runs twice: N requests, then 2N,
# each on its own connection with the counters zeroed before it. The difference of the two counts
# over N is the cost of one request, without the connection's setup and teardown or the warm-up.
# The warm-up is long enough that the sends measured queue past the sizes at which the message log
# and the device's queue still grow by copying (their first block of 4,096): the first thousands of
# sends cost a few hundred instructions more each.
#
# Usage: scripts/perf-count.sh [BINARY]   (without BINARY, builds and uses the release binary)
#   PERF_REQUESTS  N, the requests of the shorter run (default 2000)
#   PERF_WARMUP    requests before counting starts (default 5000)
#   PERF_STREAMS   concurrent streams on h2load's one connection (default 1: each request is read,
#                  answered and written on its own, so no count depends on how requests happen to
#                  be batched into reads and writes)
#   PERF_WEBHOOK   hang or 500: every emulator gets a --webhook to a local server that accepts and
#                  never answers, or answers every request 500 (docs/webhooks.md): the counts then
#                  include what the webhook costs a request, and its thread's work. The warm-up
#                  is then 12,000 requests (unless PERF_WARMUP says otherwise), past the webhook's
#                  queue of 10,000: what is counted is a webhook that hangs or fails for good,
#                  whose full queue drops each new event
set -euo pipefail
cd "$(dirname "$0")/.."
REQUESTS=${PERF_REQUESTS:-2000}
STREAMS=${PERF_STREAMS:-1}
WARMUP=${PERF_WARMUP:-$([ -n "${PERF_WEBHOOK:-}" ] && echo 12000 || echo 5000)}

scripts/install-deps.sh --perf
if [ $# -ge 1 ]; then
  BIN=$1
else
  swift build -c release >&2
  BIN=.build/release/push-emulator
fi

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# valgrind 3.19 cannot read the DWARF 5 debug information Swift 6 writes: count a stripped copy.
cp "$BIN" "$work/push-emulator"
strip --strip-debug "$work/push-emulator"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Under callgrind a server takes seconds to start.
wait_port() { for _ in $(seq 600); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened" >&2; return 1; }

# load COUNT URL [h2load options...]: COUNT requests on one connection; fails unless every one got a 2xx.
load() {
  local count=$1 url=$2 out
  shift 2
  out=$(h2load -n "$count" -c 1 -m "$STREAMS" "$@" "$url" 2>&1)
  if ! grep -q "^status codes: $count 2xx" <<<"$out"; then
    echo "perf-count: not every request to $url succeeded:" >&2
    echo "$out" >&2
    return 1
  fi
}
# counted PID: instructions counted in PID since its counters were last zeroed, summed over its threads.
counted() { callgrind_control -e Ir "$1" 2>/dev/null | awk '$1 == "Th" {gsub(",", "", $3); sum += $3} END {print sum + 0}'; }
# settle PID: gives PID a moment to handle the connection h2load closed, then prints its count. An
# idle server still counts a few thousand instructions a second (its timers, and each query of
# callgrind_control, wakes its loop): a fixed pause keeps that part the same in every run.
settle() {
  sleep 1
  counted "$1"
}

# per_request PID URL [h2load options...]: instructions per request in the callgrind process PID.
per_request() {
  local pid=$1 url=$2 single double
  shift 2
  load "$WARMUP" "$url" "$@"
  callgrind_control -i on "$pid" >/dev/null 2>&1
  settle "$pid" >/dev/null
  callgrind_control -z "$pid" >/dev/null 2>&1
  load "$REQUESTS" "$url" "$@"
  single=$(settle "$pid")
  callgrind_control -z "$pid" >/dev/null 2>&1
  load $(( 2 * REQUESTS )) "$url" "$@"
  double=$(settle "$pid")
  echo $(( (double - single) / REQUESTS ))
}

# callgrind COMMAND...: starts COMMAND under callgrind with instrumentation off; sets $server_pid.
callgrind() {
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/callgrind.out.%p" \
    "$@" >"$work/server.log" 2>&1 &
  server_pid=$!
}
stop() { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; }

# The webhook of PERF_WEBHOOK, if any: a local server that hangs or answers 500.
webhook_args=()
if [ -n "${PERF_WEBHOOK:-}" ]; then
  hook_port=$(free_port)
  case $PERF_WEBHOOK in
  hang) python3 -c 'import socket,sys,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1024)
held=[]
while True: held.append(s.accept()[0])' "$hook_port" & ;;
  500) python3 -c 'import http.server,sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0"))); self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()' "$hook_port" & ;;
  *) echo "PERF_WEBHOOK is hang or 500, not $PERF_WEBHOOK" >&2; exit 2 ;;
  esac
  wait_port "$hook_port"
  webhook_args=(--webhook "http://127.0.0.1:$hook_port/events")
fi

emulator() {
  local port
  port=$(free_port)
  callgrind "$work/push-emulator" serve --port "$port" --threads 1 --no-access-log --data-dir "$work/emulator" "${webhook_args[@]}"
  wait_port "$port"
  emulator_url="http://127.0.0.1:$port"
}

# on_emulator VARIABLE PATH [h2load options...]: instructions per request for PATH on a fresh
# emulator, into VARIABLE; the command in $before, if set, runs once the emulator listens.
on_emulator() {
  local variable=$1 path=$2 count
  shift 2
  emulator
  if [ -n "${before:-}" ]; then $before; fi
  # Assigned on its own line, so that a failed load stops the script (`set -e`).
  count=$(per_request "$server_pid" "$emulator_url$path" "$@")
  stop
  printf -v "$variable" '%s' "$count"
}

# The FCM message of `make bench`: token, notification, data, apns.headers and apns.payload, to a
# device that never connects, so every send is validated, converted, queued and logged.
fcm_body="$work/fcm-send.json"
cat > "$fcm_body" <<'JSON'
{"message":{"token":"bench0000000000000000:APA91bBenchDeviceTokenForTheEmulatorBenchmark0123456789","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1","customKey":"customValue"},"apns":{"headers":{"apns-priority":"10"},"payload":{"aps":{"badge":1,"sound":"default"}}}}}
JSON
fcm_send=(-d "$fcm_body" -H "content-type: application/json")

on_emulator send /v1/projects/p/messages:send "${fcm_send[@]}" -H "authorization: Bearer perf"

# The same send to an Android device (registered first with the message's token): converted to the
# intent's extras instead of an APNs payload.
bench_token=bench0000000000000000:APA91bBenchDeviceTokenForTheEmulatorBenchmark0123456789
register_android() {
  curl -sf -o /dev/null -X POST "$emulator_url/emulator/v1/projects/p/devices" \
    -d "{\"platform\":\"android\",\"packageName\":\"com.example.bench\",\"token\":\"$bench_token\"}"
}
before=register_android on_emulator send_android /v1/projects/p/messages:send "${fcm_send[@]}" -H "authorization: Bearer perf"
on_emulator healthz /healthz

# HTTP/1.1, which firebase-admin's send() and pyfcm speak (through requests): the same FCM send
# with the headers firebase-admin adds, and GET /healthz.
admin_token="ya29.c.b0AXv0zTOa8s1emulatortokenabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz0123456789"
on_emulator send_http1 /v1/projects/p/messages:send --h1 "${fcm_send[@]}" -H "authorization: Bearer $admin_token" \
  -H "x-goog-api-format-version: 2" -H "x-firebase-client: fire-admin-python/6.9.0" \
  -H "user-agent: python-requests/2.32.3" -H "accept-encoding: gzip, deflate" -H "accept: */*"
on_emulator healthz_http1 /healthz --h1

# The APNs push of `make bench`: one provider token for every request (its shape is checked, and it is
# remembered by the connection), to one offline device whose queue Apple's store-one rule keeps at one.
apns_body="$work/apns-send.json"
printf '%s' '{"aps":{"alert":{"title":"Portugal vs. Denmark","body":"great match!"},"badge":1,"sound":"default"},"matchId":"42"}' > "$apns_body"
apns_jwt="eyJhbGciOiJFUzI1NiIsImtpZCI6IlBFUkZLRVkwMDEifQ.eyJpc3MiOiJQRVJGVEVBTTAxIiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl"
apns_path="/3/device/$(printf 'be%.0s' $(seq 32))"
apns_push=(-d "$apns_body" -H "authorization: bearer $apns_jwt" -H "apns-topic: com.example.bench" -H "apns-push-type: alert")
on_emulator apns "$apns_path" "${apns_push[@]}"

# The same push with an `apns-id`, as aioapns sends every push (a fresh UUID each; h2load repeats
# one, so HPACK indexes it after the first: its shape check and echo are counted, the decoding of a
# new value is not); and with every other header a push may carry too: priority, expiration,
# collapse id.
apns_id=(-H "apns-id: 8d6e4a1f-3b2c-4d5e-9f60-7a8b9c0d1e2f")
on_emulator apns_with_id "$apns_path" "${apns_push[@]}" "${apns_id[@]}"
on_emulator apns_all_headers "$apns_path" "${apns_push[@]}" "${apns_id[@]}" \
  -H "apns-priority: 10" -H "apns-expiration: 1800000000" -H "apns-collapse-id: score-update"

# The reference: nghttpd serving a file with the same body as /healthz.
mkdir -p "$work/docroot"
printf '{"status":"ok"}' > "$work/docroot/healthz"
ref_port=$(free_port)
callgrind nghttpd --no-tls -d "$work/docroot" "$ref_port"
wait_port "$ref_port"
static=$(per_request "$server_pid" "http://127.0.0.1:$ref_port/healthz")
stop

revision=$(git describe --always --dirty 2>/dev/null || echo unknown)
echo "push-emulator perf-count at $revision: user-space instructions per request, whole server process${PERF_WEBHOOK:+, PERF_WEBHOOK=$PERF_WEBHOOK}"
echo "(callgrind), h2c unless named, h2load -c 1 -m $STREAMS, (count of $(( 2 * REQUESTS )) - count of $REQUESTS requests) / $REQUESTS"
row() { printf '%-36s %14s %12s\n' "$@"; }
ratio() { python3 -c "import sys; print(f'{int(sys.argv[1]) / int(sys.argv[2]):.2f}')" "$1" "$2"; }
thousands() { python3 -c "import sys; print(f'{int(sys.argv[1]):,}')" "$1"; }
row workload "instructions" "/ nghttpd"
row "FCM send (offline device)" "$(thousands "$send")" "$(ratio "$send" "$static")"
row "FCM send to an Android device" "$(thousands "$send_android")" "$(ratio "$send_android" "$static")"
row "APNs send (offline device)" "$(thousands "$apns")" "$(ratio "$apns" "$static")"
row "APNs send with an apns-id" "$(thousands "$apns_with_id")" "$(ratio "$apns_with_id" "$static")"
row "APNs send with every apns-* header" "$(thousands "$apns_all_headers")" "$(ratio "$apns_all_headers" "$static")"
row "GET /healthz" "$(thousands "$healthz")" "$(ratio "$healthz" "$static")"
row "FCM send, HTTP/1.1, admin headers" "$(thousands "$send_http1")" "$(ratio "$send_http1" "$static")"
row "GET /healthz, HTTP/1.1" "$(thousands "$healthz_http1")" "$(ratio "$healthz_http1" "$static")"
row "nghttpd static file (15 bytes)" "$(thousands "$static")" "1.00"
