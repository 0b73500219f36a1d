"""aioapns (from PyPI, unchanged) against the real emulator binary with `--apns-auth strict`.

Written against aioapns 4.0. It has no setting for the server: each connection goes to
`protocol_class.APNS_SERVER` (a class constant of `APNsProductionClientProtocol` and
`APNsDevelopmentClientProtocol`, also sent as the `host` header, with no `:authority`) on
`APNsTLSClientProtocol.APNS_PORT`, so the test patches those constants; the SSL context is the
client's own, made to trust the emulator's CA. aioapns offers no ALPN (HTTP/2 by prior knowledge
after the handshake), signs its JWT with PyJWT (raw R‖S signature), parses every DATA frame alone as
JSON and matches answers to requests by the `apns-id` header."""
import asyncio
import secrets
import socket
import ssl
import uuid

import pytest
from aioapns import APNs, NotificationRequest, PushType
from aioapns.exceptions import MaxAttemptsExceeded
from aioapns.connection import (APNsDevelopmentClientProtocol, APNsProductionClientProtocol,
                                APNsTLSClientProtocol)

from api import Api
from apns_helpers import apns_key_option, new_key, p8_pem, write_p8
from conftest import Emulator

KEY, KEY_ID, TEAM_ID = new_key(), "AIOAPNSKEY", "AIOAPNSTEA"
BUNDLE = "com.example.aioapns"
# A hang (an answer aioapns cannot read) fails the test instead of stopping the run.
HANG = 20


@pytest.fixture(scope="module")
def emu(tmp_path_factory):
    keys = tmp_path_factory.mktemp("apns-keys")
    emulator = Emulator("--apns-auth", "strict", *apns_key_option(KEY_ID, TEAM_ID, write_p8(KEY, keys, KEY_ID)))
    yield emulator
    assert emulator.alive(), emulator.stderr()[-3000:]
    emulator.stop()


APPLE_HOSTS = {"api.push.apple.com", "api.development.push.apple.com"}


@pytest.fixture(params=["localhost", "apple-host-names"])
def pointed_at_emulator(emu, monkeypatch, request):
    """aioapns pointed at the emulator in one of two ways: its host constants patched to
    `localhost`, or left as Apple's names with those names resolving to 127.0.0.1 (as a hosts file
    would make them). Connections to Apple's names start with one stream (docs/apns.md)."""
    if request.param == "localhost":
        monkeypatch.setattr(APNsProductionClientProtocol, "APNS_SERVER", "localhost")
        monkeypatch.setattr(APNsDevelopmentClientProtocol, "APNS_SERVER", "localhost")
    else:
        assert {APNsProductionClientProtocol.APNS_SERVER, APNsDevelopmentClientProtocol.APNS_SERVER} == APPLE_HOSTS
        resolve = socket.getaddrinfo
        monkeypatch.setattr(socket, "getaddrinfo", lambda host, *rest, **named: resolve(
            "127.0.0.1" if host in APPLE_HOSTS else host, *rest, **named))
    monkeypatch.setattr(APNsTLSClientProtocol, "APNS_PORT", emu.port)
    return emu


def client(emu, use_sandbox=False, attempts=1):
    """An aioapns client with a token key; call it inside the event loop (aioapns takes the running loop)."""
    return APNs(key=p8_pem(KEY), key_id=KEY_ID, team_id=TEAM_ID, topic=BUNDLE, use_sandbox=use_sandbox,
                ssl_context=ssl.create_default_context(cafile=emu.ca), max_connection_attempts=attempts)


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, HANG))


def own_project():
    """A project of the test's own (each parameter set too)."""
    return f"aioapns-{uuid.uuid4().hex[:12]}"


def register(api, apns_token):
    return api.register(platform="ios", bundleId=BUNDLE, apnsToken=apns_token)


@pytest.mark.parametrize("use_sandbox", [False, True], ids=["production", "development"])
def test_alert_background_and_voip_reach_the_devices(pointed_at_emulator, use_sandbox):
    emu = pointed_at_emulator
    api = Api(emu.http, project=own_project())
    # APNs tokens name one device across projects: each run draws its own.
    tokens = {kind: secrets.token_hex(32) for kind in ("alert", "background", "voip")}
    devices = {kind: register(api, apns_token) for kind, apns_token in tokens.items()}
    requests = {
        "alert": NotificationRequest(
            device_token=tokens["alert"], push_type=PushType.ALERT, priority=10, collapse_key="match-42",
            message={"aps": {"alert": {"title": "Portugal vs. Denmark", "body": "great match!"}, "badge": 3,
                             "sound": "default"}, "matchId": "42"}),
        "background": NotificationRequest(
            device_token=tokens["background"], push_type=PushType.BACKGROUND, priority=5, time_to_live=3600,
            message={"aps": {"content-available": 1}, "sync": "inbox"}),
        "voip": NotificationRequest(
            device_token=tokens["voip"], push_type=PushType.VOIP, apns_topic=BUNDLE + ".voip",
            message={"callerName": "Ana", "handle": "+351 912 345 678"}),
    }

    async def send_all():
        apns = client(emu, use_sandbox)
        try:
            return {kind: await apns.send_notification(request) for kind, request in requests.items()}
        finally:
            apns.pool.close()

    results = run(send_all())
    for kind, result in results.items():
        assert (result.status, result.description) == ("200", None), (kind, result.status, result.description)
        assert result.notification_id == requests[kind].notification_id
    for kind, token in devices.items():
        [event] = api.connect(token)
        assert event["origin"] == "apns"
        assert event["payload"] == requests[kind].message, kind
        assert event["headers"]["apns-push-type"] == kind
        assert event["headers"]["apns-topic"] == (BUNDLE + ".voip" if kind == "voip" else BUNDLE)
        assert event["headers"]["apns-id"] == requests[kind].notification_id


def test_errors_are_read_by_apns_id_unregistered_with_its_timestamp(pointed_at_emulator):
    emu = pointed_at_emulator
    api = Api(emu.http, project=own_project())
    apns_token = secrets.token_hex(32)
    token = register(api, apns_token)

    async def scenario():
        apns = client(emu)
        try:
            first = await apns.send_notification(NotificationRequest(device_token=apns_token, message={"aps": {"alert": "hi"}}))
            bad_priority = await apns.send_notification(
                NotificationRequest(device_token=apns_token, message={"aps": {"alert": "hi"}}, priority=7))
            status, _ = api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{token}")
            assert status == 200
            gone = await apns.send_notification(NotificationRequest(device_token=apns_token, message={"aps": {"alert": "hi"}}))
            # The connection still works after errors.
            again = await apns.send_notification(NotificationRequest(device_token=secrets.token_hex(32), message={"aps": {"alert": "hi"}}))
            return first, bad_priority, gone, again
        finally:
            apns.pool.close()

    first, bad_priority, gone, again = run(scenario())
    assert (first.status, first.description) == ("200", None)
    assert (bad_priority.status, bad_priority.description) == ("400", "BadPriority")
    assert (gone.status, gone.description) == ("410", "Unregistered")
    assert type(gone.timestamp) is int and gone.timestamp > 0, gone.timestamp
    assert (again.status, again.description) == ("200", None)


def test_many_sends_at_once_on_a_new_connection(pointed_at_emulator):
    """aioapns opens as many streams as it has requests before the server's SETTINGS arrive, and
    it cannot read an RST_STREAM (the request would hang): every one must be answered."""
    emu = pointed_at_emulator
    api = Api(emu.http, project=own_project())
    apns_token = secrets.token_hex(32)
    register(api, apns_token)
    requests = [NotificationRequest(device_token=apns_token, message={"aps": {"badge": n}}) for n in range(20)]

    async def burst():
        apns = client(emu)
        try:
            return await asyncio.gather(*(apns.send_notification(r) for r in requests))
        finally:
            apns.pool.close()

    results = run(burst())
    assert [(r.status, r.notification_id) for r in results] == [("200", r.notification_id) for r in requests]


# Every APNs reason a fault can inject, as aioapns reads it: status, reason and, for a 410, the
# integer timestamp (docs/faults.md).
INJECTED = [("Unregistered", "410"), ("BadDeviceToken", "400"), ("TooManyRequests", "429"),
            ("ServiceUnavailable", "503"), ("Shutdown", "503"), ("InternalServerError", "500"),
            ("ExpiredProviderToken", "403"), ("PayloadTooLarge", "413")]


def test_injected_reasons_read_exactly_as_apples(pointed_at_emulator):
    emu = pointed_at_emulator
    api = Api(emu.http, project=own_project())
    apns_token = secrets.token_hex(32)
    register(api, apns_token)

    async def scenario():
        apns = client(emu)
        answers = []
        try:
            for reason, _ in INJECTED:
                status, fault = api.call("POST", f"/emulator/v1/projects/{api.project}/faults",
                                         {"match": {"apnsToken": apns_token}, "error": reason, "times": 1})
                assert status == 201, fault
                answers.append(await apns.send_notification(
                    NotificationRequest(device_token=apns_token, message={"aps": {"alert": reason}})))
            # The faults are used up: the next push goes through.
            answers.append(await apns.send_notification(
                NotificationRequest(device_token=apns_token, message={"aps": {"alert": "through"}})))
            return answers
        finally:
            apns.pool.close()

    answers = run(scenario())
    assert [(a.status, a.description) for a in answers] == [(s, r) for r, s in INJECTED] + [("200", None)]
    assert type(answers[0].timestamp) is int and answers[0].timestamp > 0


def test_a_goaway_fault_ends_the_connection_and_aioapns_reconnects(pointed_at_emulator):
    """What aioapns shows (docs/faults.md): GOAWAY after an error is the error, read as usual;
    GOAWAY without an answer fails the push on that connection (ConnectionClosed inside, so
    `MaxAttemptsExceeded` with one attempt, a retry on a new connection with more). Either way
    the next push opens a new connection and goes through."""
    emu = pointed_at_emulator
    api = Api(emu.http, project=own_project())
    apns_token = secrets.token_hex(32)
    register(api, apns_token)
    faults = f"/emulator/v1/projects/{api.project}/faults"

    def push(text):
        return NotificationRequest(device_token=apns_token, message={"aps": {"alert": text}})

    def fault(**fields):
        status, body = api.call("POST", faults, {"match": {"apnsToken": apns_token}, "times": 1, **fields})
        assert status == 201, body

    def logged():
        status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/messages")
        assert status == 200, body
        return len(body["messages"])

    async def ended(apns):
        # aioapns keeps the ended connection in its pool until its transport has closed: a push
        # sent in between raises h2's ProtocolError (the connection's state is CLOSED).
        while apns.pool.connections:
            await asyncio.sleep(0.01)

    async def scenario():
        single, retrying = client(emu), client(emu, attempts=2)
        try:
            assert (await single.send_notification(push("first"))).status == "200"
            fault(error="Shutdown", connection="goaway")
            answered = await single.send_notification(push("shutdown"))
            assert (answered.status, answered.description) == ("503", "Shutdown")
            await ended(single)
            assert (await single.send_notification(push("after the error"))).status == "200"
            fault(connection="goaway")
            with pytest.raises(MaxAttemptsExceeded):
                await single.send_notification(push("unanswered"))
            await ended(single)
            assert (await single.send_notification(push("after the goaway"))).status == "200"
            fault(connection="goaway")
            assert (await retrying.send_notification(push("retried"))).status == "200"
        finally:
            single.pool.close()
            retrying.pool.close()

    run(scenario())
    # first, after the error, after the goaway, retried: the faulted pushes were not sent.
    assert logged() == 4


def test_a_token_of_the_other_environment_is_a_bad_device_token(pointed_at_emulator, request):
    """A development build's token pushed through api.push.apple.com, or a production build's through
    the sandbox, gets BadDeviceToken and is not queued (docs/apns.md, "Environment"). Pointed at
    `localhost`, both clients are in the development environment (the default of --apns-environment)."""
    emu = pointed_at_emulator
    api = Api(emu.http, project=own_project())
    development, production = secrets.token_hex(32), secrets.token_hex(32)
    devices = {
        development: api.register(platform="ios", bundleId=BUNDLE, apnsToken=development, apnsEnvironment="development"),
        production: api.register(platform="ios", bundleId=BUNDLE, apnsToken=production, apnsEnvironment="production"),
    }

    async def push_both(use_sandbox):
        apns = client(emu, use_sandbox)
        try:
            return [await apns.send_notification(NotificationRequest(device_token=token, message={"aps": {"alert": "env"}}))
                    for token in (development, production)]
        finally:
            apns.pool.close()

    through_production = [(r.status, r.description) for r in run(push_both(use_sandbox=False))]
    through_sandbox = [(r.status, r.description) for r in run(push_both(use_sandbox=True))]
    development_host = [("200", None), ("400", "BadDeviceToken")]
    if request.node.callspec.params["pointed_at_emulator"] == "apple-host-names":
        assert through_production == [("400", "BadDeviceToken"), ("200", None)]
        assert through_sandbox == development_host
        queued = {development: 1, production: 1}
    else:
        assert through_production == through_sandbox == development_host
        # Two pushes to the development device: Apple stores one per app.
        queued = {development: 1, production: 0}
    for token, count in queued.items():
        assert len(api.connect(devices[token])) == count
