"""An HPACK "bomb" (one 4 KB dynamic-table entry referenced thousands of times in a frame)
decodes to megabytes; the server stops at twice its header limit instead of checking it all."""
import os

import pytest

from conftest import SANITIZER
from h2frames import END_HEADERS, END_STREAM, HEADERS, Client, connect, frame

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
