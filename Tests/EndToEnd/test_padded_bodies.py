"""Send bodies padded with whitespace to a megabyte. The message log shows a request parsed, so it
keeps the compact request, not the megabyte (docs/fcm.md, "The message log"); and a send that a
delay fault holds back keeps what its answer needs, not the request (docs/faults.md). Both held
every body whole: 100 logged sends about 100 MB, 200 delayed ones about 200 MB."""
import json
import shutil
import socket
import subprocess
import time

import pytest

from api import Api
from conftest import MEASURES_MEMORY, wait_until

MIB = 1024


def padded(topic):
    """A valid send to `topic` and its body padded with spaces to about a megabyte."""
    message = {"message": {"topic": topic, "notification": {"title": "t"}}}
    text = json.dumps(message, separators=(",", ":"))
    return message, (text[:-1] + " " * 1_000_000 + "}").encode()


def send_request(project, body):
    return (f"POST /v1/projects/{project}/messages:send HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


def read_answer(sock):
    """One HTTP/1.1 answer with a content-length: (status, body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed before the answer"
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")))
    while len(rest) < length:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed in the answer"
        rest += chunk
    return int(head.split(b" ")[1]), rest[:length]


@pytest.mark.skipif(not MEASURES_MEMORY, reason="compares resident memory, which a sanitizer's allocator distorts")
@pytest.mark.skipif(shutil.which("h2load") is None, reason="needs h2load (nghttp2-client)")
def test_the_message_log_keeps_the_compact_request_not_the_padding(start_emulator, tmp_path):
    emulator = start_emulator()
    api = Api(emulator.http, "padded")
    message, body = padded("news")
    path = tmp_path / "padded.json"
    path.write_bytes(body)
    sends = 100
    before = emulator.rss_kib()
    out = subprocess.run(
        ["h2load", "-n", str(sends), "-c", "1", "-m", "1", "-d", str(path), "-H", "authorization: Bearer test",
         "-H", "content-type: application/json", emulator.http + "/v1/projects/padded/messages:send"],
        capture_output=True, text=True, timeout=120)
    assert f"status codes: {sends} 2xx" in out.stdout, out.stdout
    grown = emulator.rss_kib() - before
    # About 100 MB when each body was kept whole; a few hundred bytes each now.
    assert grown < 24 * MIB, f"resident size grew by {grown} KiB over {sends} logged sends"
    status, page = api.call("GET", "/emulator/v1/projects/padded/messages?pageSize=1")
    assert status == 200 and page["messages"][0]["request"] == message
    # The export holds what the log keeps.
    status, state = api.call("GET", "/emulator/v1/state")
    assert status == 200
    logged = next(p for p in state["projects"] if p["projectId"] == "padded")["messageLog"]
    assert len(logged) == sends and logged[0]["request"] == message


@pytest.mark.skipif(not MEASURES_MEMORY, reason="compares resident memory, which a sanitizer's allocator distorts")
def test_a_delayed_send_keeps_what_it_answers_with_not_its_request(start_emulator):
    emulator = start_emulator()
    api = Api(emulator.http, "delayed")
    # Long enough for every send to be held while the memory is read (a busy machine is slow).
    fault = api.add_fault(delayMs=20000)
    _, body = padded("news")
    request = send_request("delayed", body)
    held = 200
    before = emulator.rss_kib()
    # One connection each: over HTTP/1.1 a delayed answer holds the requests behind it.
    sockets = []
    try:
        for _ in range(held):
            sock = socket.create_connection(("127.0.0.1", emulator.port), timeout=60)
            sockets.append(sock)
            sock.sendall(request)
        assert wait_until(lambda: api.fault_state(fault)["fired"] == held, timeout=60)
        # About 200 MB when each delayed send kept its body; a few hundred bytes each now, once the
        # bodies just read are handed back (two seconds after the last: polled, not timed).
        wait_until(lambda: emulator.rss_kib() - before < 48 * MIB, timeout=10)
        grown = emulator.rss_kib() - before
        assert grown < 48 * MIB, f"resident size grew by {grown} KiB with {held} delayed sends held"
        # The delays end and every send is performed and answered.
        for sock in sockets:
            status, answer = read_answer(sock)
            assert status == 200 and json.loads(answer)["name"].startswith("projects/delayed/messages/"), answer
    finally:
        for sock in sockets:
            sock.close()
    status, page = api.call("GET", f"/emulator/v1/projects/delayed/messages?pageSize={held}")
    assert status == 200 and len(page["messages"]) == held
