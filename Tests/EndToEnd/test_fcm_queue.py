"""FCM sends through the HTTP API: FCM's storage rules, device connections and streams."""
import json
import socket
import subprocess
import threading
import time

import pytest

from api import Api, read_sse_events
from conftest import Emulator, wait_until


@pytest.fixture(scope="module")
def emu():
    emulator = Emulator("--heartbeat-seconds", "1")
    yield emulator
    assert emulator.alive(), emulator.stderr()[-3000:]
    emulator.stop()


@pytest.fixture
def api(emu, request):
    client = Api(emu.http, project=request.node.name.replace("_", "-")[:30].lower())
    yield client
    client.reset_clock()


def numbered(token, n, **extra):
    return {"token": token, "data": {"n": str(n)}, **extra}


def test_send_returns_name_and_device_gets_payload(api):
    token = api.register(bundleId="com.acme.app")
    status, body = api.send({
        "token": token,
        "notification": {"title": "Portugal vs. Denmark", "body": "great match!"},
        "data": {"customKey": "customValue"},
        "apns": {"payload": {"aps": {"badge": 1}}},
    })
    assert status == 200
    name = body["name"]
    assert name.startswith(f"projects/{api.project}/messages/") and name.rsplit("/", 1)[1].isdigit()
    [event] = api.connect(token)
    assert event["type"] == "notification" and event["messageName"] == name and event["origin"] == "fcm"
    assert event["payload"]["aps"] == {"alert": {"title": "Portugal vs. Denmark", "body": "great match!"}, "badge": 1}
    assert event["payload"]["customKey"] == "customValue"
    assert event["payload"]["gcm.message_id"] == name.rsplit("/", 1)[1]
    assert event["payload"]["google.c.a.e"] == "1"
    assert event["headers"]["apns-topic"] == "com.acme.app"
    assert event["headers"]["apns-push-type"] == "alert" and event["headers"]["apns-priority"] == "10"
    # Delivered once: a second connect has nothing.
    assert api.connect(token) == []


def test_100_pending_are_delivered_in_order(api):
    token = api.register()
    for n in range(100):
        assert api.send(numbered(token, n))[0] == 200
    events = api.connect(token)
    assert [e["payload"]["n"] for e in events] == [str(n) for n in range(100)]


def test_101_pending_are_deleted_with_one_signal(api):
    token = api.register()
    for n in range(101):
        assert api.send(numbered(token, n))[0] == 200
    assert api.connect(token) == [{"type": "messagesDeleted", "reason": "tooManyPending", "count": 101}]
    assert api.connect(token) == []
    status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?state=deleted&pageSize=1000")
    assert status == 200 and len(log["messages"]) == 101


def test_offline_more_than_a_month(api):
    token = api.register()
    assert api.connect(token) == []
    assert api.advance(31 * 86400)[0] == 200
    status, body = api.send(numbered(token, 1))
    assert status == 200 and "name" in body
    assert api.connect(token) == [{"type": "messagesDeleted", "reason": "offlineTooLong", "count": 1}]


def test_expired_apns_expiration_is_not_delivered(api):
    token = api.register()
    status, clock = api.call("GET", "/emulator/v1/clock")
    now = int(time.time()) + clock["offsetSeconds"]
    assert api.send(numbered(token, 1, apns={"headers": {"apns-expiration": str(now + 60)}}))[0] == 200
    assert api.send(numbered(token, 2))[0] == 200
    api.advance(120)
    assert [e["payload"]["n"] for e in api.connect(token)] == ["2"]
    status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?state=expired")
    assert len(log["messages"]) == 1


def test_expiration_zero_to_offline_device_is_dropped(api):
    token = api.register()
    assert api.send(numbered(token, 1, apns={"headers": {"apns-expiration": "0"}}))[0] == 200
    assert api.connect(token) == []
    status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages")
    assert [d["state"] for d in log["messages"][0]["deliveries"]] == ["dropped"]


def test_an_apns_expiration_beyond_any_date_is_stored_until_the_latest_one(api):
    # A 19-digit expiration once overflowed the clock's arithmetic and took the server down.
    token = api.register()
    for expiration in ["999999999999999999", "9223372036854775807"]:
        assert api.send(numbered(token, expiration, apns={"headers": {"apns-expiration": expiration}}))[0] == 200
    assert api.call("GET", "/healthz")[0] == 200
    status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages")
    assert status == 200
    assert {m["deliveries"][0]["expiresAt"] for m in log["messages"]} == {"9999-12-31T23:59:59.999Z"}
    assert [e["payload"]["n"] for e in api.connect(token)] == ["999999999999999999", "9223372036854775807"]
    status, clock = api.advance(9223372036854775807)
    assert (status, clock["now"]) == (200, "9999-12-31T23:59:59.999Z")
    assert api.reset_clock()[0] == 200


def test_collapse_id_keeps_only_the_newest(api):
    token = api.register()
    for n in range(3):
        assert api.send(numbered(token, n, apns={"headers": {"apns-collapse-id": "score"}}))[0] == 200
    events = api.connect(token)
    assert [e["payload"]["n"] for e in events] == ["2"]
    assert events[0]["headers"]["apns-collapse-id"] == "score"


def test_uninstalled_device_answers_unregistered(api):
    token = api.register()
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{token}")[0] == 200
    status, body = api.send({"token": token, "data": {"a": "b"}})
    assert status == 404
    assert body == {"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND",
                              "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}


def test_validate_only_delivers_nothing(api):
    token = api.register()
    status, body = api.send({"token": token, "data": {"a": "b"}}, validate_only=True)
    assert (status, body) == (200, {"name": f"projects/{api.project}/messages/fake_message_id"})
    assert api.connect(token) == []


def test_validate_only_rejects_a_message_too_big_after_conversion_as_a_send_does(api):
    token = api.register()
    big = {"token": token, "data": {"filler": "x" * 4000}}
    sent = api.send(big)
    checked = api.send(big, validate_only=True)
    assert sent[0] == 400 and sent[1]["error"]["status"] == "INVALID_ARGUMENT"
    assert "too big" in sent[1]["error"]["message"]
    assert checked == sent
    fits = {"token": token, "data": {"filler": "x" * 3000}}
    assert api.send(fits, validate_only=True)[0] == 200
    assert api.connect(token) == []


def test_validation_error_reaches_the_client_in_googles_shape(api):
    status, body = api.call("POST", f"/v1/projects/{api.project}/messages:send",
                            b'{"message": {"token": "abc", "data": {"n": 12}}}', {"Authorization": "Bearer t"})
    assert status == 400
    assert body["error"]["message"] == "Invalid value at 'message.data[0].value' (TYPE_STRING), 12"
    assert body["error"]["details"][0]["@type"] == "type.googleapis.com/google.rpc.BadRequest"


def test_missing_bearer_token_is_401(api):
    status, body = api.send({"token": "abc", "data": {"a": "b"}}, auth=None)
    assert status == 401 and body["error"]["status"] == "UNAUTHENTICATED"


@pytest.mark.parametrize("flag", ["--http1.1", "--http2-prior-knowledge"])
def test_curl_stream_shows_events_live(emu, api, flag):
    token = api.register()
    assert api.send(numbered(token, 0))[0] == 200  # pending before the stream opens
    curl = subprocess.Popen(["curl", "-sN", flag, f"{emu.http}/emulator/v1/projects/{api.project}/devices/{token}:stream"],
                            stdout=subprocess.PIPE)
    try:
        [first] = read_sse_events(curl.stdout, 1)
        assert first["payload"]["n"] == "0"
        sent_at = time.time()
        assert api.send(numbered(token, 1))[0] == 200
        [live] = read_sse_events(curl.stdout, 1)
        assert live["payload"]["n"] == "1" and live["type"] == "notification"
        assert time.time() - sent_at < 2
        status, device = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")
        assert device["connected"] is True
    finally:
        curl.terminate()
        curl.wait()
    # The server notices the client leaving: the device goes offline and messages queue again.
    assert wait_until(lambda: api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")[1]["connected"] is False)
    assert api.send(numbered(token, 2))[0] == 200
    assert [e["payload"]["n"] for e in api.connect(token)] == ["2"]


def test_stream_heartbeat_and_end_on_uninstall(emu, api):
    token = api.register()
    with socket.create_connection(("127.0.0.1", emu.port), timeout=10) as sock:
        sock.sendall(f"GET /emulator/v1/projects/{api.project}/devices/{token}:stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        received = b""
        while b": heartbeat" not in received:
            chunk = sock.recv(65536)
            assert chunk
            received += chunk
        assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{token}")[0] == 200
        while not received.endswith(b"0\r\n\r\n"):
            chunk = sock.recv(65536)
            assert chunk, received[-200:]
            received += chunk


def test_stream_of_unknown_device_is_404(emu, api):
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/nope:stream")
    assert status == 404 and body["error"]["status"] == "NOT_FOUND"


def test_strict_token_mode(start_emulator):
    emulator = start_emulator("--tokens", "strict")
    client = Api(emulator.http)
    status, body = client.send({"token": "cFmR2nOQ0kM1pZx9Yq7Abc:APA91bunknown", "data": {"a": "b"}})
    assert status == 400
    assert body["error"]["message"] == "The registration token is not a valid FCM registration token"
    assert body["error"]["details"] == [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}]
    token = client.register()
    assert client.send({"token": token, "data": {"a": "b"}})[0] == 200


def test_lenient_mode_registers_unknown_tokens(api):
    token = "cFmR2nOQ0kM1pZx9Yq7Abc:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
    assert api.send({"token": token, "notification": {"title": "hi"}})[0] == 200
    status, device = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")
    assert status == 200 and device["pendingCount"] == 1


def test_clock_endpoints(api):
    status, before = api.call("GET", "/emulator/v1/clock")
    assert status == 200 and before["offsetSeconds"] == 0 and before["now"].endswith("Z")
    status, after = api.advance(3600)
    assert after["offsetSeconds"] == 3600
    assert api.advance(-5)[0] == 400
    status, reset = api.reset_clock()
    assert reset["offsetSeconds"] == 0


def open_stream(emu, project, token):
    """A raw HTTP/1.1 `:stream` of one device, read until its response head."""
    sock = socket.create_connection(("127.0.0.1", emu.port), timeout=10)
    sock.sendall(f"GET /emulator/v1/projects/{project}/devices/{token}:stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    assert received.startswith(b"HTTP/1.1 200"), received
    return sock


def test_project_ids_are_checked_and_a_reset_ends_only_its_own_projects_streams(emu):
    # A stream of a device in project a%00b once ended when project a was reset: streams were
    # keyed by "project\0token" and a reset matched the prefix. Such ids are refused now, and
    # streams are keyed by the pair.
    api = Api(emu.http)
    auth = {"Authorization": "Bearer test", "Content-Type": "application/json"}
    for bad in ("a%00b", "a%2Fb", "a%0Ab", "a%20b", "p" * 101):
        for method, path, body in (("POST", f"/emulator/v1/projects/{bad}/devices", {}),
                                   ("GET", f"/emulator/v1/projects/{bad}/devices/tok:stream", None),
                                   ("POST", f"/v1/projects/{bad}/messages:send", {"message": {"token": "tok"}}),
                                   ("POST", f"/v1/projects/{bad}/registrations/tok/topicSubscriptions?topicName=news", {}),
                                   ("DELETE", f"/emulator/v1/projects/{bad}", None)):
            status, answer = api.call(method, path, body, auth)
            assert status == 400, (bad, method, path, status, answer)
            assert answer["error"]["status"] == "INVALID_ARGUMENT" and "project id" in answer["error"]["message"]
    # The same token in projects "nul-a" and "nul-a-b": resetting the first ends only its stream.
    token = "same-token:APA91bInTwoProjects"
    first, second = Api(emu.http, project="nul-a"), Api(emu.http, project="nul-a-b")
    for client in (first, second):
        client.register(token=token)
    first_stream, second_stream = open_stream(emu, "nul-a", token), open_stream(emu, "nul-a-b", token)
    with first_stream, second_stream:
        assert api.call("DELETE", "/emulator/v1/projects/nul-a")[0] == 200
        received = b""
        while not received.endswith(b"0\r\n\r\n"):
            chunk = first_stream.recv(65536)
            assert chunk, received[-200:]
            received += chunk
        assert second.send(numbered(token, 7))[0] == 200
        received = b""
        while b'"n":"7"' not in received:
            chunk = second_stream.recv(65536)
            assert chunk, received[-200:]
            received += chunk
