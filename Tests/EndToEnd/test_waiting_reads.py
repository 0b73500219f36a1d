"""Waiting reads of the message log (docs/fcm.md, "Waiting for a message"): a test sends and then
awaits the message, instead of sleeping and polling. A read with `waitSeconds` answers as soon as a
message matching its filters exists (`after` skips what the reader saw), or empty when its wait
ends; many waiting reads cost nothing while they wait, and go when their clients leave."""
import os
import subprocess
import threading
import time
import urllib.request

import pytest

from api import Api
from conftest import wait_until

PROJECT = "waiting"


@pytest.fixture
def api(emulator):
    return Api(emulator.http, project=PROJECT)


def messages(api, query):
    status, body = api.call("GET", f"/emulator/v1/projects/{PROJECT}/messages?{query}", timeout=70)
    assert status == 200, body
    return body["messages"]


def send_later(api, token, delay, data):
    def send():
        time.sleep(delay)
        assert api.send({"token": token, "data": data})[0] == 200
    thread = threading.Thread(target=send)
    thread.start()
    return thread


def waiting_reads(emulator):
    text = urllib.request.urlopen(emulator.http + "/metrics", timeout=10).read().decode()
    return float(next(line.split()[1] for line in text.splitlines() if line.startswith("push_emulator_waiting_reads ")))


def test_a_waiting_read_answers_when_the_message_comes(api):
    token = api.register(platform="android")
    sender = send_later(api, token, 0.2, {"n": "1"})
    started = time.monotonic()
    found = messages(api, f"token={token}&waitSeconds=10")
    elapsed = time.monotonic() - started
    sender.join()
    assert [m["request"]["message"]["data"] for m in found] == [{"n": "1"}]
    # Answered by the send, long before the wait's end (the bound is loose for a busy machine).
    assert elapsed < 5, elapsed


def test_after_skips_what_the_reader_saw_and_an_empty_wait_ends_empty(api):
    token = api.register(platform="android")
    assert api.send({"token": token, "data": {"n": "1"}})[0] == 200
    first = messages(api, f"token={token}&waitSeconds=10")
    assert len(first) == 1
    seen = first[0]["messageId"]
    # Nothing after it yet: the read waits its second and answers empty.
    started = time.monotonic()
    assert messages(api, f"token={token}&after={seen}&waitSeconds=1") == []
    assert time.monotonic() - started >= 0.9
    sender = send_later(api, token, 0.2, {"n": "2"})
    later = messages(api, f"token={token}&after={seen}&waitSeconds=10")
    sender.join()
    assert [m["request"]["message"]["data"] for m in later] == [{"n": "2"}]


@pytest.mark.parametrize("query", ["waitSeconds=61", "waitSeconds=-1", "waitSeconds=soon", "after=x", "after=-3"])
def test_bad_waits_are_refused(api, query):
    status, body = api.call("GET", f"/emulator/v1/projects/{PROJECT}/messages?{query}")
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT", body


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_thousand_waiting_reads_cost_nothing_and_go_when_their_client_leaves(emulator):
    # One HTTP/2 connection with 1,000 streams, each a read that waits 30 s.
    url = f"{emulator.http}/emulator/v1/projects/idle/messages?waitSeconds=30"
    client = subprocess.Popen(["h2load", "-n", "1000", "-c", "1", "-m", "1000", url],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: waiting_reads(emulator) == 1000, timeout=30), waiting_reads(emulator)
        before = cpu_seconds(emulator.proc.pid)
        time.sleep(5)
        used = cpu_seconds(emulator.proc.pid) - before
        assert used < 0.02 * 5, f"{used:.3f} s of CPU in 5 s"
    finally:
        client.kill()
        client.wait()
    assert wait_until(lambda: waiting_reads(emulator) == 0, timeout=30), waiting_reads(emulator)
