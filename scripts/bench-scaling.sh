#!/usr/bin/env bash
# make bench-scaling: throughput as --threads grows. For each thread count the emulator (fresh
# process) and nghttpd serving a static file run the same loads: GET /healthz, FCM sends to 64
# devices of one project, APNs pushes to 64 devices of one project, and nghttpd's file. Each row
# is a workload at one thread count: its best and worst rate over the runs, and the best as a
# ratio to the best at the first thread count. The last line of each workload compares its worst
# run at the last thread count with its best at the first. Numbers compare within one run.
#
# Usage: scripts/bench-scaling.sh [BINARY]
#   SCALING_THREADS   the --threads values (default: 1 2 4 ... up to max(cores, 8))
#   SCALING_RUNS      runs of each workload at each thread count (default 1)
#   SCALING_REQUESTS  requests per run (default 200000)
#   SCALING_PIN       1: the server on cores 0..threads-1 and the clients on the rest, where the
#                     machine has cores to spare (default 0: both share every core)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/push-emulator}
CORES=$(nproc)
default_threads() { local t=1 out=""; while [ "$t" -le $(( CORES > 8 ? CORES : 8 )) ]; do out+="$t "; t=$(( t * 2 )); done; echo "$out"; }
read -r -a THREADS <<<"${SCALING_THREADS:-$(default_threads)}"
RUNS=${SCALING_RUNS:-1}
REQUESTS=${SCALING_REQUESTS:-200000}
PIN=${SCALING_PIN:-0}
DEVICES=64
CLIENT_THREADS=$(( CORES < 8 ? CORES : 8 ))
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; return 1; }
# placement THREADS: sets server_cpus and client_cpus (taskset prefixes, or nothing).
placement() {
  server_cpus=() client_cpus=()
  if [ "$PIN" = 1 ] && command -v taskset >/dev/null && [ "$CORES" -gt "$1" ]; then
    server_cpus=(taskset -c "0-$(( $1 - 1 ))")
    client_cpus=(taskset -c "$1-$(( CORES - 1 ))")
  fi
}
# h2rate ARGS...: one h2load run's requests a second; fails unless every request got a 2xx.
h2rate() {
  local out
  out=$("${client_cpus[@]}" h2load "$@" 2>&1)
  if ! grep -q "^status codes: [0-9]* 2xx, 0 3xx, 0 4xx, 0 5xx" <<<"$out" || grep -q "^requests: .* [1-9][0-9]* failed" <<<"$out"; then
    echo "bench-scaling: h2load $*" >&2; echo "$out" | tail -8 >&2; return 1
  fi
  awk '/^finished in/ {gsub(",",""); print $4}' <<<"$out"
}

mkdir -p "$work/docroot"
printf '{"status":"ok"}' > "$work/docroot/healthz"
for n in $(seq 0 $(( DEVICES - 1 ))); do
  printf '{"message":{"token":"scale%02d:APA91bScalingBenchDeviceToken0123456789","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1"}}}' "$n" > "$work/fcm-$n.json"
done
printf '%s' '{"aps":{"alert":{"title":"Portugal vs. Denmark","body":"great match!"},"badge":1,"sound":"default"},"matchId":"42"}' > "$work/apns.json"
apns_jwt="eyJhbGciOiJFUzI1NiIsImtpZCI6IlBFUkZLRVkwMDEifQ.eyJpc3MiOiJQRVJGVEVBTTAxIiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl"

# The workloads: each prints one rate for a server at $url.
healthz() { h2rate -n "$REQUESTS" -t "$CLIENT_THREADS" -c 64 -m 32 "$url/healthz"; }
# FCM: one h2load per device (the token is in the body), all at once; the rate is every request
# over the time from the first start to the last finish.
fcm() {
  local start end pids=() n per=$(( REQUESTS / DEVICES ))
  start=$(date +%s.%N)
  for n in $(seq 0 $(( DEVICES - 1 ))); do
    h2rate -n "$per" -c 1 -m 32 -d "$work/fcm-$n.json" -H "content-type: application/json" \
      -H "authorization: Bearer scaling" "$url/v1/projects/scaling/messages:send" >/dev/null &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  end=$(date +%s.%N)
  python3 -c "import sys; print(f'{int(sys.argv[1]) / (float(sys.argv[3]) - float(sys.argv[2])):.2f}')" $(( per * DEVICES )) "$start" "$end"
}
# APNs: the token is in the path, so one h2load takes the 64 paths in turn.
apns() {
  local paths=() n
  for n in $(seq 0 $(( DEVICES - 1 ))); do paths+=("$url/3/device/$(printf '%064x' $(( n + 1 )))"); done
  h2rate -n "$REQUESTS" -t "$CLIENT_THREADS" -c 64 -m 32 -d "$work/apns.json" -H "authorization: bearer $apns_jwt" \
    -H "apns-topic: com.example.scaling" -H "apns-push-type: alert" "${paths[@]}"
}

declare -A best worst
record() {  # record WORKLOAD THREADS RATE
  local key="$1/$2"
  best[$key]=$(python3 -c "import sys; print(max(float(x) for x in sys.argv[1:] if x))" "${best[$key]:-}" "$3")
  worst[$key]=$(python3 -c "import sys; print(min(float(x) for x in sys.argv[1:] if x))" "${worst[$key]:-}" "$3")
}

for threads in "${THREADS[@]}"; do
  placement "$threads"
  for _ in $(seq "$RUNS"); do
    port=$(free_port)
    "${server_cpus[@]}" "$BIN" serve --port "$port" --threads "$threads" --no-access-log --data-dir "$work/emulator-$threads" >/dev/null 2>&1 &
    pid=$!
    wait_port "$port"
    url="http://127.0.0.1:$port"
    h2rate -n 5000 -c 4 -m 8 "$url/healthz" >/dev/null   # warm-up
    record healthz "$threads" "$(healthz)"
    record fcm "$threads" "$(fcm)"
    # Each run starts from an empty project: the queues and the log stay the same size per run.
    curl -sf -X DELETE "$url/emulator/v1/state" >/dev/null
    record apns "$threads" "$(apns)"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -rf "$work/emulator-$threads"
    port=$(free_port)
    "${server_cpus[@]}" nghttpd -n "$threads" --no-tls -d "$work/docroot" "$port" >/dev/null 2>&1 &
    pid=$!
    wait_port "$port"
    url="http://127.0.0.1:$port"
    record nghttpd "$threads" "$(healthz)"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done

echo "push-emulator bench-scaling: $REQUESTS requests a run, $RUNS run(s) each, $CORES cores ($([ "$PIN" = 1 ] && echo "server pinned to cores 0..threads-1" || echo "server and clients share every core")), h2load -c 64 -m 32 ($DEVICES devices of one project for sends)"
printf '%-38s %8s %14s %14s %10s\n' workload threads "best req/s" "worst req/s" "best / ${THREADS[0]}"
first=${THREADS[0]} last=${THREADS[-1]}
for workload in healthz fcm apns nghttpd; do
  case $workload in
    healthz) name="GET /healthz" ;;
    fcm) name="FCM sends, $DEVICES devices of one project" ;;
    apns) name="APNs pushes, $DEVICES devices of one project" ;;
    nghttpd) name="nghttpd static file" ;;
  esac
  for threads in "${THREADS[@]}"; do
    printf '%-38s %8s %14.0f %14.0f %10.2f\n' "$name" "$threads" "${best[$workload/$threads]}" "${worst[$workload/$threads]}" \
      "$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "${best[$workload/$threads]}" "${best[$workload/$first]}")"
  done
  printf '%-38s %8s %s\n' "$name" "" "worst at $last / best at $first: $(python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "${worst[$workload/$last]}" "${best[$workload/$first]}")"
done
