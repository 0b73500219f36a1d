"""Fault injection (docs/faults.md): the real SDKs see each injected error as they would see
Google's or Apple's, their own retries consume `times`, and a delay holds only its own request."""
import json
import socket
import time

import firebase_admin
import google.auth.credentials
import pytest
from firebase_admin import credentials, exceptions, messaging

import h2frames
from api import Api
from conftest import wait_until
from fcm_helpers import PROJECT, Devices, start_firebase_app
from h2frames import DATA, END_HEADERS, END_STREAM, HEADERS, Client

pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")

FAULTS = f"/emulator/v1/projects/{PROJECT}/faults"
JWT = ("eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyMzQ1NjcifQ."
       "eyJpc3MiOiJERUYxMjM0NTY3IiwiaWF0IjoxNzAwMDAwMDAwfQ."
       "c2lnbmF0dXJl")


class RefreshingToken(google.auth.credentials.Credentials):
    """A token that google-auth can refresh without the network: the SDKs refresh and resend
    on a 401, which an injected THIRD_PARTY_AUTH_ERROR is."""

    def __init__(self):
        super().__init__()
        self.token = "emulator-token"
        self.refreshes = 0

    def refresh(self, request):
        self.refreshes += 1
        self.token = f"emulator-token-{self.refreshes}"


class RefreshingCredential(credentials.Base):
    def __init__(self):
        self.google = RefreshingToken()

    def get_credential(self):
        return self.google


@pytest.fixture(scope="module")
def api(emulator):
    return Api(emulator.http, project=PROJECT)


@pytest.fixture(scope="module")
def devices(emulator):
    return Devices(emulator.http)


@pytest.fixture(scope="module")
def credential():
    return RefreshingCredential()


@pytest.fixture(scope="module")
def app(emulator, credential):
    app = start_firebase_app(emulator.http)
    # The same app, with a credential that can be refreshed.
    firebase_admin.delete_app(app)
    app = firebase_admin.initialize_app(credential, {"projectId": PROJECT}, name="faults-refreshing")
    saved = messaging._MessagingService.FCM_URL
    messaging._MessagingService.FCM_URL = emulator.http + "/v1/projects/{0}/messages:send"
    try:
        messaging._get_messaging_service(app)
    finally:
        messaging._MessagingService.FCM_URL = saved
    yield app
    firebase_admin.delete_app(app)


@pytest.fixture(autouse=True)
def no_faults_left(api):
    yield
    api.call("DELETE", FAULTS)


add_fault = Api.add_fault
fault_state = Api.fault_state


# (error code, what firebase-admin raises, extra fault fields, attempts the SDK makes)
SDK_ERRORS = [
    ("UNREGISTERED", messaging.UnregisteredError, {}, 1),
    ("SENDER_ID_MISMATCH", messaging.SenderIdMismatchError, {}, 1),
    # Retry-After: 0 keeps the test short; urllib3 still retries a 429 that carries one.
    ("QUOTA_EXCEEDED", messaging.QuotaExceededError, {"retryAfterSeconds": 0}, 5),
    ("UNAVAILABLE", exceptions.UnavailableError, {}, 5),
    ("INTERNAL", exceptions.InternalError, {}, 5),
    # Each 401 makes google-auth refresh the token and resend, twice.
    ("THIRD_PARTY_AUTH_ERROR", messaging.ThirdPartyAuthError, {}, 3),
    ("INVALID_ARGUMENT", exceptions.InvalidArgumentError, {}, 1),
    # No exception of its own: the SDK goes by error.status, UNKNOWN (a 500, so retried too).
    ("UNSPECIFIED_ERROR", exceptions.UnknownError, {}, 5),
]


@pytest.mark.parametrize("code,raised,extra,attempts", SDK_ERRORS, ids=[e[0] for e in SDK_ERRORS])
def test_firebase_admin_raises_the_matching_exception(app, api, devices, code, raised, extra, attempts):
    token = devices.register()
    fault = add_fault(api, match={"token": token}, error=code, **extra)
    with pytest.raises(exceptions.FirebaseError) as caught:
        messaging.send(messaging.Message(token=token, data={"k": "v"}), app=app)
    assert type(caught.value) is raised, repr(caught.value)
    details = caught.value.http_response.json()["error"]["details"]
    assert {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code} in details
    assert fault_state(api, fault)["fired"] == attempts
    # A fired fault delivers nothing and logs nothing.
    status, log = api.call("GET", f"/emulator/v1/projects/{PROJECT}/messages?token={token}")
    assert status == 200 and log["messages"] == []


def test_sdk_retry_consumes_times_then_succeeds(app, api, devices):
    token = devices.register()
    fault = add_fault(api, match={"token": token}, error="UNAVAILABLE", times=2)
    name = messaging.send(messaging.Message(token=token, data={"k": "v"}), app=app)
    assert name.startswith(f"projects/{PROJECT}/messages/")
    state = fault_state(api, fault)
    assert state["fired"] == 2 and state["times"] == 2
    assert len(api.connect(token)) == 1


def test_quota_answer_is_googles_with_integer_retry_after(emulator, api, devices):
    import requests
    token = devices.register()
    add_fault(api, match={"token": token}, error="QUOTA_EXCEEDED", retryAfterSeconds=7)
    resp = requests.post(f"{emulator.http}/v1/projects/{PROJECT}/messages:send",
                         json={"message": {"token": token}}, headers={"Authorization": "Bearer x"}, timeout=10)
    assert resp.status_code == 429 and resp.headers["Retry-After"] == "7"
    error = resp.json()["error"]
    assert error["status"] == "RESOURCE_EXHAUSTED" and error["code"] == 429
    assert error["details"] == [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                                 "errorCode": "QUOTA_EXCEEDED"}]


def test_faults_fire_on_validate_only(app, api, devices):
    token = devices.register()
    add_fault(api, match={"token": token}, error="UNREGISTERED")
    with pytest.raises(messaging.UnregisteredError):
        messaging.send(messaging.Message(token=token), app=app, dry_run=True)


def test_pyfcm_waits_for_retry_after_then_succeeds(emulator, api, devices):
    from pyfcm import FCMNotification
    token = devices.register()
    fault = add_fault(api, match={"token": token}, error="QUOTA_EXCEEDED", retryAfterSeconds=1, times=2)
    fcm = FCMNotification(credentials=RefreshingToken(), project_id=PROJECT)
    # PyFCM builds its URL from this constant; the instance's copy points it at the emulator.
    fcm.FCM_END_POINT_BASE = emulator.http + "/v1/projects"
    started = time.monotonic()
    result = fcm.notify(fcm_token=token, notification_title="hello")
    assert result["name"].startswith(f"projects/{PROJECT}/messages/")
    assert fault_state(api, fault)["fired"] == 2
    # It slept Retry-After (1 s) after each of the two 429s.
    assert time.monotonic() - started >= 2
    assert len(api.connect(token)) == 1


def apns_push(client, stream_id, device_token, push_type=None, apns_id=None):
    extra = [("apns-topic", "com.example.app"), ("authorization", "bearer " + JWT)]
    if push_type:
        extra.append(("apns-push-type", push_type))
    if apns_id:
        extra.append(("apns-id", apns_id))
    client.send(h2frames.frame(HEADERS, END_HEADERS, stream_id,
                               client.headers_block(f"/3/device/{device_token}", "POST", extra)))
    client.send(h2frames.frame(DATA, END_STREAM, stream_id, b'{"aps":{"alert":"hi"}}'))
    frames = client.response_complete(stream_id)
    headers = client.received_headers[stream_id][0]
    data = [f for f in frames if f[0] == DATA and f[2] == stream_id]
    return headers, data


def h2c_client(emulator):
    client = Client(h2frames.connect(emulator.port, tls=False))
    client.start()
    client.send(h2frames.settings(ack=True))
    return client


def test_apns_faults_answer_apples_status_body_and_framing(emulator, api):
    device_token = "cd" * 32
    api.register(platform="ios", bundleId="com.example.app", apnsToken=device_token)
    client = h2c_client(emulator)
    add_fault(api, match={"apnsToken": device_token.upper()}, error="Unregistered", times=1)
    before = int(time.time() * 1000)
    apns_id = "123e4567-e89b-12d3-a456-426614174000"
    headers, data = apns_push(client, 1, device_token, apns_id=apns_id)
    assert headers[":status"] == "410" and headers["apns-id"] == apns_id
    assert headers["content-type"] == "application/json"
    assert len(data) == 1 and data[0][1] & END_STREAM
    body = json.loads(data[0][3])
    assert list(body) == ["reason", "timestamp"] and body["reason"] == "Unregistered"
    assert isinstance(body["timestamp"], int) and body["timestamp"] >= before - 1000

    add_fault(api, match={"pushType": "background"}, error="TooManyRequests", retryAfterSeconds=3)
    headers, data = apns_push(client, 3, device_token, push_type="background")
    assert headers[":status"] == "429" and headers["retry-after"] == "3"
    assert json.loads(data[0][3]) == {"reason": "TooManyRequests"}
    # Other push types and the used-up fault leave the send alone: HEADERS alone, 200.
    headers, data = apns_push(client, 5, device_token)
    assert headers[":status"] == "200" and data == []

    add_fault(api, error="ServiceUnavailable", times=1)
    headers, data = apns_push(client, 7, device_token)
    assert headers[":status"] == "503" and json.loads(data[0][3]) == {"reason": "ServiceUnavailable"}
    assert "apns-id" in headers


def test_a_seeded_probability_gives_the_same_sequence_twice(api, devices):
    token = devices.register()

    def run():
        fault = add_fault(api, match={"token": token}, error="UNAVAILABLE", probability=0.5, seed=1234)
        outcomes = [api.send({"token": token})[0] for _ in range(24)]
        state = fault_state(api, fault)
        api.call("DELETE", f"{FAULTS}/{fault['id']}")
        return outcomes, state

    first, state = run()
    second, _ = run()
    assert first == second
    assert set(first) == {200, 503}
    assert state["matched"] == 24 and state["fired"] == first.count(503) and state["seed"] == 1234


def test_fault_api_lists_pages_deletes_and_resets(api):
    made = [add_fault(api, error="INTERNAL", times=i + 1) for i in range(3)]
    status, page = api.call("GET", f"{FAULTS}?pageSize=2")
    assert status == 200 and [f["id"] for f in page["faults"]] == [made[0]["id"], made[1]["id"]]
    status, rest = api.call("GET", f"{FAULTS}?pageSize=2&pageToken={page['nextPageToken']}")
    assert [f["id"] for f in rest["faults"]] == [made[2]["id"]] and "nextPageToken" not in rest
    assert api.call("DELETE", f"{FAULTS}/{made[1]['id']}")[0] == 200
    assert api.call("GET", f"{FAULTS}/{made[1]['id']}")[0] == 404
    assert api.call("DELETE", f"/emulator/v1/projects/{PROJECT}")[0] == 200
    status, empty = api.call("GET", FAULTS)
    assert status == 200 and empty["faults"] == []


@pytest.mark.parametrize("fault,says", [
    ({"error": "NOPE"}, '"NOPE"'),
    ({}, "delayMs"),
    ({"error": "UNREGISTERED", "match": {"pushType": "alert"}}, "FCM error"),
    ({"error": "Unregistered", "match": {"topic": "news"}}, "APNs reason"),
    ({"error": "INTERNAL", "probability": 1.5}, "probability"),
    ({"error": "INTERNAL", "seed": 4}, "seed"),
    ({"error": "INTERNAL", "times": 0}, "times"),
    ({"error": "INTERNAL", "match": {"token": "a", "topic": "b"}}, "match"),
    ({"error": "INTERNAL", "colour": "red"}, "colour"),
])
def test_bad_faults_get_a_google_400_that_says_why(api, fault, says):
    status, body = api.call("POST", FAULTS, fault)
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
    assert says in body["error"]["message"], body


def fcm_send_bytes(token):
    return json.dumps({"message": {"token": token, "data": {"k": "v"}}}).encode()


def test_a_delay_holds_only_its_own_request_over_h2c(emulator, api, devices):
    token = devices.register()
    add_fault(api, match={"token": token}, delayMs=800, times=1)
    client = h2c_client(emulator)
    body = fcm_send_bytes(token)
    client.send(h2frames.frame(HEADERS, END_HEADERS, 1, client.headers_block(
        f"/v1/projects/{PROJECT}/messages:send", "POST",
        [("content-type", "application/json"), ("authorization", "Bearer x")])))
    client.send(h2frames.frame(DATA, END_STREAM, 1, body))
    # Another stream on the same connection, and another connection, answer while it waits.
    client.headers(3)
    frames = client.response_complete(3)
    assert client.status(3) == 200 and client.status(1) is None
    status, health = Api(emulator.http).call("GET", "/healthz")
    assert status == 200
    assert client.status(1) is None, "the delayed send answered before /healthz on another connection"
    client.response_complete(1, timeout=10)
    # A pure delay performs the send afterwards.
    assert client.status(1) == 200
    assert len(api.connect(token)) == 1


class Http1Reader:
    """Reads HTTP/1.1 responses with a content-length, one after the other, from a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def _fill(self):
        chunk = self.sock.recv(65536)
        assert chunk, "the connection closed"
        self.buffer += chunk

    def response(self, timeout=10):
        self.sock.settimeout(timeout)
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        length = int([line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")][0])
        while len(rest) < length:
            self._fill()
            head, _, rest = self.buffer.partition(b"\r\n\r\n")
        self.buffer = rest[length:]
        return head, rest[:length]


def test_a_delay_holds_only_its_own_request_over_http1(emulator, api, devices):
    token = devices.register()
    add_fault(api, match={"token": token}, error="UNAVAILABLE", delayMs=800, times=1)
    sock = socket.create_connection(("127.0.0.1", emulator.port))
    body = fcm_send_bytes(token)
    request = (f"POST /v1/projects/{PROJECT}/messages:send HTTP/1.1\r\nHost: localhost\r\n"
               f"Authorization: Bearer x\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    # A pipelined /healthz behind it waits for it: HTTP/1.1 answers in order.
    sock.sendall(request + body + b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    status, _ = Api(emulator.http).call("GET", "/healthz")
    assert status == 200
    sock.setblocking(False)
    with pytest.raises(BlockingIOError):
        sock.recv(1)
    sock.setblocking(True)
    reader = Http1Reader(sock)
    head, error = reader.response()
    assert head.startswith(b"HTTP/1.1 503") and json.loads(error)["error"]["status"] == "UNAVAILABLE"
    head, health = reader.response()
    assert head.startswith(b"HTTP/1.1 200") and json.loads(health) == {"status": "ok"}
    sock.close()


def test_a_client_that_leaves_during_a_delay_changes_nothing(emulator, api, devices):
    token = devices.register()
    fault = add_fault(api, match={"token": token}, delayMs=500)
    client = h2c_client(emulator)
    client.send(h2frames.frame(HEADERS, END_HEADERS, 1, client.headers_block(
        f"/v1/projects/{PROJECT}/messages:send", "POST", [("authorization", "Bearer x")])))
    client.send(h2frames.frame(DATA, END_STREAM, 1, fcm_send_bytes(token)))
    # Left once the server holds the request.
    assert wait_until(lambda: fault_state(api, fault)["fired"] == 1)
    client.sock.close()
    sock = socket.create_connection(("127.0.0.1", emulator.port))
    body = fcm_send_bytes(token)
    sock.sendall((f"POST /v1/projects/{PROJECT}/messages:send HTTP/1.1\r\nHost: localhost\r\n"
                  f"Authorization: Bearer x\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
    assert wait_until(lambda: fault_state(api, fault)["fired"] == 2)
    sock.close()
    # Past both delays: the answers found no client, and the sends were dropped with them.
    time.sleep(0.8)
    assert emulator.alive()
    assert api.connect(token) == []
    assert api.call("GET", "/healthz")[0] == 200
