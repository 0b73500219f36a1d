"""A device stream whose reader always stays a little behind its flow-control window: the server
keeps only what the reader has not read yet, not every byte it ever wrote to the stream."""
import json
import shutil
import subprocess
import threading
import time

import pytest

from api import Api
from conftest import MEASURES_MEMORY
from h2frames import DATA, WINDOW_UPDATE, Client, connect, frame

PROJECT = "lagging"
BATCHES, PER_BATCH = 20, 2000


def message(token):
    return {"token": token, "notification": {"title": "t" * 200, "body": "b" * 500}, "data": {"k": "v" * 200}}


def window_update(stream_id, increment):
    return frame(WINDOW_UPDATE, 0, stream_id, increment.to_bytes(4, "big"))


@pytest.mark.skipif(not MEASURES_MEMORY, reason="compares resident memory, which a sanitizer's allocator distorts")
@pytest.mark.skipif(shutil.which("h2load") is None, reason="needs h2load (nghttp2-client)")
def test_a_reader_that_stays_behind_does_not_make_the_server_keep_everything_it_wrote(start_emulator, tmp_path):
    emulator = start_emulator()
    api = Api(emulator.http, PROJECT)
    for token in ("lag-a", "lag-b"):
        api.register(token=token, platform="ios", bundleId="com.example.app")
    path = "/emulator/v1/projects/{}/devices/{}:stream"

    # One event's size, from the same message to a device whose token has the same length.
    probe = Client(connect(emulator.port, tls=False))
    probe.start()
    probe.headers(1, path=path.format(PROJECT, "lag-b"))
    probe.read_frames(lambda f: any(x[0] == DATA for x in f if x[0] != "EOF"), timeout=2)
    assert api.send(message("lag-b"))[0] == 200
    frames = probe.read_frames(lambda f: sum(len(x[3]) for x in f if x[0] == DATA) > 1000, timeout=5)
    event_size = sum(len(f[3]) for f in frames if f[0] == DATA)
    probe.sock.close()
    assert event_size > 1000

    # The lagging reader: no window for its stream at first, then per batch a little less than
    # the batch's events take (ids grow by a few digits, so it falls a few bytes further behind each
    # time), so what the server holds for it never drains to nothing.
    client = Client(connect(emulator.port, tls=False))
    client.start(pairs=[(0x4, 0)])
    client.send(window_update(0, 1 << 30))
    client.headers(1, path=path.format(PROJECT, "lag-a"))
    received = [0]
    stop = threading.Event()

    def read():
        while not stop.is_set():
            for f in client.read_frames(lambda fr: len(fr) > 0, timeout=0.2):
                if f[0] == DATA:
                    received[0] += len(f[3])
                if f[0] == "EOF":
                    return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"message": message("lag-a")}))
    before = emulator.rss_kib() / 1024
    for _ in range(BATCHES):
        done = subprocess.run(
            ["h2load", "-n", str(PER_BATCH), "-c", "1", "-m", "50", "-d", str(body),
             "-H", "content-type: application/json", "-H", "authorization: Bearer test",
             f"{emulator.http}/v1/projects/{PROJECT}/messages:send"],
            capture_output=True, text=True, timeout=60)
        assert f"{PER_BATCH} succeeded" in done.stdout, done.stdout[-500:]
        client.send(window_update(1, PER_BATCH * (event_size - 8)))
        # Delivered messages leave the log, so that stored deliveries do not hide the buffers.
        assert api.call("DELETE", f"/emulator/v1/projects/{PROJECT}/messages")[0] == 200
    after = emulator.rss_kib() / 1024
    written = BATCHES * PER_BATCH * event_size
    # The reader parses frames in Python and may be batches behind when the last one is sent (on
    # a busy machine it was two): it is given time to read what the windows allow before it stops.
    deadline = time.monotonic() + 30
    while received[0] <= 0.9 * written and time.monotonic() < deadline:
        time.sleep(0.1)
    stop.set()
    reader.join(timeout=5)
    assert received[0] > 0.9 * written, (received[0], written)
    # About 60 MB went through the stream: keeping all of it grew the server by over 120 MiB.
    assert after - before < 50, f"RSS {before:.0f} -> {after:.0f} MiB after {written / 1e6:.0f} MB through a lagging stream"
