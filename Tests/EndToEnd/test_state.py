"""State export and import (docs/state.md): GET/PUT /emulator/v1/state, --import and
--export-on-exit restore devices, subscriptions, pending messages, the log and faults exactly."""
import json
import os
import signal
import subprocess
import tempfile

import pytest

from api import Api, Topics
from conftest import BIN, THREADS, wait_until

STATE = "/emulator/v1/state"
APNS_TOKEN = "ab" * 32


def populate(api):
    """Devices, a subscription, pending and delivered messages, an uninstalled device, a fault
    that has fired, and a moved clock."""
    first = api.register(token="device-one", appState="background")
    second = api.register(token="device-two", apnsToken=APNS_TOKEN)
    gone = api.register(token="device-gone")
    topics = Topics(api)
    assert topics.subscribe(first, "news")[0] == 200
    assert topics.subscribe(second, "news")[0] == 200
    assert api.send({"token": first, "notification": {"title": "pending", "body": "for one"}})[0] == 200
    # Android and web devices, with their settings and a pending message each.
    android = api.register(token="device-android", platform="android", packageName="com.example.state", channels=["news"])
    web = api.register(token="device-web", platform="web", origin="https://state.example", backgroundHandler=False)
    assert api.send({"token": android, "notification": {"title": "to android"}, "android": {"collapse_key": "k"}})[0] == 200
    assert api.send({"token": web, "data": {"to": "web"}, "webpush": {"headers": {"TTL": "3600", "Topic": "t"}}})[0] == 200
    assert api.send({"topic": "news", "data": {"n": "1"}})[0] == 200
    assert api.connect(second)
    assert api.send({"token": gone, "data": {"k": "v"}})[0] == 200
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{gone}")[0] == 200
    status, fault = api.call("POST", f"/emulator/v1/projects/{api.project}/faults",
                             {"match": {"token": first}, "error": "UNAVAILABLE", "probability": 0.5, "seed": 3})
    assert status in (200, 201), fault
    for _ in range(4):
        api.send({"token": first, "data": {"try": "x"}})
    assert api.advance(120)[0] == 200
    return first, second, gone


def export(api):
    status, snapshot = api.call("GET", STATE)
    assert status == 200, snapshot
    return snapshot


def test_export_reset_import_restores_everything(start_emulator):
    emulator = start_emulator()
    api = Api(emulator.http)
    first, second, gone = populate(api)
    snapshot = export(api)
    assert snapshot["kind"] == "push-emulator-state" and snapshot["version"] == 3
    messages_before = api.call("GET", f"/emulator/v1/projects/{api.project}/messages")[1]

    assert api.call("DELETE", STATE)[0] == 200
    assert export(api)["projects"] == []

    status, body = api.call("PUT", STATE, snapshot, {"Content-Type": "application/json"})
    assert status == 200, body
    restored = export(api)
    # The reset started message ids again from wall time, as a new process does: they go on from
    # there when it is further on than the snapshot's (an import never makes ids go back).
    assert int(restored["counters"].pop("nextMessageId")) >= int(snapshot["counters"]["nextMessageId"])
    assert restored == {**snapshot, "counters": {"nextDeliveryNumber": snapshot["counters"]["nextDeliveryNumber"]}}
    assert api.call("GET", f"/emulator/v1/projects/{api.project}/messages")[1] == messages_before
    assert Topics(api).listed() == {"news": 2}
    faults = api.call("GET", f"/emulator/v1/projects/{api.project}/faults")[1]["faults"]
    assert [(f["fired"], f["matched"]) for f in faults] == [
        (f["fired"], f["matched"]) for f in snapshot["projects"][0]["faults"]]

    # The pending message is delivered on connect, as it would have been before the export.
    events = api.connect(first)
    titles = [e.get("payload", {}).get("aps", {}).get("alert", {}).get("title") for e in events]
    assert "pending" in titles, events
    # An uninstalled token still answers UNREGISTERED.
    status, body = api.send({"token": gone, "data": {"k": "v"}})
    assert status == 404 and body["error"]["details"][0]["errorCode"] == "UNREGISTERED", body


def test_a_refused_snapshot_changes_nothing(start_emulator):
    emulator = start_emulator()
    api = Api(emulator.http)
    populate(api)
    snapshot = export(api)
    bad_version = dict(snapshot, version=4)
    text = json.dumps(snapshot).encode()
    for body, where in [(bad_version, "version"), (text[: len(text) // 2], "JSON"), (b"", "JSON")]:
        status, answer = api.call("PUT", STATE, body, {"Content-Type": "application/json"})
        assert status == 400, answer
        assert answer["error"]["status"] == "INVALID_ARGUMENT" and where in answer["error"]["message"], answer
    assert export(api) == snapshot


def test_a_snapshot_whose_parts_do_not_hold_together_is_refused_at_once(start_emulator):
    """An imported log entry named a range of 2^53 delivery numbers (reading the log once walked
    every number with the project's lock held, and the server stopped answering anything); a
    negative clock offset, a pending delivery in no queue and overlapping log entries were
    accepted too. Each is refused with its path, and the server goes on answering."""
    emulator = start_emulator()
    api = Api(emulator.http)
    token = api.register(token="device-one")
    for n in range(2):
        assert api.send({"token": token, "data": {"n": str(n)}})[0] == 200
    snapshot = export(api)

    def changed(change):
        copy = json.loads(json.dumps(snapshot))
        change(copy)
        return copy

    def billions(s): s["projects"][0]["messageLog"][0]["deliveryCount"] = 9007199254740000
    def overlap(s): s["projects"][0]["messageLog"][1]["firstDeliveryNumber"] = s["projects"][0]["messageLog"][0]["firstDeliveryNumber"]
    def unqueued(s): s["projects"][0]["devices"][0]["pendingDeliveries"] = []
    def behind(s): s["clock"]["offsetSeconds"] = -1
    for change, path in [(billions, "projects[0].messageLog[0]"),
                         (overlap, "projects[0].messageLog[1].firstDeliveryNumber"),
                         (unqueued, "projects[0].deliveries[0]"),
                         (behind, "clock.offsetSeconds")]:
        status, body = api.call("PUT", STATE, changed(change), {"Content-Type": "application/json"})
        assert status == 400 and f"Invalid state snapshot: {path}: " in body["error"]["message"], (path, body)
    assert export(api) == snapshot
    assert api.call("GET", "/healthz")[0] == 200


def test_export_on_exit_writes_on_sigterm_and_import_restores_it(start_emulator):
    directory = tempfile.mkdtemp(prefix="push-emulator-state-")
    path = os.path.join(directory, "state.json")
    emulator = start_emulator("--export-on-exit", path)
    api = Api(emulator.http)
    first, _, _ = populate(api)
    before = export(api)
    assert emulator.stop(signal.SIGTERM) == 0
    assert not os.path.exists(path + ".tmp")
    with open(path) as f:
        written = json.load(f)
    # Written at exit: equal to the earlier export but for the connected-device times, which
    # none are here, so equal.
    assert written == before

    restored = start_emulator("--import", path)
    again = Api(restored.http)
    after = export(again)
    # A new process's message ids start from its own wall time when that is further on.
    for snapshot in (after, before):
        snapshot.pop("counters")
    assert after == before
    events = again.connect(first)
    assert any(e.get("payload", {}).get("aps", {}).get("alert", {}).get("title") == "pending" for e in events), events


def test_export_on_exit_writes_on_sigint_too(start_emulator):
    path = os.path.join(tempfile.mkdtemp(prefix="push-emulator-state-"), "state.json")
    emulator = start_emulator("--export-on-exit", path)
    Api(emulator.http).register(token="device-one")
    assert emulator.stop(signal.SIGINT) == 0
    with open(path) as f:
        assert [d["token"] for d in json.load(f)["projects"][0]["devices"]] == ["device-one"]


def start_refused(*args, env=None):
    """Runs the emulator expecting it to refuse to start; returns (exit code, output)."""
    data_dir = tempfile.mkdtemp(prefix="push-emulator-test-")
    run = subprocess.run([BIN, "serve", "--port", "0", "--threads", THREADS, "--data-dir", data_dir, *args],
                         capture_output=True, timeout=30, env=env)
    return run.returncode, run.stdout.decode() + run.stderr.decode()


@pytest.mark.parametrize("damage", ["truncated", "corrupt", "wrong version", "missing"])
def test_import_of_a_bad_file_refuses_to_start_and_writes_nothing(start_emulator, damage):
    emulator = start_emulator()
    api = Api(emulator.http)
    populate(api)
    good = json.dumps(export(api), separators=(",", ":")).encode()
    path = os.path.join(tempfile.mkdtemp(prefix="push-emulator-state-"), "state.json")
    content = {
        "truncated": good[: len(good) * 2 // 3],
        "corrupt": good.replace(b'"devices"', b'"dev!ces"', 1),
        "wrong version": good.replace(b'"version":3', b'"version":7', 1),
        "missing": None,
    }[damage]
    if content is not None:
        with open(path, "wb") as f:
            f.write(content)
    code, output = start_refused("--import", path, "--export-on-exit", path)
    assert code == 64, output
    assert "--import" in output and path in output, output
    assert "listening" not in output, output
    if content is None:
        assert not os.path.exists(path)
    else:
        with open(path, "rb") as f:
            assert f.read() == content


def test_flags_are_taken_from_the_environment(start_emulator):
    path = os.path.join(tempfile.mkdtemp(prefix="push-emulator-state-"), "state.json")
    with open(path, "w") as f:
        f.write("{")
    env = dict(os.environ, PUSH_EMULATOR_IMPORT=path)
    code, output = start_refused(env=env)
    assert code == 64 and path in output, output


def test_put_ends_open_streams_and_devices_come_back_offline(start_emulator):
    emulator = start_emulator()
    api = Api(emulator.http)
    token = api.register(token="streaming-device")
    snapshot = export(api)
    curl = subprocess.Popen(["curl", "-sN", f"{emulator.http}/emulator/v1/projects/{api.project}/devices/{token}:stream"],
                            stdout=subprocess.PIPE)
    try:
        assert wait_until(lambda: api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")[1]["connected"])
        # Taken while connected: the device is written as if its stream closed then, offline.
        connected = export(api)["projects"][0]["devices"][0]
        assert connected["lastConnectedAt"] is not None
        assert api.call("PUT", STATE, snapshot)[0] == 200
        # The stream ends: curl reads to the end and exits by itself.
        curl.stdout.read()
        assert curl.wait(timeout=10) == 0
    finally:
        if curl.poll() is None:
            curl.kill()
            curl.wait()
    device = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")[1]
    assert device["connected"] is False and device["lastConnectedAt"] is None
    # Messages queue for it again and are delivered on its next connect.
    assert api.send({"token": token, "data": {"after": "put"}})[0] == 200
    assert [e["payload"]["after"] for e in api.connect(token)] == ["put"]
