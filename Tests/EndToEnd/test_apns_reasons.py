"""Apple's reasons, one row each: the request that provokes it, the exact status and body, and the
`apns-id` header echoed byte for byte (an uppercase UUID comes back uppercase). The emulator runs
with the default `--apns-auth any` (a well-formed ES256 token with `kid` and `iss`); the checks
that need `strict` are in test_apns_jwt.py. Rows that must succeed pin the limits from the other
side (a payload of exactly 4096 bytes, a collapse id of exactly 64, tokens of unusual lengths)."""
import http.client
import json
import re
import time
from dataclasses import dataclass, field

import pytest

from api import Api
from apns_helpers import (BUNDLE_ID, DEVICE_TOKEN, UUID_PATTERN, ApnsConnection, apns_headers, b64url, bearer,
                          canonical_uuid_upper, new_key, provider_token)
from h2frames import CONTINUATION, DATA, END_HEADERS, END_STREAM, HEADERS, frame

KEY = new_key()
KEY_ID, TEAM_ID = "ABC123DEFG", "DEF123GHIJ"
JWT = provider_token(KEY, KEY_ID, TEAM_ID)
DEVICE = f"/3/device/{DEVICE_TOKEN}"
ALERT = {"aps": {"alert": "great match!"}}


def payload_of_size(size):
    """A JSON object of exactly `size` bytes."""
    empty = json.dumps({"aps": {"alert": ""}}, separators=(",", ":"))
    body = json.dumps({"aps": {"alert": "x" * (size - len(empty))}}, separators=(",", ":")).encode()
    assert len(body) == size
    return body


def without(headers, name):
    return [(n, v) for n, v in headers if n != name]


def unsigned_token(header, claims):
    """A token with a fixed signature: enough for `any`, which checks only the shape."""
    return ".".join([b64url(json.dumps(header).encode()), b64url(json.dumps(claims).encode()), b64url(b"\x01" * 64)])


@dataclass
class Row:
    name: str
    status: int
    reason: str  # None for a success
    headers: list = field(default_factory=lambda: apns_headers(JWT))
    body: object = b'{"aps":{"alert":"great match!"}}'
    method: str = "POST"
    path: str = DEVICE
    # False for rows whose apns-id is itself the subject (it is then sent as given).
    send_apns_id: bool = True
    # False for rows whose apns-id is malformed: the answer carries a fresh one instead.
    echoed: bool = True


ROWS = [
    # Path and method.
    Row("BadDeviceToken: not hex", 400, "BadDeviceToken", path="/3/device/" + "zz" * 32),
    Row("BadDeviceToken: odd length", 400, "BadDeviceToken", path="/3/device/" + "a" * 63),
    Row("MissingDeviceToken: empty token", 400, "MissingDeviceToken", path="/3/device/"),
    Row("MethodNotAllowed: GET", 405, "MethodNotAllowed", method="GET", body=None),
    Row("MethodNotAllowed: PUT", 405, "MethodNotAllowed", method="PUT"),
    Row("MethodNotAllowed: DELETE", 405, "MethodNotAllowed", method="DELETE", body=None),
    Row("BadPath: other path under /3/", 404, "BadPath", path="/3/devices/" + DEVICE_TOKEN),
    Row("MissingDeviceToken: /3/device alone", 400, "MissingDeviceToken", path="/3/device"),
    Row("BadPath: /3/ alone", 404, "BadPath", path="/3/"),
    # Headers.
    Row("MissingTopic", 400, "MissingTopic", headers=without(apns_headers(JWT), "apns-topic")),
    Row("BadPriority: 7", 400, "BadPriority", headers=apns_headers(JWT, apns_priority="7")),
    Row("BadPriority: not a number", 400, "BadPriority", headers=apns_headers(JWT, apns_priority="high")),
    Row("BadPriority: background at 10", 400, "BadPriority",
        headers=apns_headers(JWT, push_type="background", apns_priority="10"), body={"aps": {"content-available": 1}}),
    Row("InvalidPushType: unknown", 400, "InvalidPushType", headers=apns_headers(JWT, push_type="banner")),
    Row("InvalidPushType: voip without .voip topic", 400, "InvalidPushType", headers=apns_headers(JWT, push_type="voip")),
    Row("InvalidPushType: complication without suffix", 400, "InvalidPushType",
        headers=apns_headers(JWT, push_type="complication")),
    Row("BadCollapseId: 65 bytes", 400, "BadCollapseId", headers=apns_headers(JWT, apns_collapse_id="c" * 65)),
    Row("BadMessageId: not a UUID", 400, "BadMessageId", headers=apns_headers(JWT, apns_id="not-a-uuid"),
        send_apns_id=False, echoed=False),
    Row("BadMessageId: UUID without dashes", 400, "BadMessageId",
        headers=apns_headers(JWT, apns_id="0a9c8a8e6f0c4c5e9f3c2b1a0d9e8f7a"), send_apns_id=False, echoed=False),
    Row("BadMessageId: a header's worth of text", 400, "BadMessageId",
        headers=apns_headers(JWT, apns_id="x" * 2000), send_apns_id=False, echoed=False),
    Row("MethodNotAllowed: GET with a malformed apns-id", 405, "MethodNotAllowed",
        headers=apns_headers(JWT, apns_id="not-a-uuid"), method="GET", body=None, send_apns_id=False, echoed=False),
    Row("BadPath: with a malformed apns-id", 404, "BadPath",
        headers=apns_headers(JWT, apns_id="<script>"), path="/3/x", send_apns_id=False, echoed=False),
    Row("BadExpirationDate: not a number", 400, "BadExpirationDate", headers=apns_headers(JWT, apns_expiration="tomorrow")),
    Row("DuplicateHeaders: apns-topic twice", 400, "DuplicateHeaders",
        headers=apns_headers(JWT) + [("apns-topic", BUNDLE_ID)]),
    Row("DuplicateHeaders: apns-priority twice", 400, "DuplicateHeaders",
        headers=apns_headers(JWT, apns_priority="10") + [("apns-priority", "5")]),
    Row("DuplicateHeaders: authorization twice", 400, "DuplicateHeaders",
        headers=apns_headers(JWT) + [("authorization", bearer(JWT))]),
    Row("DuplicateHeaders: an undocumented apns- header twice", 400, "DuplicateHeaders",
        headers=apns_headers(JWT) + [("apns-custom", "a"), ("apns-custom", "b")]),
    # Provider token (any mode: the shape only).
    Row("MissingProviderToken: no authorization", 403, "MissingProviderToken",
        headers=without(apns_headers(JWT), "authorization")),
    # (HTTP/2 forbids a trailing space in a field value: "bearer " cannot be sent.)
    Row("MissingProviderToken: bearer without a token", 403, "MissingProviderToken",
        headers=[("authorization", "bearer")] + without(apns_headers(JWT), "authorization")),
    Row("InvalidProviderToken: not a JWT", 403, "InvalidProviderToken", headers=apns_headers("not-a-jwt")),
    Row("InvalidProviderToken: no kid", 403, "InvalidProviderToken",
        headers=apns_headers(provider_token(KEY, KEY_ID, TEAM_ID, header={"kid": None}))),
    Row("InvalidProviderToken: no iss", 403, "InvalidProviderToken",
        headers=apns_headers(provider_token(KEY, KEY_ID, TEAM_ID, claims={"iss": None}))),
    Row("InvalidProviderToken: HS256", 403, "InvalidProviderToken",
        headers=apns_headers(unsigned_token({"alg": "HS256", "kid": KEY_ID}, {"iss": TEAM_ID, "iat": int(time.time())}))),
    # Payload.
    Row("PayloadEmpty: no bytes", 400, "PayloadEmpty", body=b""),
    Row("PayloadEmpty: no DATA frame", 400, "PayloadEmpty", body=None),
    Row("PayloadTooLarge: 4097 bytes", 413, "PayloadTooLarge", body=payload_of_size(4097)),
    Row("PayloadTooLarge: voip 5121 bytes", 413, "PayloadTooLarge",
        headers=apns_headers(JWT, topic=BUNDLE_ID + ".voip", push_type="voip"), body=payload_of_size(5121)),
    # Order of checks (Pushy's): headers before the token, the token before the payload.
    Row("order: BadPriority before MissingProviderToken", 400, "BadPriority",
        headers=without(apns_headers(JWT, apns_priority="7"), "authorization")),
    Row("order: MissingTopic before InvalidProviderToken", 400, "MissingTopic",
        headers=without(apns_headers("not-a-jwt"), "apns-topic")),
    Row("order: InvalidProviderToken before PayloadEmpty", 403, "InvalidProviderToken",
        headers=apns_headers("not-a-jwt"), body=b""),
    Row("order: MissingProviderToken before PayloadTooLarge", 403, "MissingProviderToken",
        headers=without(apns_headers(JWT), "authorization"), body=payload_of_size(4097)),
    # Successes at the limits.
    Row("ok: payload of exactly 4096 bytes", 200, None, body=payload_of_size(4096)),
    Row("ok: voip payload of exactly 5120 bytes", 200, None,
        headers=apns_headers(JWT, topic=BUNDLE_ID + ".voip", push_type="voip"), body=payload_of_size(5120)),
    Row("ok: collapse id of exactly 64 bytes", 200, None, headers=apns_headers(JWT, apns_collapse_id="c" * 64)),
    Row("ok: no apns-push-type", 200, None, headers=apns_headers(JWT, push_type=None)),
    Row("ok: background at priority 5", 200, None,
        headers=apns_headers(JWT, push_type="background", apns_priority="5"), body={"aps": {"content-available": 1}}),
    Row("ok: priority 1", 200, None, headers=apns_headers(JWT, apns_priority="1")),
    Row("ok: apns-expiration 0", 200, None, headers=apns_headers(JWT, apns_expiration="0")),
    Row("ok: a payload without aps", 200, None, headers=apns_headers(JWT, push_type="background", apns_priority="5"),
        body={"mdm": "00000000-1111-2222-3333-444444444444"}),
    Row("ok: token of 160 hex digits", 200, None, path="/3/device/" + "ab" * 80),
    Row("ok: token of 108 hex digits", 200, None, path="/3/device/" + "cd" * 54),
    Row("ok: uppercase token", 200, None, path="/3/device/" + "EF" * 32),
    Row("ok: iat as a string", 200, None, headers=apns_headers(provider_token(KEY, KEY_ID, TEAM_ID, iat_as_string=True))),
    Row("ok: DER signature", 200, None, headers=apns_headers(provider_token(KEY, KEY_ID, TEAM_ID, signature="der"))),
]


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_reason(emulator, row):
    headers = list(row.headers)
    apns_id = dict(headers).get("apns-id")
    if row.send_apns_id:
        apns_id = canonical_uuid_upper()
        headers.append(("apns-id", apns_id))
    with ApnsConnection(emulator) as conn:
        response = conn.request(headers, row.body, method=row.method, path=row.path)
    assert response.status == row.status, response
    if row.echoed:
        assert response.headers["apns-id"] == apns_id, response.headers
    else:
        # A malformed apns-id is not sent back: the answer has a generated one.
        assert re.fullmatch(UUID_PATTERN, response.headers["apns-id"]), response.headers
    if row.reason is None:
        assert response.body == b"" and "content-type" not in response.headers, response
    else:
        assert response.headers["content-type"] == "application/json", response.headers
        assert response.json() == {"reason": row.reason}


def test_an_error_without_apns_id_gets_a_generated_lowercase_one(emulator):
    with ApnsConnection(emulator) as conn:
        response = conn.request(apns_headers(JWT, apns_priority="7"), ALERT)
    assert (response.status, response.json()) == (400, {"reason": "BadPriority"})
    assert re.fullmatch(UUID_PATTERN, response.headers["apns-id"]), response.headers


@pytest.fixture
def api(emulator, request):
    return Api(emulator.http, project=request.node.name.replace("_", "-")[:30].lower())


def test_unregistered_is_410_with_an_integer_timestamp_in_milliseconds(emulator, api):
    apns_token = "0f" * 32
    token = api.register(platform="ios", bundleId=BUNDLE_ID, apnsToken=apns_token)
    with ApnsConnection(emulator) as conn:
        assert conn.request(apns_headers(JWT), ALERT, path=f"/3/device/{apns_token}").status == 200
        before_ms = int(time.time() * 1000)
        status, _ = api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{token}")
        after_ms = int(time.time() * 1000)
        assert status == 200
        apns_id = canonical_uuid_upper()
        response = conn.request(apns_headers(JWT, apns_id=apns_id), ALERT, path=f"/3/device/{apns_token}")
    assert response.status == 410, response
    assert response.headers["apns-id"] == apns_id
    body = response.json()
    assert set(body) == {"reason", "timestamp"} and body["reason"] == "Unregistered", body
    # A JSON integer (Pushy, apns2 and APNSwift parse it as one): not a float, not a string.
    assert type(body["timestamp"]) is int, body
    # When the token stopped being valid: the uninstall, on the emulator's clock (not advanced here).
    assert before_ms - 1000 <= body["timestamp"] <= after_ms + 1000, (before_ms, body, after_ms)


def test_device_token_not_for_topic(emulator, api):
    apns_token = "1e" * 32
    api.register(platform="ios", bundleId="com.example.other", apnsToken=apns_token)
    apns_id = canonical_uuid_upper()
    with ApnsConnection(emulator) as conn:
        response = conn.request(apns_headers(JWT, apns_id=apns_id), ALERT, path=f"/3/device/{apns_token}")
    assert (response.status, response.json()) == (400, {"reason": "DeviceTokenNotForTopic"})
    assert response.headers["apns-id"] == apns_id


def assert_apple_shaped(status, headers, body, expected_status, reason):
    """An answer in Apple's error shape under a generated apns-id."""
    assert status == expected_status, (status, headers, body)
    assert headers["content-type"] == "application/json", headers
    assert json.loads(body) == {"reason": reason}
    assert re.fullmatch(UUID_PATTERN, headers["apns-id"]), headers


@pytest.mark.parametrize("method, path", [("POST", DEVICE), ("GET", DEVICE), ("POST", "/3/other")])
def test_apns_over_http1_is_505_in_apples_shape(emulator, method, path):
    # Apple's API is HTTP/2 only; what an HTTP/1.1 client gets is the emulator's choice (docs/apns.md).
    connection = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=10)
    body = json.dumps(ALERT) if method == "POST" else None
    connection.request(method, path, body, dict(apns_headers(JWT, apns_id=canonical_uuid_upper())))
    response = connection.getresponse()
    assert_apple_shaped(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read(),
                        505, "HTTPVersionNotSupported")
    connection.close()


def test_an_oversized_header_block_is_431_in_apples_shape(emulator):
    # Over --max-header-bytes (64 KiB): the block goes in HEADERS and CONTINUATION frames of 16 KiB.
    with ApnsConnection(emulator) as conn:
        fields = [(":method", "POST"), (":scheme", "http"), (":path", DEVICE), (":authority", "localhost")]
        block = conn.client.encoder.encode(fields + apns_headers(JWT) + [("x-padding", "p" * 70_000)])
        pieces = [block[i:i + 16_384] for i in range(0, len(block), 16_384)]
        frames = frame(HEADERS, END_HEADERS if len(pieces) == 1 else 0, 1, pieces[0])
        for index, piece in enumerate(pieces[1:], start=2):
            frames += frame(CONTINUATION, END_HEADERS if index == len(pieces) else 0, 1, piece)
        conn.client.send(frames + frame(DATA, END_STREAM, 1, json.dumps(ALERT).encode()))
        response = conn.response(1)
        assert_apple_shaped(response.status, response.headers, response.body, 431, "RequestHeaderFieldsTooLarge")
        # The connection goes on.
        conn.next_stream = 3
        assert conn.request(apns_headers(JWT), ALERT).status == 200


def test_a_body_over_the_servers_limit_is_413_payload_too_large(start_emulator):
    emulator = start_emulator("--max-body-bytes", "10000")
    with ApnsConnection(emulator) as conn:
        response = conn.request(apns_headers(JWT, apns_id=canonical_uuid_upper()), b"{" + b" " * 12_000 + b"}")
    assert_apple_shaped(response.status, response.headers, response.body, 413, "PayloadTooLarge")


def test_apns_environment_names_the_environment_of_other_hosts(start_emulator):
    """`--apns-environment production`: a push to `localhost` is a production push, so a
    development token is a BadDeviceToken there, and Apple's sandbox host stays development."""
    emulator = start_emulator("--apns-environment", "production")
    api = Api(emulator.http, project="apns")
    api.register(platform="ios", bundleId=BUNDLE_ID, apnsToken=DEVICE_TOKEN, apnsEnvironment="development")
    with ApnsConnection(emulator) as connection:
        local = connection.request(apns_headers(JWT), body=ALERT)
        sandbox = connection.request(apns_headers(JWT), body=ALERT, authority="api.sandbox.push.apple.com")
    assert (local.status, local.json()) == (400, {"reason": "BadDeviceToken"})
    assert sandbox.status == 200 and "apns-unique-id" in sandbox.headers
