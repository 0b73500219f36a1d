"""At the descriptor limit the server turns new connections away at once (closed, no answer)
instead of spinning on a listener it cannot accept from, says so once on standard error, and
serves again as soon as descriptors free up. At start it raises its soft limit to the hard one."""
import http.client
import os
import socket
import time

from conftest import wait_until

LIMIT = 128
IDLE_CONNECTIONS = 300
LIMIT_LINE = "descriptor limit reached"


def cpu_seconds(pid):
    """User plus system time the process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def healthz(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        return response.status == 200 and b"ok" in response.read()
    except OSError:
        return False
    finally:
        connection.close()


def closed_by_server(port):
    """True when a new connection is closed by the server without an answer, rather than left hanging."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            return sock.recv(1024) == b""
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False


def test_at_the_descriptor_limit_connections_are_closed_without_spinning_and_serving_resumes(start_emulator):
    emulator = start_emulator("--no-access-log", max_descriptors=LIMIT)
    idle = []
    try:
        for _ in range(IDLE_CONNECTIONS):
            idle.append(socket.create_connection(("127.0.0.1", emulator.port), timeout=5))
        wait_until(lambda: LIMIT_LINE in emulator.stderr(), timeout=30)
        time.sleep(0.5)

        before = cpu_seconds(emulator.proc.pid)
        time.sleep(2)
        spent = cpu_seconds(emulator.proc.pid) - before
        # A loop that wakes again at once on a listener it cannot accept from burns its whole core.
        assert spent < 0.5, f"{spent:.2f} s of CPU in 2 s while holding {IDLE_CONNECTIONS} idle connections"

        assert closed_by_server(emulator.port), "a new connection at the limit was left hanging"
        log = emulator.stderr()
        assert log.count(LIMIT_LINE) == 1, log[-3000:]
    finally:
        for sock in idle:
            sock.close()

    assert wait_until(lambda: healthz(emulator.port), timeout=30), emulator.stderr()[-3000:]
    assert emulator.alive()


def test_the_soft_descriptor_limit_is_raised_to_the_hard_one_at_start(start_emulator):
    emulator = start_emulator(max_descriptors=(256, 1024))
    with open(f"/proc/{emulator.proc.pid}/limits") as f:
        line = next(line for line in f if line.startswith("Max open files"))
    assert line.split()[3:5] == ["1024", "1024"], line
