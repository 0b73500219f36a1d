"""A reset's memory: reused by the sends that follow it at once, handed back to the system once the
resets stop (FreeMemory.releaseDelayMilliseconds, two seconds; docs/performance.md)."""
import http.client
import json
import time

import pytest

from api import Api
from conftest import MEASURES_MEMORY, wait_until

PROJECT = "reset-memory"
TOKEN = "reset-memory-device"
SENDS = 4_000
# Each send queues and logs a message with 3,000 bytes of data, kept twice (the request and the
# payload): SENDS of them hold about 25 MiB.
BODY = json.dumps({"message": {"token": TOKEN, "data": {"k": "v" * 3000}}})


def rss_mib(emulator):
    return emulator.rss_kib() / 1024


def minor_faults(emulator):
    """Pages the system has mapped into the emulator on first touch (field 10 of /proc/PID/stat)."""
    with open(f"/proc/{emulator.proc.pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[7])


def fill(emulator):
    """Registers the device and queues SENDS messages to it; the page faults that took."""
    api = Api(emulator.http, PROJECT)
    api.register(token=TOKEN, platform="ios", bundleId="com.example.app")
    connection = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=20)
    faults = minor_faults(emulator)
    for _ in range(SENDS):
        connection.request("POST", f"/v1/projects/{PROJECT}/messages:send", BODY,
                           {"Content-Type": "application/json", "Authorization": "Bearer test"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200
    faults = minor_faults(emulator) - faults
    connection.close()
    return faults


@pytest.mark.skipif(not MEASURES_MEMORY, reason="counts the pages of the process, which a sanitizer's allocator changes")
def test_sends_after_a_reset_reuse_its_memory_which_goes_back_once_the_resets_stop(emulator):
    api = Api(emulator.http, PROJECT)
    before = rss_mib(emulator)
    first = fill(emulator)
    full = rss_mib(emulator)
    held = full - before
    assert held > 15, f"RSS {before:.0f} -> {full:.0f} MiB: the sends should hold about 25 MiB"
    # Reset and fill again, three times in a row: each fill reuses the pages the reset freed, where
    # pages handed back at once would be mapped (faulted in) again, as many as the first fill took.
    for _ in range(3):
        assert api.call("DELETE", f"/emulator/v1/projects/{PROJECT}")[0] == 200
        again = fill(emulator)
        assert again < first / 4, f"{first} page faults to fill, {again} to fill again after a reset"
    reset_at = time.monotonic()
    assert api.call("DELETE", f"/emulator/v1/projects/{PROJECT}")[0] == 200
    time.sleep(0.5)
    resident = rss_mib(emulator)
    # Only meaningful while the two-second release delay surely runs: a stalled machine may have
    # passed it already.
    if time.monotonic() - reset_at < 1.5:
        assert resident > full - held / 4, "the memory went back before the release delay"
    # Some stays with the allocator's caches; most goes back.
    returned = wait_until(lambda: rss_mib(emulator) < full - held / 3, timeout=30)
    assert returned, f"RSS {before:.0f} -> {full:.0f} -> {rss_mib(emulator):.0f} MiB after the reset"
