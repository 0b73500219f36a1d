"""firebase-admin's topic management (the v1 topic API and the legacy Instance ID API) and topic
sends, against the real emulator binary. Written against firebase-admin 7.7.0, whose
`subscribe_to_topic` makes one v1 call per token (409 counts as success) and whose
`subscribe_to_topic_legacy` makes one Instance ID batch call."""
import firebase_admin
import pytest
from firebase_admin import exceptions, messaging

from fcm_helpers import Devices, legacy_topic_calls_to, start_firebase_app

pytestmark = [
    pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:.*_legacy is deprecated:DeprecationWarning"),
]


@pytest.fixture(scope="module")
def app(emulator):
    app = start_firebase_app(emulator.http, project="topics-project")
    yield app
    firebase_admin.delete_app(app)


@pytest.fixture(scope="module")
def devices(emulator):
    return Devices(emulator.http, project="topics-project")


def test_subscribe_and_unsubscribe_report_success_and_failure_counts(app, devices):
    first, second = devices.register(), devices.register()
    response = messaging.subscribe_to_topic([first, second, "not a token!"], "/topics/sdk-news", app=app)
    assert (response.success_count, response.failure_count) == (2, 1)
    assert [(e.index, e.reason) for e in response.errors] == [(2, "INVALID_ARGUMENT")]
    assert devices.topics(first) == ["sdk-news"] and devices.topics(second) == ["sdk-news"]
    # Subscribing again is a success (the server's 409 ALREADY_EXISTS).
    assert messaging.subscribe_to_topic(first, "sdk-news", app=app).success_count == 1
    devices.uninstall(second)
    response = messaging.unsubscribe_from_topic([first, second], "sdk-news", app=app)
    assert (response.success_count, response.failure_count) == (1, 1)
    assert response.errors[0].reason == "UNREGISTERED"
    assert devices.topics(first) == []
    # allow_missing: unsubscribing again succeeds.
    assert messaging.unsubscribe_from_topic(first, "sdk-news", app=app).success_count == 1


def test_legacy_instance_id_calls(app, devices, emulator, monkeypatch):
    legacy_topic_calls_to(monkeypatch, emulator.http)
    first, second = devices.register(), devices.register()
    response = messaging.subscribe_to_topic_legacy([first, "unknown:APA91bNobody", second], "sdk-legacy", app=app)
    assert (response.success_count, response.failure_count) == (2, 1)
    assert [(e.index, e.reason) for e in response.errors] == [(1, "NOT_FOUND")]
    assert devices.topics(second) == ["sdk-legacy"]
    response = messaging.unsubscribe_from_topic_legacy([second], "/topics/sdk-legacy", app=app)
    assert (response.success_count, response.failure_count) == (1, 0)
    assert devices.topics(second) == [] and devices.topics(first) == ["sdk-legacy"]


def test_topic_send_arrives_on_the_subscribed_devices_only(app, devices):
    fans = [devices.register() for _ in range(3)]
    outsider = devices.register()
    assert messaging.subscribe_to_topic(fans, "sdk-match", app=app).success_count == 3
    name = messaging.send(messaging.Message(
        topic="sdk-match", notification=messaging.Notification(title="Goal!", body="3x1")), app=app)
    for token in fans:
        [event] = devices.connect(token)
        assert event["messageName"] == name
        assert event["payload"]["aps"]["alert"] == {"title": "Goal!", "body": "3x1"}
    assert devices.connect(outsider) == []


def test_condition_send_arrives_on_the_matching_devices(app, devices):
    both, only_news, neither = devices.register(), devices.register(), devices.register()
    assert messaging.subscribe_to_topic([both, only_news], "sdk-cond-news", app=app).success_count == 2
    assert messaging.subscribe_to_topic(both, "sdk-cond-sports", app=app).success_count == 1
    name = messaging.send(messaging.Message(
        condition="'sdk-cond-news' in topics && 'sdk-cond-sports' in topics", data={"kind": "both"}), app=app)
    [event] = devices.connect(both)
    assert event["messageName"] == name and event["payload"]["kind"] == "both"
    assert devices.connect(only_news) == [] and devices.connect(neither) == []
    with pytest.raises(exceptions.InvalidArgumentError):
        messaging.send(messaging.Message(condition="'sdk-cond-news' in topics &&", data={"k": "v"}), app=app)
