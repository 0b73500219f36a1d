"""A delivery is `delivered` only once its event's bytes were handed to the socket; whatever a
closing or reset stream did not send goes back to `pending`, in order, under the queue rules."""
import http.client
import json
import random
import threading
import time

from api import Api
from conftest import wait_until
from h2frames import Client, connect
from sse_device import SseDevice

PROJECT = "receipts"


def register(api, token):
    api.register(token=token, platform="ios", bundleId="com.example.app")


def states(api, token):
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?token={token}&pageSize=1000")
    assert status == 200, body
    return [d["state"] for m in body["messages"] for d in m["deliveries"] if d["token"] == token]


def settled(api, token):
    """The device's streams are closed and nothing is on its way to it any more: the server
    settles a closed stream's writes on its loop, a moment after the client saw the end."""
    status, device = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")
    return not device["connected"] and device["inFlightCount"] == 0


def open_zero_window_stream(emulator, token, project=PROJECT):
    """An HTTP/2 device stream whose client grants no flow-control window: nothing can be sent."""
    client = Client(connect(emulator.port, tls=False))
    client.start(pairs=[(0x4, 0)])  # SETTINGS_INITIAL_WINDOW_SIZE = 0
    client.headers(1, path=f"/emulator/v1/projects/{project}/devices/{token}:stream")
    return client


def test_deliveries_a_zero_window_stream_never_sent_stay_pending_and_are_deleted_by_the_queue_rules(emulator):
    api = Api(emulator.http, PROJECT)
    register(api, "zero-window")
    client = open_zero_window_stream(emulator, "zero-window")
    assert wait_until(lambda: api.call("GET", f"/emulator/v1/projects/{PROJECT}/devices/zero-window")[1]["connected"], timeout=30)
    for n in range(150):
        status, body = api.send({"token": "zero-window", "data": {"n": str(n)}})
        assert status == 200, body
    # The device is online, but not a byte of any event could leave.
    assert set(states(api, "zero-window")) == {"pending"}
    client.sock.close()
    assert wait_until(lambda: settled(api, "zero-window"), timeout=30)
    status, device = api.call("GET", f"/emulator/v1/projects/{PROJECT}/devices/zero-window")
    assert device["pendingCount"] == 150
    # More than 100 pending when the device connects: deleted, and the app is told.
    events = api.connect("zero-window")
    assert events == [{"type": "messagesDeleted", "reason": "tooManyPending", "count": 150}], events
    assert set(states(api, "zero-window")) == {"deleted"}


def test_deliveries_not_sent_before_the_stream_closed_come_back_in_order(emulator):
    api = Api(emulator.http, PROJECT)
    register(api, "comes-back")
    client = open_zero_window_stream(emulator, "comes-back")
    assert wait_until(lambda: api.call("GET", f"/emulator/v1/projects/{PROJECT}/devices/comes-back")[1]["connected"], timeout=30)
    for n in range(5):
        assert api.send({"token": "comes-back", "data": {"n": str(n)}})[0] == 200
    client.sock.close()
    assert wait_until(lambda: settled(api, "comes-back"), timeout=30)
    events = api.connect("comes-back")
    assert [e["payload"]["n"] for e in events] == ["0", "1", "2", "3", "4"]
    assert states(api, "comes-back") == ["delivered"] * 5


def test_devices_that_reconnect_all_the_time_get_every_delivery_marked_delivered(emulator):
    api = Api(emulator.http, PROJECT)
    tokens = [f"reconnecting-{i}" for i in range(6)]
    for token in tokens:
        register(api, token)
    stop_devices, stop_senders = threading.Event(), threading.Event()
    # Each stream lives 0.2-0.6 s: many a delivery is on its way when its stream closes.
    devices = [SseDevice(emulator.port, PROJECT, token, stop_devices, lambda: 0.2 + random.random() * 0.4)
               for token in tokens]
    for device in devices:
        device.start()
    accepted = []

    def sender():
        connection = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=20)
        while not stop_senders.is_set():
            body = json.dumps({"message": {"token": random.choice(tokens), "data": {"x": "1"}}})
            connection.request("POST", f"/v1/projects/{PROJECT}/messages:send", body,
                               {"Content-Type": "application/json", "Authorization": "Bearer test"})
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                accepted.append(1)

    senders = [threading.Thread(target=sender, daemon=True) for _ in range(3)]
    for thread in senders:
        thread.start()
    time.sleep(8)
    stop_senders.set()
    for thread in senders:
        thread.join(timeout=30)
    time.sleep(1)
    stop_devices.set()
    for device in devices:
        device.join(timeout=10)
    assert len(accepted) > 500
    for device in devices:
        # What no session sent is pending again once the server has settled its closed streams
        # (it does so on its own loop, a moment after the client saw the end): polls collect it.
        polled = []
        deadline = time.monotonic() + 15
        while True:
            polled += [e["id"] for e in api.connect(device.token) if e["type"] == "notification"]
            states = {d["id"]: d["state"] for d in deliveries(api, device.token)}
            if all(state == "delivered" for state in states.values()) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        received = device.received + polled
        assert len(received) == len(set(received)), f"{device.token} got duplicates"
        assert all(state == "delivered" for state in states.values()), {k: v for k, v in states.items() if v != "delivered"}
        delivered = set(states)
        assert delivered == set(received), (
            f"{device.token}: marked delivered but never read: {sorted(delivered - set(received))[:5]}; "
            f"read but not marked: {sorted(set(received) - delivered)[:5]}")


def deliveries(api, token):
    """Every delivery of the device in the message log, all pages."""
    found = []
    page = ""
    while True:
        status, body = api.call("GET", f"/emulator/v1/projects/{PROJECT}/messages?token={token}&pageSize=1000{page}")
        assert status == 200, body
        found += [d for m in body["messages"] for d in m["deliveries"] if d["token"] == token]
        if not body.get("nextPageToken"):
            return found
        page = f"&pageToken={body['nextPageToken']}"
