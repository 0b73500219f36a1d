"""Every protocol the one port speaks, each through a real client."""
import json
import re
import socket
import ssl
import subprocess

import h2.config
import h2.connection
import h2.events

from conftest import curl, http1_exchange


def test_healthz_http11(emulator):
    assert curl("--http1.1", f"{emulator.http}/healthz") == (200, "1.1", '{"status":"ok"}')


def test_healthz_h2c_prior_knowledge(emulator):
    assert curl("--http2-prior-knowledge", f"{emulator.http}/healthz") == (200, "2", '{"status":"ok"}')


def test_healthz_h2c_upgrade(emulator):
    assert curl("--http2", f"{emulator.http}/healthz") == (200, "2", '{"status":"ok"}')


def test_healthz_h2_over_tls_alpn(emulator):
    assert curl("--cacert", emulator.ca, f"{emulator.https}/healthz") == (200, "2", '{"status":"ok"}')


def test_healthz_insecure_k(emulator):
    assert curl("-k", f"https://127.0.0.1:{emulator.port}/healthz") == (200, "2", '{"status":"ok"}')


def test_healthz_http11_over_tls(emulator):
    assert curl("--cacert", emulator.ca, "--http1.1", f"{emulator.https}/healthz") == (200, "1.1", '{"status":"ok"}')


def test_ca_pem_is_served_and_verifies_the_server(emulator):
    code, _, body = curl(f"{emulator.http}/emulator/v1/ca.pem")
    assert code == 200 and body.startswith("-----BEGIN CERTIFICATE-----")
    with open(emulator.ca) as f:
        assert f.read().strip() == body.strip()


def test_certificate_covers_interception_names(emulator):
    # curl resolves the real APNs host name to the emulator and verifies it against the local CA.
    code, version, _ = curl(
        "--cacert", emulator.ca, "--resolve", f"api.push.apple.com:{emulator.port}:127.0.0.1",
        f"https://api.push.apple.com:{emulator.port}/healthz",
    )
    assert (code, version) == (200, "2")


def h2_get(sock, path, authority="localhost"):
    """Speaks HTTP/2 with the h2 library over an already connected socket; returns (status, body)."""
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    stream_id = conn.get_next_available_stream_id()
    conn.send_headers(stream_id, [(":method", "GET"), (":path", path), (":scheme", "https"), (":authority", authority)], end_stream=True)
    sock.sendall(conn.data_to_send())
    status, body = None, b""
    while True:
        data = sock.recv(65536)
        assert data, "connection closed before the response ended"
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                status = dict(event.headers)[b":status"]
            elif isinstance(event, h2.events.DataReceived):
                body += event.data
                conn.acknowledge_received_data(len(event.data), event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                return int(status), body
        sock.sendall(conn.data_to_send())


def test_tls_without_alpn_speaking_http2(emulator):
    # APNs clients such as aioapns offer no ALPN and start HTTP/2 right after the handshake.
    context = ssl.create_default_context(cafile=emulator.ca)
    with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.selected_alpn_protocol() is None
            status, body = h2_get(tls, "/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok"}


def test_tls_without_alpn_speaking_http11(emulator):
    context = ssl.create_default_context(cafile=emulator.ca)
    with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            data = b""
            while chunk := tls.recv(65536):
                data += chunk
    assert data.startswith(b"HTTP/1.1 200 OK\r\n") and data.endswith(b'{"status":"ok"}')


def test_tls_offering_only_unknown_alpn_values_is_sniffed(emulator):
    """No `no_application_protocol` alert: the handshake ends without ALPN and the decrypted bytes
    are sniffed, as when nothing is offered (docs/server.md, "ALPN")."""
    context = ssl.create_default_context(cafile=emulator.ca)
    context.set_alpn_protocols(["spdy/3", "h3"])
    with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.selected_alpn_protocol() is None
            status, body = h2_get(tls, "/healthz")
    assert status == 200 and json.loads(body) == {"status": "ok"}


def test_tls_12_and_13_only(emulator):
    # SECLEVEL=0 lets this client offer TLS 1.1, so a refusal comes from the server.
    for version, expected in (("-tls1_2", True), ("-tls1_3", True), ("-tls1_1", False)):
        out = subprocess.run(
            ["openssl", "s_client", "-connect", f"127.0.0.1:{emulator.port}", version, "-CAfile", emulator.ca,
             *(["-cipher", "DEFAULT@SECLEVEL=0"] if version == "-tls1_1" else [])],
            input=b"", capture_output=True, timeout=20,
        )
        handshake_ok = out.returncode == 0 and b"Cipher is (NONE)" not in out.stdout
        assert handshake_ok == expected, (version, out.stdout[-500:], out.stderr[-500:])


def test_http11_keep_alive_and_pipelining(emulator):
    with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", data)
    assert statuses == [b"200", b"404", b"200"]


def test_http1_answer_heads_byte_for_byte(emulator):
    """The head of an HTTP/1.x answer, exactly: status line, the fields, the framing, the
    connection's fate (close asked, HTTP/1.0 with and without keep-alive), then the body."""
    ok = b'{"status":"ok"}'
    json_type = b"content-type: application/json; charset=UTF-8\r\n"
    cases = [
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
         b"HTTP/1.1 200 OK\r\n" + json_type + b"content-length: 15\r\nconnection: close\r\n\r\n" + ok),
        (b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
         b"HTTP/1.1 200 OK\r\n" + json_type + b"content-length: 15\r\nconnection: keep-alive\r\n\r\n" + ok),
        (b"GET /healthz HTTP/1.0\r\n\r\n",
         b"HTTP/1.1 200 OK\r\n" + json_type + b"content-length: 15\r\nconnection: close\r\n\r\n" + ok),
        (b"HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
         b"HTTP/1.1 200 OK\r\n" + json_type + b"content-length: 15\r\nconnection: close\r\n\r\n"),
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
         b"HTTP/1.1 200 OK\r\n" + json_type + b"content-length: 15\r\n\r\n" + ok),
    ]
    for request, expected in cases:
        assert http1_exchange(emulator.port, request) == expected, request
    # A field a route sets beyond the content type (405's `allow`), in its place before the framing.
    assert http1_exchange(emulator.port, b"DELETE /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 405 Method Not Allowed\r\n" + json_type + b"allow: GET\r\ncontent-length: ")
    # An answer of the server's own making with a longer body: its length as sent.
    answer = http1_exchange(
        emulator.port, b"POST /v1/projects/p/messages:send HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"HTTP/1.1 401 Unauthorized"
    assert lines[1:] == [b"content-type: application/json; charset=UTF-8", b"content-length: %d" % len(body), b"connection: close"]
    assert json.loads(body)["error"]["status"] == "UNAUTHENTICATED"


def test_http11_chunked_request_body_and_expect_continue(emulator):
    with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as sock:
        sock.sendall(b"POST /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        sock.sendall(b"abcd")
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 405 "), first
        sock.sendall(b"POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n0\r\nTrailer: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 405 ")


def test_head_has_no_body(emulator):
    out = subprocess.run(["curl", "-sSI", "--http1.1", f"{emulator.http}/healthz"], capture_output=True, timeout=10)
    assert out.stdout.startswith(b"HTTP/1.1 200 OK") and b"content-length: 15" in out.stdout.lower()


def test_h2load_small_run_h2c_and_tls(emulator):
    for url in (f"{emulator.http}/healthz", f"https://127.0.0.1:{emulator.port}/healthz"):
        out = subprocess.run(["h2load", "-n", "20000", "-c", "16", "-m", "32", url], capture_output=True, timeout=120)
        text = out.stdout.decode()
        assert "20000 succeeded, 0 failed, 0 errored" in text, text


def test_access_log_has_one_line_per_request(emulator):
    curl("--http1.1", f"{emulator.http}/healthz?marker=access-log-check")
    import time
    time.sleep(0.2)
    lines = [l for l in emulator.stderr().splitlines() if "marker=access-log-check" in l]
    assert len(lines) == 1 and '"GET /healthz?marker=access-log-check HTTP/1.1" 200' in lines[0]


def test_access_log_json_has_one_object_per_request_with_the_documented_fields(start_emulator):
    emu = start_emulator("--log-format", "json")
    curl("--http1.1", f"{emu.http}/healthz?marker=json-log-check")
    curl("--http2-prior-knowledge", "-X", "POST", f"{emu.http}/v1/projects/demo/messages:send?marker=json-log-check")
    import time
    time.sleep(0.2)
    lines = [l for l in emu.stderr().splitlines() if "marker=json-log-check" in l]
    assert len(lines) == 2, lines
    first, second = (json.loads(line) for line in lines)
    fields = {"remote", "method", "path", "protocol", "status", "bytes", "durationMs"}
    assert set(first) == fields and set(second) == fields
    assert (first["method"], first["path"], first["protocol"], first["status"]) == (
        "GET", "/healthz?marker=json-log-check", "HTTP/1.1", 200)
    assert (second["method"], second["protocol"], second["status"]) == ("POST", "HTTP/2", 401)
    assert isinstance(first["durationMs"], float) and first["durationMs"] >= 0
    assert isinstance(first["bytes"], int) and first["bytes"] == len('{"status":"ok"}')


def test_a_head_answer_that_closes_reads_no_request_behind_it(start_emulator):
    """HEAD on a streaming route (a device's `:stream`) with `Connection: close`, or in HTTP/1.0:
    the answer said `connection: close`, yet the pipelined request behind it was still carried
    out and answered (RFC 9112 §9.6: after close, no further requests are processed)."""
    emu = start_emulator()
    for first in (b"HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", b"HTTP/1.0\r\n\r\n"):
        status, _, body = curl("-X", "POST", "-H", "Content-Type: application/json", "-d", '{"token":"head-1"}',
                               f"{emu.http}/emulator/v1/projects/head/devices")
        assert status == 201, body
        answer = http1_exchange(emu.port, b"HEAD /emulator/v1/projects/head/devices/head-1:stream " + first
                                + b"DELETE /emulator/v1/projects/head/devices/head-1 HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200 ") and answer.count(b"HTTP/1.1 ") == 1, answer
        assert b"connection: close" in answer.lower()
        assert curl(f"{emu.http}/emulator/v1/projects/head/devices/head-1")[0] == 200
        curl("-X", "DELETE", f"{emu.http}/emulator/v1/projects/head")


def test_an_absolute_form_target_is_served(emulator):
    """A client that takes the emulator for an HTTP proxy (curl -x, `http_proxy`) sends the whole
    URL as the request target; a server must accept that form (RFC 9112 §3.2.2): it was 404."""
    status, _, body = curl("-x", emulator.http, "http://push-emulator.test/healthz")
    assert (status, body) == (200, '{"status":"ok"}')
    answer = http1_exchange(emulator.port, b"GET HTTP://127.0.0.1/emulator/v1/ca.pem HTTP/1.1\r\nHost: x\r\n"
                                           b"Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 ") and b"BEGIN CERTIFICATE" in answer, answer[:200]


def test_a_tls_connection_the_server_closes_ends_with_close_notify(emulator):
    """The end of a close-delimited answer (`Connection: close`, HTTP/1.0, an error that closes)
    is told from a cut by the TLS close_notify alert (RFC 8446 §6.1); the server closed the socket
    without one, which a strict client reports as an unexpected end."""
    context = ssl.create_default_context(cafile=emulator.ca)
    context.set_alpn_protocols(["http/1.1"])
    for request in (b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                    b"GET /healthz HTTP/1.0\r\n\r\n",
                    b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", emulator.port), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname="localhost", suppress_ragged_eofs=False) as sock:
                sock.sendall(request)
                received = b""
                while chunk := sock.recv(65536):  # SSLEOFError without close_notify
                    received += chunk
        assert received.startswith(b"HTTP/1.1 "), received
