"""Points the real firebase-admin SDK at a running emulator and plays the device side of it."""
import uuid

import firebase_admin
import google.oauth2.credentials
import requests
from firebase_admin import credentials, messaging

PROJECT = "demo-project"


class EmulatorCredential(credentials.Base):
    """A credential that never touches the network: a fixed bearer token, which the emulator's
    default `--auth any` accepts. (A service-account Certificate would fetch a token from Google
    on the first send.) Works with firebase-admin 6.x and 7.x, which both take a `credentials.Base`."""

    def get_credential(self):
        # No expiry, so google-auth treats it as valid forever and never tries to refresh it.
        return google.oauth2.credentials.Credentials(token="emulator-token")


def start_firebase_app(base_url, project=PROJECT, credential=None):
    """An app whose messaging service posts to `base_url` instead of fcm.googleapis.com, with
    `credential` (default: a fixed bearer token, `EmulatorCredential`).

    The SDK has no emulator variable for FCM: `_MessagingService.FCM_URL` (a class constant,
    formatted with the project id) is read once, when the app's messaging service is created.
    So the constant is swapped only while that service is built, then restored."""
    app = firebase_admin.initialize_app(
        credential or EmulatorCredential(), {"projectId": project}, name=f"push-emulator-{uuid.uuid4()}")
    saved = messaging._MessagingService.FCM_URL
    messaging._MessagingService.FCM_URL = base_url + "/v1/projects/{0}/messages:send"
    try:
        service = messaging._get_messaging_service(app)
    finally:
        messaging._MessagingService.FCM_URL = saved
    assert service._fcm_url == f"{base_url}/v1/projects/{project}/messages:send"
    # The v1 topic API's base is an instance attribute built from a literal host.
    assert service._fcm_topic_url == f"https://fcm.googleapis.com/v1/projects/{project}/registrations"
    service._fcm_topic_url = f"{base_url}/v1/projects/{project}/registrations"
    return app


def legacy_topic_calls_to(monkeypatch, base_url):
    """Points the SDK's Instance ID calls (`subscribe_to_topic_legacy`, ...) at the emulator:
    the SDK reads the class constant `_MessagingService.IID_URL` on every call."""
    monkeypatch.setattr(messaging._MessagingService, "IID_URL", base_url)


class Devices:
    """The emulator's device side (`/emulator/v1/projects/{project}/devices`), as an app would use it."""

    def __init__(self, base_url, project=PROJECT):
        self.base = f"{base_url}/emulator/v1/projects/{project}/devices"
        self.session = requests.Session()

    def register(self, bundle_id="com.example.app"):
        """Installs an app; returns its FCM registration token."""
        resp = self.session.post(self.base, json={"platform": "ios", "bundleId": bundle_id}, timeout=10)
        assert resp.status_code == 201, resp.text
        return resp.json()["token"]

    def connect(self, token):
        """Opens a short connection; returns the events the device receives."""
        resp = self.session.post(f"{self.base}/{token}:connect", timeout=10)
        assert resp.status_code == 200, resp.text
        return resp.json()["events"]

    def topics(self, token):
        resp = self.session.get(f"{self.base}/{token}", timeout=10)
        assert resp.status_code == 200, resp.text
        return resp.json()["topics"]

    def uninstall(self, token):
        resp = self.session.delete(f"{self.base}/{token}", timeout=10)
        assert resp.status_code in (200, 204), resp.text
