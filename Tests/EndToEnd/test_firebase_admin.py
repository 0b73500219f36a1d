"""The official firebase-admin Python SDK (from PyPI, unchanged) against the real emulator binary.

Written against firebase-admin 7.7.0. The SDK sends each message as its own
`POST /v1/projects/{project}/messages:send` with `Authorization: Bearer <token>`; `send_each` runs
them on a thread pool (one worker per message) over a requests session, always HTTP/1.1;
`send_each_async` uses httpx, HTTP/2 when ALPN offers it over TLS. Errors are read from the `FcmError` detail (`UNREGISTERED` →
UnregisteredError), else from `error.status` (`INVALID_ARGUMENT` → InvalidArgumentError).
"""
import asyncio
import re
import time

import firebase_admin
import pytest
from firebase_admin import exceptions, messaging

from conftest import wait_until
from fcm_helpers import PROJECT, Devices, start_firebase_app

# firebase-admin 7.7 deprecates Message.token in favour of fid; devices here have tokens.
pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")

NAME = re.compile(rf"projects/{PROJECT}/messages/(\d+)")
UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)")


@pytest.fixture(scope="module")
def app(emulator):
    app = start_firebase_app(emulator.http)
    yield app
    firebase_admin.delete_app(app)


@pytest.fixture(scope="module")
def devices(emulator):
    return Devices(emulator.http)


def message_id(name):
    match = NAME.fullmatch(name)
    assert match, f"not an emulator message name: {name!r}"
    return match.group(1)


def only_notification(events):
    assert len(events) == 1, events
    assert events[0]["type"] == "notification", events[0]
    return events[0]


def server_error(exc):
    """The `error` object of the HTTP answer the SDK turned into `exc`."""
    assert exc.http_response is not None, "the SDK raised without a server answer"
    return exc.http_response.json()["error"]


def test_send_returns_the_name_and_the_device_gets_the_apple_payload(app, devices):
    token = devices.register(bundle_id="com.example.scores")
    expiration = str(int(time.time()) + 3600)
    message = messaging.Message(
        token=token,
        # The apns payload's alert wins over these on an Apple device.
        notification=messaging.Notification(title="Match update", body="Tap to see the score"),
        data={"matchId": "42", "customKey": "from data"},
        apns=messaging.APNSConfig(
            headers={"apns-priority": "10", "apns-collapse-id": "match-42", "apns-expiration": expiration},
            payload=messaging.APNSPayload(
                aps=messaging.Aps(
                    alert=messaging.ApsAlert(title="Portugal vs. Denmark", body="great match!"),
                    badge=3,
                    sound="default",
                    thread_id="match-42",
                    custom_data={"interruption-level": "time-sensitive"},
                ),
                customKey="customValue",
                match={"home": "POR", "away": "DEN", "minute": 90},
            ),
        ),
    )

    name = messaging.send(message, app=app)

    sent_id = message_id(name)
    event = only_notification(devices.connect(token))
    assert event["messageName"] == name
    assert event["origin"] == "fcm"
    assert RFC3339.fullmatch(event["sentAt"]) and RFC3339.fullmatch(event["deliveredAt"]), event
    payload = dict(event["payload"])
    assert re.fullmatch(r"\d+", payload.pop("google.c.sender.id", "")), event["payload"]
    assert payload == {
        "aps": {
            "alert": {"title": "Portugal vs. Denmark", "body": "great match!"},
            "badge": 3,
            "sound": "default",
            "thread-id": "match-42",
            "interruption-level": "time-sensitive",
        },
        "customKey": "customValue",  # apns.payload wins over the data entry of the same name
        "match": {"home": "POR", "away": "DEN", "minute": 90},
        "matchId": "42",
        "gcm.message_id": sent_id,
        "google.c.a.e": "1",
    }
    headers = event["headers"]
    assert headers["apns-priority"] == "10"
    assert headers["apns-push-type"] == "alert"
    assert headers["apns-topic"] == "com.example.scores"
    assert headers["apns-collapse-id"] == "match-42"
    assert headers["apns-expiration"] == expiration
    assert UUID.fullmatch(headers["apns-id"]), headers
    # Delivered once: the queue is empty afterwards.
    assert devices.connect(token) == []


def test_notification_and_data_alone_become_alert_and_custom_keys(app, devices):
    token = devices.register()
    name = messaging.send(messaging.Message(
        token=token,
        notification=messaging.Notification(title="Hello", body="World"),
        data={"orderId": "A-17"},
    ), app=app)

    payload = only_notification(devices.connect(token))["payload"]
    assert payload["aps"] == {"alert": {"title": "Hello", "body": "World"}}
    assert payload["orderId"] == "A-17"
    assert payload["gcm.message_id"] == message_id(name)
    assert payload["google.c.a.e"] == "1"


def test_data_only_message_has_no_analytics_flag_and_background_headers(app, devices):
    token = devices.register()
    messaging.send(messaging.Message(
        token=token,
        data={"sync": "inbox"},
        apns=messaging.APNSConfig(payload=messaging.APNSPayload(aps=messaging.Aps(content_available=True))),
    ), app=app)

    event = only_notification(devices.connect(token))
    assert event["payload"]["aps"] == {"content-available": 1}
    assert event["payload"]["sync"] == "inbox"
    assert "google.c.a.e" not in event["payload"]
    assert event["headers"]["apns-push-type"] == "background"
    assert event["headers"]["apns-priority"] == "5"


def test_deleted_device_raises_unregistered_error(app, devices):
    token = devices.register()
    messaging.send(messaging.Message(token=token, data={"k": "v"}), app=app)
    devices.uninstall(token)

    with pytest.raises(messaging.UnregisteredError) as caught:
        messaging.send(messaging.Message(token=token, data={"k": "v"}), app=app)

    error = server_error(caught.value)
    assert caught.value.http_response.status_code == 404
    assert error["status"] == "NOT_FOUND"
    assert str(caught.value) == error["message"] == "Requested entity was not found."


# Messages the SDK lets through (it checks only types, topic names and analytics labels) but the
# server must refuse.
@pytest.mark.parametrize("make_message, expected_message", [
    pytest.param(lambda token: messaging.Message(token="not a token!", data={"k": "v"}),
                 r"The registration token is not a valid FCM registration token", id="malformed-token"),
    pytest.param(lambda token: messaging.Message(token=token, data={"google.analytics": "x"}),
                 r".*google\.analytics.*", id="reserved-data-key"),
    pytest.param(lambda token: messaging.Message(token=token, data={"blob": "x" * 5000}),
                 r".*too big.*", id="payload-over-4096-bytes"),
])
def test_invalid_message_raises_invalid_argument_error_from_the_server(app, devices, make_message, expected_message):
    token = devices.register()
    message = make_message(token)

    with pytest.raises(exceptions.InvalidArgumentError) as caught:
        messaging.send(message, app=app)

    error = server_error(caught.value)
    assert caught.value.http_response.status_code == 400
    assert error["status"] == "INVALID_ARGUMENT"
    assert str(caught.value) == error["message"]
    assert re.fullmatch(expected_message, error["message"]), error["message"]
    assert devices.connect(token) == []


def test_send_each_of_100_messages_gives_100_successes_and_each_device_its_own(app, devices):
    tokens = [devices.register() for _ in range(100)]
    messages = [
        messaging.Message(token=token, notification=messaging.Notification(title=f"Message {i}"), data={"index": str(i)})
        for i, token in enumerate(tokens)
    ]

    batch = messaging.send_each(messages, app=app)

    assert [r.exception for r in batch.responses if not r.success] == []
    assert batch.success_count == 100 and batch.failure_count == 0
    names = [r.message_id for r in batch.responses]
    assert len({message_id(name) for name in names}) == 100
    for i, (token, name) in enumerate(zip(tokens, names)):
        event = only_notification(devices.connect(token))
        assert event["messageName"] == name
        assert event["payload"]["index"] == str(i)
        assert event["payload"]["aps"]["alert"] == {"title": f"Message {i}"}
        assert event["payload"]["gcm.message_id"] == message_id(name)


def test_send_each_reports_each_failure_in_its_place(app, devices):
    good, gone = devices.register(), devices.register()
    devices.uninstall(gone)

    batch = messaging.send_each([
        messaging.Message(token=good, data={"n": "0"}),
        messaging.Message(token=gone, data={"n": "1"}),
        messaging.Message(token="not a token!", data={"n": "2"}),
    ], app=app)

    assert batch.success_count == 1 and batch.failure_count == 2
    assert message_id(batch.responses[0].message_id)
    assert isinstance(batch.responses[1].exception, messaging.UnregisteredError)
    assert isinstance(batch.responses[2].exception, exceptions.InvalidArgumentError)
    assert only_notification(devices.connect(good))["payload"]["n"] == "0"


def test_send_each_async_over_httpx(emulator, devices):
    tokens = [devices.register() for _ in range(10)]
    messages = [messaging.Message(token=token, data={"index": str(i)}) for i, token in enumerate(tokens)]

    # The SDK's httpx client keeps its connections bound to the loop that opened them, and
    # delete_app closes them from a loop of its own: the first loop must still be open then.
    app = start_firebase_app(emulator.http)
    loop = asyncio.new_event_loop()
    try:
        batch = loop.run_until_complete(messaging.send_each_async(messages, app=app))
    finally:
        firebase_admin.delete_app(app)
        loop.close()

    assert batch.success_count == 10, [r.exception for r in batch.responses]
    for i, (token, response) in enumerate(zip(tokens, batch.responses)):
        event = only_notification(devices.connect(token))
        assert event["messageName"] == response.message_id
        assert event["payload"]["index"] == str(i)


def test_over_tls_send_works_and_send_each_async_speaks_http2(emulator, devices, monkeypatch):
    # How an app reaches the emulator in interception mode: HTTPS, trusting the emulator's CA
    # (requests reads REQUESTS_CA_BUNDLE per request; httpx reads SSL_CERT_FILE when the SDK
    # builds its client, so both are set before the app's messaging service exists).
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", emulator.ca)
    monkeypatch.setenv("SSL_CERT_FILE", emulator.ca)
    tokens = [devices.register() for _ in range(4)]
    app = start_firebase_app(emulator.https)
    loop = asyncio.new_event_loop()
    try:
        single = messaging.send(messaging.Message(token=tokens[0], data={"via": "requests"}), app=app)
        batch = loop.run_until_complete(messaging.send_each_async(
            [messaging.Message(token=token, data={"via": "httpx"}) for token in tokens[1:]], app=app))
    finally:
        firebase_admin.delete_app(app)
        loop.close()

    assert batch.success_count == 3, [r.exception for r in batch.responses]
    assert only_notification(devices.connect(tokens[0]))["messageName"] == single
    for token, response in zip(tokens[1:], batch.responses):
        assert only_notification(devices.connect(token))["messageName"] == response.message_id
    # httpx negotiated h2 by ALPN: no other test in this module sends over HTTP/2.
    http2_sends = f'"POST /v1/projects/{PROJECT}/messages:send HTTP/2" 200'
    assert wait_until(lambda: emulator.stderr().count(http2_sends) == 3), emulator.stderr()[-2000:]


def test_dry_run_returns_a_name_and_delivers_nothing(app, devices):
    token = devices.register()

    name = messaging.send(messaging.Message(
        token=token, notification=messaging.Notification(title="Not for real")), dry_run=True, app=app)

    assert re.fullmatch(rf"projects/{PROJECT}/messages/\S+", name), name
    assert devices.connect(token) == []


def test_dry_run_still_validates(app, devices):
    token = devices.register()

    with pytest.raises(exceptions.InvalidArgumentError):
        messaging.send(messaging.Message(token=token, data={"from": "me"}), dry_run=True, app=app)
