#!/usr/bin/env bash
# make bench-compare BASELINE=path/to/push-emulator: the h2c FCM send of `make bench` (the same
# message, to an offline device) for two builds of the emulator in one run — the baseline and this
# release build — each as a ratio to nghttpd's static file, so that a change's effect on the send
# rate is measured against the build before it rather than against figures from another day.
#
# Each round runs nghttpd, both emulators and nghttpd again, back to back; the two emulators swap
# places every round (the first of a round's two sends was seen to run a little faster), and each
# emulator's rate is divided by the mean of the round's two nghttpd rates. It prints every round and
# the medians, and the median of the rounds' current/baseline ratios.
#
#   BENCH_REQUESTS  requests per run (default 300,000: a run of under a second swings widely)
#   BENCH_ROUNDS    rounds (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
BASELINE=${1:?usage: scripts/bench-compare.sh BASELINE_BINARY [BINARY]}
BIN=${2:-.build/release/push-emulator}
REQUESTS=${BENCH_REQUESTS:-300000}
ROUNDS=${BENCH_ROUNDS:-10}
server_cpus=() client_cpus=()
if command -v taskset >/dev/null && [ "$(nproc)" -gt 1 ]; then
  server_cpus=(taskset -c "$(( $(nproc) - 1 ))")
  client_cpus=(taskset -c "0-$(( $(nproc) - 2 ))")
fi
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; return 1; }
rate() { "${client_cpus[@]}" h2load "$@" 2>&1 | awk '/^finished in/ {gsub(",",""); print $4} /^requests:/ {if ($10+$12 > 0) print "FAILED: " $0 > "/dev/stderr"}'; }
calc() { python3 -c "print($1)"; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

mkdir -p "$work/docroot"
printf '{"status":"ok"}' > "$work/docroot/healthz"
ref=$(free_port)
"${server_cpus[@]}" nghttpd -n 1 --no-tls -d "$work/docroot" "$ref" >/dev/null 2>&1 &
wait_port "$ref"
# start BINARY NAME: starts an emulator, warmed up, on $started_port. Not called as $(start ...):
# a server started in that subshell is no job of this shell, and the EXIT trap left it running.
start() {
  started_port=$(free_port)
  "${server_cpus[@]}" "$1" serve --port "$started_port" --threads 1 --no-access-log --data-dir "$work/$2" >/dev/null 2>&1 &
  wait_port "$started_port"
  rate -n 5000 -c 4 -m 8 "http://127.0.0.1:$started_port/healthz" >/dev/null
}
start "$BASELINE" baseline
baseline_port=$started_port
start "$BIN" current
current_port=$started_port

# The message of `make bench`'s FCM rows (scripts/bench.d/fcm-send.sh).
cat > "$work/fcm-send.json" <<'JSON'
{"message":{"token":"bench0000000000000000:APA91bBenchDeviceTokenForTheEmulatorBenchmark0123456789","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1","customKey":"customValue"},"apns":{"headers":{"apns-priority":"10"},"payload":{"aps":{"badge":1,"sound":"default"}}}}}
JSON
send() {
  curl -s -o /dev/null -X DELETE "http://127.0.0.1:$1/emulator/v1/projects/bench"
  rate -n "$REQUESTS" -c 16 -m 32 -d "$work/fcm-send.json" -H "content-type: application/json" \
    -H "authorization: Bearer bench" "http://127.0.0.1:$1/v1/projects/bench/messages:send"
}

echo "bench-compare: h2c FCM send, $REQUESTS requests a run, h2load -c 16 -m 32, $ROUNDS rounds"
echo "  baseline: $BASELINE"
echo "  current:  $BIN"
printf '%-6s %12s %14s %14s %9s %9s %9s\n' round "nghttpd" "baseline" "current" "b ratio" "c ratio" "c / b"
baseline_ratios=() current_ratios=() relative=()
for round in $(seq "$ROUNDS"); do
  first=$(rate -n "$REQUESTS" -c 16 -m 32 "http://127.0.0.1:$ref/healthz")
  if [ $((round % 2)) = 1 ]; then
    b=$(send "$baseline_port"); c=$(send "$current_port")
  else
    c=$(send "$current_port"); b=$(send "$baseline_port")
  fi
  second=$(rate -n "$REQUESTS" -c 16 -m 32 "http://127.0.0.1:$ref/healthz")
  reference=$(calc "($first + $second) / 2")
  br=$(calc "round($b / $reference, 3)"); cr=$(calc "round($c / $reference, 3)"); rel=$(calc "round($c / $b, 3)")
  baseline_ratios+=("$br"); current_ratios+=("$cr"); relative+=("$rel")
  printf '%-6s %12.0f %14.0f %14.0f %9s %9s %9s\n' "$round" "$reference" "$b" "$c" "$br" "$cr" "$rel"
done
printf 'median ratio to nghttpd: baseline %s, current %s; median current / baseline: %s\n' \
  "$(median "${baseline_ratios[@]}")" "$(median "${current_ratios[@]}")" "$(median "${relative[@]}")"
