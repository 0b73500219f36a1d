"""Tokens are compared byte for byte through the binary. A registration token spelled with the
Kelvin sign (U+212A, which Unicode calls equal to `K`) in place of a `K` names no device: a
subscription or connect under it used to store the device again under that spelling, so the real
token found nothing, sends registered a second device and the exported state could not be
imported."""
from api import Api, Topics

KELVIN = "%E2%84%AA"


def test_a_spelling_with_other_bytes_names_no_device(emulator):
    api = Api(emulator.http, project="spelling")
    topics = Topics(api)
    token = api.register(token="spell-K", platform="ios")
    status, body = topics.subscribe(f"spell-{KELVIN}", "news")
    assert (status, body["error"]["status"]) == (400, "INVALID_ARGUMENT"), body
    status, body = topics.batch("batchAdd", "/topics/news", ["spell-\u212a"])
    assert status == 200 and body["results"] == [{"error": "INVALID_ARGUMENT"}], body
    for action in (":connect", ""):
        method = "POST" if action else "GET"
        status, _ = api.call(method, f"/emulator/v1/projects/spelling/devices/spell-{KELVIN}{action}")
        assert status == 404
    status, body = api.send({"token": "spell-\u212a", "data": {"n": "1"}})
    assert (status, body["error"]["status"]) == (400, "INVALID_ARGUMENT"), body
    # The device is where it was, alone, and the state goes out and back in.
    assert api.call("GET", f"/emulator/v1/projects/spelling/devices/{token}")[0] == 200
    status, body = api.call("GET", "/emulator/v1/projects/spelling/devices")
    assert [device["token"] for device in body["devices"]] == ["spell-K"], body
    status, state = api.call("GET", "/emulator/v1/state")
    assert status == 200
    assert api.call("PUT", "/emulator/v1/state", state, {"Content-Type": "application/json"})[0] == 200
    assert api.send({"token": token, "data": {"n": "2"}})[0] == 200
    assert [event["payload"]["n"] for event in api.connect(token)] == ["2"]
