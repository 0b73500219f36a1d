"""Raw HTTP/2 frames over a socket, for tests that must send what no well-behaved client sends."""
import socket
import ssl
import struct
import time

import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM, ACK, END_HEADERS, PRIORITY_FLAG = 0x1, 0x1, 0x4, 0x20
NO_ERROR, PROTOCOL_ERROR, STREAM_CLOSED, REFUSED_STREAM, CANCEL, COMPRESSION_ERROR = 0x0, 0x1, 0x5, 0x7, 0x8, 0x9


def frame(kind, flags, stream_id, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream_id) + payload


def settings(pairs=(), ack=False):
    return frame(SETTINGS, ACK if ack else 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def connect(port, tls, ca=None, alpn=("h2",), timeout=10, server_name="localhost"):
    """A socket to the emulator: cleartext, or TLS offering `alpn` (verified against `ca`) and
    asking for `server_name`."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    if not tls:
        return sock
    context = ssl.create_default_context(cafile=ca)
    if alpn:
        context.set_alpn_protocols(list(alpn))
    return context.wrap_socket(sock, server_hostname=server_name)


class Client:
    """One HTTP/2 connection driven frame by frame."""

    def __init__(self, sock):
        self.sock = sock
        self.encoder = hpack.Encoder()
        self.decoder = hpack.Decoder()
        self.buffer = b""
        # The decoded header fields of each stream's HEADERS frames, in the order they came.
        self.received_headers = {}

    def start(self, pairs=()):
        self.sock.sendall(PREFACE + settings(pairs))

    def send(self, data):
        self.sock.sendall(data)

    def headers_block(self, path="/healthz", method="GET", extra=()):
        return self.encoder.encode([(":method", method), (":scheme", "http"), (":path", path),
                                    (":authority", "localhost"), *extra])

    def headers(self, stream_id, path="/healthz", method="GET", end_stream=True, extra=()):
        flags = END_HEADERS | (END_STREAM if end_stream else 0)
        self.send(frame(HEADERS, flags, stream_id, self.headers_block(path, method, extra)))

    def read_frames(self, until, timeout=5.0):
        """Frames as (type, flags, stream id, payload) until `until(frames)` holds, the peer closes
        (("EOF",) last) or `timeout` seconds pass."""
        frames = []
        deadline = time.monotonic() + timeout
        while not until(frames):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                break
            except (ConnectionResetError, ssl.SSLError, OSError):
                chunk = b""
            if not chunk:
                frames.append(("EOF",))
                break
            self.buffer += chunk
            while len(self.buffer) >= 9:
                length = int.from_bytes(self.buffer[:3], "big")
                if len(self.buffer) < 9 + length:
                    break
                kind, flags = self.buffer[3], self.buffer[4]
                stream_id = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
                payload = self.buffer[9:9 + length]
                frames.append((kind, flags, stream_id, payload))
                if kind == HEADERS and flags & END_HEADERS:
                    self.received_headers.setdefault(stream_id, []).append(dict(self.decoder.decode(self.header_fragment(flags, payload))))
                self.buffer = self.buffer[9 + length:]
        return frames

    @staticmethod
    def header_fragment(flags, payload):
        """The header block fragment of a HEADERS payload, without padding and priority fields."""
        start, end = 0, len(payload)
        if flags & 0x8:  # PADDED
            start, end = 1, len(payload) - payload[0]
        if flags & PRIORITY_FLAG:
            start += 5
        return payload[start:end]

    def status(self, stream_id):
        """The :status of the response on `stream_id`, once its HEADERS frame was read."""
        blocks = self.received_headers.get(stream_id)
        return int(blocks[0][":status"]) if blocks else None

    def response_complete(self, stream_id, timeout=5.0):
        """Reads until the response on `stream_id` has ended; returns the frames."""
        def ended(frames):
            return any(f[0] in (HEADERS, DATA) and f[2] == stream_id and f[1] & END_STREAM for f in frames if f[0] != "EOF")
        return self.read_frames(ended, timeout)

    def error(self, timeout=5.0):
        """Reads until a GOAWAY, an RST_STREAM or the end of the connection."""
        return self.read_frames(lambda frames: any(f[0] in (GOAWAY, RST_STREAM, "EOF") for f in frames), timeout)


def settings_values(frames):
    """The values of every SETTINGS frame (not acknowledgements) in `frames`, in order, as dicts."""
    found = []
    for f in frames:
        if f[0] == SETTINGS and not f[1] & ACK:
            found.append({struct.unpack(">H", f[3][i:i + 2])[0]: struct.unpack(">I", f[3][i + 2:i + 6])[0]
                          for i in range(0, len(f[3]), 6)})
    return found


def goaway(frames):
    """(last stream id, error code) of the first GOAWAY, or None."""
    for f in frames:
        if f[0] == GOAWAY:
            last, code = struct.unpack(">II", f[3][:8])
            return last & 0x7FFFFFFF, code
    return None


def reset_code(frames, stream_id):
    """The error code of the first RST_STREAM on `stream_id`, or None."""
    for f in frames:
        if f[0] == RST_STREAM and f[2] == stream_id:
            return struct.unpack(">I", f[3][:4])[0]
    return None
