"""Large HTTP/1.1 answers reach a client that reads them. A whole answer larger than the 8 MiB a
connection may hold unsent (a state export) made the server drop the connection part way; and
requests pipelined for large answers were all answered into memory at once, then the connection
was dropped for holding too much (RFC 9112 §9.3.2: a server answers pipelined requests in order,
at its own pace)."""
import json
import socket
import threading
import time
import urllib.request

import pytest

from api import Api
from conftest import MEASURES_MEMORY

OPENAPI = "/emulator/v1/openapi.json"


def read_answers(sock, count, pause=0.0):
    """Reads `count` HTTP/1.1 answers with content-length bodies; returns (status, body) pairs."""
    buffer, answers = b"", []
    while len(answers) < count:
        head_end = buffer.find(b"\r\n\r\n")
        if head_end >= 0:
            head = buffer[:head_end].decode()
            length = int(next(line.split(":", 1)[1] for line in head.split("\r\n")
                              if line.lower().startswith("content-length:")))
            if len(buffer) >= head_end + 4 + length:
                answers.append((int(head.split(" ")[1]), buffer[head_end + 4:head_end + 4 + length]))
                buffer = buffer[head_end + 4 + length:]
                continue
        chunk = sock.recv(65536)
        if not chunk:
            break
        buffer += chunk
        if pause:
            time.sleep(pause)
    return answers


def send_many(emu, project, token, count, data_bytes):
    """`count` FCM sends to `token`, each with `data_bytes` of data, pipelined on one HTTP/1.1
    connection while their answers are read; returns the answers' statuses."""
    body = json.dumps({"message": {"token": token, "data": {"k": "x" * data_bytes}}}).encode()
    request = (f"POST /v1/projects/{project}/messages:send HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
    with socket.create_connection(("127.0.0.1", emu.port), timeout=60) as sock:
        sender = threading.Thread(target=sock.sendall, args=(request * count,))
        sender.start()
        answers = read_answers(sock, count)
        sender.join()
    return [status for status, _ in answers]


def test_pipelined_requests_for_large_answers_are_all_answered_in_order(start_emulator):
    emu = start_emulator()
    expected = urllib.request.urlopen(emu.http + OPENAPI, timeout=10).read()
    count = 400  # about 25 MB of answers to 16 KB of requests
    before = emu.rss_kib()
    with socket.create_connection(("127.0.0.1", emu.port), timeout=20) as sock:
        sender = threading.Thread(target=sock.sendall, args=(f"GET {OPENAPI} HTTP/1.1\r\nHost: x\r\n\r\n".encode() * count,))
        sender.start()
        time.sleep(0.5)  # the client reads late: the server holds what it answered meanwhile
        peak = emu.rss_kib()
        answers = read_answers(sock, count)
        sender.join()
    assert len(answers) == count
    assert all(answer == (200, expected) for answer in answers)
    if MEASURES_MEMORY:
        # The answers wait unmade, not in memory: about 25 MB before.
        assert peak - before < 8 * 1024, (before, peak)


def test_a_state_larger_than_a_connection_may_hold_unsent_is_read_whole(start_emulator):
    emu = start_emulator()
    sends = 3000
    assert send_many(emu, "large", "large-1", sends, 3000) == [200] * sends
    # Read as a client that does some work between reads does, over plain HTTP/1.1.
    with urllib.request.urlopen(emu.http + "/emulator/v1/state", timeout=60) as answer:
        chunks = []
        while chunk := answer.read(65536):
            chunks.append(chunk)
            time.sleep(0.001)
    state = b"".join(chunks)
    assert len(state) > 16 * 1024 * 1024
    [project] = [p for p in json.loads(state)["projects"] if p["projectId"] == "large"]
    assert len(project["messageLog"]) == sends


def test_an_http1_stream_whose_client_does_not_read_is_dropped_and_keeps_its_deliveries(start_emulator):
    """What a connection may hold unsent still bounds a streaming answer: an SSE stream over
    HTTP/1.1 whose client stops reading is dropped past 8 MiB, and what it did not send stays
    pending for the device's next connection."""
    emu = start_emulator()
    Api(emu.http, project="stall").register(token="stall-1")
    stream = socket.socket()
    stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stream.connect(("127.0.0.1", emu.port))
    stream.sendall(b"GET /emulator/v1/projects/stall/devices/stall-1:stream HTTP/1.1\r\nHost: x\r\n\r\n")
    time.sleep(0.3)
    sends = 4000  # 4 KB each: 16 MB for a stream that reads nothing
    assert send_many(emu, "stall", "stall-1", sends, 3500) == [200] * sends
    device = json.loads(urllib.request.urlopen(emu.http + "/emulator/v1/projects/stall/devices/stall-1", timeout=10).read())
    assert device["connected"] is False, device
    assert 0 < device["pendingCount"] < sends and device["inFlightCount"] == 0, device
    stream.close()


@pytest.mark.skipif(not MEASURES_MEMORY, reason="reads resident memory, which a sanitizer's allocator distorts")
def test_memory_of_large_answers_closed_close_together_is_handed_back(start_emulator):
    """A connection that held megabytes unsent hands the freed memory back when it closes, but
    not twice within a second: the second of two such connections closed close together kept
    its memory for good."""
    emu = start_emulator()
    assert len(send_many(emu, "large", "large-2", 3000, 3000)) == 3000

    def export():
        with urllib.request.urlopen(emu.http + "/emulator/v1/state", timeout=60) as answer:
            time.sleep(0.1)  # the server holds most of the 17 MB answer meanwhile
            return len(answer.read())

    export()
    time.sleep(1.5)
    before = emu.rss_kib()
    assert export() > 16 * 1024 * 1024
    time.sleep(0.2)
    export()
    deadline = time.monotonic() + 6
    while emu.rss_kib() - before > 8 * 1024 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert emu.rss_kib() - before < 8 * 1024, (before, emu.rss_kib())


@pytest.mark.skipif(not MEASURES_MEMORY, reason="reads resident memory, which a sanitizer's allocator distorts")
def test_memory_of_a_large_answer_is_handed_back_while_its_client_keeps_the_socket(start_emulator):
    """The server ends a `Connection: close` answer with FIN and lingers until the client closes;
    the answer's memory is handed back once the answer is sent, not when the client lets go."""
    emu = start_emulator()
    assert len(send_many(emu, "large", "large-2", 3000, 3000)) == 3000
    with urllib.request.urlopen(emu.http + "/emulator/v1/state", timeout=60) as answer:
        answer.read()  # the first export's lasting allocations are not the answer's
    time.sleep(1.5)
    before = emu.rss_kib()
    with socket.create_connection(("127.0.0.1", emu.port), timeout=60) as sock:
        sock.sendall(b"GET /emulator/v1/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        time.sleep(0.1)  # the server holds most of the 17 MB answer meanwhile
        received = 0
        while chunk := sock.recv(1 << 20):
            received += len(chunk)
        assert received > 16 * 1024 * 1024
        # The socket stays open: the server lingers, and has handed the memory back.
        deadline = time.monotonic() + 3
        while emu.rss_kib() - before > 8 * 1024 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert emu.rss_kib() - before < 8 * 1024, (before, emu.rss_kib())
