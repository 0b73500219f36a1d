"""The message log's `origin` and `text` filters and one message by its id
(`GET /emulator/v1/projects/{project}/messages/{messageId}`), as the inbox reads them."""
import secrets
import urllib.parse
import uuid

from api import Api
from apns_helpers import ApnsConnection, apns_headers, new_key, provider_token


def test_origin_and_text_filters_and_a_message_by_its_id(emulator):
    api = Api(emulator.http, project=f"log-{uuid.uuid4().hex[:10]}")
    apns_token = secrets.token_hex(32)
    token = api.register(platform="ios", apnsToken=apns_token, bundleId="com.example.log")
    status, sent = api.send({"token": token, "notification": {"title": "Parcel DELIVERED"}, "data": {"ref": "A-1"}})
    assert status == 200, sent
    with ApnsConnection(emulator) as connection:
        pushed = connection.request(
            apns_headers(provider_token(new_key(), "LOGKEY0001", "LOGTEAM001"), topic="com.example.log"),
            {"aps": {"alert": "parcel waiting"}, "ref": "B-2"}, path=f"/3/device/{apns_token}")
    assert pushed.status == 200, pushed.body

    def ids(**query):
        status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?{urllib.parse.urlencode(query)}")
        assert status == 200, body
        return [message["origin"] for message in body["messages"]]

    assert ids() == ["apns", "fcm"]
    assert ids(origin="fcm") == ["fcm"]
    assert ids(origin="apns") == ["apns"]
    assert ids(text="parcel") == ["apns", "fcm"]
    assert ids(text="b-2") == ["apns"], "an APNs payload's custom keys are its data"
    assert ids(text="a-1", origin="fcm") == ["fcm"]
    assert ids(text="com.example.log") == [], "headers and topics are not searched"
    assert ids(text="") == ["apns", "fcm"]
    status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?origin=gcm")
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT" and "origin" in body["error"]["message"]

    message_id = sent["name"].rsplit("/", 1)[1]
    status, message = api.call("GET", f"/emulator/v1/projects/{api.project}/messages/{message_id}")
    assert status == 200
    assert message["name"] == sent["name"] and message["request"]["message"]["data"] == {"ref": "A-1"}
    assert [delivery["token"] for delivery in message["deliveries"]] == [token]
    for missing in ("1", "0" + message_id, "not-a-number"):
        status, body = api.call("GET", f"/emulator/v1/projects/{api.project}/messages/{missing}")
        assert status == 404 and body["error"]["status"] == "NOT_FOUND", missing
