"""The frames of APNs answers, which real clients depend on (docs/apns.md): a success is one HEADERS
frame with END_STREAM and no DATA (aioapns parses every DATA frame as JSON, even an empty one); an
error is HEADERS without END_STREAM, then exactly one DATA frame holding the whole JSON, with
END_STREAM (Pushy parses only the frame that ends the stream, aioapns each frame alone). Checked
over each way a client reaches the port."""
import json
import re

import pytest

from apns_helpers import (TRANSPORTS, UUID_PATTERN, ApnsConnection, apns_headers,
                          canonical_uuid_upper, new_key, provider_token)
from h2frames import DATA, END_STREAM, HEADERS

KEY = new_key()
JWT = provider_token(KEY, "ABC123DEFG", "DEF123GHIJ")
PAYLOAD = {"aps": {"alert": {"title": "Portugal vs. Denmark", "body": "great match!"}, "badge": 1}}


@pytest.fixture(params=TRANSPORTS)
def connection(request, emulator):
    with ApnsConnection(emulator, request.param) as conn:
        yield conn


def test_a_success_is_one_headers_frame_with_end_stream(connection):
    apns_id = canonical_uuid_upper()
    response = connection.request(apns_headers(JWT, apns_id=apns_id), PAYLOAD)
    assert response.status == 200, response
    assert [(kind, flags & END_STREAM) for kind, flags, _ in response.frames] == [(HEADERS, END_STREAM)]
    assert response.headers["apns-id"] == apns_id
    assert response.body == b""


def test_an_error_is_headers_then_one_data_frame_with_the_whole_json(connection):
    apns_id = canonical_uuid_upper()
    response = connection.request(apns_headers(JWT, apns_id=apns_id, apns_priority="7"), PAYLOAD)
    assert [(kind, flags & END_STREAM) for kind, flags, _ in response.frames] == [(HEADERS, 0), (DATA, END_STREAM)]
    assert response.status == 400
    assert response.headers["content-type"] == "application/json"
    assert response.headers["apns-id"] == apns_id
    # The one DATA frame alone is the whole document.
    assert json.loads(response.frames[1][2]) == {"reason": "BadPriority"}


def test_a_generated_apns_id_is_a_lowercase_uuid(connection):
    response = connection.request(apns_headers(JWT), PAYLOAD)
    assert response.status == 200, response
    assert re.fullmatch(UUID_PATTERN, response.headers["apns-id"]), response.headers


def test_host_header_without_authority_is_accepted(connection):
    """aioapns sends `host: api.push.apple.com` and no `:authority` (RFC 9113 8.3.1 allows it)."""
    response = connection.request(apns_headers(JWT), PAYLOAD, authority=None, host="api.push.apple.com")
    assert response.status == 200, response
    assert [(kind, flags & END_STREAM) for kind, flags, _ in response.frames] == [(HEADERS, END_STREAM)]


def test_several_sends_on_one_connection(connection):
    """Clients keep one connection for every send; each answer keeps its framing."""
    for n in range(5):
        response = connection.request(apns_headers(JWT, apns_collapse_id=f"score-{n}"), {"aps": {"badge": n}})
        assert response.status == 200, (n, response)
    response = connection.request(apns_headers(JWT), b"")
    assert (response.status, response.json()) == (400, {"reason": "PayloadEmpty"})
    assert [kind for kind, _, _ in response.frames] == [HEADERS, DATA]


@pytest.mark.parametrize("server_name", ["api.push.apple.com", "api.sandbox.push.apple.com",
                                         "api.development.push.apple.com"])
def test_apples_host_names_verify_and_answer_in_their_environment(emulator, server_name):
    """A client that resolves Apple's host to the emulator verifies the certificate for it; the
    development hosts' answers carry `apns-unique-id`, production's do not."""
    with ApnsConnection(emulator, "tls-alpn-h2", server_name=server_name) as conn:
        response = conn.request(apns_headers(JWT), PAYLOAD, authority=server_name)
    assert response.status == 200, response
    if server_name == "api.push.apple.com":
        assert "apns-unique-id" not in response.headers, response.headers
    else:
        assert re.fullmatch(UUID_PATTERN, response.headers["apns-unique-id"]), response.headers
