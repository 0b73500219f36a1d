# Sourced by scripts/bench.sh: FCM sends with a real message body to offline devices (so every
# message queues), over h2c and TLS, against nghttpd's static file from the same run; then the
# memory 100,000 queued messages take.
fcm_body="$work/fcm-send.json"
cat > "$fcm_body" <<'JSON'
{"message":{"token":"bench0000000000000000:APA91bBenchDeviceTokenForTheEmulatorBenchmark0123456789","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1","customKey":"customValue"},"apns":{"headers":{"apns-priority":"10"},"payload":{"aps":{"badge":1,"sound":"default"}}}}}
JSON
fcm_url="127.0.0.1:$port/v1/projects/bench/messages:send"
fcm_headers=(-H "content-type: application/json" -H "authorization: Bearer bench")
# Each round starts from an empty project, so that every round queues into the same state.
emu_send() {
  curl -s -o /dev/null -X DELETE "http://127.0.0.1:$port/emulator/v1/projects/bench"
  rate -n "$REQUESTS" -c 16 -m 32 -d "$fcm_body" "${fcm_headers[@]}" "$1://$fcm_url"
}
emu_h2c_send() { emu_send http; }
emu_tls_send() { emu_send https; }
paired "h2c FCM send vs static file" emu_h2c_send ref_h2c_file
paired "h2/TLS FCM send vs static file" emu_tls_send ref_tls_file

# Memory: a fresh emulator process (freed memory of the runs above would hide growth),
# 100,000 messages queued for 1,000 offline devices.
mem_port=$(free_port)
"${server_cpus[@]}" "$BIN" serve --port "$mem_port" --threads 1 --no-access-log --data-dir "$work/emulator" >/dev/null 2>&1 &
mem_pid=$!
wait_port "$mem_port"
fcm_url="127.0.0.1:$mem_port/v1/projects/bench/messages:send"
before=$(rss_kib "$mem_pid")
python3 - "$fcm_body" "$work/bodies" <<'PY'
import json, os, sys
message = json.load(open(sys.argv[1]))
os.makedirs(sys.argv[2], exist_ok=True)
for device in range(1000):
    message["message"]["token"] = f"mem{device:019d}:APA91bMemoryBenchDevice"
    with open(f"{sys.argv[2]}/{device}.json", "w") as f:
        json.dump(message, f)
PY
for device in $(seq 0 999); do
  "${client_cpus[@]}" h2load -n 100 -c 1 -m 100 -d "$work/bodies/$device.json" "${fcm_headers[@]}" "http://$fcm_url" >/dev/null 2>&1
done
after=$(rss_kib "$mem_pid")
queued=$(curl -s "http://127.0.0.1:$mem_port/emulator/v1/projects/bench/devices?pageSize=1000" | python3 -c 'import json,sys; print(sum(d["pendingCount"] for d in json.load(sys.stdin)["devices"]))')
printf '%-34s %14s %14s %8s\n' "MiB per 100,000 queued messages" "$(( (after - before) * 100000 / 1024 / (queued > 0 ? queued : 1) ))" "-" "-"
echo "  ($queued messages queued; the message log keeps every send too)"
kill "$mem_pid"
