"""Rate limits as Google's and Apple's (docs/quotas.md), with the emulator started as a user would:
`--quotas google`, one limit changed by option, others per project through the admin API. The
official firebase-admin SDK reads the 429s: `send_each_async` reports QuotaExceededError for a device
over its limit (the FcmError detail) and ResourceExhaustedError for the project's (production's body
has no FcmError detail); APNs answers 429 TooManyRequests; a collapsible message past the burst is
delayed and then handed to the device's open stream as the clock runs."""
import asyncio
import threading
import urllib.request

import firebase_admin
import pytest
from firebase_admin import exceptions, messaging

from api import Api
from apns_helpers import ApnsConnection, apns_headers, new_key, provider_token
from conftest import Emulator, wait_until
from fcm_helpers import legacy_topic_calls_to, start_firebase_app
from sse_device import SseDevice

pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")

JWT = provider_token(new_key(), "ABC123DEFG", "DEF123GHIJ")
BEARER = {"Authorization": "Bearer test"}


@pytest.fixture(scope="module")
def emulator():
    emu = Emulator("--quotas", "google", "--quota-apple-device-per-minute", "3")
    yield emu
    emu.assert_no_sanitizer_report()
    assert emu.alive(), "the emulator died during the tests:\n" + emu.stderr()[-3000:]
    emu.stop()


@pytest.fixture
def api(emulator, request):
    # A project per test: each starts with the command line's limits and windows of its own.
    api = Api(emulator.http, project=request.node.name.replace("_", "-")[:30])
    yield api
    assert api.reset_clock()[0] == 200


def set_limits(api, **limits):
    status, body = api.call("PATCH", f"/emulator/v1/projects/{api.project}/quotas", limits)
    assert status == 200, body
    return body


def send_each_async(emulator, project, messages):
    app = start_firebase_app(emulator.http, project=project)
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(messaging.send_each_async(messages, app=app))
    finally:
        firebase_admin.delete_app(app)
        loop.close()


def test_the_command_line_sets_each_new_projects_limits(api):
    status, limits = api.call("GET", f"/emulator/v1/projects/{api.project}/quotas")
    assert status == 200
    assert limits == {"projectMessagesPerMinute": 600000, "androidDevicePerMinute": 240, "androidDevicePerHour": 5000,
                      "appleDevicePerMinute": 3, "topicSubscriptionsPerSecond": 3000, "collapsibleBurst": 20,
                      "collapsibleRefillSeconds": 180}


def test_send_each_async_reports_quota_exceeded_for_a_device_over_its_lowered_limit(emulator, api):
    set_limits(api, androidDevicePerMinute=3)
    token = api.register(platform="android")
    batch = send_each_async(emulator, api.project, [messaging.Message(token=token, data={"n": str(i)}) for i in range(5)])
    assert batch.success_count == 3
    refused = [response.exception for response in batch.responses if not response.success]
    assert len(refused) == 2 and all(isinstance(error, messaging.QuotaExceededError) for error in refused), refused
    assert refused[0].http_response.status_code == 429 and "retry-after" not in refused[0].http_response.headers
    assert len(api.connect(token)) == 3
    # A minute on, on the emulator's clock, the device's window has room again.
    assert api.advance(60)[0] == 200
    assert send_each_async(emulator, api.project, [messaging.Message(token=token, data={"n": "5"})]).success_count == 1


def test_the_project_limit_answers_as_production_does(emulator, api):
    set_limits(api, projectMessagesPerMinute=3)
    token = api.register(platform="android")
    # A client error counts against the project's messages (Google counts 400–499 but 429).
    assert api.send({"token": "not a token"})[0] == 400
    app = start_firebase_app(emulator.http, project=api.project)
    try:
        messaging.send(messaging.Message(token=token, data={"n": "1"}), app=app)
        messaging.send(messaging.Message(token=token, data={"n": "2"}), app=app)
        # No FcmError detail in production's body: the SDK raises its generic 429 error, at once
        # (no Retry-After, so no retry).
        with pytest.raises(exceptions.ResourceExhaustedError) as raised:
            messaging.send(messaging.Message(token=token, data={"n": "3"}), app=app)
        assert not isinstance(raised.value, messaging.QuotaExceededError)
        assert "Quota exceeded for quota metric 'Send requests'" in str(raised.value)
    finally:
        firebase_admin.delete_app(app)
    assert len(api.connect(token)) == 2


def test_apns_answers_too_many_requests_past_the_device_limit(emulator):
    with ApnsConnection(emulator) as connection:
        statuses = [connection.request(apns_headers(JWT), body={"aps": {"alert": "hi"}}) for _ in range(4)]
    assert [response.status for response in statuses] == [200, 200, 200, 429]
    assert statuses[3].json() == {"reason": "TooManyRequests"}


def subscribe(api, token, topic="a"):
    return api.call(
        "POST", f"/v1/projects/{api.project}/registrations/{token}/topicSubscriptions?topicName={topic}", {}, BEARER)


def test_topic_subscriptions_per_second(emulator, api, monkeypatch):
    set_limits(api, topicSubscriptionsPerSecond=2)
    tokens = [api.register(platform="android") for _ in range(3)]
    assert subscribe(api, tokens[0])[0] == 200
    assert subscribe(api, tokens[1])[0] == 200
    status, body = subscribe(api, tokens[2])
    assert status == 429 and body["error"]["status"] == "RESOURCE_EXHAUSTED", body
    assert body["error"]["details"][0]["errorCode"] == "QUOTA_EXCEEDED"
    # The next second has room again. The SDK's `subscribe_to_topic` (FCM's v1 topic API, one
    # request per token, side by side) reports the one past the limit by the FcmError's code ...
    assert api.advance(1)[0] == 200
    app = start_firebase_app(emulator.http, project=api.project)
    try:
        result = messaging.subscribe_to_topic(tokens, "b", app=app)
        assert (result.success_count, result.failure_count) == (2, 1)
        assert result.errors[0].reason == "QUOTA_EXCEEDED"
        # ... and `subscribe_to_topic_legacy` (the Instance ID batch) by the per-token code, in order.
        assert api.advance(1)[0] == 200
        legacy_topic_calls_to(monkeypatch, emulator.http)
        result = messaging.subscribe_to_topic_legacy(tokens, "c", app=app)
        assert [(error.index, error.reason) for error in result.errors] == [(2, "RESOURCE_EXHAUSTED")]
    finally:
        firebase_admin.delete_app(app)


def test_offline_collapsible_messages_past_the_burst_wait_for_their_turn(api):
    set_limits(api, collapsibleBurst=2)
    token = api.register(platform="android")
    for key in ["a", "b", "c"]:
        assert api.send({"token": token, "data": {"key": key}, "android": {"collapse_key": key}})[0] == 200
    assert [event["remoteMessage"]["collapseKey"] for event in api.connect(token)] == ["a", "b"]
    assert api.advance(179)[0] == 200
    assert api.connect(token) == []
    assert api.advance(1)[0] == 200
    assert [event["remoteMessage"]["collapseKey"] for event in api.connect(token)] == ["c"]


def test_a_delayed_message_reaches_an_open_stream_when_its_time_comes(emulator, api):
    # One second between collapsible messages: the server's own sweep hands the second over.
    set_limits(api, collapsibleBurst=1, collapsibleRefillSeconds=1)
    token = api.register(platform="android")
    stop = threading.Event()
    device = SseDevice(emulator.port, api.project, token, stop, lifetime=lambda: float("inf"))
    device.start()
    try:
        assert wait_until(lambda: api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")[1]["connected"])
        names = [api.send({"token": token, "data": {"n": str(i)}, "android": {"collapse_key": f"k{i}"}})[1]["name"]
                 for i in range(2)]
        assert wait_until(lambda: len(device.received) == 2, timeout=30), device.received
    finally:
        stop.set()
        device.join(10)
    status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages")
    delayed = [m["deliveries"][0] for m in log["messages"] if m["name"] == names[1]][0]
    assert delayed["state"] == "delivered" and "heldUntil" in delayed


def metrics(emulator):
    text = urllib.request.urlopen(emulator.http + "/metrics", timeout=10).read().decode()
    return {line.split(" ")[0]: int(line.split(" ")[1]) for line in text.splitlines()
            if line.startswith(("push_emulator_throttled_total", "push_emulator_collapsible_delayed_total"))}


def test_metrics_count_what_the_limits_did(emulator, api):
    set_limits(api, androidDevicePerMinute=1, collapsibleBurst=1)
    token = api.register(platform="android")
    before = metrics(emulator)
    assert api.send({"token": token, "data": {"n": "1"}, "android": {"collapse_key": "k"}})[0] == 200
    assert api.send({"token": token, "data": {"n": "2"}})[0] == 429
    assert api.advance(60)[0] == 200
    assert api.send({"token": token, "data": {"n": "3"}, "android": {"collapse_key": "j"}})[0] == 200
    after = metrics(emulator)
    changed = {name: after[name] - before.get(name, 0) for name in after if after[name] != before.get(name, 0)}
    assert changed == {'push_emulator_throttled_total{quota="androidDeviceMinute"}': 1,
                       "push_emulator_collapsible_delayed_total": 1}, changed
