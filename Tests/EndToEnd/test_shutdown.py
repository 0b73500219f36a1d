"""Graceful shutdown under load."""
import signal
import socket
import subprocess
import threading
import time

from conftest import curl, wait_until


def test_sigterm_during_h2load(start_emulator):
    emu = start_emulator("--no-access-log", "--enable-debug-routes")
    load = subprocess.Popen(
        ["h2load", "-n", "2000000", "-c", "16", "-m", "32", f"{emu.http}/healthz"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    # A streaming response open at shutdown time is ended cleanly too.
    stream = subprocess.Popen(["curl", "-sN", "--http1.1", f"{emu.http}/emulator/v1/debug/tick?count=100000&intervalMs=100"], stdout=subprocess.PIPE)
    received = []
    reader = threading.Thread(target=lambda: received.extend(iter(lambda: stream.stdout.read1(4096), b"")), daemon=True)
    reader.start()
    time.sleep(1.5)
    # The ticks come every 100 ms, later on a machine this busy (a sanitizer build under h2load):
    # the signal waits for a few, however long they take.
    assert wait_until(lambda: b"".join(received).count(b"data: ") >= 3), b"".join(received)
    assert load.poll() is None, "the load ended before the signal: make it longer"
    started = time.time()
    emu.proc.send_signal(signal.SIGTERM)
    code = emu.proc.wait(timeout=12)
    took = time.time() - started
    out = load.communicate(timeout=30)[0].decode()
    assert stream.wait(timeout=10) == 0
    reader.join(timeout=10)
    stream_out = b"".join(received).decode()
    assert code == 0
    assert took < 10, took
    # Requests that were answered were answered in full; the rest were refused by GOAWAY or never sent.
    done = [line for line in out.splitlines() if line.startswith("requests:")][0]
    assert " 0 errored" in done or "errored" in done
    status = [line for line in out.splitlines() if line.startswith("status codes:")][0]
    assert "0 5xx" in status and "0 4xx" in status, status
    assert int(done.split(",")[3].split()[0]) > 0  # some succeeded
    # Ended cleanly: every event whole.
    assert stream_out.count("data: ") >= 3 and stream_out.endswith("\n\n"), stream_out
    assert "stopped" in emu.proc.stdout.read().decode()


def test_sigterm_with_idle_keep_alive_clients_stops_at_once(start_emulator):
    """Idle connections are closed at once when the server stops: a pooled HTTP/1.1 client that
    neither sends nor closes does not keep it waiting for the lingering close's 5 seconds."""
    emu = start_emulator("--no-access-log")
    idle = []
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", emu.port), timeout=10)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
        idle.append(sock)
    started = time.time()
    emu.proc.send_signal(signal.SIGTERM)
    assert emu.proc.wait(timeout=12) == 0
    took = time.time() - started
    for sock in idle:
        sock.close()
    assert took < 3, took
