"""Interception as an HTTPS proxy: `CONNECT host:443` for the Google and Apple API hosts opens a
tunnel into the emulator itself (TLS with its CA's certificate, ALPN h2 and http/1.1), routed by
path; any other host gets 403, never an open proxy (docs/interception.md)."""
import socket
import subprocess
import uuid

import firebase_admin
import pytest
import requests
from firebase_admin import messaging

from fcm_helpers import PROJECT, Devices, EmulatorCredential

pytestmark = pytest.mark.filterwarnings("ignore:Message.token is deprecated:DeprecationWarning")


def proxies(emu):
    return {"https": f"http://127.0.0.1:{emu.port}"}


def test_the_unmodified_admin_sdk_sends_through_the_proxy(emulator, monkeypatch):
    # No URL constant patched: the SDK posts to https://fcm.googleapis.com as it ships, and the
    # HTTPS_PROXY its requests session honours takes it to the emulator.
    monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{emulator.port}")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", emulator.ca)
    devices = Devices(emulator.http)
    token = devices.register()
    app = firebase_admin.initialize_app(EmulatorCredential(), {"projectId": PROJECT}, name=f"proxy-{uuid.uuid4()}")
    try:
        name = messaging.send(messaging.Message(token=token, notification=messaging.Notification(title="via proxy")), app=app)
    finally:
        firebase_admin.delete_app(app)
    assert name.startswith(f"projects/{PROJECT}/messages/")
    [event] = devices.connect(token)
    assert event["payload"]["aps"]["alert"]["title"] == "via proxy"


def test_each_intercepted_host_is_the_emulator(emulator):
    for host in ("fcm.googleapis.com", "iid.googleapis.com", "oauth2.googleapis.com", "www.googleapis.com",
                 "api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com"):
        resp = requests.get(f"https://{host}/healthz", proxies=proxies(emulator), verify=emulator.ca, timeout=10)
        assert (resp.status_code, resp.json()) == (200, {"status": "ok"}), host


def test_apns_through_the_proxy_over_http2(emulator):
    # curl negotiates h2 inside the tunnel; the connection names Apple's production host.
    out = subprocess.run(
        ["curl", "-s", "-i", "--http2", "--cacert", emulator.ca, "-x", f"http://127.0.0.1:{emulator.port}",
         f"https://api.push.apple.com/3/device/{'ab' * 32}", "-H", "apns-topic: com.example.app",
         "-H", "authorization: bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyMzQ1NjcifQ."
               "eyJpc3MiOiJERUYxMjM0NTY3IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2ln",
         "-d", '{"aps":{"alert":"hi"}}'], capture_output=True, text=True, timeout=30)
    assert "HTTP/2 200" in out.stdout, out.stdout + out.stderr
    assert "apns-id:" in out.stdout and "apns-unique-id" not in out.stdout, out.stdout


def connect_line(emu, target):
    with socket.create_connection(("127.0.0.1", emu.port), timeout=10) as sock:
        sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        return answer


@pytest.mark.parametrize("target", ["example.com:443", "fcm.googleapis.com:80", "api.push.apple.com:8443", "127.0.0.1:22"])
def test_other_hosts_and_ports_are_refused(emulator, target):
    assert connect_line(emulator, target).startswith(b"HTTP/1.1 403 "), target
    with pytest.raises(requests.exceptions.ProxyError):
        requests.get(f"https://{target}/", proxies=proxies(emulator), verify=emulator.ca, timeout=10)


def test_apples_other_port_is_intercepted(emulator):
    assert connect_line(emulator, "api.push.apple.com:2197").startswith(b"HTTP/1.1 200 Connection established")
