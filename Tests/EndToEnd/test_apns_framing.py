"""The frames of APNs answers, which real clients depend on (docs/apns.md): a success is one HEADERS
frame with END_STREAM and no DATA (aioapns parses every DATA frame as JSON, even an empty one); an
error is HEADERS without END_STREAM, then exactly one DATA frame holding the whole JSON, with
END_STREAM (Pushy parses only the frame that ends the stream, aioapns each frame alone). Checked
over each way a client reaches the port."""
import json
import re
import struct

import pytest

from apns_helpers import (DEVICE_TOKEN, TRANSPORTS, UUID_PATTERN, ApnsConnection, apns_headers,
                          canonical_uuid_upper, new_key, provider_token)
from h2frames import CANCEL, DATA, END_HEADERS, END_STREAM, HEADERS, RST_STREAM, frame

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


def hpack_representations(block):
    """(kind, name index) of each field representation in an HPACK header block, in order (RFC 7541
    §6): kind is "indexed", "incremental" (literal with incremental indexing), "without" (without
    indexing) or "never" (never indexed); the name index is 0 for a literal name."""
    def integer(at, prefix_bits):
        value = block[at] & ((1 << prefix_bits) - 1)
        at += 1
        if value < (1 << prefix_bits) - 1:
            return value, at
        shift = 0
        while True:
            byte = block[at]
            at += 1
            value += (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value, at

    def skip_string(at):
        length, at = integer(at, 7)
        return at + length

    found, at = [], 0
    while at < len(block):
        first = block[at]
        if first & 0x80:
            index, at = integer(at, 7)
            found.append(("indexed", index))
            continue
        if first & 0xE0 == 0x20:  # dynamic table size update
            _, at = integer(at, 5)
            continue
        kind, prefix = ("incremental", 6) if first & 0x40 else (("never", 4) if first & 0x10 else ("without", 4))
        index, at = integer(at, prefix)
        if index == 0:
            at = skip_string(at)
        at = skip_string(at)
        found.append((kind, index))
    return found


def test_id_values_are_never_indexed(emulator):
    """Each answer's ids are new, so they are sent never indexed, in every answer on a connection:
    a table entry for each would push out the entries that repeat (docs/server.md)."""
    with ApnsConnection(emulator, "h2c") as conn:
        answers = [conn.request(apns_headers(JWT, apns_id=canonical_uuid_upper()), PAYLOAD) for _ in range(3)]
    for number, response in enumerate(answers):
        assert response.status == 200, response
        (kind, flags, payload), = response.frames
        names = [name for name in response.headers]
        representations = dict(zip(names, hpack_representations(payload)))
        for name in ("apns-id", "apns-unique-id"):
            kind, _ = representations[name]
            assert kind == "never", (number, name, representations)
    assert len({response.headers["apns-unique-id"] for response in answers}) == 3


def test_many_answers_in_flight_on_one_connection_keep_their_own_ids(emulator):
    """nghttp2 encodes each answer's header block from the stream's own copy of it, possibly after
    later requests were answered: a burst of requests on one connection gets every `apns-id` back
    on its own stream."""
    with ApnsConnection(emulator, "h2c") as conn:
        # The first request authenticates the connection, which then allows 1000 streams.
        assert conn.request(apns_headers(JWT), PAYLOAD).status == 200
        sent = {}
        burst = b""
        body = json.dumps(PAYLOAD).encode()
        for _ in range(200):
            stream_id = conn.next_stream
            conn.next_stream += 2
            sent[stream_id] = canonical_uuid_upper()
            block = conn.client.encoder.encode(
                [(":method", "POST"), (":scheme", "http"), (":path", f"/3/device/{DEVICE_TOKEN}"),
                 (":authority", "localhost"), *apns_headers(JWT, apns_id=sent[stream_id])])
            burst += frame(HEADERS, END_HEADERS, stream_id, block) + frame(DATA, END_STREAM, stream_id, body)
        conn.client.send(burst)
        conn.client.read_frames(lambda frames: len([f for f in frames if f[0] == HEADERS and f[1] & END_STREAM]) >= len(sent),
                                timeout=30)
        for stream_id, apns_id in sent.items():
            blocks = conn.client.received_headers.get(stream_id)
            assert blocks and blocks[0][":status"] == "200", (stream_id, blocks)
            assert blocks[0]["apns-id"] == apns_id, (stream_id, blocks)


def test_an_answer_queued_for_a_reset_stream_never_reads_the_reused_streams_memory(emulator):
    """A client that resets a stream whose answer is queued: nghttp2 drops that answer unread, and
    the stream's object (and its header bytes) serve the next request at once. That request's
    answer is larger (an error, with its content-type) and overwrites the bytes; the reset stream
    gets nothing, or, when the reset came too late, its own answer, never the next one's bytes.
    (An APNs answer echoes no header longer than a UUID, so no answer here outgrows the bytes a
    stream keeps.)"""
    with ApnsConnection(emulator, "h2c") as conn:
        # The first request authenticates the connection, which then allows more than one stream.
        assert conn.request(apns_headers(JWT), PAYLOAD).status == 200
        reset, second = conn.next_stream, conn.next_stream + 2
        conn.next_stream += 4
        body = json.dumps(PAYLOAD).encode()

        def request(stream_id, apns_id, payload_bytes):
            block = conn.client.encoder.encode(
                [(":method", "POST"), (":scheme", "http"), (":path", f"/3/device/{DEVICE_TOKEN}"),
                 (":authority", "localhost"), *apns_headers(JWT, apns_id=apns_id)])
            return frame(HEADERS, END_HEADERS, stream_id, block) + frame(DATA, END_STREAM, stream_id, payload_bytes)

        reset_id, second_id = canonical_uuid_upper(), canonical_uuid_upper()
        conn.client.send(request(reset, reset_id, body) + frame(RST_STREAM, 0, reset, struct.pack(">I", CANCEL))
                         + request(second, second_id, b""))
        answer = conn.response(second)
        assert (answer.status, answer.headers["apns-id"], answer.json()) == (400, second_id, {"reason": "PayloadEmpty"})
        for block in conn.client.received_headers.get(reset, []):
            assert block["apns-id"] == reset_id, block
        # The connection carries on.
        assert conn.request(apns_headers(JWT), PAYLOAD).status == 200
