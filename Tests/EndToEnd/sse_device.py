"""A device that reads its stream of notifications over HTTP/1.1 SSE, for the tests and the stress run
that race sends against streams that come and go (test_delivered_means_sent.py, Tests/Stress/stress.py)."""
import json
import socket
import threading
import time


class SseDevice(threading.Thread):
    """Keeps one `:stream` of a device open at a time and records every notification id it read.
    Each session half-closes its stream after `lifetime()` seconds (infinity: it keeps it, and
    opens another only if the server ends it) and opens the next. On stop, the open session
    half-closes and reads to the end, so everything the server sent is counted."""

    def __init__(self, port, project, token, stop, lifetime):
        super().__init__(daemon=True)
        self.port, self.project, self.token = port, project, token
        self.stop, self.lifetime = stop, lifetime
        self.received, self.sessions, self.errors = [], 0, []

    def run(self):
        while not self.stop.is_set():
            try:
                self.session()
            except OSError as error:
                self.errors.append(repr(error))
                time.sleep(0.05)

    def session(self):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=1)
        sock.sendall(f"GET /emulator/v1/projects/{self.project}/devices/{self.token}:stream HTTP/1.1\r\n"
                     "Host: 127.0.0.1\r\n\r\n".encode())
        self.sessions += 1
        buffer, half_closed = b"", False
        lifetime = self.lifetime()
        started = time.monotonic()
        try:
            while True:
                if not half_closed and (time.monotonic() - started > lifetime or self.stop.is_set()):
                    sock.shutdown(socket.SHUT_WR)
                    half_closed = True
                try:
                    chunk = sock.recv(65536)
                except socket.timeout:
                    continue
                if not chunk:
                    return
                buffer += chunk
                while b"\n\n" in buffer:
                    event, _, buffer = buffer.partition(b"\n\n")
                    for line in event.split(b"\n"):
                        if line.startswith(b"data: "):
                            data = json.loads(line[6:])
                            if data.get("type") == "notification":
                                self.received.append(data["id"])
        finally:
            sock.close()
