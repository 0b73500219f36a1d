"""What one connection may make the server hold: all its streaming responses together are capped,
and the memory comes back when the connection closes or the state is reset."""
import json
import http.client
import time

from api import Api
from conftest import MEASURES_MEMORY
from h2frames import RST_STREAM, CANCEL, Client, connect

PROJECT = "memory"


def rss_mib(emulator):
    return emulator.rss_kib() / 1024


def test_many_zero_window_streams_on_one_connection_are_capped_and_the_memory_returns(start_emulator):
    emulator = start_emulator()
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
    time.sleep(0.5)
    after = rss_mib(emulator)
    if MEASURES_MEMORY:
        assert after - before < max(20, (peak - before) / 2), f"RSS {before:.0f} -> {peak:.0f} -> {after:.0f} MiB"
