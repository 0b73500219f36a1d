"""Starts the real push-emulator binary for end-to-end tests with real clients."""
import os
import re
import resource
import signal
import socket
import subprocess
import tempfile
import time

import pytest

BIN = os.environ.get("PUSH_EMULATOR_BIN", ".build/debug/push-emulator")
# Event-loop threads per emulator; `make sanitize` runs ThreadSanitizer with 8 so that connections
# land on different loops and the project locks and device streams are used from several threads.
THREADS = os.environ.get("PUSH_EMULATOR_TEST_THREADS", "2")
# "address" or "thread" when BIN is a sanitizer build (`make sanitize`), else empty.
SANITIZER = os.environ.get("PUSH_EMULATOR_SANITIZER", "")

if SANITIZER:
    # A report makes the emulator exit non-zero (ASan stops at the first, TSan reports every race
    # and exits with 66), and every emulator's log is checked for reports when it stops (below).
    os.environ.setdefault("ASAN_OPTIONS", "halt_on_error=1:exitcode=86:detect_leaks=1:check_initialization_order=1")
    os.environ.setdefault("LSAN_OPTIONS", "suppressions=" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsan-suppressions.txt"))
    os.environ.setdefault("TSAN_OPTIONS", "halt_on_error=0:exitcode=66:second_deadlock_stack=1")
    # The Swift backtracer can hang symbolicating a crash under a sanitizer; the report says enough.
    os.environ.setdefault("SWIFT_BACKTRACE", "enable=no")

# A sanitizer's allocator keeps freed memory aside (ASan's quarantine) and adds shadow memory, so
# under one the resident size says nothing about what the emulator holds.
MEASURES_MEMORY = not SANITIZER

SANITIZER_REPORT = re.compile(
    r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer|ERROR: ThreadSanitizer")


def sanitizer_reports(log_text):
    """The sanitizer reports in an emulator's standard error, from the first one on ("" if none)."""
    match = SANITIZER_REPORT.search(log_text)
    return log_text[match.start():] if match else ""


class Emulator:
    """One running emulator process on a free port."""

    # Every emulator started in this run, for the final sanitizer check.
    started = []

    def __init__(self, *args, max_descriptors=None):
        """`max_descriptors` sets RLIMIT_NOFILE for the process, to test the limit: a number for both
        the soft and the hard limit, or a (soft, hard) pair."""
        self.data_dir = tempfile.mkdtemp(prefix="push-emulator-test-")
        self.log_path = os.path.join(self.data_dir, "stderr.log")
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [BIN, "serve", "--port", "0", "--threads", THREADS, "--data-dir", self.data_dir, *args],
            stdout=subprocess.PIPE, stderr=self.log,
            preexec_fn=None if max_descriptors is None else lambda: resource.setrlimit(
                resource.RLIMIT_NOFILE, max_descriptors if isinstance(max_descriptors, tuple)
                else (max_descriptors, max_descriptors)),
        )
        Emulator.started.append(self)
        line = self.proc.stdout.readline().decode()
        match = re.search(r"listening on [^ ]+:(\d+)", line)
        assert match, f"no banner from the emulator: {line!r} {self.stderr()}"
        self.port = int(match.group(1))
        self.ca = os.path.join(self.data_dir, "ca.pem")
        self.http = f"http://127.0.0.1:{self.port}"
        self.https = f"https://localhost:{self.port}"

    def stderr(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def alive(self):
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """Stops the process, then fails if a sanitizer reported anything."""
        self.end(sig, timeout)
        self.assert_no_sanitizer_report()
        return self.proc.returncode

    def end(self, sig=signal.SIGTERM, timeout=15):
        """Stops the process if it still runs."""
        if self.alive():
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def assert_no_sanitizer_report(self):
        report = sanitizer_reports(self.stderr())
        assert not report, f"{SANITIZER or 'a'} sanitizer reported (exit {self.proc.poll()}):\n{report[:20000]}"


@pytest.fixture(scope="module")
def emulator():
    emu = Emulator()
    yield emu
    emu.assert_no_sanitizer_report()
    assert emu.alive(), "the emulator died during the tests:\n" + emu.stderr()[-3000:]
    emu.stop()


@pytest.fixture
def start_emulator():
    started = []

    def start(*args, **options):
        emu = Emulator(*args, **options)
        started.append(emu)
        return emu

    yield start
    for emu in started:
        emu.stop()


@pytest.fixture(scope="session", autouse=True)
def no_sanitizer_reports():
    """Last check of the run: no emulator, however it ended, left a sanitizer report."""
    yield
    reports = []
    for emu in Emulator.started:
        if emu.alive():
            emu.end()
        report = sanitizer_reports(emu.stderr())
        if report:
            reports.append(f"{emu.log_path}:\n{report[:5000]}")
    assert not reports, "sanitizer reports:\n" + "\n".join(reports)


def curl(*args, timeout=20):
    """Runs curl; returns (status code, http version, body)."""
    out = subprocess.run(
        ["curl", "-sS", "-o", "-", "-w", "\n%{http_code} %{http_version}", *args],
        capture_output=True, timeout=timeout,
    )
    text = out.stdout.decode(errors="replace")
    body, _, tail = text.rpartition("\n")
    code, _, version = tail.partition(" ")
    return int(code or 0), version, body


def wait_until(predicate, timeout=30.0, interval=0.05):
    """Polls `predicate` until it holds or `timeout` seconds pass (generous: a busy machine is slow,
    and a test asserts the end state, not how soon it comes); its last answer."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


def http1_exchange(port, request):
    """Sends raw HTTP/1.x bytes, closes the sending side, and returns every byte the server sent
    until it closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data
