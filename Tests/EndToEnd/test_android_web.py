"""Android and web devices with the official firebase-admin SDK (from PyPI, unchanged): what their
streams deliver for `AndroidConfig` and `WebpushConfig` messages, compared with the golden examples
of docs/android.md and docs/web.md, and FCM's queue rules for them."""
import datetime
import re
import subprocess

import firebase_admin
import pytest
from firebase_admin import exceptions, messaging

from api import Api, read_sse_events
from fcm_helpers import PROJECT, start_firebase_app

pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")

NAME = re.compile(rf"projects/{PROJECT}/messages/(\d+)")


@pytest.fixture(scope="module")
def app(emulator):
    app = start_firebase_app(emulator.http)
    yield app
    firebase_admin.delete_app(app)


@pytest.fixture(scope="module")
def api(emulator):
    return Api(emulator.http, project=PROJECT)


def stream(emulator, token):
    return subprocess.Popen(
        ["curl", "-sN", f"{emulator.http}/emulator/v1/projects/{PROJECT}/devices/{token}:stream"],
        stdout=subprocess.PIPE)


def next_event(curl):
    [event] = read_sse_events(curl.stdout, 1, timeout=20)
    assert event["type"] == "notification", event
    return event


def golden(text, message_id, sender_id, sent_ms):
    """A golden of the docs with the common values of its examples replaced by this send's."""
    text = text.replace("6810356097230477954", message_id).replace("123456789012", sender_id)
    return eval(text.replace("1795341600000", str(sent_ms)).replace("true", "True"))  # JSON objects of the docs


def test_android_config_reaches_an_android_stream_as_golden_g3(emulator, app, api):
    token = api.register(platform="android", packageName="com.example.app", appState="foreground")
    curl = stream(emulator, token)
    try:
        name = messaging.send(messaging.Message(
            token=token,
            notification=messaging.Notification(title="Goal!", body="PT 1-0", image="https://img.example/g.png"),
            data={"match": "42"},
            android=messaging.AndroidConfig(
                collapse_key="scores", priority="normal", ttl=datetime.timedelta(seconds=3600.5),
                notification=messaging.AndroidNotification(
                    title="GOAL", icon="ic_goal", color="#ff0000", tag="match-42", sound="whistle",
                    click_action="OPEN_MATCH", channel_id="scores", notification_count=3)),
        ), app=app)
        event = next_event(curl)
    finally:
        curl.terminate()
        curl.wait()
    message_id = NAME.fullmatch(name).group(1)
    extras = event["extras"]
    sender_id = extras["google.c.sender.id"]
    assert extras["gcm.notification.sound2"] == "whistle" and extras["gcm.notification.android_channel_id"] == "scores"
    assert event["remoteMessage"] == golden(
        '{"from":"123456789012","messageId":"6810356097230477954","sentTime":1795341600000,'
        '"ttl":3600,"collapseKey":"com.example.app","priority":2,"originalPriority":2,"data":{"match":"42"},'
        '"notification":{"title":"GOAL","body":"PT 1-0","imageUrl":"https://img.example/g.png","icon":"ic_goal",'
        '"sound":"whistle","tag":"match-42","color":"#ff0000","clickAction":"OPEN_MATCH","channelId":"scores",'
        '"notificationCount":3}}',
        message_id, sender_id, int(extras["google.sent_time"]))
    assert event["presentation"]["callback"] == "onMessageReceived" and event["presentation"]["shown"] is False
    assert "headers" not in event
    # A Simulator push file is Apple's: none for an Android delivery.
    status, answer = api.call("GET", f"/emulator/v1/projects/{PROJECT}/deliveries/{event['id']}.apns")
    assert status == 404 and "Apple deliveries only" in answer["error"]["message"]


def test_webpush_config_reaches_a_web_stream_as_golden_g6(emulator, app, api):
    token = api.register(platform="web", origin="https://shop.example")
    curl = stream(emulator, token)
    try:
        name = messaging.send(messaging.Message(
            token=token,
            notification=messaging.Notification(title="Sale", body="50% off"),
            data={"sku": "1", "src": "x"},
            webpush=messaging.WebpushConfig(
                headers={"TTL": "600", "Urgency": "high"}, data={"sku": "9"},
                notification=messaging.WebpushNotification(
                    icon="https://shop.example/i.png", badge="https://shop.example/b.png", require_interaction=True,
                    actions=[messaging.WebpushNotificationAction("buy", "Buy")]),
                fcm_options=messaging.WebpushFCMOptions(link="https://shop.example/sale")),
        ), app=app)
        event = next_event(curl)
    finally:
        curl.terminate()
        curl.wait()
    message_id = NAME.fullmatch(name).group(1)
    sender_id = event["pushData"]["from"]
    assert event["pushData"] == golden(
        '{"from":"123456789012","priority":"high","data":{"sku":"9"},"fcmMessageId":"6810356097230477954",'
        '"notification":{"title":"Sale","body":"50% off","icon":"https://shop.example/i.png",'
        '"badge":"https://shop.example/b.png","requireInteraction":true,"actions":[{"action":"buy","title":"Buy"}],'
        '"click_action":"https://shop.example/sale"}}', message_id, sender_id, 0)
    assert event["messagePayload"] == golden(
        '{"from":"123456789012","messageId":"6810356097230477954","data":{"sku":"9"},'
        '"notification":{"title":"Sale","body":"50% off","icon":"https://shop.example/i.png"},'
        '"fcmOptions":{"link":"https://shop.example/sale"}}', message_id, sender_id, 0)
    presentation = event["presentation"]
    assert presentation["shown"] is True and presentation["clickOpens"] == "https://shop.example/sale"
    assert presentation["callback"] == "onBackgroundMessage"


def test_a_hundred_and_one_queued_data_messages_give_the_deleted_signal(app, api):
    token = api.register(platform="android", packageName="com.example.app")
    messages = [messaging.Message(token=token, data={"n": str(n)}) for n in range(101)]
    sent = messaging.send_each(messages, app=app)
    assert sent.success_count == 101, [r.exception for r in sent.responses if not r.success]
    assert api.connect(token) == [{"type": "messagesDeleted", "reason": "tooManyPending", "count": 101}]
    # A browser has no such signal: it gets every message.
    web = api.register(platform="web")
    assert messaging.send_each([messaging.Message(token=web, data={"n": str(n)}) for n in range(101)], app=app).success_count == 101
    assert len(api.connect(web)) == 101


def test_five_data_collapse_keys_keep_the_four_most_recent(app, api):
    token = api.register(platform="android", packageName="com.example.app")
    for key in ["k1", "k2", "k3", "k4", "k5"]:
        messaging.send(messaging.Message(
            token=token, data={"key": key}, android=messaging.AndroidConfig(collapse_key=key)), app=app)
    events = api.connect(token)
    assert [event["remoteMessage"]["collapseKey"] for event in events] == ["k2", "k3", "k4", "k5"]


def test_a_restricted_package_name_mismatch_raises_invalid_argument(app, api):
    token = api.register(platform="android", packageName="com.example.app")
    with pytest.raises(exceptions.InvalidArgumentError) as raised:
        messaging.send(messaging.Message(
            token=token, data={"a": "1"}, android=messaging.AndroidConfig(restricted_package_name="com.example.other")),
            app=app)
    assert "Invalid package name" in str(raised.value)
    # The same message with the device's own package goes through.
    messaging.send(messaging.Message(
        token=token, data={"a": "1"}, android=messaging.AndroidConfig(restricted_package_name="com.example.app")),
        app=app)


def test_a_condition_send_gives_each_platform_its_own_shape(app, api):
    ios = api.register(platform="ios")
    android = api.register(platform="android", packageName="com.example.app")
    web = api.register(platform="web", origin="https://shop.example")
    for token in (ios, android, web):
        assert messaging.subscribe_to_topic(token, "scores-all", app=app).success_count == 1
    messaging.send(messaging.Message(
        condition="'scores-all' in topics", notification=messaging.Notification(title="Final"), data={"m": "1"}), app=app)
    [apple] = api.connect(ios)
    assert apple["payload"]["aps"]["alert"]["title"] == "Final" and apple["payload"]["m"] == "1"
    [phone] = api.connect(android)
    assert phone["remoteMessage"]["notification"]["title"] == "Final" and phone["remoteMessage"]["data"] == {"m": "1"}
    [browser] = api.connect(web)
    assert browser["messagePayload"]["notification"] == {"title": "Final"} and browser["messagePayload"]["data"] == {"m": "1"}


def test_registration_refuses_other_platforms_settings(api):
    path = f"/emulator/v1/projects/{PROJECT}/devices"
    for body, words in [
        ({"platform": "android", "apnsToken": "ab12"}, "apnsToken is for ios devices only"),
        ({"platform": "android", "bundleId": "com.example.app"}, "bundleId is for ios devices"),
        ({"platform": "ios", "origin": "https://shop.example"}, "origin is for web devices"),
        ({"platform": "web", "origin": "https://shop.example/app"}, "origin must be http:// or https://"),
        ({"platform": "android", "packageName": "example"}, "packageName must be two or more"),
    ]:
        status, answer = api.call("POST", path, body)
        assert status == 400 and words in answer["error"]["message"], (body, answer)
    token = api.register(platform="android", packageName="com.example.app", channels=["scores"])
    status, device = api.call("GET", f"{path}/{token}")
    assert device["packageName"] == "com.example.app" and device["channels"] == ["scores"]
    status, device = api.call("PATCH", f"{path}/{token}", {"channels": None, "packageName": "com.example.other"})
    assert status == 200 and device["channels"] is None and device["packageName"] == "com.example.other"
    status, answer = api.call("PATCH", f"{path}/{token}", {"backgroundHandler": False})
    assert status == 400 and "backgroundHandler is for web devices" in answer["error"]["message"]
