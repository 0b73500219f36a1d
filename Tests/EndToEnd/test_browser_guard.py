"""Other web sites are kept out of the emulator's own API (docs/server.md, "Browsers and the admin
API"): a request under a name public DNS could point at the emulator (DNS rebinding), or a
browser's request from another origin (CSRF), is refused; other clients pass."""
import http.client
import json
import subprocess

import pytest

from api import Api
from conftest import http1_exchange


def request(emulator, method, path, host, headers=(), body=None):
    connection = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=20)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    connection.putheader("Host", host)
    for name, value in headers:
        connection.putheader(name, value)
    data = json.dumps(body).encode() if body is not None else b""
    connection.putheader("Content-Length", str(len(data)))
    connection.endheaders(data)
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    return response.status, (json.loads(raw) if raw else None)


@pytest.fixture
def api(emulator, request):
    return Api(emulator.http, project=request.node.name.replace("_", "-")[:30].lower())


def devices(api):
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/devices")
    assert status == 200, body
    return body["devices"]


def test_a_cross_site_post_is_refused_and_changes_nothing(emulator, api):
    own = f"localhost:{emulator.port}"
    path = f"/emulator/v1/projects/{api.project}/devices"
    status, body = request(emulator, "POST", path, own, [("Origin", "http://evil.example")], {"token": "t1"})
    assert status == 403 and body["error"]["status"] == "PERMISSION_DENIED", body
    status, body = request(emulator, "POST", path, own, [("Sec-Fetch-Site", "cross-site")], {"token": "t2"})
    assert status == 403, body
    assert devices(api) == []
    # From the emulator's own origin, and from a client that is not a browser: registered.
    status, body = request(emulator, "POST", path, own, [("Origin", f"http://{own}")], {"token": "t3"})
    assert status == 201, body
    status, body = request(emulator, "POST", path, "push-emulator:9499", [], {"token": "t4"})
    assert status == 201, body
    assert sorted(device["token"] for device in devices(api)) == ["t3", "t4"]


def test_a_rebound_name_can_neither_read_nor_change_the_state(emulator, api):
    rebound = f"rebound.example:{emulator.port}"
    # A rebinding page's same-origin read over plain HTTP: no Origin, no Sec-Fetch-* header.
    status, body = request(emulator, "GET", "/emulator/v1/state", rebound)
    assert status == 403, body
    status, body = request(emulator, "DELETE", f"/emulator/v1/projects/{api.project}", rebound,
                           [("Origin", f"http://{rebound}")])
    assert status == 403, body
    # A name of one label (a compose service) cannot come from public DNS: answered.
    status, body = request(emulator, "GET", "/emulator/v1/clock", f"emulator:{emulator.port}")
    assert status == 200, body


def test_a_cross_site_read_that_would_deliver_is_refused(emulator, api):
    token = api.register()
    assert api.send({"token": token, "data": {"k": "v"}})[0] == 200
    stream = f"/emulator/v1/projects/{api.project}/devices/{token}:stream"
    status, body = request(emulator, "GET", stream, f"localhost:{emulator.port}", [("Sec-Fetch-Site", "cross-site")])
    assert status == 403, body
    status, body = request(emulator, "GET", "/emulator/v1/events", f"localhost:{emulator.port}",
                           [("Origin", "http://evil.example")])
    assert status == 403, body
    status, device = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")
    assert device["pendingCount"] == 1


def test_over_http2_too(emulator, api):
    url = f"http://evil.example:{emulator.port}/emulator/v1/projects/{api.project}/devices"
    result = subprocess.run(
        ["curl", "-s", "--http2-prior-knowledge", "--connect-to", f"evil.example:{emulator.port}:127.0.0.1:{emulator.port}",
         "-H", f"Origin: http://evil.example:{emulator.port}", "-H", "content-type: application/json",
         "-d", '{"token":"t5"}', "-w", "\n%{http_code}", url],
        capture_output=True, text=True, timeout=30)
    body, status = result.stdout.rsplit("\n", 1)
    assert status == "403", result
    assert json.loads(body)["error"]["status"] == "PERMISSION_DENIED"
    assert devices(api) == []


def test_fcm_and_apns_routes_are_not_guarded(emulator, api):
    token = api.register()
    status, body = request(
        emulator, "POST", f"/v1/projects/{api.project}/messages:send", "fcm.googleapis.com",
        [("Origin", "http://evil.example"), ("Authorization", "Bearer x"), ("Content-Type", "application/json")],
        {"message": {"token": token, "data": {"k": "v"}}})
    assert status == 200, body


def test_a_tls_hostname_is_one_of_the_emulators_names(start_emulator):
    emulator = start_emulator("--tls-hostname", "push-emulator")
    host = f"push-emulator:{emulator.port}"
    status, body = request(emulator, "POST", "/emulator/v1/projects/named/devices", host,
                           [("Origin", f"http://{host}")], {"token": "t6"})
    assert status == 201, body
    status, body = request(emulator, "POST", "/emulator/v1/projects/named/devices", f"other.example:{emulator.port}",
                           [("Origin", f"http://other.example:{emulator.port}")], {"token": "t7"})
    assert status == 403, body
    emulator = start_emulator("--tls-hostname", "push.example.test")
    status, body = request(emulator, "GET", "/emulator/v1/clock", f"push.example.test:{emulator.port}")
    assert status == 200, body


@pytest.mark.parametrize("host, status", [
    ("11.0.0.3\u07fd:9499", b"403"), ("1\u0301.0.0.1", b"403"),
    # No dot: a name of one label, which the emulator answers to.
    ("[::1\u0301]:9499", b"200"),
])
def test_a_host_of_digits_and_combining_marks_is_answered_not_a_crash(emulator, host, status):
    """A digit and a combining mark are one character that sorts among the digits: the address
    check once trapped on it (found by `scripts/fuzz.sh request-headers`). Such a name is no
    address, so it is judged as a name."""
    raw = (f"GET /emulator/v1/projects HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").encode()
    answer = http1_exchange(emulator.port, raw)
    assert answer.startswith(b"HTTP/1.1 " + status + b" "), answer[:200]
    assert emulator.alive(), emulator.stderr()[-2000:]
