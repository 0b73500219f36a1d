"""Uninstalls that FCM notices late, with the official firebase-admin SDK (docs/fcm.md, "Uninstalls
and reinstalls"): a backend that prunes tokens on UnregisteredError sees its sends succeed until the
device's `unregisterAfter` passes on the emulator's clock, then fail; a reinstall's new token works
beside the old one until that one dies."""
import firebase_admin
import pytest
from firebase_admin import messaging

from api import Api
from fcm_helpers import PROJECT, start_firebase_app

pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")


@pytest.fixture(scope="module")
def app(emulator):
    app = start_firebase_app(emulator.http)
    yield app
    firebase_admin.delete_app(app)


@pytest.fixture
def api(emulator):
    api = Api(emulator.http, project=PROJECT)
    yield api
    # The clock is the emulator's, every project's: put it back for the next test.
    assert api.reset_clock()[0] == 200


class Backend:
    """A backend's send loop: sends to every token it knows, and forgets a token on UnregisteredError."""

    def __init__(self, app, tokens):
        self.app = app
        self.tokens = set(tokens)

    def send_round(self):
        for token in sorted(self.tokens):
            try:
                messaging.send(messaging.Message(token=token, data={"kind": "digest"}), app=self.app)
            except messaging.UnregisteredError:
                self.tokens.discard(token)


def test_sends_succeed_until_the_delay_passes_then_the_token_is_pruned(app, api):
    token = api.register(platform="android", packageName="com.example.app", unregisterAfter=600)
    backend = Backend(app, [token])
    assert api.call("DELETE", f"/emulator/v1/projects/{PROJECT}/devices/{token}")[0] == 200
    backend.send_round()
    assert backend.tokens == {token}
    assert api.advance(599)[0] == 200
    backend.send_round()
    assert backend.tokens == {token}
    assert api.advance(2)[0] == 200
    backend.send_round()
    assert backend.tokens == set()
    # The accepted sends are in the log, delivered to nobody.
    status, log = api.call("GET", f"/emulator/v1/projects/{PROJECT}/messages?token={token}")
    assert status == 200 and len(log["messages"]) == 2 and all(m["deliveries"] == [] for m in log["messages"])


def test_a_reinstall_gives_a_new_token_while_the_old_one_dies_on_its_own_schedule(app, api):
    old = api.register(platform="ios", bundleId="com.example.app", unregisterAfter=3600)
    status, device = api.call("POST", f"/emulator/v1/projects/{PROJECT}/devices/{old}:reinstall")
    assert status == 201 and device["token"] != old and device["unregisterAfter"] == 3600
    backend = Backend(app, [old, device["token"]])
    backend.send_round()
    assert backend.tokens == {old, device["token"]}
    assert len(api.connect(device["token"])) == 1
    assert api.advance(3601)[0] == 200
    backend.send_round()
    assert backend.tokens == {device["token"]}
    assert len(api.connect(device["token"])) == 1


def test_unregister_after_is_checked(api):
    path = f"/emulator/v1/projects/{PROJECT}/devices"
    for value in (-1, 3153600001, "soon"):
        status, answer = api.call("POST", path, {"unregisterAfter": value})
        assert status == 400, (value, answer)


def test_an_android_token_expires_after_270_days_without_a_connection(app, api):
    android = api.register(platform="android")
    apple = api.register(platform="ios")
    backend = Backend(app, [android, apple])
    # Connected on day 100: its 270 days start again from there.
    assert api.advance(100 * 86400)[0] == 200
    api.connect(android)
    assert api.advance(270 * 86400 - 1)[0] == 200
    backend.send_round()
    assert backend.tokens == {android, apple}
    assert api.advance(1)[0] == 200
    backend.send_round()
    # FCM's expiry is Android's alone: the Apple token lives on.
    assert backend.tokens == {apple}
    status, body = api.call("GET", f"/emulator/v1/projects/{PROJECT}/devices/{android}")
    assert status == 404, body
