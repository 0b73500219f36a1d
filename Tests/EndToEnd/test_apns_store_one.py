"""APNs sends into the device queues, seen through the device API: Apple's storage rule (one
stored notification per offline device and topic, the latest; `apns-expiration: 0` never stored),
live delivery to a streaming device, and the device an unknown token registers (lenient mode)."""
import subprocess

import pytest

from api import Api, read_sse_events
from apns_helpers import ApnsConnection, apns_headers, canonical_uuid_upper, new_key, provider_token
from conftest import wait_until

JWT = provider_token(new_key(), "ABC123DEFG", "DEF123GHIJ")
BUNDLE = "com.example.scores"


@pytest.fixture
def api(emulator, request):
    return Api(emulator.http, project=request.node.name.replace("_", "-")[:30].lower())


def register(api, apns_token, bundle=BUNDLE):
    return api.register(platform="ios", bundleId=bundle, apnsToken=apns_token)


def push(emulator, apns_token, payload, topic=BUNDLE, push_type="alert", **headers):
    """Sends one push on its own connection; returns the apns-id sent."""
    apns_id = canonical_uuid_upper()
    with ApnsConnection(emulator) as conn:
        response = conn.request(apns_headers(JWT, topic=topic, push_type=push_type, apns_id=apns_id, **headers),
                                payload, path=f"/3/device/{apns_token}")
    assert (response.status, response.body) == (200, b""), response
    return apns_id


def log(api):
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/messages")
    assert status == 200, body
    return body["messages"]


def test_three_pushes_to_an_offline_device_leave_only_the_last(emulator, api):
    apns_token = "a1" * 32
    token = register(api, apns_token)
    payloads = [{"aps": {"alert": {"title": "Score", "body": f"{n}x0"}}, "matchId": 42, "n": n} for n in range(3)]
    ids = [push(emulator, apns_token, payload, apns_priority="10") for payload in payloads]
    [event] = api.connect(token)
    assert event["type"] == "notification" and event["origin"] == "apns"
    assert event["payload"] == payloads[2]
    assert {k: event["headers"].get(k) for k in ("apns-id", "apns-topic", "apns-push-type", "apns-priority")} == \
        {"apns-id": ids[2], "apns-topic": BUNDLE, "apns-push-type": "alert", "apns-priority": "10"}
    assert api.connect(token) == []
    messages = log(api)  # newest first
    assert [m["origin"] for m in messages] == ["apns"] * 3
    assert [[d["state"] for d in m["deliveries"]] for m in messages] == [["delivered"], ["collapsed"], ["collapsed"]]


def test_one_stored_notification_per_topic(emulator, api):
    """The rule is per device and topic: a VoIP push does not replace the stored alert."""
    apns_token = "a2" * 32
    token = register(api, apns_token)
    push(emulator, apns_token, {"aps": {"alert": "first"}})
    push(emulator, apns_token, {"aps": {"alert": "second"}})
    push(emulator, apns_token, {"callerName": "Ana"}, topic=BUNDLE + ".voip", push_type="voip")
    events = api.connect(token)
    assert [(e["headers"]["apns-topic"], e["payload"]) for e in events] == [
        (BUNDLE, {"aps": {"alert": "second"}}), (BUNDLE + ".voip", {"callerName": "Ana"})]


def test_expiration_zero_to_an_offline_device_is_never_stored(emulator, api):
    apns_token = "a3" * 32
    token = register(api, apns_token)
    push(emulator, apns_token, {"aps": {"alert": "now or never"}}, apns_expiration="0")
    assert api.connect(token) == []
    [message] = log(api)
    assert message["origin"] == "apns"
    assert [d["state"] for d in message["deliveries"]] == ["dropped"]


def test_a_streaming_device_gets_every_push(emulator, api):
    apns_token = "a4" * 32
    token = register(api, apns_token)
    stream = subprocess.Popen(["curl", "-sN", "--http2-prior-knowledge",
                               f"{emulator.http}/emulator/v1/projects/{api.project}/devices/{token}:stream"],
                              stdout=subprocess.PIPE)
    try:
        assert wait_until(lambda: api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")[1]["connected"])
        payloads = [{"aps": {"alert": f"goal {n}"}, "n": n} for n in range(3)]
        ids = [push(emulator, apns_token, payload) for payload in payloads]
        events = read_sse_events(stream.stdout, 3)
    finally:
        stream.terminate()
        stream.wait()
    assert [e["payload"] for e in events] == payloads
    assert [e["headers"]["apns-id"] for e in events] == ids
    assert {e["origin"] for e in events} == {"apns"}
    assert [[d["state"] for d in m["deliveries"]] for m in log(api)] == [["delivered"]] * 3


def devices_with_apns_token(api, apns_token):
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/devices?pageSize=1000")
    assert status == 200, body
    return [d for d in body.get("devices", []) if d.get("apnsToken") == apns_token]


def test_an_unknown_token_registers_a_device_in_the_apns_project(emulator):
    apns_token = "a5" * 40
    push(emulator, apns_token, {"aps": {"alert": "ring"}}, topic="com.example.walkie.voip", push_type="voip")
    api = Api(emulator.http, project="apns")
    [device] = devices_with_apns_token(api, apns_token)
    assert device["bundleId"] == "com.example.walkie" and device["platform"] == "ios"
    [event] = api.connect(device["token"])
    assert event["payload"] == {"aps": {"alert": "ring"}} and event["origin"] == "apns"


def test_the_apns_project_option(start_emulator):
    emulator = start_emulator("--apns-project", "ios-demo")
    apns_token = "a6" * 32
    push(emulator, apns_token, {"aps": {"badge": 7}})
    [device] = devices_with_apns_token(Api(emulator.http, project="ios-demo"), apns_token)
    assert device["bundleId"] == BUNDLE
    assert devices_with_apns_token(Api(emulator.http, project="apns"), apns_token) == []


def test_a_device_registered_in_another_project_is_found_there(emulator, api):
    apns_token = "a7" * 32
    token = register(api, apns_token)
    push(emulator, apns_token, {"aps": {"alert": "here"}})
    assert devices_with_apns_token(Api(emulator.http, project="apns"), apns_token) == []
    assert [e["payload"] for e in api.connect(token)] == [{"aps": {"alert": "here"}}]


def test_a_push_with_hundreds_of_apns_headers_and_no_apns_id_reaches_the_device(emulator, api):
    """The generated apns-id goes after every apns-* header the push carried: its position once
    had eight bits, and the 256th header stopped the server."""
    apns_token = "a6" * 32
    token = register(api, apns_token)
    extra = [(f"apns-x-{n}", str(n)) for n in range(300)]
    with ApnsConnection(emulator) as conn:
        response = conn.request(apns_headers(JWT, topic=BUNDLE) + extra, {"aps": {"alert": "many"}}, path=f"/3/device/{apns_token}")
    assert (response.status, response.body) == (200, b""), response
    [event] = api.connect(token)
    names = list(event["headers"])
    assert names == ["apns-topic", "apns-push-type"] + [name for name, _ in extra] + ["apns-id"], names
    assert event["headers"]["apns-id"] == response.headers["apns-id"]
    assert emulator.alive()
