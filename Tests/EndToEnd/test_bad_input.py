"""Bad input never takes the server down: each case gets a clear answer or a close, and the
server keeps serving other clients with bounded memory."""
import json
import os
import socket
import subprocess
import ssl
import time
import urllib.error
import urllib.request

import h2.config
import h2.connection
import h2.events
import pytest

from conftest import BIN, MEASURES_MEMORY, curl, wait_until


@pytest.fixture(scope="module")
def emu(request):
    from conftest import Emulator
    emu = Emulator("--header-timeout", "2", "--idle-timeout", "3")
    yield emu
    assert emu.alive(), emu.stderr()[-3000:]
    emu.stop()


def still_serving(emu):
    assert emu.alive(), emu.stderr()[-3000:]
    assert curl("--http2-prior-knowledge", f"{emu.http}/healthz")[0] == 200
    assert curl("--cacert", emu.ca, f"https://localhost:{emu.port}/healthz")[0] == 200


def read_all(sock, limit=1 << 20):
    data = b""
    try:
        while len(data) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    return data


def try_send(sock, data):
    try:
        sock.sendall(data)
    except OSError:
        pass  # the server may close as soon as it has seen enough garbage


def test_random_bytes(emu):
    rng = __import__("random").Random(7)
    for first in (b"\x16\x03\x01", b"PRI * HTTP/2.0\r\n", b"GET ", b""):
        for _ in range(5):
            with socket.create_connection(("127.0.0.1", emu.port), timeout=5) as sock:
                try_send(sock, first + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 4096))))

                try:
                    sock.shutdown(socket.SHUT_WR)
                except OSError:
                    pass  # already closed by the server: fine
                read_all(sock)
    still_serving(emu)


def test_truncated_tls_handshake(emu):
    # A real ClientHello cut in half, then silence: the server drops it at the header timeout.
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = ssl.create_default_context().wrap_bio(incoming, outgoing, server_hostname="localhost")
    with pytest.raises(ssl.SSLWantReadError):
        tls.do_handshake()
    hello = outgoing.read()
    with socket.create_connection(("127.0.0.1", emu.port), timeout=10) as sock:
        sock.sendall(hello[: len(hello) // 2])
        started = time.time()
        assert read_all(sock) == b""
        assert time.time() - started < 6
    still_serving(emu)


def test_bad_http2_preface(emu):
    with socket.create_connection(("127.0.0.1", emu.port), timeout=5) as sock:
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n" + b"\x00" * 64)
        data = read_all(sock)
    # Not the preface, so it is HTTP/1.1 with an HTTP/2.0 version: 505, and closed.
    assert data.startswith(b"HTTP/1.1 505 ")
    still_serving(emu)


def test_broken_http2_frames_get_goaway(emu):
    with socket.create_connection(("127.0.0.1", emu.port), timeout=5) as sock:
        # Preface, then a SETTINGS frame whose length is not a multiple of 6.
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x05\x04\x00\x00\x00\x00\x00" + b"\x00" * 5)
        data = read_all(sock)
    assert b"\x07\x00\x00\x00\x00\x00" in data  # a GOAWAY frame header (type 7, flags 0, stream 0)
    still_serving(emu)


def test_malformed_request_line(emu):
    for line in (b"GARBAGE\r\n\r\n", b"GET /x HTTP/1.1 extra\r\n\r\n", b"GET\t/ HTTP/1.1\r\n\r\n", b"G@T / HTTP/1.1\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", emu.port), timeout=5) as sock:
            sock.sendall(line)
            data = read_all(sock)
        assert data.startswith(b"HTTP/1.1 400 "), (line, data[:200])
        assert b'"status":"INVALID_ARGUMENT"' in data
    still_serving(emu)


def test_too_many_header_lines_say_so(emu):
    """A short head of many lines is refused for its lines, not (as the answer said) for bytes."""
    lines = b"".join(b"X-%d: v\r\n" % i for i in range(150))
    with socket.create_connection(("127.0.0.1", emu.port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + lines + b"\r\n")
        data = read_all(sock)
    assert data.startswith(b"HTTP/1.1 431 ")
    assert b"has more than 100 lines" in data, data
    still_serving(emu)


def test_100_kib_of_headers(emu):
    big = b"".join(b"X-Filler-%d: %s\r\n" % (i, b"a" * 1000) for i in range(100))
    with socket.create_connection(("127.0.0.1", emu.port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + big + b"\r\n")
        data = read_all(sock)
    assert data.startswith(b"HTTP/1.1 431 ")
    # HTTP/2: the same header block (curl's own nghttp2 refuses to send that much, so the h2 library does).
    with socket.create_connection(("127.0.0.1", emu.port), timeout=5) as sock:
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        headers = [(":method", "GET"), (":path", "/healthz"), (":scheme", "http"), (":authority", "x")]
        headers += [(f"x-filler-{i}", "a" * 1000) for i in range(100)]
        conn.send_headers(1, headers, end_stream=True)
        sock.sendall(conn.data_to_send())
        status = None
        while status is None:
            data = sock.recv(65536)
            assert data
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    status = dict(event.headers)[b":status"]
            sock.sendall(conn.data_to_send())
    assert status == b"431"
    still_serving(emu)


def test_over_limit_body_gets_413(emu, tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b"{" + b" " * (1024 * 1024 + 10) + b"}")
    for flags in (["--http1.1"], ["--http2-prior-knowledge"]):
        code, _, body = curl(*flags, "-X", "POST", "--data-binary", f"@{big}", f"{emu.http}/v1/projects/p/messages:send")
        assert code == 413, (flags, code, body)
        assert '"code":413' in body
    code, _, _ = curl("--cacert", emu.ca, "-X", "POST", "--data-binary", f"@{big}", f"{emu.https}/v1/projects/p/messages:send")
    assert code == 413
    # Chunked, with no length announced: cut off while reading.
    code, _, _ = curl("--http1.1", "-H", "Transfer-Encoding: chunked", "-X", "POST", "--data-binary", f"@{big}", f"{emu.http}/x")
    assert code == 413
    still_serving(emu)


def test_413_reaches_a_client_still_sending_its_body(emu):
    """The 413 goes out before the body has arrived, and the server ends the connection: it reads
    and drops the rest, so the client that is still sending reads the answer instead of a reset
    (urllib sends the whole body before it reads; every one of these got a reset before)."""
    body = b"{" + b" " * (3 << 20) + b"}"
    tls = ssl.create_default_context(cafile=emu.ca)
    for base, context in ((emu.http, None), (emu.https, tls)):
        for _ in range(5):
            request = urllib.request.Request(f"{base}/v1/projects/p/messages:send", data=body,
                                             headers={"content-type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as answer:
                urllib.request.urlopen(request, context=context, timeout=10)
            assert answer.value.code == 413, base
            assert json.loads(answer.value.read())["error"]["code"] == 413
    still_serving(emu)


def open_descriptors(emu):
    return len(os.listdir(f"/proc/{emu.proc.pid}/fd"))


def settled_descriptors(emu):
    """The emulator's descriptor count once two reads 0.2 s apart agree (connections of earlier
    requests may still be closing)."""
    last = open_descriptors(emu)
    for _ in range(50):
        time.sleep(0.2)
        now = open_descriptors(emu)
        if now == last:
            return now
        last = now
    return last


def test_lingering_close_ends_when_the_client_goes_quiet(emu):
    """A client that stops sending after the 413 but keeps its socket open is closed once it has
    been quiet for five seconds (docs/server.md, "Closing a connection")."""
    still_serving(emu)
    before = settled_descriptors(emu)
    with socket.create_connection(("127.0.0.1", emu.port), timeout=10) as sock:
        sock.sendall(b"POST /v1/projects/p/messages:send HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Length: 3000000\r\n\r\n" + b" " * 1_500_000)
        answer = read_all(sock)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        # The server has ended its side and still holds the socket, reading what comes.
        assert open_descriptors(emu) == before + 1
        sock.sendall(b" " * 1000)
        assert wait_until(lambda: open_descriptors(emu) == before, timeout=30)
    still_serving(emu)


def test_header_one_byte_per_second_is_closed_at_the_timeout(emu):
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    with socket.create_connection(("127.0.0.1", emu.port), timeout=10) as sock:
        started = time.time()
        closed_after = None
        for byte in request:
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed_after = time.time() - started
                break
            sock.settimeout(1.0)
            try:
                data = sock.recv(65536)
                closed_after = time.time() - started
                assert data == b"" or data.startswith(b"HTTP/1.1 408 "), data
                break
            except socket.timeout:
                continue
    assert closed_after is not None and 1.5 <= closed_after <= 5, closed_after
    still_serving(emu)


def test_client_that_never_reads(emu):
    before = emu.rss_kib()
    socks = []
    request = b"GET /emulator/v1/ca.pem HTTP/1.1\r\nHost: x\r\n\r\n" * 2000
    for _ in range(4):
        sock = socket.create_connection(("127.0.0.1", emu.port), timeout=2)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        socks.append(sock)
        sent = 0
        try:
            for _ in range(100):
                sent += sock.send(request)
        except (socket.timeout, BlockingIOError, ConnectionResetError, BrokenPipeError):
            pass
    # The server stops reading from these clients once their answers pile up.
    time.sleep(0.5)
    still_serving(emu)
    if MEASURES_MEMORY:
        assert emu.rss_kib() - before < 64 * 1024, (before, emu.rss_kib())
    for sock in socks:
        sock.close()
    still_serving(emu)


def closed_by_server(sock, deadline):
    """Reads until the server closes the connection (True) or `deadline` passes (False)."""
    try:
        while True:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            if not sock.recv(65536):
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_half_open_connections_are_reaped(emu):
    socks = [socket.create_connection(("127.0.0.1", emu.port), timeout=10) for _ in range(20)]
    # The header timeout (2 s) closes the ten that send nothing; the idle timeout (3 s) the ten
    # that are answered and then stay silent. Timeouts are checked every quarter second, so by
    # 3 s plus a generous margin every one must have been closed by the server.
    deadline = time.monotonic() + 3 + 5
    for sock in socks[:10]:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    still_open = [index for index, sock in enumerate(socks) if not closed_by_server(sock, deadline)]
    for sock in socks:
        sock.close()
    assert not still_open, f"connections the server did not close within 8 s: {still_open}"
    still_serving(emu)


def test_out_of_range_durations_on_the_command_line_are_refused_at_start():
    # Both are used in millisecond arithmetic: an unbounded value once trapped the server later.
    for args in (["--offline-limit", "99999999999999999d"], ["--offline-limit", "36501d"],
                 ["--heartbeat-seconds", "99999999999999999"]):
        out = subprocess.run([BIN, "serve", "--port", "0", *args], capture_output=True, text=True, timeout=30)
        assert out.returncode == 64, (args, out.returncode, out.stderr)
        assert "Error:" in out.stderr and args[0] in out.stderr, out.stderr


def test_options_that_cannot_work_are_refused_at_start(tmp_path):
    # A service account must be a JSON key file with an RSA private_key. An APNs key must be a
    # readable P-256 key, and strict APNs auth needs one.
    rsa = tmp_path / "rsa.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-out", str(rsa)], check=True, capture_output=True)
    keyless = tmp_path / "keyless.json"
    keyless.write_text(json.dumps({"client_email": "sender@demo.iam.gserviceaccount.com"}))
    for args, named in ((["--service-account", str(rsa)], "--service-account"),
                        (["--service-account", str(keyless)], "private_key"),
                        (["--service-account", f"{tmp_path}/missing.json"], "--service-account"),
                        (["--access-token-lifetime", "0"], "--access-token-lifetime"),
                        (["--apns-auth", "strict"], "--apns-key"),
                        (["--apns-key", f"KEY1234567:TEAM123456:{tmp_path}/missing.p8"], "--apns-key"),
                        (["--apns-key", f"KEY1234567:TEAM123456:{rsa}"], "--apns-key"),
                        (["--apns-key", "KEY1234567"], "--apns-key"),
                        (["--apns-concurrent-streams", "0:1000"], "--apns-concurrent-streams"),
                        (["--apns-project", "a/b"], "--apns-project")):
        out = subprocess.run([BIN, "serve", "--port", "0", *args], capture_output=True, text=True, timeout=30)
        assert out.returncode == 64, (args, out.returncode, out.stderr)
        assert "Error:" in out.stderr and named in out.stderr, out.stderr


def test_out_of_range_timeouts_on_the_command_line_are_refused_at_start():
    # Both become nanoseconds at every timeout sweep: 1e300 once trapped the server at its first connection.
    for name, value in (("--idle-timeout", "1e300"), ("--idle-timeout", "86401"), ("--header-timeout", "nan"),
                        ("--header-timeout", "0"), ("--idle-timeout", "-1")):
        out = subprocess.run([BIN, "serve", "--port", "0", f"{name}={value}"], capture_output=True, text=True, timeout=30)
        assert out.returncode == 64, (name, value, out.returncode, out.stderr)
        assert "Error:" in out.stderr and name in out.stderr, out.stderr


def test_debug_routes_are_unknown_by_default(emu):
    status, _, body = curl(f"{emu.http}/emulator/v1/debug/tick?count=1&intervalMs=1")
    assert status == 404, body
    assert json.loads(body)["error"]["status"] == "NOT_FOUND"


def test_an_out_of_range_tick_is_refused_and_the_server_lives(start_emulator):
    # intervalMs=100000000000000 once overflowed the event loop's timer arithmetic and took the server down.
    emu = start_emulator("--enable-debug-routes")
    for query in ("count=2&intervalMs=100000000000000", "count=2&intervalMs=99999999999999999999", "intervalMs=0",
                  "intervalMs=-1", "intervalMs=60001", "intervalMs=soon", "count=0", "count=1000001"):
        status, _, body = curl(f"{emu.http}/emulator/v1/debug/tick?{query}")
        assert status == 400, (query, status, body)
        error = json.loads(body)["error"]
        assert error["status"] == "INVALID_ARGUMENT" and "must be a whole number" in error["message"], (query, error)
    still_serving(emu)
    status, _, body = curl(f"{emu.http}/emulator/v1/debug/tick?count=2&intervalMs=1")
    assert (status, body.count("data: ")) == (200, 2), (status, body)
