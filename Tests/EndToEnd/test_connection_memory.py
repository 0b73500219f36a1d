"""What one connection may make the server hold: all its streaming responses together are capped,
and the memory comes back when the connection closes or the state is reset."""
import json
import http.client
import time

from api import Api
from conftest import MEASURES_MEMORY, wait_until
from h2frames import CANCEL, DATA, RST_STREAM, Client, connect, frame

PROJECT = "memory"


def rss_mib(emulator):
    return emulator.rss_kib() / 1024


def test_many_zero_window_streams_on_one_connection_are_capped_and_the_memory_returns(start_emulator):
    # Streams per device are capped too (10 by default): lifted here to reach the connection's cap.
    emulator = start_emulator("--max-streams-per-device", "1000")
    api = Api(emulator.http, PROJECT)
    api.register(token="many-streams", platform="ios", bundleId="com.example.app")
    client = Client(connect(emulator.port, tls=False))
    client.start(pairs=[(0x3, 1000), (0x4, 0)])  # MAX_CONCURRENT_STREAMS, INITIAL_WINDOW_SIZE = 0
    streams = list(range(1, 400, 2))
    for stream_id in streams:
        client.headers(stream_id, path=f"/emulator/v1/projects/{PROJECT}/devices/many-streams:stream")
    time.sleep(0.5)
    before = rss_mib(emulator)
    connection = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=20)
    body = json.dumps({"message": {"token": "many-streams", "data": {"k": "v" * 2000}}})
    for _ in range(300):
        connection.request("POST", f"/v1/projects/{PROJECT}/messages:send", body,
                           {"Content-Type": "application/json", "Authorization": "Bearer test"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200
    peak = rss_mib(emulator)
    # Each send went to every open stream: without a cap per connection, 200 streams x 300
    # events of 2 KB would be held (about 120 MiB).
    if MEASURES_MEMORY:
        assert peak - before < 60, f"RSS grew from {before:.0f} to {peak:.0f} MiB"
    frames = client.read_frames(lambda f: False, timeout=1.0)
    resets = [f for f in frames if f[0] == RST_STREAM and int.from_bytes(f[3][:4], "big") == CANCEL]
    assert resets, "no stream was reset although the connection went over its cap"
    client.sock.close()
    time.sleep(1.0)
    status, device = api.call("GET", f"/emulator/v1/projects/{PROJECT}/devices/many-streams")
    assert device["pendingCount"] == 300  # nothing was sent, so nothing is delivered
    assert api.call("DELETE", "/emulator/v1/state")[0] == 200
    if MEASURES_MEMORY:
        # A reset's memory goes back to the system a few seconds after it (docs/performance.md).
        returned = wait_until(lambda: rss_mib(emulator) - before < max(20, (peak - before) / 2), timeout=30)
        after = rss_mib(emulator)
        assert returned, f"RSS {before:.0f} -> {peak:.0f} -> {after:.0f} MiB"


def test_a_device_may_have_only_so_many_streams_open(start_emulator):
    emulator = start_emulator("--max-streams-per-device", "2")
    api = Api(emulator.http, PROJECT)
    api.register(token="capped", platform="ios", bundleId="com.example.app")
    client = Client(connect(emulator.port, tls=False))
    client.start()
    path = f"/emulator/v1/projects/{PROJECT}/devices/capped:stream"

    stream_ids = iter(range(1, 1000, 2))

    def open_stream():
        stream_id = next(stream_ids)
        client.headers(stream_id, path=path)
        frames = client.read_frames(lambda f: client.status(stream_id) is not None)
        return client.status(stream_id), frames

    assert open_stream()[0] == 200
    assert open_stream()[0] == 200
    status, frames = open_stream()
    assert status == 429
    frames += client.response_complete(5)
    body = b"".join(f[3] for f in frames if f[0] == DATA and f[2] == 5)
    assert json.loads(body)["error"]["status"] == "RESOURCE_EXHAUSTED", body
    # One closes: its place is free again.
    client.send(frame(RST_STREAM, 0, 1, CANCEL.to_bytes(4, "big")))
    assert wait_until(lambda: open_stream()[0] == 200, interval=0.1)


def test_head_requests_on_a_stream_route_take_no_stream_place(start_emulator):
    """HEAD gets a streaming response's head only; the places it would hold are given back."""
    import subprocess
    emulator = start_emulator("--max-streams-per-device", "2")
    api = Api(emulator.http, PROJECT)
    api.register(token="headed", platform="ios", bundleId="com.example.app")
    url = f"{emulator.http}/emulator/v1/projects/{PROJECT}/devices/headed:stream"
    for flags in (["--http1.1"], ["--http2-prior-knowledge"]):
        for _ in range(3):
            done = subprocess.run(["curl", "-s", "-I", "-m", "5", *flags, url], capture_output=True, text=True)
            assert done.stdout.split()[1] == "200", done.stdout
    client = Client(connect(emulator.port, tls=False))
    client.start()
    client.headers(1, path=f"/emulator/v1/projects/{PROJECT}/devices/headed:stream")
    client.read_frames(lambda f: client.status(1) is not None)
    assert client.status(1) == 200
