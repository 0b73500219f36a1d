#!/usr/bin/env bash
# make bench: the emulator and nghttpd (the reference HTTP/2 server, serving a static file) under the
# same h2load load in the same run, printed side by side with their ratio; plus wrk over HTTP/1.1 and
# memory per idle connection. Numbers are for comparison within one run, never for gating CI.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/push-emulator}
REQUESTS=${BENCH_REQUESTS:-100000}
THREADS=${BENCH_THREADS:-1}
# A shared machine's speed drifts within seconds: each compared row runs both servers this many
# times, alternating, and prints the medians.
ROUNDS=${BENCH_ROUNDS:-3}
# Servers get cores of their own and h2load/wrk the rest, when the machine has more cores than
# server threads (BENCH_PIN=0 leaves placement to the scheduler). Unpinned, the scheduler now and
# then runs h2load and the server on one core: a server that h2load keeps waiting (nghttpd) slows
# far more from that than one busy with its own work, and the ratios swing with the placement.
PIN=${BENCH_PIN:-1}
server_cpus=() client_cpus=() placement="unpinned"
if [ "$PIN" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -gt "$THREADS" ]; then
  server_cpus=(taskset -c "$(( $(nproc) - THREADS ))-$(( $(nproc) - 1 ))")
  client_cpus=(taskset -c "0-$(( $(nproc) - THREADS - 1 ))")
  placement="servers on cores ${server_cpus[2]}, clients on ${client_cpus[2]}"
fi
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; return 1; }
rate() { "${client_cpus[@]}" h2load "$@" 2>&1 | awk '/^finished in/ {gsub(",",""); print $4} /^requests:/ {if ($10+$12 > 0) print "FAILED: " $0 > "/dev/stderr"}'; }
ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.2f}' if b else 'n/a')" "$1" "$2"; }
rss_kib() { awk '/VmRSS/ {print $2}' /proc/$1/status; }

# The reference: nghttpd serving a file with the same body as /healthz.
mkdir -p "$work/docroot"
printf '{"status":"ok"}' > "$work/docroot/healthz"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
ref_h2c=$(free_port); ref_tls=$(free_port)
"${server_cpus[@]}" nghttpd -n "$THREADS" --no-tls -d "$work/docroot" "$ref_h2c" >/dev/null 2>&1 &
ref_h2c_pid=$!
"${server_cpus[@]}" nghttpd -n "$THREADS" -d "$work/docroot" "$ref_tls" "$work/key.pem" "$work/cert.pem" >/dev/null 2>&1 &
wait_port "$ref_h2c"; wait_port "$ref_tls"

port=$(free_port)
"${server_cpus[@]}" "$BIN" serve --port "$port" --threads "$THREADS" --no-access-log --data-dir "$work/emulator" >/dev/null 2>&1 &
emu_pid=$!
wait_port "$port"

echo "push-emulator bench: $REQUESTS requests, h2load -c 16 -m 32, $THREADS server thread(s) each, $(nproc) cores ($placement), median of $ROUNDS alternating rounds"
printf '%-34s %14s %14s %8s\n' scenario "emulator req/s" "nghttpd req/s" ratio
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# paired NAME EMULATOR_FN REFERENCE_FN: runs each function ROUNDS times, alternating, each printing
# one rate, and prints the row of the two medians and the median of the rounds' ratios. A round's
# two runs are back to back, so its ratio shares the machine's speed of the moment; a ratio of
# medians could pair one server's fast moment with the other's slow one.
paired() {
  local name=$1 emulator=() reference=() ratios=() e r
  for _ in $(seq "$ROUNDS"); do
    e=$("$2"); r=$("$3")
    emulator+=("$e"); reference+=("$r"); ratios+=("$(ratio "$e" "$r")")
  done
  printf '%-34s %14s %14s %8s\n' "$name" "$(median "${emulator[@]}")" "$(median "${reference[@]}")" "$(median "${ratios[@]}")"
}

rate -n 2000 -c 4 -m 8 "http://127.0.0.1:$port/healthz" >/dev/null   # warm-up
emu_h2c_healthz() { rate -n "$REQUESTS" -c 16 -m 32 "http://127.0.0.1:$port/healthz"; }
emu_tls_healthz() { rate -n "$REQUESTS" -c 16 -m 32 "https://127.0.0.1:$port/healthz"; }
ref_h2c_file() { rate -n "$REQUESTS" -c 16 -m 32 "http://127.0.0.1:$ref_h2c/healthz"; }
ref_tls_file() { rate -n "$REQUESTS" -c 16 -m 32 "https://127.0.0.1:$ref_tls/healthz"; }
paired "h2c GET /healthz vs static file" emu_h2c_healthz ref_h2c_file
paired "h2/TLS GET /healthz vs static file" emu_tls_healthz ref_tls_file

for scenario in scripts/bench.d/*.sh; do
  [ -e "$scenario" ] || continue
  # shellcheck source=/dev/null
  source "$scenario"
done

if command -v wrk >/dev/null; then
  h1=$("${client_cpus[@]}" wrk -t1 -c16 -d3s "http://127.0.0.1:$port/healthz" | awk '/Requests\/sec/ {print $2}')
  printf '%-34s %14s %14s %8s\n' "HTTP/1.1 GET /healthz (wrk -c16)" "$h1" "-" "-"
fi

# Memory per idle connection: 1000 h2c connections that sent the preface and SETTINGS, then nothing.
idle_cost() {
  local pid=$1 target_port=$2 before after
  before=$(rss_kib "$pid")
  python3 - "$target_port" <<'PY' &
import socket, sys, time
socks = []
for _ in range(1000):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
    socks.append(s)
time.sleep(3)
PY
  local holder=$!
  sleep 2
  after=$(rss_kib "$pid")
  wait "$holder" || true
  echo $(( (after - before) * 1024 / 1000 ))
}
# A fresh emulator process, for the same reason as above.
idle_port=$(free_port)
"${server_cpus[@]}" "$BIN" serve --port "$idle_port" --threads "$THREADS" --no-access-log --data-dir "$work/emulator" >/dev/null 2>&1 &
idle_pid=$!
wait_port "$idle_port"
emu_idle=$(idle_cost "$idle_pid" "$idle_port")
ref_idle=$(idle_cost "$ref_h2c_pid" "$ref_h2c")
printf '%-34s %14s %14s %8s\n' "bytes per idle h2c connection" "$emu_idle" "$ref_idle" "$(ratio "$emu_idle" "$ref_idle")"
