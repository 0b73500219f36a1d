"""SETTINGS like Apple's: a connection to one of Apple's host names may open one stream until its
first authenticated request, then 1000 (--apns-concurrent-streams changes both)."""
import h2frames
from h2frames import END_HEADERS, END_STREAM, HEADERS, DATA, Client

MAX_CONCURRENT_STREAMS = 3
TOKEN = "ab" * 32
# A well-formed ES256 JWT (header {"alg":"ES256","kid":"ABC1234567"}, claims {"iss":"DEF1234567","iat":...}):
# --apns-auth any checks its shape, not its signature.
JWT = ("eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyMzQ1NjcifQ."
       "eyJpc3MiOiJERUYxMjM0NTY3IiwiaWF0IjoxNzAwMDAwMDAwfQ."
       "c2lnbmF0dXJl")


def open_client(emu, server_name):
    client = Client(h2frames.connect(emu.port, tls=True, ca=emu.ca, alpn=("h2",), server_name=server_name))
    client.start()
    client.send(h2frames.settings(ack=True))
    return client


def push(client, stream_id, authorization=None):
    extra = [("apns-topic", "com.example.app")] + ([("authorization", authorization)] if authorization else [])
    client.send(h2frames.frame(HEADERS, END_HEADERS, stream_id,
                               client.headers_block(f"/3/device/{TOKEN}", "POST", extra)))
    client.send(h2frames.frame(DATA, END_STREAM, stream_id, b'{"aps":{"alert":"hi"}}'))
    return client.response_complete(stream_id)


def stream_limits(frames):
    return [values[MAX_CONCURRENT_STREAMS] for values in h2frames.settings_values(frames)
            if MAX_CONCURRENT_STREAMS in values]


def test_an_apple_host_gets_one_stream_until_an_authenticated_push(start_emulator):
    emu = start_emulator()
    client = open_client(emu, "api.sandbox.push.apple.com")
    first = client.read_frames(lambda frames: h2frames.settings_values(frames))
    assert stream_limits(first) == [1]
    # Refused for its token: the limit stays.
    refused = push(client, 1)
    assert client.status(1) == 403
    assert stream_limits(refused) == []
    accepted = push(client, 3, authorization="bearer " + JWT)
    assert client.status(3) == 200
    accepted += client.read_frames(lambda frames: stream_limits(frames), timeout=2)
    assert stream_limits(accepted) == [1000]
    # Only the first authenticated push raises it.
    again = push(client, 5, authorization="bearer " + JWT)
    again += client.read_frames(lambda frames: stream_limits(frames), timeout=0.5)
    assert client.status(5) == 200 and stream_limits(again) == []


def test_other_hosts_start_at_the_full_limit(start_emulator):
    emu = start_emulator()
    client = open_client(emu, "localhost")
    assert stream_limits(client.read_frames(lambda frames: h2frames.settings_values(frames))) == [1000]


def test_the_option_sets_both_limits(start_emulator):
    emu = start_emulator("--apns-concurrent-streams", "2:50")
    client = open_client(emu, "api.push.apple.com")
    assert stream_limits(client.read_frames(lambda frames: h2frames.settings_values(frames))) == [2]
    frames = push(client, 1, authorization="bearer " + JWT)
    frames += client.read_frames(lambda frames: stream_limits(frames), timeout=2)
    assert client.status(1) == 200 and stream_limits(frames) == [50]
