"""Deliveries as iOS Simulator push files (`.apns`): each delivery in the message log links to its
file, which holds the payload as delivered and the app's bundle id under "Simulator Target Bundle"."""
import json
import urllib.error
import urllib.request

import pytest

from api import Api
from apns_helpers import ApnsConnection, apns_headers, canonical_uuid_upper, new_key, provider_token

JWT = provider_token(new_key(), "ABC123DEFG", "DEF123GHIJ")
BUNDLE = "com.example.scores"


@pytest.fixture
def api(emulator, request):
    return Api(emulator.http, project=request.node.name.replace("_", "-")[:30].lower())


def download(emulator, path):
    """GET `path`: status, headers (names in any case) and the body's bytes."""
    try:
        with urllib.request.urlopen(emulator.http + path, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def only_delivery(api):
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/messages")
    assert status == 200, body
    [message] = body["messages"]
    [delivery] = message["deliveries"]
    return delivery


def test_an_fcm_delivery_downloads_as_a_simulator_push_file(emulator, api):
    token = api.register(platform="ios", bundleId=BUNDLE)
    status, sent = api.send({
        "token": token,
        "notification": {"title": "Portugal vs. Denmark", "body": "great match!"},
        "data": {"score": "3x1"},
        "apns": {"payload": {"aps": {"badge": 1, "sound": "default"}}},
    })
    assert status == 200, sent
    delivery = only_delivery(api)
    assert delivery["simulatorFile"] == f"/emulator/v1/projects/{api.project}/deliveries/{delivery['id']}.apns"
    status, headers, raw = download(emulator, delivery["simulatorFile"])
    assert status == 200, raw
    assert headers.get("content-type").startswith("application/json")
    assert headers.get("content-disposition") == f'attachment; filename="{delivery["id"]}.apns"'
    document = json.loads(raw)
    assert list(document)[0] == "Simulator Target Bundle"
    assert document.pop("Simulator Target Bundle") == BUNDLE
    # The payload as delivered: what the device received, key for key and in order.
    [event] = api.connect(token)
    assert list(document.items()) == list(event["payload"].items())
    assert document["aps"]["alert"] == {"title": "Portugal vs. Denmark", "body": "great match!"}


def test_a_voip_push_targets_the_bundle_without_its_topic_suffix(emulator, api):
    apns_token = "c3" * 32
    api.register(platform="ios", bundleId=BUNDLE, apnsToken=apns_token)
    payload = {"aps": {}, "caller": "Ana"}
    with ApnsConnection(emulator) as conn:
        response = conn.request(
            apns_headers(JWT, topic=BUNDLE + ".voip", push_type="voip", apns_id=canonical_uuid_upper()),
            payload, path=f"/3/device/{apns_token}")
    assert response.status == 200, response
    status, _, raw = download(emulator, only_delivery(api)["simulatorFile"])
    assert status == 200, raw
    assert json.loads(raw) == {"Simulator Target Bundle": BUNDLE, **payload}


@pytest.mark.parametrize("file", ["d-999999.apns", "d-1", "d-x.apns", "1.apns", "d-1.json", "d-+1.apns", "d-01.apns",
                                  "d-9223372036854775807.apns", "d-99999999999999999999.apns", "d-0.apns"])
def test_a_file_of_no_delivery_is_not_found(emulator, api, file):
    status, headers, raw = download(emulator, f"/emulator/v1/projects/{api.project}/deliveries/{file}")
    assert status == 404, raw
    assert json.loads(raw)["error"]["status"] == "NOT_FOUND"


def test_another_projects_delivery_is_not_found(emulator, api):
    token = api.register(platform="ios", bundleId=BUNDLE)
    assert api.send({"token": token, "data": {"k": "v"}})[0] == 200
    delivery = only_delivery(api)
    status, _, raw = download(emulator, f"/emulator/v1/projects/other-{api.project}/deliveries/{delivery['id']}.apns")
    assert status == 404, raw
