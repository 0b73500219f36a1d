"""Interception as an HTTPS proxy: `CONNECT host:443` for the Google and Apple API hosts opens a
tunnel into the emulator itself (TLS with its CA's certificate, ALPN h2 and http/1.1), routed by
path; any other host gets 403, never an open proxy (docs/interception.md)."""
import asyncio
import json
import os
import socket
import subprocess
import time
import uuid

import firebase_admin
import pytest
import requests
from firebase_admin import messaging

from conftest import BIN, http1_exchange
from fcm_helpers import PROJECT, Devices, EmulatorCredential
from test_oauth import new_private_key_pem, service_account_info

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


@pytest.mark.parametrize("target", ["fcm.googleapis.com", "fcm.googleapis.com:", "fcm.googleapis.com:https",
                                    "fcm.googleapis.com:+443", "fcm.googleapis.com:443x", "fcm.googleapis.com:65979",
                                    "fcm.googleapis.com:443:443", "user@fcm.googleapis.com:443", ":443"])
def test_a_target_that_is_not_host_colon_port_is_400(emulator, target):
    # RFC 9112's authority-form: a port is required and is digits in range; before, a port that was
    # missing or not a number meant 443 and opened the tunnel.
    answer = http1_exchange(emulator.port, f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 400 "), (target, answer)
    assert b"CONNECT needs host:port" in answer, answer


def test_apples_other_port_is_intercepted(emulator):
    assert connect_line(emulator, "api.push.apple.com:2197").startswith(b"HTTP/1.1 200 Connection established")


def test_an_unmodified_sdk_with_a_real_service_account_file_needs_only_the_proxy(start_emulator, tmp_path, monkeypatch):
    """The service-account file as the Cloud console writes it (token_uri Google's), no SDK constant
    patched: google-auth fetches its token from oauth2.googleapis.com and the SDK sends to
    fcm.googleapis.com and iid.googleapis.com, all through HTTPS_PROXY into the emulator, which
    checks the assertion's signature against the same file (--auth strict)."""
    info = service_account_info(new_private_key_pem())
    path = tmp_path / "sa.json"
    path.write_text(json.dumps(info))
    emu = start_emulator("--auth", "strict", "--service-account", str(path))
    bundle = tmp_path / "bundle.pem"
    bundle.write_text(subprocess.run([BIN, "ca", "--bundle", "--data-dir", emu.data_dir],
                                     capture_output=True, text=True, check=True).stdout)
    monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{emu.port}")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(bundle))
    devices = Devices(emu.http)
    tokens = [devices.register() for _ in range(3)]
    app = firebase_admin.initialize_app(firebase_admin.credentials.Certificate(str(path)), name=f"sa-{uuid.uuid4()}")
    try:
        name = messaging.send(messaging.Message(token=tokens[0], data={"n": "0"}), app=app)
        batch = messaging.send_each([messaging.Message(token=t, data={"n": str(i)}) for i, t in enumerate(tokens[1:], 1)], app=app)
        subscribed = messaging.subscribe_to_topic(tokens, "news", app=app)
    finally:
        firebase_admin.delete_app(app)
    assert name.startswith(f"projects/{PROJECT}/messages/")
    assert [r.success for r in batch.responses] == [True, True]
    assert (subscribed.success_count, subscribed.failure_count) == (3, 0)
    for index, token in enumerate(tokens):
        [event] = devices.connect(token)
        assert event["payload"]["n"] == str(index)
        assert devices.topics(token) == ["news"]


def test_by_host_name_the_async_sender_too(start_emulator, tmp_path, monkeypatch):
    """Google's names resolved to the emulator inside this process (as a hosts file or compose
    network aliases make them), the emulator on port 443 as the SDKs' URLs need: the way in for
    send_each_async, whose httpx client ignores proxies."""
    if os.geteuid() != 0 and int(open("/proc/sys/net/ipv4/ip_unprivileged_port_start").read()) > 443:
        pytest.skip("port 443 needs root or CAP_NET_BIND_SERVICE")
    info = service_account_info(new_private_key_pem())
    path = tmp_path / "sa.json"
    path.write_text(json.dumps(info))
    emu = start_emulator("--auth", "strict", "--service-account", str(path), "--port", "443")
    assert emu.port == 443
    bundle = tmp_path / "bundle.pem"
    bundle.write_text(subprocess.run([BIN, "ca", "--bundle", "--data-dir", emu.data_dir],
                                     capture_output=True, text=True, check=True).stdout)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(bundle))
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    google_hosts = {"fcm.googleapis.com", "iid.googleapis.com", "oauth2.googleapis.com"}
    resolve = socket.getaddrinfo

    def to_emulator(host, port, *rest, **named):
        # httpx (through anyio) asks with the IDNA-encoded name as bytes.
        if (host.decode() if isinstance(host, bytes) else host) in google_hosts:
            return resolve("127.0.0.1", port, *rest, **named)
        return resolve(host, port, *rest, **named)

    monkeypatch.setattr(socket, "getaddrinfo", to_emulator)
    devices = Devices(emu.http)
    tokens = [devices.register() for _ in range(4)]
    app = firebase_admin.initialize_app(firebase_admin.credentials.Certificate(str(path)), name=f"names-{uuid.uuid4()}")
    # The SDK's httpx client stays bound to the loop that opened it, which delete_app closes it from.
    loop = asyncio.new_event_loop()
    try:
        name = messaging.send(messaging.Message(token=tokens[0], data={"n": "0"}), app=app)
        batch = messaging.send_each([messaging.Message(token=tokens[1], data={"n": "1"})], app=app)
        async_batch = loop.run_until_complete(messaging.send_each_async(
            [messaging.Message(token=t, data={"n": str(i)}) for i, t in enumerate(tokens[2:], 2)], app=app))
        subscribed = messaging.subscribe_to_topic(tokens, "news", app=app)
    finally:
        firebase_admin.delete_app(app)
        loop.close()
    assert name.startswith(f"projects/{PROJECT}/messages/")
    assert [r.success for r in batch.responses] == [True]
    assert [r.success for r in async_batch.responses] == [True, True], [r.exception for r in async_batch.responses]
    assert subscribed.success_count == 4
    for index, token in enumerate(tokens):
        [event] = devices.connect(token)
        assert event["payload"]["n"] == str(index)


@pytest.mark.parametrize("route", ["--proxy", "--connect-to"])
def test_curl_verifies_the_certificate_and_sends(emulator, route):
    # No -k: curl checks the certificate for fcm.googleapis.com against the emulator's CA.
    via = (["--proxy", f"http://127.0.0.1:{emulator.port}"] if route == "--proxy"
           else ["--connect-to", f"fcm.googleapis.com:443:127.0.0.1:{emulator.port}"])
    out = subprocess.run(
        ["curl", "-sS", "--cacert", emulator.ca, *via, "-w", "\\n%{http_code} %{ssl_verify_result}",
         "https://fcm.googleapis.com/v1/projects/demo/messages:send", "-H", "Authorization: Bearer t",
         "-d", '{"message":{"topic":"news","notification":{"title":"hi"}}}'],
        capture_output=True, text=True, timeout=30)
    body, status = out.stdout.rsplit("\n", 1)
    assert status == "200 0", out.stdout + out.stderr
    assert body.startswith('{"name":"projects/demo/messages/'), body


def test_pyfcm_refreshes_its_token_on_access_token_expired(start_emulator, tmp_path, monkeypatch):
    """PyFCM keeps its Authorization header for 30 minutes whatever the token's lifetime; when the
    emulator answers ACCESS_TOKEN_EXPIRED it fetches a new token and resends, by itself."""
    from pyfcm import FCMNotification
    path = tmp_path / "sa.json"
    path.write_text(json.dumps(service_account_info(new_private_key_pem())))
    emu = start_emulator("--auth", "strict", "--service-account", str(path), "--access-token-lifetime", "1")
    monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{emu.port}")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", emu.ca)
    devices = Devices(emu.http)
    tokens = [devices.register() for _ in range(2)]
    fcm = FCMNotification(service_account_file=str(path), project_id=PROJECT)
    first = fcm.notify(fcm_token=tokens[0], notification_title="first")
    time.sleep(2)  # past the 1-second lifetime, on the real clock
    second = fcm.notify(fcm_token=tokens[1], notification_title="second")
    assert first["name"].startswith(f"projects/{PROJECT}/messages/")
    assert second["name"].startswith(f"projects/{PROJECT}/messages/")
    for token, title in zip(tokens, ["first", "second"]):
        [event] = devices.connect(token)
        assert event["payload"]["aps"]["alert"]["title"] == title
    log = emu.stderr()
    assert log.count('"POST /token HTTP/1.1" 200') == 2, log[-3000:]
    assert log.count(f'"POST /v1/projects/{PROJECT}/messages:send HTTP/1.1" 401') == 1, log[-3000:]
