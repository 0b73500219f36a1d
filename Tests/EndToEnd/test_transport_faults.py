"""Transport faults (`"connection": "reset" | "goaway"`, docs/faults.md): the connection itself
fails, seen frame by frame over h2c and TLS, as a reset by raw sockets on HTTP/1.1 and HTTP/2, and
as the real SDKs show it (firebase-admin, aioapns). The faulted send is never performed, and other
connections are untouched."""
import json
import socket

import pytest
import requests
from firebase_admin import exceptions, messaging

import h2frames
from api import Api
from fcm_helpers import PROJECT, Devices, start_firebase_app
from h2frames import DATA, END_HEADERS, END_STREAM, GOAWAY, HEADERS, NO_ERROR, Client

pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")

FAULTS = f"/emulator/v1/projects/{PROJECT}/faults"
MESSAGES = f"/emulator/v1/projects/{PROJECT}/messages"
BUNDLE = "com.example.app"
JWT = ("eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyMzQ1NjcifQ."
       "eyJpc3MiOiJERUYxMjM0NTY3IiwiaWF0IjoxNzAwMDAwMDAwfQ."
       "c2lnbmF0dXJl")


@pytest.fixture(scope="module")
def api(emulator):
    return Api(emulator.http, project=PROJECT)


@pytest.fixture(scope="module")
def devices(emulator):
    return Devices(emulator.http)


@pytest.fixture(autouse=True)
def no_faults_left(api, emulator):
    yield
    api.call("DELETE", FAULTS)
    assert emulator.alive(), emulator.stderr()[-3000:]


def logged(api):
    """How many sends the project's message log holds."""
    status, body = api.call("GET", MESSAGES + "?pageSize=1000")
    assert status == 200, body
    return len(body["messages"])


def h2_client(emulator, tls):
    client = Client(h2frames.connect(emulator.port, tls=tls, ca=emulator.ca))
    client.start()
    client.send(h2frames.settings(ack=True))
    return client


def fcm_body(token):
    return json.dumps({"message": {"token": token, "notification": {"title": "t"}}}).encode()


def send_fcm(client, stream_id, token):
    client.send(h2frames.frame(HEADERS, END_HEADERS, stream_id, client.headers_block(
        f"/v1/projects/{PROJECT}/messages:send", "POST",
        [("authorization", "Bearer x"), ("content-type", "application/json")])))
    client.send(h2frames.frame(DATA, END_STREAM, stream_id, fcm_body(token)))


def send_apns(client, stream_id, device_token):
    client.send(h2frames.frame(HEADERS, END_HEADERS, stream_id, client.headers_block(
        f"/3/device/{device_token}", "POST", [("apns-topic", BUNDLE), ("authorization", "bearer " + JWT)])))
    client.send(h2frames.frame(DATA, END_STREAM, stream_id, b'{"aps":{"alert":"hi"}}'))


def goaway_frame(frames):
    """(last stream id, error code, debug data) of the GOAWAY in `frames`, and its position."""
    for index, f in enumerate(frames):
        if f[0] == GOAWAY:
            last, code = int.from_bytes(f[3][:4], "big") & 0x7FFFFFFF, int.from_bytes(f[3][4:8], "big")
            return (last, code, f[3][8:]), index
    return None, None


def until_eof(frames):
    return bool(frames) and frames[-1][0] == "EOF"


def http1_request(port, path, body, headers=()):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    head = f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {len(body)}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers)
    sock.sendall((head + "\r\n").encode() + body)
    return sock


def read_all(sock):
    """Everything the server sends until it closes; raises ConnectionResetError on a reset."""
    received = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return received
        received += chunk


def assert_healthy_elsewhere(emulator, api, token):
    """Another connection is served as usual, and a send on it is performed."""
    before = logged(api)
    status, body = api.send({"token": token})
    assert status == 200, body
    assert logged(api) == before + 1


# --- GOAWAY over HTTP/2 ------------------------------------------------------------------------

def goaway_after_stream_1(emulator, api, tls, api_name, prefix, **fault):
    """A device, a `goaway` fault (plus `fault`) on its APNs or FCM sends, and a connection whose
    stream 1 is answered as usual before the faulted send goes out on stream 3. Returns the
    frames up to the end of the connection, the client, the device's FCM token and how many
    sends the log held before."""
    apns_token = prefix + ("fc" if api_name == "fcm" else "00") * 31
    token = api.register(platform="ios", bundleId=BUNDLE, apnsToken=apns_token)
    match = {"apnsToken": apns_token} if api_name == "apns" else {"token": token}
    fault = api.add_fault(match=match, connection="goaway", times=1, **fault)
    before = logged(api)
    client = h2_client(emulator, tls)
    client.headers(1)
    client.response_complete(1)
    assert client.status(1) == 200
    if api_name == "apns":
        send_apns(client, 3, apns_token)
    else:
        send_fcm(client, 3, token)
    frames = client.read_frames(until_eof)
    assert api.fault_state(fault)["fired"] == 1
    return frames, client, token, before


@pytest.mark.parametrize("tls", [False, True], ids=["h2c", "tls"])
@pytest.mark.parametrize("api_name", ["apns", "fcm"])
def test_goaway_without_error_refuses_the_stream_unprocessed(emulator, api, tls, api_name):
    frames, _, token, before = goaway_after_stream_1(emulator, api, tls, api_name, "a1" if tls else "b2")
    found, _ = goaway_frame(frames)
    assert found is not None, frames
    last, code, debug = found
    assert (last, code) == (1, NO_ERROR)
    assert debug == (b'{"reason":"Shutdown"}' if api_name == "apns" else b"")
    # No answer on stream 3, and the server closed the connection after the GOAWAY.
    assert not [f for f in frames if f[0] in (HEADERS, DATA) and f[2] == 3]
    assert frames[-1] == ("EOF",)
    assert logged(api) == before, "the send was not performed"
    assert_healthy_elsewhere(emulator, api, token)


@pytest.mark.parametrize("tls", [False, True], ids=["h2c", "tls"])
@pytest.mark.parametrize("api_name", ["apns", "fcm"])
def test_goaway_with_error_answers_then_ends_the_connection(emulator, api, tls, api_name):
    error = "ServiceUnavailable" if api_name == "apns" else "UNAVAILABLE"
    frames, client, _, before = goaway_after_stream_1(emulator, api, tls, api_name, "c3" if tls else "d4", error=error)
    found, position = goaway_frame(frames)
    assert found is not None, frames
    last, code, debug = found
    assert (last, code) == (3, NO_ERROR)
    assert debug == (b'{"reason":"ServiceUnavailable"}' if api_name == "apns" else b"")
    assert client.status(3) == 503
    body = b"".join(f[3] for f in frames if f[0] == DATA and f[2] == 3)
    if api_name == "apns":
        assert json.loads(body) == {"reason": "ServiceUnavailable"}
    else:
        assert json.loads(body)["error"]["status"] == "UNAVAILABLE"
    # The answer ended before the GOAWAY went out, and the connection closed after it.
    ended = [i for i, f in enumerate(frames) if f[0] in (HEADERS, DATA) and f[2] == 3 and f[1] & END_STREAM]
    assert ended and ended[0] < position
    assert frames[-1] == ("EOF",)
    assert logged(api) == before


def test_goaway_after_a_delay_does_not_hold_other_streams(emulator, api, devices):
    token = devices.register()
    fault = api.add_fault(match={"token": token}, connection="goaway", delayMs=300, times=1)
    client = h2_client(emulator, False)
    send_fcm(client, 1, token)
    # Meanwhile stream 3 is answered on the same connection.
    client.headers(3)
    frames = client.response_complete(3)
    assert client.status(3) == 200 and not goaway_frame(frames)[0]
    frames += client.read_frames(until_eof)
    found, _ = goaway_frame(frames)
    assert found is not None and found[:2] == (0, NO_ERROR), frames
    assert api.fault_state(fault)["fired"] == 1
    assert api.connect(token) == [], "the send was not performed"


@pytest.mark.parametrize("error", [None, "UNAVAILABLE"])
def test_goaway_while_a_later_stream_is_answered_lets_it_answer(emulator, api, devices, error):
    faulted, other = devices.register(), devices.register()
    api.add_fault(match={"token": faulted}, connection="goaway", delayMs=200, times=1,
                  **({"error": error} if error else {}))
    api.add_fault(match={"token": other}, delayMs=700, times=1)
    client = h2_client(emulator, False)
    send_fcm(client, 1, faulted)
    send_fcm(client, 3, other)
    frames = client.read_frames(until_eof)
    # Stream 3 was taken already when the fault fired: the GOAWAY covers it. Without an error,
    # stream 1 alone is refused (REFUSED_STREAM: not processed, the client may retry it).
    found, _ = goaway_frame(frames)
    assert found is not None and found[:2] == (3, NO_ERROR), frames
    assert client.status(3) == 200
    if error:
        assert client.status(1) == 503 and h2frames.reset_code(frames, 1) is None
    else:
        assert client.status(1) is None and h2frames.reset_code(frames, 1) == h2frames.REFUSED_STREAM
    assert frames[-1] == ("EOF",)
    assert api.connect(faulted) == []
    assert len(api.connect(other)) == 1


# --- GOAWAY's HTTP/1.1 form: a close -----------------------------------------------------------

def test_goaway_over_http1_closes_with_or_without_the_error(emulator, api, devices):
    token = devices.register()
    api.add_fault(match={"token": token}, connection="goaway", times=1)
    sock = http1_request(emulator.port, f"/v1/projects/{PROJECT}/messages:send", fcm_body(token),
                         [("Authorization", "Bearer x")])
    assert read_all(sock) == b"", "closed (FIN) without an answer"
    sock.close()
    assert api.connect(token) == []

    api.add_fault(match={"token": token}, error="UNAVAILABLE", connection="goaway", times=1)
    sock = http1_request(emulator.port, f"/v1/projects/{PROJECT}/messages:send", fcm_body(token),
                         [("Authorization", "Bearer x")])
    answer = read_all(sock)
    sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503") and b"\r\nconnection: close" in head.lower()
    assert json.loads(body)["error"]["status"] == "UNAVAILABLE"
    assert_healthy_elsewhere(emulator, api, token)


# --- reset -------------------------------------------------------------------------------------

@pytest.mark.parametrize("transport", ["http1", "h2c", "h2-tls"])
def test_reset_aborts_the_connection_without_sending(emulator, api, devices, transport):
    token = devices.register()
    fault = api.add_fault(match={"token": token}, connection="reset", times=1)
    if transport == "http1":
        sock = http1_request(emulator.port, f"/v1/projects/{PROJECT}/messages:send", fcm_body(token),
                             [("Authorization", "Bearer x")])
    else:
        client = h2_client(emulator, transport == "h2-tls")
        send_fcm(client, 1, token)
        sock = client.sock
        if transport == "h2-tls":
            # Python's ssl module reads a reset as an end of file (a "ragged EOF" it suppresses):
            # the TCP socket underneath shows the reset.
            sock = socket.socket(fileno=sock.detach())
            sock.settimeout(5)
    with pytest.raises(ConnectionResetError):
        read_all(sock)
    sock.close()
    assert api.fault_state(fault)["fired"] == 1
    assert api.connect(token) == [], "the send was not performed"
    assert_healthy_elsewhere(emulator, api, token)


def test_reset_after_a_delay(emulator, api, devices):
    token = devices.register()
    api.add_fault(match={"token": token}, connection="reset", delayMs=200, times=1)
    client = h2_client(emulator, False)
    send_fcm(client, 1, token)
    client.headers(3)
    client.response_complete(3)
    assert client.status(3) == 200, "served during the delay"
    with pytest.raises(ConnectionResetError):
        client.sock.settimeout(5)
        read_all(client.sock)
    assert api.connect(token) == []


def test_a_reset_leaves_other_connections_alone(emulator, api, devices):
    token = devices.register()
    bystander = h2_client(emulator, False)
    bystander.headers(1)
    bystander.response_complete(1)
    api.add_fault(match={"token": token}, connection="reset", times=1)
    victim = h2_client(emulator, False)
    send_fcm(victim, 1, token)
    with pytest.raises(ConnectionResetError):
        read_all(victim.sock)
    # The connection opened before goes on.
    send_fcm(bystander, 3, token)
    bystander.response_complete(3)
    assert bystander.status(3) == 200
    assert len(api.connect(token)) == 1


# --- what firebase-admin shows -----------------------------------------------------------------

@pytest.fixture(scope="module")
def app(emulator):
    import firebase_admin
    app = start_firebase_app(emulator.http)
    yield app
    firebase_admin.delete_app(app)


def test_firebase_admin_raises_unavailable_on_a_reset_and_retries_it_once(app, api, devices):
    token = devices.register()
    # Every attempt reset: the SDK retries once (urllib3's read retry), then raises.
    fault = api.add_fault(match={"token": token}, connection="reset")
    with pytest.raises(exceptions.UnavailableError) as raised:
        messaging.send(messaging.Message(token=token), app=app)
    assert isinstance(raised.value.cause, requests.exceptions.ConnectionError)
    assert api.fault_state(fault)["fired"] == 2
    api.call("DELETE", f"{FAULTS}/{fault['id']}")
    # `times: 1`: that one retry goes through.
    fault = api.add_fault(match={"token": token}, connection="reset", times=1)
    assert messaging.send(messaging.Message(token=token), app=app).startswith(f"projects/{PROJECT}/messages/")
    assert api.fault_state(fault)["fired"] == 1
    assert len(api.connect(token)) == 1, "sent once"


def test_firebase_admin_over_a_goaway_without_error(app, api, devices):
    token = devices.register()
    fault = api.add_fault(match={"token": token}, connection="goaway", times=1)
    # HTTP/1.1 (requests): a close without an answer, which urllib3 retries like a reset.
    assert messaging.send(messaging.Message(token=token), app=app).startswith(f"projects/{PROJECT}/messages/")
    assert api.fault_state(fault)["fired"] == 1
    assert len(api.connect(token)) == 1
