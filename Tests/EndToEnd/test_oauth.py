"""The OAuth token endpoint and `--auth strict`, with the official firebase-admin Python SDK
(unchanged) initialised from a generated service-account JSON whose `token_uri` is the
emulator's `/token`: google-auth signs an RS256 assertion, the emulator checks it against the
`--service-account` file's key and issues a `ya29.` token, and FCM calls accept only such tokens.
Tokens are timed on the real clock, so the expiry test sleeps (bounded, 2 s)."""
import base64
import http.client
import json
import time
import urllib.error
import urllib.request

import firebase_admin
import google.auth.exceptions
import google.auth.transport.requests
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from firebase_admin import credentials, exceptions, messaging
from google.oauth2 import service_account

from api import Api
from conftest import MEASURES_MEMORY
from fcm_helpers import PROJECT, Devices, legacy_topic_calls_to, start_firebase_app

pytestmark = [
    pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:subscribe_to_topic_legacy is deprecated:DeprecationWarning"),
]

EMAIL = f"fcm-sender@{PROJECT}.iam.gserviceaccount.com"
CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform"
EXPIRED_CHALLENGE = 'Bearer realm="https://accounts.google.com/", error="invalid_token"'


def new_private_key_pem():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()


def service_account_info(private_key_pem, token_uri="https://oauth2.googleapis.com/token"):
    """A service-account key file's fields, as the Cloud console writes them."""
    return {
        "type": "service_account", "project_id": PROJECT, "private_key_id": "0123456789abcdef",
        "private_key": private_key_pem, "client_email": EMAIL, "client_id": "100000000000000000001",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": token_uri,
    }


@pytest.fixture(scope="module")
def account(tmp_path_factory):
    """The service account's key, and its JSON file as given to `--service-account`."""
    pem = new_private_key_pem()
    path = tmp_path_factory.mktemp("sa") / "sa.json"
    path.write_text(json.dumps(service_account_info(pem)))
    return pem, str(path)


def strict_emulator(start_emulator, account, *args):
    return start_emulator("--auth", "strict", "--service-account", account[1], *args)


def app_for(emulator, private_key_pem):
    info = service_account_info(private_key_pem, token_uri=f"{emulator.http}/token")
    return start_firebase_app(emulator.http, credential=credentials.Certificate(info))


def access_token(emulator, private_key_pem, scopes=(CLOUD_PLATFORM,)):
    """A token from the emulator's /token, fetched by google-auth as the SDKs do."""
    info = service_account_info(private_key_pem, token_uri=f"{emulator.http}/token")
    creds = service_account.Credentials.from_service_account_info(info, scopes=list(scopes))
    creds.refresh(google.auth.transport.requests.Request())
    assert creds.token.startswith("ya29."), creds.token
    return creds.token


def test_sdk_gets_a_token_from_the_emulator_and_sends(start_emulator, account):
    emu = strict_emulator(start_emulator, account)
    devices = Devices(emu.http)
    app = app_for(emu, account[0])
    try:
        token = devices.register()
        name = messaging.send(messaging.Message(token=token, data={"k": "v"}), app=app)
        assert name.startswith(f"projects/{PROJECT}/messages/")
        events = devices.connect(token)
        assert [e["messageName"] for e in events] == [name]
        legacy = Devices(emu.http)
        other = legacy.register()
        assert messaging.subscribe_to_topic([token, other], "oauth-news", app=app).success_count == 2
    finally:
        firebase_admin.delete_app(app)


def test_sdk_subscribes_through_instance_id_with_its_token(start_emulator, account, monkeypatch):
    emu = strict_emulator(start_emulator, account)
    legacy_topic_calls_to(monkeypatch, emu.http)
    app = app_for(emu, account[0])
    try:
        token = Devices(emu.http).register()
        assert messaging.subscribe_to_topic_legacy([token], "oauth-legacy", app=app).success_count == 1
    finally:
        firebase_admin.delete_app(app)


def test_a_key_that_is_not_the_accounts_gets_invalid_jwt_signature(start_emulator, account):
    emu = strict_emulator(start_emulator, account)
    app = app_for(emu, new_private_key_pem())
    try:
        token = Devices(emu.http).register()
        with pytest.raises((google.auth.exceptions.RefreshError, exceptions.FirebaseError)) as raised:
            messaging.send(messaging.Message(token=token, data={"k": "v"}), app=app)
        assert "invalid_grant" in str(raised.value) and "Invalid JWT Signature." in str(raised.value), raised.value
    finally:
        firebase_admin.delete_app(app)


def test_token_endpoint_answers_like_google(start_emulator, account):
    emu = strict_emulator(start_emulator, account)
    api = Api(emu.http)
    status, body = api.call(
        "POST", "/token", b"grant_type=password&username=x", {"Content-Type": "application/x-www-form-urlencoded"})
    assert (status, body) == (400, {"error": "unsupported_grant_type", "error_description": "Invalid grant_type: password"})
    token = access_token(emu, account[0])
    status, body = api.send({"token": api.register(platform="ios", bundleId="com.example.app"), "data": {"k": "v"}},
                            auth=f"Bearer {token}")
    assert status == 200, body


def test_missing_foreign_and_underscoped_tokens_get_googles_answers(start_emulator, account):
    emu = strict_emulator(start_emulator, account)
    api = Api(emu.http, project=PROJECT)
    device = api.register(platform="ios", bundleId="com.example.app")
    message = {"token": device, "data": {"k": "v"}}

    status, body = api.send(message, auth=None)
    assert status == 401
    assert body["error"]["status"] == "UNAUTHENTICATED"
    assert body["error"]["message"].startswith("Request is missing required authentication credential.")
    assert body["error"]["details"][0]["reason"] == "CREDENTIALS_MISSING"

    status, body = api.send(message, auth="Bearer ya29.issued-by-someone-else")
    assert status == 401
    assert body["error"]["message"].startswith("Request had invalid authentication credentials.")

    datastore = access_token(emu, account[0], scopes=["https://www.googleapis.com/auth/datastore"])
    status, body = api.send(message, auth=f"Bearer {datastore}")
    assert status == 403
    assert body["error"]["status"] == "PERMISSION_DENIED"
    assert body["error"]["details"][0]["reason"] == "ACCESS_TOKEN_SCOPE_INSUFFICIENT"


def test_an_expired_token_gets_access_token_expired_and_the_sdk_recovers(start_emulator, account):
    emu = strict_emulator(start_emulator, account, "--access-token-lifetime", "1")
    api = Api(emu.http, project=PROJECT)
    device = api.register(platform="ios", bundleId="com.example.app")
    token = access_token(emu, account[0])
    time.sleep(2)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    request = urllib.request.Request(
        f"{emu.http}/v1/projects/{PROJECT}/messages:send", method="POST", headers=headers,
        data=json.dumps({"message": {"token": device, "data": {"k": "v"}}}).encode())
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=10)
    assert raised.value.code == 401
    assert raised.value.headers["WWW-Authenticate"] == EXPIRED_CHALLENGE
    error = json.loads(raised.value.read())["error"]
    assert error["status"] == "UNAUTHENTICATED"
    assert error["details"][0]["reason"] == "ACCESS_TOKEN_EXPIRED"
    # google-auth sees expires_in 0 and fetches a fresh token before each request.
    app = app_for(emu, account[0])
    try:
        assert messaging.send(messaging.Message(token=device, data={"k": "v"}), app=app)
    finally:
        firebase_admin.delete_app(app)


def test_a_token_still_works_after_the_emulator_clock_advances_a_day(start_emulator, account):
    emu = strict_emulator(start_emulator, account)
    api = Api(emu.http, project=PROJECT)
    device = api.register(platform="ios", bundleId="com.example.app")
    token = access_token(emu, account[0])
    status, _ = api.advance(86_400)
    assert status == 200
    status, body = api.send({"token": device, "data": {"k": "v"}}, auth=f"Bearer {token}")
    assert status == 200, body


def test_strict_without_service_accounts_accepts_any_signature(start_emulator):
    emu = start_emulator("--auth", "strict")
    app = app_for(emu, new_private_key_pem())
    try:
        token = Devices(emu.http).register()
        assert messaging.send(messaging.Message(token=token, data={"k": "v"}), app=app)
    finally:
        firebase_admin.delete_app(app)



def test_one_bearer_reading_in_every_mode(start_emulator, account):
    """RFC 6750: the scheme in any case, then spaces. A tab after `Bearer` was refused under
    `--auth any` and accepted under `--auth strict`; now both modes read the header one way."""
    strict = strict_emulator(start_emulator, account)
    relaxed = start_emulator()
    token = access_token(strict, account[0])
    for emu, good in ((strict, token), (relaxed, "x")):
        api = Api(emu.http, project=PROJECT)
        message = {"token": api.register(platform="ios", bundleId="com.example.app"), "data": {"k": "v"}}
        for header in (f"Bearer {good}", f"bearer {good}", f"BEARER  {good}"):
            status, body = api.send(message, auth=header)
            assert status == 200, (header, body)
        for header in (f"Bearer\t{good}", f"bearer\t{good}", "Bearer", f"Basic {good}"):
            status, body = api.send(message, auth=header)
            assert status == 401, (header, body)
            assert body["error"]["details"][0]["reason"] == "ACCESS_TOKEN_TYPE_UNSUPPORTED", (header, body)


def assertion(private_key_pem, scope=CLOUD_PLATFORM):
    """A service account's RS256 assertion for the token endpoint, good for an hour."""
    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    now = int(time.time())
    claims = {"iss": EMAIL, "aud": "https://oauth2.googleapis.com/token", "iat": now, "exp": now + 3600, "scope": scope}
    signing_input = b64(json.dumps({"alg": "RS256", "typ": "JWT"}).encode()) + "." + b64(json.dumps(claims).encode())
    key = serialization.load_pem_private_key(private_key_pem.encode(), password=None)
    return signing_input + "." + b64(key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256()))


# Tokens minted by replaying one assertion, and how far the emulator's resident size may grow
# meanwhile (docs/auth.md: nothing is kept per token). A store of the tokens grew by about 240 bytes
# each: 4.6 MiB for these.
MINTED_TOKENS = 20_000
MINTING_RSS_BOUND_MIB = 1.5


@pytest.mark.skipif(not MEASURES_MEMORY, reason="reads resident memory, which a sanitizer's allocator distorts")
def test_minting_tokens_by_replaying_one_assertion_keeps_no_memory_and_every_token_works(start_emulator, account):
    emu = strict_emulator(start_emulator, account, "--no-access-log")
    api = Api(emu.http, project=PROJECT)
    device = api.register(platform="ios", bundleId="com.example.app")
    body = "grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=" + assertion(account[0])
    connection = http.client.HTTPConnection("127.0.0.1", emu.port, timeout=30)

    def mint():
        connection.request("POST", "/token", body, {"Content-Type": "application/x-www-form-urlencoded"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        assert response.status == 200, answer
        return answer["access_token"]

    # The first thousand warm the allocator's caches and the connection's buffers.
    first = [mint() for _ in range(1000)][0]
    before = emu.rss_kib()
    minted = {mint() for _ in range(MINTED_TOKENS)}
    grown_mib = (emu.rss_kib() - before) / 1024
    connection.close()
    assert len(minted) == MINTED_TOKENS, "each grant mints a token of its own"
    assert grown_mib < MINTING_RSS_BOUND_MIB, f"resident size grew {grown_mib:.1f} MiB for {MINTED_TOKENS} tokens"
    # The first token minted and one of the last still work.
    for token in (first, next(iter(minted))):
        status, body_ = api.send({"token": device, "data": {"k": "v"}}, auth=f"Bearer {token}")
        assert status == 200, body_
