"""Starts the real push-emulator binary for end-to-end tests with real clients."""
import os
import re
import signal
import subprocess
import tempfile
import time

import pytest

BIN = os.environ.get("PUSH_EMULATOR_BIN", ".build/debug/push-emulator")


class Emulator:
    """One running emulator process on a free port."""

    def __init__(self, *args):
        self.data_dir = tempfile.mkdtemp(prefix="push-emulator-test-")
        self.log_path = os.path.join(self.data_dir, "stderr.log")
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [BIN, "serve", "--port", "0", "--threads", "2", "--data-dir", self.data_dir, *args],
            stdout=subprocess.PIPE, stderr=self.log,
        )
        line = self.proc.stdout.readline().decode()
        match = re.search(r"listening on [^ ]+:(\d+)", line)
        assert match, f"no banner from the emulator: {line!r} {self.stderr()}"
        self.port = int(match.group(1))
        self.ca = os.path.join(self.data_dir, "ca.pem")
        self.http = f"http://127.0.0.1:{self.port}"
        self.https = f"https://localhost:{self.port}"

    def stderr(self):
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
        if self.alive():
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode


@pytest.fixture(scope="module")
def emulator():
    emu = Emulator()
    yield emu
    assert emu.alive(), "the emulator died during the tests:\n" + emu.stderr()[-3000:]
    emu.stop()


@pytest.fixture
def start_emulator():
    started = []

    def start(*args):
        emu = Emulator(*args)
        started.append(emu)
        return emu

    yield start
    for emu in started:
        if emu.alive():
            emu.stop()


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


def wait_until(predicate, timeout=5.0, interval=0.05):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
