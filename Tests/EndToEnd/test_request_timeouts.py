"""A header block or a request body that trickles in too slowly is answered, on HTTP/1.1 and
HTTP/2, instead of holding a connection or stream open for as long as the client likes."""
import socket
import time

from h2frames import DATA, GOAWAY, HEADERS, END_HEADERS, Client, connect, frame, goaway


def test_an_unfinished_http2_header_block_ends_the_connection_after_the_header_timeout(start_emulator):
    emulator = start_emulator("--header-timeout", "1")
    client = Client(connect(emulator.port, tls=False))
    client.start()
    # HEADERS without END_HEADERS: the block goes on in CONTINUATION frames that never come.
    client.send(frame(HEADERS, 0, 1, client.headers_block()))
    started = time.monotonic()
    frames = client.read_frames(lambda f: any(x[0] in (GOAWAY, "EOF") for x in f), timeout=8)
    assert any(f[0] in (GOAWAY, "EOF") for f in frames), frames
    assert time.monotonic() - started < 5


def test_an_http2_request_body_that_trickles_in_gets_408_after_the_body_timeout(start_emulator):
    emulator = start_emulator("--body-timeout", "1")
    client = Client(connect(emulator.port, tls=False))
    client.start()
    client.headers(1, path="/v1/projects/p/messages:send", method="POST", end_stream=False,
                   extra=[("content-type", "application/json")])
    started = time.monotonic()
    answered = []
    while time.monotonic() - started < 8 and not answered:
        client.send(frame(DATA, 0, 1, b" "))
        frames = client.read_frames(lambda f: any(x[0] == HEADERS and x[2] == 1 for x in f if x[0] != "EOF"), timeout=0.5)
        answered = [f for f in frames if f[0] == HEADERS and f[2] == 1]
    assert answered, "no answer while the body trickled in"
    assert time.monotonic() - started < 5
    assert client.status(1) == 408
    # The connection lives on for other requests.
    client.headers(3)
    frames = client.response_complete(3)
    assert any(f[0] == HEADERS and f[2] == 3 for f in frames if f[0] != "EOF")
    assert goaway(frames) is None


def test_an_http11_request_body_that_trickles_in_gets_408_after_the_body_timeout(start_emulator):
    emulator = start_emulator("--body-timeout", "1")
    sock = socket.create_connection(("127.0.0.1", emulator.port), timeout=10)
    sock.sendall(b"POST /v1/projects/p/messages:send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n")
    started = time.monotonic()
    reply = b""
    sock.settimeout(0.5)
    while time.monotonic() - started < 8 and b"\r\n\r\n" not in reply:
        try:
            sock.sendall(b" ")
            reply += sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            break
    assert reply.startswith(b"HTTP/1.1 408 "), reply[:200]
    assert time.monotonic() - started < 5
