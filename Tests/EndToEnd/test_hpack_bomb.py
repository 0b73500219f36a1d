"""An HPACK "bomb" (one 4 KB dynamic-table entry referenced thousands of times in a frame)
decodes to megabytes; the server stops at twice its header limit instead of checking it all."""
import os

import pytest

from conftest import SANITIZER
from h2frames import COMPRESSION_ERROR, CONTINUATION, END_HEADERS, END_STREAM, HEADERS, Client, connect, frame, goaway

BIG = "a" * 4000


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bomb_block(references):
    # :method GET, :scheme http, then :path /healthz and :authority x as literals that are not
    # indexed (the table must keep only the big entry), then that entry (dynamic index 62)
    # again and again.
    return b"\x82\x86" + b"\x04\x08/healthz" + b"\x01\x01x" + b"\xbe" * references


@pytest.mark.skipif(bool(SANITIZER), reason="compares CPU time, which a sanitizer's instrumentation distorts")
def test_an_hpack_bomb_costs_about_what_a_header_block_at_the_limit_costs(emulator):
    client = Client(connect(emulator.port, tls=False))
    client.start()
    # The first request puts a 4 KB entry in the server's decoding table.
    client.headers(1, extra=[("x-big", BIG)])
    client.response_complete(1)
    pid = emulator.proc.pid

    def cpu_for(blocks, first_stream):
        started = cpu_seconds(pid)
        stream_id = first_stream
        for block in blocks:
            client.send(frame(HEADERS, END_HEADERS | END_STREAM, stream_id, block))
            client.read_frames(lambda f, s=stream_id: any(x[0] != "EOF" and x[2] == s and x[0] in (HEADERS, 3) for x in f))
            stream_id += 2
        return cpu_seconds(pid) - started

    # Legitimate blocks just under the 64 KiB limit: 15 references decode to 60 KB.
    at_limit = cpu_for([bomb_block(15)] * 40, 3)
    # Bombs: 16,000 references decode to 64 MB each.
    bombs = cpu_for([bomb_block(16_000)] * 40, 83)
    assert emulator.alive()
    assert bombs < max(0.2, 10 * at_limit), f"40 bombs took {bombs:.2f} s of CPU, 40 blocks at the limit {at_limit:.2f} s"


def test_one_header_field_over_64_kib_ends_only_its_own_connection(emulator):
    """nghttp2 cannot decode a single field longer than 64 KiB (its HPACK limit): that is a
    COMPRESSION_ERROR for the connection, as docs/server.md says, not a 431."""
    client = Client(connect(emulator.port, tls=False))
    client.start()
    block = client.encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", "/healthz"), (":authority", "x"), ("x-huge", "a" * 70_000)], huffman=False)
    first, rest = block[:16_000], block[16_000:]
    frames_out = frame(HEADERS, END_STREAM, 1, first)
    while rest:
        chunk, rest = rest[:16_000], rest[16_000:]
        frames_out += frame(CONTINUATION, 0 if rest else END_HEADERS, 1, chunk)
    try:
        client.send(frames_out)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server may close before it has read everything
    frames = client.error()
    # GOAWAY COMPRESSION_ERROR, unless the close reset the connection before the client read it.
    code = goaway(frames)[1] if goaway(frames) else None
    assert code == COMPRESSION_ERROR or (code is None and frames[-1] == ("EOF",)), frames
    other = Client(connect(emulator.port, tls=False))
    other.start()
    other.headers(1)
    other.response_complete(1)
    assert other.status(1) == 200
