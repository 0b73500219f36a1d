# Sourced by scripts/bench.sh: topic sends. A fresh emulator process; 10,000 devices subscribed
# to one topic (Instance ID batches of 1,000) — the time one send takes to queue a delivery for
# every subscriber (the answer comes after the last one is queued); then sends/s to a topic with
# 100 subscribers over h2c. No reference server does this, so no ratio.
topic_port=$(free_port)
"${server_cpus[@]}" "$BIN" serve --port "$topic_port" --threads 1 --no-access-log --data-dir "$work/emulator" >/dev/null 2>&1 &
topic_pid=$!
wait_port "$topic_port"
python3 - "$topic_port" <<'PY'
import http.client, json, sys
conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
def call(method, path, body):
    conn.request(method, path, json.dumps(body), {"content-type": "application/json", "authorization": "Bearer bench"})
    response = conn.getresponse()
    data = response.read()
    assert response.status in (200, 201), data
tokens = [f"fan{n:06d}:APA91bTopicBenchDevice" for n in range(10000)]
for token in tokens:
    call("POST", "/emulator/v1/projects/bench/devices", {"token": token})
for start in range(0, 10000, 1000):
    call("POST", "/iid/v1:batchAdd", {"to": "/topics/fanout", "registration_tokens": tokens[start:start + 1000]})
    call("POST", "/iid/v1:batchAdd", {"to": "/topics/hundred", "registration_tokens": tokens[start:start + 10]})
PY
topic_body="$work/topic-send.json"
printf '%s' '{"message":{"topic":"fanout","notification":{"title":"Portugal vs. Denmark","body":"great match!"},"data":{"score":"3x1"}}}' > "$topic_body"
fanout_ms=$(curl -s -o /dev/null -w '%{time_total}' -H 'content-type: application/json' -H 'authorization: Bearer bench' \
  --data-binary "@$topic_body" "http://127.0.0.1:$topic_port/v1/projects/bench/messages:send" | python3 -c 'import sys; print(round(float(sys.stdin.read()) * 1000))')
queued=$(curl -s "http://127.0.0.1:$topic_port/emulator/v1/projects/bench/topics" | python3 -c 'import json,sys; print({t["name"]: t["subscriberCount"] for t in json.load(sys.stdin)["topics"]})')
printf '%-34s %14s %14s %8s\n' "ms to queue 1 send for 10,000 subs" "$fanout_ms" "-" "-"
printf '%s' '{"message":{"topic":"hundred","data":{"score":"3x1"}}}' > "$topic_body"
topic_sends=$(( REQUESTS / 100 ))
emu=$(rate -n "$topic_sends" -c 4 -m 8 -d "$topic_body" -H "content-type: application/json" -H "authorization: Bearer bench" \
  "http://127.0.0.1:$topic_port/v1/projects/bench/messages:send")
printf '%-34s %14s %14s %8s\n' "h2c sends/s to 100 subscribers" "$emu" "-" "-"
echo "  (subscribers: $queued; $topic_sends sends, each queues 100 deliveries)"
kill "$topic_pid"
