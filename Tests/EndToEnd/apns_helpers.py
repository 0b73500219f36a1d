"""The provider side of APNs for tests: ES256 keys written as Apple's .p8 files, provider tokens
(JWTs) signed either way real clients sign them, and `POST /3/device/{token}` sent frame by frame
(h2frames) over h2c, TLS with ALPN h2 or TLS without ALPN."""
import base64
import json
import time
import uuid
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from hpack import NeverIndexedHeaderTuple

from h2frames import (CONTINUATION, DATA, END_HEADERS, END_STREAM, HEADERS, RST_STREAM, Client,
                      connect, frame)

# How a test reaches the port: cleartext HTTP/2 by prior knowledge (curl's way), TLS offering
# ALPN h2 (Go, node-apn, APNSwift), TLS offering nothing (aioapns, Pushy).
TRANSPORTS = ["h2c", "tls-alpn-h2", "tls-no-alpn"]

BUNDLE_ID = "com.example.app"
# 32 bytes, the usual size of a device token.
DEVICE_TOKEN = "5a" * 32
UUID_PATTERN = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def new_key():
    """A fresh P-256 private key, the kind Apple hands out as AuthKey_KEYID.p8."""
    return ec.generate_private_key(ec.SECP256R1())


def p8_pem(key):
    """The key as Apple's .p8 file holds it: PKCS#8 PEM, unencrypted."""
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def write_p8(key, directory, key_id):
    """Writes the key as `AuthKey_{key_id}.p8` in `directory`; returns the path."""
    path = f"{directory}/AuthKey_{key_id}.p8"
    with open(path, "w") as f:
        f.write(p8_pem(key))
    return path


def apns_key_option(key_id, team_id, path):
    """The emulator's `--apns-key` argument for this key."""
    return ["--apns-key", f"{key_id}:{team_id}:{path}"]


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def provider_token(key, key_id, team_id, iat=None, signature="raw", iat_as_string=False,
                   header=None, claims=None):
    """An ES256 provider token. `signature="raw"` is the 64-byte R‖S of JWS (Go and Python clients),
    `"der"` the DER ECDSA signature Pushy sends; `iat_as_string` writes `iat` as APNSwift does.
    `header` and `claims` add to (or, with None values, remove from) the standard fields."""
    iat = int(time.time()) if iat is None else iat
    head = {"alg": "ES256", "kid": key_id, **(header or {})}
    body = {"iss": team_id, "iat": str(iat) if iat_as_string else iat, **(claims or {})}
    head = {k: v for k, v in head.items() if v is not None}
    body = {k: v for k, v in body.items() if v is not None}
    signing_input = (b64url(json.dumps(head, separators=(",", ":")).encode()) + "."
                     + b64url(json.dumps(body, separators=(",", ":")).encode()))
    der = key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
    if signature == "der":
        raw = der
    else:
        r, s = decode_dss_signature(der)
        raw = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return f"{signing_input}.{b64url(raw)}"


def bearer(token):
    return f"bearer {token}"


@dataclass
class Response:
    """One response as it came off the wire: the stream's frames, in order, and what they say."""
    status: int
    headers: dict
    body: bytes
    # (type, flags, payload) of every HEADERS, CONTINUATION, DATA and RST_STREAM frame of the stream.
    frames: list = field(default_factory=list)

    def json(self):
        return json.loads(self.body)


class ApnsConnection:
    """One HTTP/2 connection to the emulator's APNs route, driven frame by frame.

    Each request is a HEADERS frame (END_HEADERS, no END_STREAM) and, unless the body is None, one
    DATA frame with END_STREAM, as aioapns sends them."""

    def __init__(self, emulator, transport="h2c", server_name="localhost"):
        tls = transport != "h2c"
        alpn = ("h2",) if transport == "tls-alpn-h2" else ()
        self.sock = connect(emulator.port, tls=tls, ca=emulator.ca, alpn=alpn, server_name=server_name)
        if transport == "tls-alpn-h2":
            assert self.sock.selected_alpn_protocol() == "h2"
        elif tls:
            assert self.sock.selected_alpn_protocol() is None
        self.scheme = "https" if tls else "http"
        self.client = Client(self.sock)
        self.client.start()
        self.next_stream = 1

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def request(self, headers, body=b"{}", method="POST", path=f"/3/device/{DEVICE_TOKEN}",
                authority="localhost", host=None, timeout=10.0):
        """Sends one request and reads its response. `headers` is a list of (name, value) pairs,
        sent in order and as given (duplicates too). `authority=None` leaves `:authority` out;
        `host` adds a `host` header."""
        stream_id = self.next_stream
        self.next_stream += 2
        fields = [(":method", method), (":scheme", self.scheme), (":path", path)]
        if authority is not None:
            fields.append((":authority", authority))
        if host is not None:
            fields.append(("host", host))
        # As h2 (aioapns) and nghttp2 (curl) send it: never indexed, so Huffman-coded in full in
        # every request.
        fields += [NeverIndexedHeaderTuple(name, value) if name == "authorization" else (name, value)
                   for name, value in headers]
        block = self.client.encoder.encode(fields)
        if body is None:
            self.client.send(frame(HEADERS, END_HEADERS | END_STREAM, stream_id, block))
        else:
            if isinstance(body, (dict, list)):
                body = json.dumps(body).encode()
            self.client.send(frame(HEADERS, END_HEADERS, stream_id, block) + frame(DATA, END_STREAM, stream_id, body))
        return self.response(stream_id, timeout)

    def response(self, stream_id, timeout=10.0):
        frames = self.client.response_complete(stream_id, timeout)
        mine = [(f[0], f[1], f[3]) for f in frames
                if f[0] != "EOF" and f[2] == stream_id and f[0] in (HEADERS, CONTINUATION, DATA, RST_STREAM)]
        assert any(kind in (HEADERS, DATA) and flags & END_STREAM for kind, flags, _ in mine), \
            f"stream {stream_id} did not end: {frames}"
        blocks = self.client.received_headers.get(stream_id, [])
        headers = blocks[0] if blocks else {}
        body = b"".join(payload for kind, _, payload in mine if kind == DATA)
        return Response(int(headers[":status"]), headers, body, mine)


def apns_headers(token, topic=BUNDLE_ID, push_type="alert", apns_id=None, **more):
    """The usual headers of a send: authorization, apns-topic, apns-push-type, then `more`
    (underscores in names become dashes), then apns-id when given."""
    headers = [("authorization", bearer(token)), ("apns-topic", topic)]
    if push_type is not None:
        headers.append(("apns-push-type", push_type))
    headers += [(name.replace("_", "-"), value) for name, value in more.items()]
    if apns_id is not None:
        headers.append(("apns-id", apns_id))
    return headers


def canonical_uuid_upper():
    """A canonical UUID in uppercase: APNs echoes `apns-id` byte for byte, so it must come back so."""
    return str(uuid.uuid4()).upper()
