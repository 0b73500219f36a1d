"""Webhooks (docs/webhooks.md): each event of a project as a JSON POST to a URL, in order, from a
bounded queue of its own with retries; a URL that fails or hangs loses its own events only, never a
message, and what a full queue drops is counted in /metrics."""
import http.server
import json
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.request

import pytest

from api import Api
from conftest import BIN, wait_until

PROJECT = "hooks"


class Receiver:
    """A local HTTP(S) server that records each POST's JSON body and headers and answers `status`."""

    def __init__(self, status=200, tls=None, gate=None):
        self.events = []
        self.headers = []
        self.attempts = 0
        self.status = status
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.attempts += 1
                if gate:
                    gate.wait(30)
                if receiver.status == 200:
                    receiver.events.append(json.loads(body))
                    receiver.headers.append(dict(self.headers))
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        scheme = "https" if tls else "http"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def types(self):
        return [event["type"] for event in self.events]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class HangingReceiver:
    """Accepts connections and never answers."""

    def __init__(self):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(64)
        self.connections = []
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/hook"

        def accept():
            while True:
                try:
                    self.connections.append(self.socket.accept()[0])
                except OSError:
                    return
        threading.Thread(target=accept, daemon=True).start()

    def close(self):
        for connection in self.connections:
            connection.close()
        self.socket.close()


@pytest.fixture
def receiver():
    made = []

    def make(**options):
        made.append(Receiver(**options))
        return made[-1]
    yield make
    for server in made:
        server.close()


def add_webhook(api, url, **fields):
    status, body = api.call("POST", f"/emulator/v1/projects/{api.project}/webhooks", {"url": url, **fields})
    assert status == 200, body
    return body


def webhook(api, hook_id):
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/webhooks")
    assert status == 200, body
    return next(hook for hook in body["webhooks"] if hook["id"] == hook_id)


def metric(emulator, name, labels=""):
    text = urllib.request.urlopen(emulator.http + "/metrics", timeout=10).read().decode()
    prefix = f"{name}{labels} "
    return float(next(line[len(prefix):] for line in text.splitlines() if line.startswith(prefix)))


def test_a_send_and_its_delivery_arrive_in_order(emulator, receiver):
    api = Api(emulator.http, project=PROJECT + "-order")
    target = receiver()
    hook = add_webhook(api, target.url)
    assert hook["url"] == target.url and hook["project"] == api.project
    token = api.register(platform="android", packageName="com.example.hooks")
    for n in range(3):
        assert api.send({"token": token, "data": {"n": str(n)}})[0] == 200
    api.connect(token)
    assert wait_until(lambda: target.types().count("delivery") == 3), target.events
    events = target.events
    assert [event["sequence"] for event in events] == list(range(1, len(events) + 1))
    assert all(event["project"] == api.project for event in events)
    types = target.types()
    assert types[0] == "device" and events[0]["change"] == "registered"
    messages = [event for event in events if event["type"] == "message"]
    deliveries = [event for event in events if event["type"] == "delivery"]
    assert len(messages) == 3
    # Each send's event before its delivery's, and the deliveries in the order sent.
    assert types.index("message") < types.index("delivery")
    assert max(i for i, t in enumerate(types) if t == "message") < min(i for i, t in enumerate(types) if t == "delivery")
    assert [d["id"] for d in deliveries] == [m["deliveries"][0] for m in messages]
    assert all(d["state"] == "delivered" and d["token"] == token for d in deliveries)
    assert target.headers[0]["Content-Type"] == "application/json"
    assert target.headers[0]["X-Push-Emulator-Event"] == "device"
    assert wait_until(lambda: webhook(api, hook["id"])["delivered"] == len(target.events))


def test_deliveries_that_never_arrive_are_events_too(emulator, receiver):
    api = Api(emulator.http, project=PROJECT + "-states")
    target = receiver()
    add_webhook(api, target.url)
    token = api.register(platform="android", packageName="com.example.hooks")
    assert api.send({"token": token, "data": {"n": "1"}, "android": {"collapse_key": "score"}})[0] == 200
    assert api.send({"token": token, "data": {"n": "2"}, "android": {"collapse_key": "score"}})[0] == 200
    assert api.send({"token": token, "data": {"n": "3"}, "android": {"ttl": "0s"}})[0] == 200
    assert wait_until(lambda: target.types().count("message") == 3), target.events
    changes = lambda: [(e["state"], e.get("reason")) for e in target.events if e["type"] == "delivery"]
    first, second, third = (e["deliveries"][0] for e in target.events if e["type"] == "message")
    assert wait_until(lambda: len(changes()) == 2), target.events
    assert changes() == [("collapsed", f"replaced by {second}"), ("dropped", "ttl 0 and the device is offline")]
    assert [e["id"] for e in target.events if e["type"] == "delivery"] == [first, third]
    # An expiry is made (and told) when the project is next read after the time passed.
    assert api.send({"token": token, "data": {"n": "4"}, "android": {"ttl": "60s"}})[0] == 200
    try:
        api.advance(61)
        api.call("GET", f"/emulator/v1/projects/{api.project}/messages")
        assert wait_until(lambda: len(changes()) == 3), target.events
        assert changes()[-1] == ("expired", "ttl passed while the device was offline")
    finally:
        api.reset_clock()


def test_an_injected_fault_is_an_event(emulator, receiver):
    api = Api(emulator.http, project=PROJECT + "-fault")
    target = receiver()
    add_webhook(api, target.url)
    fault = api.add_fault(match={"token": "faulted"}, error="UNAVAILABLE")
    assert api.send({"token": "faulted", "data": {"a": "b"}})[0] == 503
    assert wait_until(lambda: "fault" in target.types()), target.events
    event = next(event for event in target.events if event["type"] == "fault")
    assert event["faultId"] == fault["id"] and event["api"] == "fcm" and event["error"] == "UNAVAILABLE"


def test_a_failing_webhook_stalls_nothing_and_loses_no_message(emulator, receiver):
    api = Api(emulator.http, project=PROJECT + "-failing")
    failing = receiver(status=500)
    working = receiver()
    failing_hook = add_webhook(api, failing.url)
    add_webhook(api, working.url)
    hanging = HangingReceiver()
    try:
        add_webhook(api, hanging.url)
        token = api.register(platform="ios", bundleId="com.example.hooks")
        for n in range(50):
            assert api.send({"token": token, "data": {"n": str(n)}})[0] == 200
        # The working webhook gets every event while the others fail and hang.
        assert wait_until(lambda: working.types().count("message") == 50), working.types()
        status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?pageSize=100")
        assert status == 200 and len(log["messages"]) == 50
        # Each event is tried five times, then given up and counted.
        assert wait_until(lambda: webhook(api, failing_hook["id"])["failed"] >= 1, timeout=60)
        state = webhook(api, failing_hook["id"])
        assert state["lastError"].endswith("answered 500 (5 tries)"), state
        assert failing.attempts >= 5
        assert metric(emulator, "push_emulator_webhook_events_total", '{outcome="failed"}') >= 1
    finally:
        hanging.close()


def test_a_full_queue_drops_events_and_counts_them(start_emulator):
    hanging = HangingReceiver()
    try:
        emulator = start_emulator("--webhook", hanging.url, "--no-access-log")
        api = Api(emulator.http, project=PROJECT + "-full")
        status, body = api.call("GET", "/emulator/v1/webhooks")
        assert status == 200 and [hook["url"] for hook in body["webhooks"]] == [hanging.url]
        sends = 10_300
        with tempfile.NamedTemporaryFile("w", suffix=".json") as message:
            json.dump({"message": {"token": "t" * 40, "data": {"k": "v"}}}, message)
            message.flush()
            out = subprocess.run(
                ["h2load", "-n", str(sends), "-c", "1", "-m", "50", "-d", message.name,
                 "-H", "content-type: application/json", "-H", "authorization: Bearer test",
                 f"{emulator.http}/v1/projects/{api.project}/messages:send"],
                capture_output=True, text=True, timeout=300)
        assert f"status codes: {sends} 2xx" in out.stdout, out.stdout + out.stderr
        # Every message is logged, whatever the webhook does.
        status, projects = api.call("GET", "/emulator/v1/projects")
        assert next(p for p in projects["projects"] if p["projectId"] == api.project)["messageCount"] == sends
        dropped = metric(emulator, "push_emulator_webhook_events_total", '{outcome="queueFull"}')
        assert dropped >= sends - 10_000, dropped
        assert metric(emulator, "push_emulator_webhook_events_queued") == 10_000
    finally:
        hanging.close()


def test_https_webhooks_check_the_certificate(emulator, receiver, tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    target = receiver(tls=(cert, key))
    api = Api(emulator.http, project=PROJECT + "-tls")
    add_webhook(api, target.url, caCertificate=cert.read_text())
    untrusted = add_webhook(api, target.url)
    api.register(platform="android", packageName="com.example.hooks")
    assert wait_until(lambda: target.types() == ["device"]), target.events
    # Checked against the system's store, the self-signed certificate is refused, five times.
    assert wait_until(lambda: webhook(api, untrusted["id"])["failed"] == 1, timeout=60)
    assert "not trusted" in webhook(api, untrusted["id"])["lastError"]
    assert target.types() == ["device"]


def test_the_admin_api_checks_and_resets_webhooks(emulator, receiver):
    api = Api(emulator.http, project=PROJECT + "-admin")
    base = f"/emulator/v1/projects/{api.project}/webhooks"
    for body, field in [({"url": "ftp://x"}, "url"), ({}, "url"), ({"url": "http://x", "other": 1}, "other"),
                        ({"url": "https://x", "caCertificate": "not pem"}, "caCertificate")]:
        status, error = api.call("POST", base, body)
        assert status == 400 and error["error"]["status"] == "INVALID_ARGUMENT", (body, error)
        assert field in error["error"]["message"], error
    hooks = [add_webhook(api, receiver().url) for _ in range(8)]
    status, error = api.call("POST", base, {"url": "http://127.0.0.1:1/x"})
    assert status == 429 and error["error"]["status"] == "RESOURCE_EXHAUSTED"
    assert api.call("DELETE", f"{base}/{hooks[0]['id']}") == (200, {})
    assert api.call("DELETE", f"{base}/{hooks[0]['id']}")[0] == 404
    assert len(api.call("GET", base)[1]["webhooks"]) == 7
    # Set for the project, so gone with it.
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}")[0] == 200
    assert api.call("GET", base) == (200, {"webhooks": []})


def test_an_event_under_way_when_its_webhook_is_removed_is_still_counted(emulator, receiver):
    api = Api(emulator.http, project=PROJECT + "-removed")
    gate = threading.Event()
    target = receiver(gate=gate)
    hook = add_webhook(api, target.url)
    delivered = lambda: metric(emulator, "push_emulator_webhook_events_total", '{outcome="delivered"}')
    before = delivered()
    api.register(platform="android", packageName="com.example.hooks")
    # The event's request is under way, held by the receiver, when the webhook is deleted.
    assert wait_until(lambda: target.attempts == 1)
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/webhooks/{hook['id']}") == (200, {})
    gate.set()
    assert wait_until(lambda: delivered() == before + 1), (before, delivered())
    assert target.types() == ["device"]


def test_the_webhook_option_is_checked(tmp_path):
    binary = BIN
    for args, message in [(["--webhook", "nope"], "--webhook"), (["--webhook-ca", str(tmp_path / "missing.pem")], "--webhook-ca")]:
        out = subprocess.run([binary, "serve", "--port", "0", "--data-dir", str(tmp_path), *args],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode != 0 and message in out.stderr, out
