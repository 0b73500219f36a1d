"""The emulator's event stream (`GET /emulator/v1/events`, docs/events.md): what changes, live, as
Server-Sent Events, read here by curl over HTTP/1.1 and HTTP/2."""
import json
import queue
import subprocess
import threading
import time

import pytest

from api import Api
from apns_helpers import ApnsConnection, apns_headers, canonical_uuid_upper, new_key, provider_token
from conftest import Emulator

JWT = provider_token(new_key(), "ABC123DEFG", "DEF123GHIJ")


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


class Watcher:
    """curl on the event stream; its events, as (type, data) pairs, in a queue."""

    def __init__(self, emu, query="", flag="--http1.1"):
        self.curl = subprocess.Popen(["curl", "-sN", flag, f"{emu.http}/emulator/v1/events{query}"],
                                     stdout=subprocess.PIPE)
        self.events = queue.Queue()
        self.backlog = []
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        # The stream's first comment: from then on it is watching.
        assert self.lines.get(timeout=30).startswith(b": watching")

    def _read(self):
        kind = None
        for line in self.curl.stdout:
            if line.startswith(b":"):
                self.lines.put(line)
            elif line.startswith(b"event: "):
                kind = line[7:].strip().decode()
            elif line.startswith(b"data: "):
                self.events.put((kind, json.loads(line[6:])))

    def next(self, kind, timeout=30, **fields):
        """The first event of type `kind` whose data has `fields`, of those not taken yet (the
        others stay for later calls: events of one change may come in either order); fails after
        `timeout` seconds. Also returns how long it took."""
        started = time.time()
        deadline = started + timeout

        def matches(event):
            return event[0] == kind and all(event[1].get(k) == v for k, v in fields.items())
        for index, event in enumerate(self.backlog):
            if matches(event):
                del self.backlog[index]
                return event[1], 0.0
        while True:
            remaining = deadline - time.time()
            assert remaining > 0, f"no {kind} event with {fields} within {timeout} s"
            try:
                event = self.events.get(timeout=remaining)
            except queue.Empty:
                continue
            if matches(event):
                return event[1], time.time() - started
            self.backlog.append(event)

    def close(self):
        self.curl.kill()
        self.curl.wait()


@pytest.fixture
def watcher(emu):
    opened = []

    def open_watcher(query="", flag="--http1.1"):
        opened.append(Watcher(emu, query, flag))
        return opened[-1]
    yield open_watcher
    for each in opened:
        each.close()


@pytest.mark.parametrize("flag", ["--http1.1", "--http2-prior-knowledge"])
def test_a_send_and_its_delivery_appear_live(api, watcher, flag):
    watch = watcher(f"?project={api.project}", flag)
    token = api.register(platform="ios", bundleId="com.example.app")
    registered, _ = watch.next("device", change="registered")
    assert registered == {"project": api.project, "token": token, "change": "registered"}
    status, body = api.send({"token": token, "notification": {"title": "Goal"}})
    assert status == 200, body
    message, took = watch.next("message", name=body["name"])
    print(f"message event {took * 1000:.0f} ms after the send was answered")
    assert message["origin"] == "fcm" and message["target"] == {"token": token}
    [delivery_id] = message["deliveries"]
    assert [event["id"] for event in api.connect(token)] == [delivery_id]
    connected, _ = watch.next("device", change="connected")
    assert connected["token"] == token
    delivered, _ = watch.next("delivery", id=delivery_id)
    assert delivered == {"project": api.project, "id": delivery_id, "token": token, "state": "delivered"}


def test_a_connect_past_the_pending_limit_shows_the_deletion(api, watcher):
    watch = watcher(f"?project={api.project}")
    token = api.register()
    for n in range(101):
        assert api.send({"token": token, "data": {"n": str(n)}})[0] == 200
    assert api.connect(token)[0]["type"] == "messagesDeleted"
    deleted, _ = watch.next("messagesDeleted", token=token)
    assert deleted == {"project": api.project, "token": token, "reason": "tooManyPending", "count": 101}


def test_a_stream_delivery_an_apns_push_and_an_uninstall(emu, api, watcher):
    watch = watcher(f"?project={api.project}")
    apns_token = "e5" * 32
    token = api.register(platform="ios", bundleId="com.example.app", apnsToken=apns_token)
    stream = subprocess.Popen(
        ["curl", "-sN", f"{emu.http}/emulator/v1/projects/{api.project}/devices/{token}:stream"], stdout=subprocess.PIPE)
    try:
        watch.next("device", token=token, change="streamOpened")
        with ApnsConnection(emu) as conn:
            response = conn.request(apns_headers(JWT, topic="com.example.app", apns_id=canonical_uuid_upper()),
                                    {"aps": {"alert": "hi"}}, path=f"/3/device/{apns_token}")
        assert response.status == 200, response
        message, _ = watch.next("message", origin="apns")
        assert message["target"] == {"apnsToken": apns_token}
        watch.next("delivery", id=message["deliveries"][0], state="delivered")
        assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{token}")[0] == 200
        watch.next("device", token=token, change="uninstalled")
        watch.next("device", token=token, change="streamClosed")
    finally:
        stream.kill()
        stream.wait()


def test_the_clock_faults_and_resets(api, watcher):
    watch = watcher()
    api.advance(60)
    clock, _ = watch.next("clock")
    assert clock["offsetSeconds"] == 60 and "project" not in clock
    fault = api.add_fault(error="UNAVAILABLE")
    watch.next("project", project=api.project, change="faultAdded", faultId=fault["id"])
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/faults/{fault['id']}")[0] == 200
    watch.next("project", project=api.project, change="faultDeleted", faultId=fault["id"])
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}")[0] == 200
    watch.next("project", project=api.project, change="reset")


def test_a_project_watcher_sees_only_its_project_and_the_clock(api, watcher):
    mine = watcher(f"?project={api.project}")
    other = Api(api.base, project="other-" + api.project)
    other_token = other.register()
    token = api.register()
    event, _ = mine.next("device", change="registered")
    assert event["token"] == token, "another project's registration reached the project's watcher"
    api.advance(1)
    mine.next("clock")


def test_heartbeats_keep_the_stream_alive(emu, watcher):
    watch = watcher()
    assert watch.lines.get(timeout=30) == b": heartbeat\n"


def test_a_malformed_project_is_refused(emu):
    status, body = Api(emu.http).call("GET", "/emulator/v1/events?project=" + "x" * 200)
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"


def test_the_number_of_event_streams_is_bounded(emu):
    import socket

    def open_stream():
        sock = socket.create_connection(("127.0.0.1", emu.port), timeout=30)
        sock.sendall(b"GET /emulator/v1/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, head
            head += chunk
        return sock, int(head.split(b" ", 2)[1])

    opened = []
    try:
        # Other tests' streams may still be closing: open until refused, then check the bound.
        while True:
            sock, status = open_stream()
            opened.append(sock)
            if status != 200:
                break
            assert len(opened) <= 64, "a 65th event stream was accepted"
        assert status == 429
        # One closed makes room again, once the server has seen it go.
        opened.pop().close()
        opened.pop().close()
        deadline = time.time() + 30
        while True:
            sock, status = open_stream()
            opened.append(sock)
            if status == 200:
                break
            assert time.time() < deadline, "a closed event stream did not make room"
            opened.pop().close()
            time.sleep(0.2)
    finally:
        for sock in opened:
            sock.close()
