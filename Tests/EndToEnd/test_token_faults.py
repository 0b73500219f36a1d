"""Token-endpoint faults (`"match": {"serviceAccount": "<email>"}`, docs/faults.md): they fire
on `POST /token` whose assertion's `iss` is that account, before any check, from whichever
project holds them; google-auth and firebase-admin (unchanged) show them as they would show
Google's token endpoint failing."""
import base64
import json
import socket
import uuid

import firebase_admin
import google.auth.exceptions
import pytest
from firebase_admin import credentials, messaging

from api import Api
from fcm_helpers import PROJECT, Devices, start_firebase_app
from test_oauth import new_private_key_pem, service_account_info

pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"


@pytest.fixture(scope="module")
def api(emulator):
    return Api(emulator.http, project=PROJECT)


@pytest.fixture(scope="module")
def key_pem():
    return new_private_key_pem()


@pytest.fixture(autouse=True)
def no_faults_left(api, emulator):
    yield
    api.call("DELETE", "/emulator/v1/state")
    assert emulator.alive(), emulator.stderr()[-3000:]


def segment(value):
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def unsigned_assertion(email):
    """An assertion no check would pass (alg none, no audience, no times), naming `email`."""
    return f"{segment({'alg': 'none'})}.{segment({'iss': email})}.c2ln"


def token_form(email):
    return f"grant_type={GRANT}&assertion={unsigned_assertion(email)}".encode()


def new_email():
    return f"sender-{uuid.uuid4().hex[:8]}@{PROJECT}.iam.gserviceaccount.com"


def sdk_app(emulator, key_pem, email):
    """firebase-admin with a service-account credential whose token_uri is the emulator's."""
    info = dict(service_account_info(key_pem, token_uri=f"{emulator.http}/token"), client_email=email)
    return start_firebase_app(emulator.http, credential=credentials.Certificate(info))


def test_invalid_grant_surfaces_from_send_as_refresh_error(emulator, api, key_pem):
    email = new_email()
    fault = api.add_fault(match={"serviceAccount": email}, error="invalid_grant")
    app = sdk_app(emulator, key_pem, email)
    try:
        token = Devices(emulator.http).register()
        with pytest.raises(google.auth.exceptions.RefreshError) as raised:
            messaging.send(messaging.Message(token=token), app=app)
        assert raised.value.args[0] == "invalid_grant: Invalid JWT Signature."
        assert not raised.value.retryable
        # Not retried by google-auth; nothing was sent.
        assert api.fault_state(fault)["fired"] == 1
        assert Devices(emulator.http).connect(token) == []
    finally:
        firebase_admin.delete_app(app)


def test_google_auth_retries_unavailable_then_gets_its_token(emulator, api, key_pem):
    email = new_email()
    fault = api.add_fault(match={"serviceAccount": email}, error="UNAVAILABLE", times=2)
    app = sdk_app(emulator, key_pem, email)
    try:
        devices = Devices(emulator.http)
        token = devices.register()
        name = messaging.send(messaging.Message(token=token), app=app)
        assert name.startswith(f"projects/{PROJECT}/messages/")
        assert api.fault_state(fault)["fired"] == 2, "two failed token requests, the third got the token"
        assert [e["messageName"] for e in devices.connect(token)] == [name]
    finally:
        firebase_admin.delete_app(app)


def test_google_auth_gives_up_on_unavailable_after_three_attempts(emulator, api, key_pem):
    email = new_email()
    fault = api.add_fault(match={"serviceAccount": email}, error="UNAVAILABLE")
    app = sdk_app(emulator, key_pem, email)
    try:
        with pytest.raises(google.auth.exceptions.RefreshError) as raised:
            messaging.send(messaging.Message(token=Devices(emulator.http).register()), app=app)
        assert raised.value.retryable
        assert "temporarily_unavailable" in str(raised.value)
        assert api.fault_state(fault)["fired"] == 3
    finally:
        firebase_admin.delete_app(app)


def test_the_fault_answers_whatever_the_assertion_from_any_project(api):
    email = new_email()
    # Any project holds it: a token request names none.
    other = Api(api.base, project="some-other-project")
    fault = other.add_fault(match={"serviceAccount": email}, error="invalid_grant", times=1)
    status, body = api.call("POST", "/token", token_form(email), FORM)
    assert (status, body) == (400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
    assert other.fault_state(fault)["fired"] == 1
    # Used up: the same assertion now gets the endpoint's own check.
    status, body = api.call("POST", "/token", token_form(email), FORM)
    assert status == 400 and body["error_description"].startswith("Invalid JWT"), body

    api.add_fault(match={"serviceAccount": email}, error="UNAVAILABLE", retryAfterSeconds=2, times=1)
    status, body = api.call("POST", "/token", token_form(email), FORM)
    assert status == 503 and body["error"] == "temporarily_unavailable" and body["error_description"], body
    # Another account is not matched.
    status, body = api.call("POST", "/token", token_form(new_email()), FORM)
    assert status == 400 and body["error"] == "invalid_grant", body


def test_token_and_send_faults_never_cross(emulator, api):
    email = new_email()
    devices = Devices(emulator.http)
    token = devices.register()
    # `{}` is every send, not a token request.
    api.add_fault(connection="reset")
    status, body = api.call("POST", "/token", token_form(email), FORM)
    assert status == 400 and body["error_description"].startswith("Invalid JWT"), body
    api.call("DELETE", f"/emulator/v1/projects/{PROJECT}/faults")
    api.add_fault(match={"serviceAccount": email}, error="UNAVAILABLE")
    status, body = api.send({"token": token})
    assert status == 200, body


def test_a_token_request_can_be_reset(emulator, api):
    email = new_email()
    fault = api.add_fault(match={"serviceAccount": email}, connection="reset", times=1)
    body = token_form(email)
    sock = socket.create_connection(("127.0.0.1", emulator.port), timeout=5)
    sock.sendall(b"POST /token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                 + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    with pytest.raises(ConnectionResetError):
        while sock.recv(65536):
            pass
    sock.close()
    assert api.fault_state(fault)["fired"] == 1


@pytest.mark.parametrize("fault,field", [
    ({"match": {"serviceAccount": "a@b"}, "error": "INTERNAL"}, "error"),
    ({"match": {"serviceAccount": "a@b"}, "error": "Unregistered"}, "error"),
    ({"match": {"token": "t"}, "error": "invalid_grant"}, "error"),
    ({"error": "invalid_grant"}, "error"),
    ({"match": {"serviceAccount": ""}, "error": "invalid_grant"}, "match.serviceAccount"),
    ({"connection": "reset", "error": "UNAVAILABLE"}, "error"),
    ({"connection": "reset", "retryAfterSeconds": 1}, "retryAfterSeconds"),
    ({"connection": "close"}, "connection"),
])
def test_bad_token_and_transport_faults_get_a_google_400(api, fault, field):
    status, body = api.call("POST", f"/emulator/v1/projects/{PROJECT}/faults", fault)
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT", body
    assert body["error"]["details"][0]["fieldViolations"][0]["field"] == field, body
