"""Streaming responses (the shape of the device SSE stream) over HTTP/1.1 and HTTP/2."""
import socket
import subprocess
import time

import h2.config
import h2.connection
import h2.events

import pytest

from conftest import Emulator, curl, http1_exchange, wait_until


@pytest.fixture(scope="module")
def emulator():
    # The tick route that these tests stream from is served only with --enable-debug-routes.
    emu = Emulator("--enable-debug-routes")
    yield emu
    assert emu.alive(), "the emulator died during the tests:\n" + emu.stderr()[-3000:]
    emu.stop()


def test_stream_over_http11_with_curl(emulator):
    started = time.time()
    out = subprocess.run(
        ["curl", "-sN", "--http1.1", f"{emulator.http}/emulator/v1/debug/tick?count=10&intervalMs=100"],
        capture_output=True, timeout=20,
    )
    elapsed = time.time() - started
    events = [line for line in out.stdout.decode().splitlines() if line.startswith("data: ")]
    assert events == [f'data: {{"tick":{i}}}' for i in range(10)]
    assert elapsed >= 0.9


def test_stream_over_http2_with_curl(emulator):
    out = subprocess.run(
        ["curl", "-sN", "--http2-prior-knowledge", f"{emulator.http}/emulator/v1/debug/tick?count=5&intervalMs=100"],
        capture_output=True, timeout=20,
    )
    assert [l for l in out.stdout.decode().splitlines() if l.startswith("data: ")] == [f'data: {{"tick":{i}}}' for i in range(5)]


def test_other_requests_answered_while_http2_stream_runs(emulator):
    with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as sock:
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()

        def request(stream_id, path):
            conn.send_headers(stream_id, [(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "x")], end_stream=True)
            sock.sendall(conn.data_to_send())

        request(1, "/emulator/v1/debug/tick?count=20&intervalMs=100")
        ticks, answered, ended = [], {}, set()
        next_id = 3
        while 1 not in ended:
            data = sock.recv(65536)
            assert data
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.DataReceived):
                    conn.acknowledge_received_data(len(event.data), event.stream_id)
                    if event.stream_id == 1 and event.data:
                        ticks.append((time.time(), event.data))
                        # While ticks flow, ask for something else on the same connection.
                        if len(ticks) in (3, 8, 13):
                            request(next_id, "/healthz")
                            next_id += 2
                    elif event.stream_id != 1:
                        answered[event.stream_id] = (len(ticks), event.data)
                elif isinstance(event, h2.events.StreamEnded):
                    ended.add(event.stream_id)
            sock.sendall(conn.data_to_send())
    assert len(ticks) == 20
    assert sorted(answered) == [3, 5, 7]
    # Each answer arrived while the stream was still running, not after it.
    assert all(count < 20 and body == b'{"status":"ok"}' for count, body in answered.values())
    # The ticks were sent as they were made, not held back: they arrive spread over the stream's
    # two seconds. The median gap, not the smallest: on a busy machine (or under a sanitizer) the
    # client may read a late tick just before the next one.
    gaps = sorted(b[0] - a[0] for a, b in zip(ticks, ticks[1:]))
    assert gaps[len(gaps) // 2] > 0.05 and sum(gaps) > 1.5, gaps


def server_side_sockets(port, state):
    out = subprocess.run(["ss", "-Htn", "state", state, f"( sport = :{port} )"], capture_output=True, text=True)
    return [line for line in out.stdout.splitlines() if line.strip()]


def test_server_notices_http11_client_leaving(emulator):
    sock = socket.create_connection(("127.0.0.1", emulator.port), timeout=10)
    sock.sendall(b"GET /emulator/v1/debug/tick?count=100000&intervalMs=50 HTTP/1.1\r\nHost: x\r\n\r\n")
    received = b""
    while b"data: " not in received:
        received += sock.recv(65536)
    assert len(server_side_sockets(emulator.port, "established")) >= 1
    sock.close()
    # The server closes its side at once: no socket left in CLOSE-WAIT or ESTABLISHED.
    assert wait_until(lambda: not server_side_sockets(emulator.port, "close-wait") and not server_side_sockets(emulator.port, "established"), timeout=3)


def test_server_notices_http2_stream_reset(emulator):
    with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as sock:
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        conn.send_headers(1, [(":method", "GET"), (":path", "/emulator/v1/debug/tick?count=100000&intervalMs=20"), (":scheme", "http"), (":authority", "x")], end_stream=True)
        sock.sendall(conn.data_to_send())
        got = 0
        while got < 3:
            for event in conn.receive_data(sock.recv(65536)):
                if isinstance(event, h2.events.DataReceived):
                    got += 1
                    conn.acknowledge_received_data(len(event.data), 1)
        conn.reset_stream(1)
        conn.send_headers(3, [(":method", "GET"), (":path", "/healthz"), (":scheme", "http"), (":authority", "x")], end_stream=True)
        sock.sendall(conn.data_to_send())
        # After the reset, no more DATA on stream 1; stream 3 is answered.
        time.sleep(0.3)
        late, healthz = 0, None
        sock.settimeout(0.5)
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.DataReceived) and event.stream_id == 3:
                        healthz = event.data
                sock.sendall(conn.data_to_send())
        except socket.timeout:
            pass
        # Nothing more may arrive: the server stopped streaming when the client reset the stream.
        assert healthz == b'{"status":"ok"}'
        sock.settimeout(0.6)
        try:
            extra = sock.recv(65536)
        except socket.timeout:
            extra = b""
        assert extra == b"", "the server kept streaming after RST_STREAM"


def _head_of_stream(port, request):
    """The head of a streamed HTTP/1.x answer: the client closes its side at once, which ends the
    stream after its first event."""
    return http1_exchange(port, request).partition(b"\r\n\r\n")


def test_http1_stream_heads_byte_for_byte(emulator):
    """A streamed answer's head: chunked on HTTP/1.1, delimited by the close on HTTP/1.0 (no
    chunked coding there), and the same head without a body for HEAD."""
    tick = b"/emulator/v1/debug/tick?count=2&intervalMs=10"
    fields = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
    head, _, body = _head_of_stream(emulator.port, b"GET " + tick + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert head == fields + b"transfer-encoding: chunked\r\nconnection: close"
    assert body.startswith(b"18\r\nid: 0\ndata: {\"tick\":0}\n\n\r\n"), body
    head, _, body = _head_of_stream(emulator.port, b"GET " + tick + b" HTTP/1.0\r\n\r\n")
    assert head == fields + b"connection: close"
    assert body.startswith(b"id: 0\ndata: {\"tick\":0}\n\n"), body
    head, _, body = _head_of_stream(emulator.port, b"HEAD " + tick + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert head == fields + b"transfer-encoding: chunked\r\nconnection: close"
    assert body == b""
