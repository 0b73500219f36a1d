"""The counters of a state snapshot (docs/state.md, "Counters"): an import accepts each counter
up to its maximum, an operation that would pass it is refused with a clear error, so every export
imports again; DELETE /emulator/v1/state returns the counters to their start."""
import copy
import json
import os
import signal
import tempfile

import pytest

from api import Api, Topics

STATE = "/emulator/v1/state"
LARGEST_MESSAGE_ID = 9999999999999999999
LARGEST = 2 ** 53
JSON = {"Content-Type": "application/json"}

# Each counter: where a snapshot keeps it, and the path an error names.
COUNTERS = {
    "nextMessageId": (("counters", "nextMessageId"), "counters.nextMessageId"),
    "nextDeliveryNumber": (("counters", "nextDeliveryNumber"), "counters.nextDeliveryNumber"),
    "deviceSequence": (("projects", 0, "next", "deviceSequence"), "next.deviceSequence"),
    "topicSequence": (("projects", 0, "next", "topicSequence"), "next.topicSequence"),
    "subscriptionSequence": (("projects", 0, "next", "subscriptionSequence"), "next.subscriptionSequence"),
    "logSequence": (("projects", 0, "next", "logSequence"), "next.logSequence"),
    "faultId": (("projects", 0, "next", "faultId"), "next.faultId"),
}


def at(snapshot, counter, below_maximum):
    """The snapshot with `counter` set `below_maximum` under its maximum."""
    changed = copy.deepcopy(snapshot)
    path, _ = COUNTERS[counter]
    holder = changed
    for key in path[:-1]:
        holder = holder[key]
    if counter == "nextMessageId":
        holder[path[-1]] = str(LARGEST_MESSAGE_ID - below_maximum)
    else:
        holder[path[-1]] = LARGEST - below_maximum
    return changed


def small_state(api):
    """Two devices, one subscribed to `news`, a send and a fault; the export."""
    first = api.register(token="device-one", apnsToken="ab" * 32)
    api.register(token="device-two")
    assert Topics(api).subscribe(first, "news")[0] == 200
    assert api.send({"token": first, "notification": {"title": "t"}})[0] == 200
    api.add_fault(match={"topic": "nobody"}, error="UNAVAILABLE")
    status, snapshot = api.call("GET", STATE)
    assert status == 200, snapshot
    return snapshot


def one_of_each(api):
    """One of each operation that moves a counter; the answers, by operation."""
    topics = Topics(api)
    return {
        "send to a token": api.send({"token": "device-one", "notification": {"title": "t"}}),
        "send to a topic": api.send({"topic": "news", "data": {"k": "v"}}),
        "send registering a token": api.send({"token": "device-new", "data": {"k": "v"}}),
        "register": api.call("POST", f"/emulator/v1/projects/{api.project}/devices", {"token": "device-three"}),
        "add a fault": api.call("POST", f"/emulator/v1/projects/{api.project}/faults",
                                {"match": {"topic": "q"}, "delayMs": 1}),
        "subscribe to a new topic": topics.subscribe("device-one", "sports"),
        "Instance ID batchAdd": topics.batch("batchAdd", "/topics/news", ["device-two"]),
    }


def put(api, snapshot):
    body = snapshot if isinstance(snapshot, bytes) else json.dumps(snapshot).encode()
    return api.call("PUT", STATE, body, JSON)


@pytest.mark.parametrize("counter", list(COUNTERS))
def test_every_accepted_snapshots_export_imports_again_after_one_of_each_operation(start_emulator, counter):
    """A counter at (or just below) its maximum was accepted, the next operation passed it, and
    from then on every export held a counter that PUT and --import refuse."""
    emulator = start_emulator()
    api = Api(emulator.http)
    base = small_state(api)
    for below in (0, 1):
        assert api.call("DELETE", STATE)[0] == 200
        snapshot = at(base, counter, below)
        status, body = put(api, snapshot)
        assert status == 200, body
        answers = one_of_each(api)
        _, error_path = COUNTERS[counter]
        for operation, (status, body) in answers.items():
            # Refused clearly, in Google's shape, or done.
            assert status < 300 or (status == 500 and error_path in body["error"]["message"]), (operation, status, body)
        status, export = api.call("GET", STATE)
        assert status == 200, export
        status, body = put(api, export)
        assert status == 200, (counter, below, body)


def test_an_operation_that_would_pass_a_counter_is_answered_with_a_clear_error(start_emulator):
    emulator = start_emulator()
    api = Api(emulator.http)
    base = small_state(api)

    assert put(api, at(base, "nextMessageId", 0))[0] == 200
    status, body = api.send({"token": "device-one", "notification": {"title": "t"}})
    assert status == 500 and body["error"]["status"] == "INTERNAL", body
    assert "counters.nextMessageId" in body["error"]["message"], body
    assert "DELETE /emulator/v1/state" in body["error"]["message"], body
    assert body["error"]["details"][0]["errorCode"] == "INTERNAL", body

    assert put(api, at(base, "deviceSequence", 0))[0] == 200
    status, body = api.call("POST", f"/emulator/v1/projects/{api.project}/devices", {"token": "device-three"})
    assert status == 500 and "next.deviceSequence" in body["error"]["message"], body
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/devices")
    assert [d["token"] for d in body["devices"]] == ["device-one", "device-two"], body

    assert put(api, at(base, "faultId", 0))[0] == 200
    status, body = api.call("POST", f"/emulator/v1/projects/{api.project}/faults", {"match": {"topic": "q"}, "delayMs": 1})
    assert status == 500 and "next.faultId" in body["error"]["message"], body

    assert put(api, at(base, "subscriptionSequence", 0))[0] == 200
    status, body = Topics(api).batch("batchAdd", "/topics/news", ["device-two"])
    assert status == 200 and body["results"] == [{"error": "INTERNAL"}], body


def test_the_exit_export_of_a_state_at_its_maximum_starts_again(start_emulator):
    """--export-on-exit wrote a 20-digit message id, and --import of it exited 64."""
    path = os.path.join(tempfile.mkdtemp(prefix="push-emulator-counters-"), "state.json")
    emulator = start_emulator("--export-on-exit", path)
    api = Api(emulator.http)
    snapshot = at(small_state(api), "nextMessageId", 1)
    assert put(api, snapshot)[0] == 200
    one_of_each(api)
    assert emulator.stop(signal.SIGTERM) == 0
    restored = start_emulator("--import", path)
    with open(path) as f:
        assert json.load(f)["counters"]["nextMessageId"] == str(LARGEST_MESSAGE_ID)
    status, body = Api(restored.http).call("GET", STATE)
    assert status == 200 and body["counters"]["nextMessageId"] == str(LARGEST_MESSAGE_ID), body


def test_delete_returns_the_counters_to_their_start(start_emulator):
    """A reset kept an imported counter at its maximum: every later send failed until a restart."""
    emulator = start_emulator()
    api = Api(emulator.http)
    snapshot = at(at(small_state(api), "nextMessageId", 0), "nextDeliveryNumber", 0)
    assert put(api, snapshot)[0] == 200
    assert api.call("DELETE", STATE)[0] == 200
    counters = api.call("GET", STATE)[1]["counters"]
    assert counters["nextDeliveryNumber"] == 1, counters
    assert int(counters["nextMessageId"]) < LARGEST_MESSAGE_ID - 2 ** 32, counters
    api.register(token="device-one")
    status, body = api.send({"token": "device-one", "data": {"k": "v"}})
    assert status == 200, body
