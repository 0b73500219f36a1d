# Sourced by scripts/bench.sh: APNs sends (POST /3/device/{token}) over TLS with one provider token
# reused for every request, as clients keep theirs for 30 to 55 minutes, to one offline device (Apple's
# store-one rule keeps its queue at one notification), against nghttpd's static file over TLS from
# the same run. The emulator runs with the default --apns-auth any, which checks the token's shape
# (ES256, kid, iss) but not its signature; the token is signed all the same, with the bench's key.
apns_body="$work/apns-send.json"
printf '%s' '{"aps":{"alert":{"title":"Portugal vs. Denmark","body":"great match!"},"badge":1,"sound":"default"},"matchId":"42"}' > "$apns_body"
apns_jwt=$(python3 - "$work/key.pem" <<'PY'
import base64, json, subprocess, sys, time
def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
signing_input = b64url(json.dumps({"alg": "ES256", "kid": "BENCHKEY01"}).encode()) + "." + \
    b64url(json.dumps({"iss": "BENCHTEAM1", "iat": int(time.time())}).encode())
der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", sys.argv[1]], input=signing_input.encode(),
                     capture_output=True, check=True).stdout
# JWS wants R and S as two 32-byte numbers, not openssl's DER SEQUENCE { INTEGER r, INTEGER s }.
def integer(at):
    assert der[at] == 0x02
    length = der[at + 1]
    return int.from_bytes(der[at + 2:at + 2 + length], "big"), at + 2 + length
r, after = integer(2)
s, _ = integer(after)
print(signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big")))
PY
)
apns_url="https://127.0.0.1:$port/3/device/$(printf 'be%.0s' $(seq 32))"
apns_headers=(-H "authorization: bearer $apns_jwt" -H "apns-topic: com.example.bench" -H "apns-push-type: alert")
# h2load counts any answer as a success: check once that a send is answered 200.
apns_status=$(curl -sk --http2 -o /dev/null -w '%{http_code}' "${apns_headers[@]}" --data-binary "@$apns_body" "$apns_url")
if [ "$apns_status" = 200 ]; then
  # Each round starts from an empty project (the device registers itself on the first send).
  emu_tls_apns() {
    curl -s -o /dev/null -X DELETE "http://127.0.0.1:$port/emulator/v1/projects/apns"
    rate -n "$REQUESTS" -c 16 -m 32 -d "$apns_body" "${apns_headers[@]}" "$apns_url"
  }
  paired "h2/TLS APNs send vs static file" emu_tls_apns ref_tls_file
  # The same request (provider token, apns-* headers, the device path, the payload as its body)
  # answered by nghttpd from a file of the same path: what the reference server itself manages
  # for a request of this shape, for comparison with the row above.
  mkdir -p "$work/docroot/3/device"
  cp "$work/docroot/healthz" "$work/docroot/3/device/$(printf 'be%.0s' $(seq 32))"
  ref_tls_apns_shaped() {
    rate -n "$REQUESTS" -c 16 -m 32 -d "$apns_body" "${apns_headers[@]}" \
      "https://127.0.0.1:$ref_tls/3/device/$(printf 'be%.0s' $(seq 32))"
  }
  paired "h2/TLS APNs send vs same request" emu_tls_apns ref_tls_apns_shaped
  pending=$(curl -s "http://127.0.0.1:$port/emulator/v1/projects/apns/devices" | python3 -c 'import json,sys; print([d["pendingCount"] for d in json.load(sys.stdin).get("devices", [])])')
  echo "  (pending per device after the last round: $pending)"
else
  printf '%-34s %14s %14s %8s\n' "h2/TLS APNs send vs static file" "HTTP $apns_status" "-" "-"
fi
