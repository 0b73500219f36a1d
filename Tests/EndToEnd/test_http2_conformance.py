"""RFC 9113 behaviours checked frame by frame, over cleartext HTTP/2 and over TLS with ALPN h2:
the cases where a server that keeps no closed streams and ignores priorities goes wrong."""
import struct

import pytest

from h2frames import (CONTINUATION, DATA, END_HEADERS, END_STREAM, GOAWAY, HEADERS, PING, PRIORITY, PROTOCOL_ERROR,
                      RST_STREAM, STREAM_CLOSED, Client, connect, frame, goaway, reset_code)

TRANSPORTS = ["h2c", "tls"]


@pytest.fixture(params=TRANSPORTS)
def client(request, emulator):
    sock = connect(emulator.port, tls=request.param == "tls", ca=emulator.ca)
    c = Client(sock)
    c.start()
    yield c
    sock.close()


def assert_connection_error(frames, code):
    assert goaway(frames) is not None and goaway(frames)[1] == code, f"expected GOAWAY {code}, got {frames}"


def assert_stream_or_connection_error(frames, stream_id, code):
    """RFC 9113 lets a server answer some cases either way: an RST_STREAM or a GOAWAY with `code`."""
    codes = {reset_code(frames, stream_id), goaway(frames) and goaway(frames)[1]}
    assert code in codes, f"expected RST_STREAM or GOAWAY {code} on stream {stream_id}, got {frames}"


def test_an_invalid_preface_after_alpn_h2_gets_goaway_protocol_error(emulator):
    """3.5/2: TLS with ALPN h2 leaves no doubt that the peer speaks HTTP/2."""
    sock = connect(emulator.port, tls=True, ca=emulator.ca)
    assert sock.selected_alpn_protocol() == "h2"
    c = Client(sock)
    c.send(b"INVALID CONNECTION PREFACE\r\n\r\n")
    frames = c.read_frames(lambda f: any(x[0] in (GOAWAY, "EOF") for x in f))
    assert_connection_error(frames, PROTOCOL_ERROR)


def test_an_invalid_preface_on_cleartext_is_read_as_http11(emulator):
    """Cleartext is sniffed: what is not the preface is HTTP/1.1, and this is no valid request."""
    sock = connect(emulator.port, tls=False)
    sock.sendall(b"INVALID CONNECTION PREFACE\r\n\r\n")
    reply = b""
    while chunk := sock.recv(65536):
        reply += chunk
    assert reply.startswith(b"HTTP/1.1 400 "), reply[:200]


def test_data_on_a_half_closed_remote_stream_is_stream_closed(client):
    """5.1/5: the request ended with END_STREAM; more DATA on it is an error."""
    client.headers(1, end_stream=True)
    client.send(frame(DATA, END_STREAM, 1, b"late"))
    assert_stream_or_connection_error(client.error(), 1, STREAM_CLOSED)


def test_headers_on_a_half_closed_remote_stream_is_stream_closed(client):
    """5.1/6"""
    client.headers(1, end_stream=True)
    client.headers(1, end_stream=True)
    frames = client.error()
    assert_stream_or_connection_error(frames, 1, STREAM_CLOSED)


def test_data_after_the_clients_rst_stream_is_stream_closed(client):
    """5.1/8"""
    client.headers(1, method="POST", end_stream=False)
    client.send(frame(RST_STREAM, 0, 1, struct.pack(">I", 0x8)))
    client.send(frame(DATA, END_STREAM, 1, b"late"))
    assert_stream_or_connection_error(client.error(), 1, STREAM_CLOSED)


def test_headers_after_the_clients_rst_stream_is_stream_closed(client):
    """5.1/9"""
    client.headers(1, method="POST", end_stream=False)
    client.send(frame(RST_STREAM, 0, 1, struct.pack(">I", 0x8)))
    client.headers(1, end_stream=True)
    assert_stream_or_connection_error(client.error(), 1, STREAM_CLOSED)


def test_data_on_a_closed_stream_is_stream_closed(client):
    """5.1/11: both sides ended the stream; DATA on it afterwards is an error."""
    client.headers(1, end_stream=True)
    client.response_complete(1)
    client.send(frame(DATA, END_STREAM, 1, b"late"))
    assert_stream_or_connection_error(client.error(), 1, STREAM_CLOSED)


def test_headers_on_a_closed_stream_is_stream_closed(client):
    """5.1/12"""
    client.headers(1, end_stream=True)
    client.response_complete(1)
    client.headers(1, end_stream=True)
    assert_stream_or_connection_error(client.error(), 1, STREAM_CLOSED)


def test_a_stream_id_below_a_used_one_is_a_protocol_error(client):
    """5.1.1/2: opening stream 5 closed the idle streams 1 and 3."""
    client.headers(5, end_stream=True)
    client.headers(3, end_stream=True)
    frames = client.read_frames(lambda f: any(x[0] in (GOAWAY, "EOF") for x in f))
    assert_connection_error(frames, PROTOCOL_ERROR)
    assert not any(f[0] in (HEADERS, DATA) and f[2] == 3 for f in frames if f[0] != "EOF")


def test_trailers_and_later_streams_after_a_gap_are_still_served(client):
    """The gap rule does not catch streams that were used: 1, then 7, then 9 all answer."""
    for stream_id in (1, 7, 9):
        client.headers(stream_id, end_stream=True)
        frames = client.response_complete(stream_id)
        assert any(f[0] == HEADERS and f[2] == stream_id for f in frames if f[0] != "EOF"), frames
        assert goaway(frames) is None


def test_stream_ids_next_to_the_largest_are_served(client, emulator):
    """Streams 2^31 - 3 and 2^31 - 1, the largest id: the gap check once counted past the largest
    id in 32 bits, and the second stream stopped the server."""
    for stream_id in (2**31 - 3, 2**31 - 1):
        client.headers(stream_id, end_stream=True)
        frames = client.response_complete(stream_id)
        assert any(f[0] == HEADERS and f[2] == stream_id for f in frames if f[0] != "EOF"), frames
    assert emulator.alive()


def test_a_priority_frame_that_depends_on_its_own_stream_is_a_protocol_error(client):
    """5.3.1/2"""
    client.send(frame(PRIORITY, 0, 1, struct.pack(">IB", 1, 15)))
    assert_stream_or_connection_error(client.error(), 1, PROTOCOL_ERROR)


def test_a_priority_frame_on_stream_zero_is_a_protocol_error(client):
    """6.3/1"""
    client.send(frame(PRIORITY, 0, 0, struct.pack(">IB", 1, 15)))
    assert_connection_error(client.error(), PROTOCOL_ERROR)


def test_a_priority_frame_for_an_idle_stream_is_accepted(client):
    """Priority signals are still accepted (and otherwise ignored) on idle streams."""
    client.send(frame(PRIORITY, 0, 3, struct.pack(">IB", 0, 15)))
    client.headers(3, end_stream=True)
    frames = client.response_complete(3)
    assert any(f[0] == HEADERS and f[2] == 3 for f in frames if f[0] != "EOF"), frames


def test_an_even_stream_id_is_a_protocol_error_and_the_server_lives_on(client, emulator):
    """Client streams are odd; a HEADERS frame on stream 2 must not disturb the gap bookkeeping."""
    client.headers(2, end_stream=True)
    assert_connection_error(client.error(), PROTOCOL_ERROR)
    assert emulator.alive()


def send_in_continuations(client, stream_id, continuations):
    """The request's header block: its first byte in HEADERS, the rest over `continuations`
    CONTINUATION frames, the last with END_HEADERS."""
    block = client.headers_block()
    cuts = [1 + (len(block) - 1) * i // continuations for i in range(continuations + 1)]
    frames = frame(HEADERS, END_STREAM, stream_id, block[:1])
    for i in range(continuations):
        flags = END_HEADERS if i == continuations - 1 else 0
        frames += frame(CONTINUATION, flags, stream_id, block[cuts[i]:cuts[i + 1]])
    client.send(frames)


def test_a_header_block_in_eight_continuations_is_served(client):
    send_in_continuations(client, 1, 8)
    client.response_complete(1)
    assert client.status(1) == 200


def test_a_header_block_in_more_than_eight_continuations_ends_the_connection(client, emulator):
    """nghttp2's guard against CONTINUATION floods (docs/server.md, "Floods end the connection")."""
    send_in_continuations(client, 1, 9)
    assert_connection_error(client.error(), PROTOCOL_ERROR)
    assert emulator.alive()


def test_a_ping_flood_ends_the_connection(emulator):
    """1,100 PINGs in one write over h2c: more acknowledgements wait than nghttp2 queues."""
    sock = connect(emulator.port, tls=False)
    flood = Client(sock)
    flood.start()
    flood.send(b"".join(frame(PING, 0, 0, b"12345678") for _ in range(1100)))
    frames = flood.read_frames(lambda frames: any(f[0] in (GOAWAY, "EOF") for f in frames))
    sock.close()
    assert_connection_error(frames, PROTOCOL_ERROR)
    assert emulator.alive()
