"""`--apns-auth off` through the binary, with curl over h2c: no provider token is asked for, the
topic may be left out or empty, and the device then gets its bundle id as `apns-topic` — one
`apns-topic`, since the device's headers are a JSON object. With no provider token to make, it is
also where a push to a token that two projects have is checked."""
import json
import subprocess

import pytest

from api import Api
from conftest import Emulator

BUNDLE = "com.example.offline"


@pytest.fixture(scope="module")
def emu():
    emulator = Emulator("--apns-auth", "off")
    yield emulator
    assert emulator.alive(), emulator.stderr()[-3000:]
    emulator.stop()


def curl_push(emu, apns_token, *headers):
    """(status, body) of one push sent by curl over h2c with `headers` (curl's `-H` forms)."""
    args = ["curl", "-s", "--http2-prior-knowledge", "-w", "\n%{http_code}", "--data-binary", '{"aps":{"alert":"hi"}}']
    for header in headers:
        args += ["-H", header]
    done = subprocess.run(args + [f"{emu.http}/3/device/{apns_token}"], capture_output=True, text=True, timeout=30)
    body, _, status = done.stdout.rpartition("\n")
    return int(status), body


@pytest.mark.parametrize("topic_header", [None, "apns-topic;"], ids=["no apns-topic", "empty apns-topic"])
def test_a_push_without_a_token_or_topic_reaches_the_device_with_its_bundle_id(emu, topic_header):
    api = Api(emu.http, project="off-" + ("none" if topic_header is None else "empty"))
    apns_token = ("b1" if topic_header is None else "b2") * 32
    token = api.register(platform="ios", bundleId=BUNDLE, apnsToken=apns_token)
    headers = ["apns-push-type: alert"] + ([topic_header] if topic_header else [])
    assert curl_push(emu, apns_token, *headers) == (200, "")
    # The raw JSON, not a dict that would keep only the last of two equal keys.
    done = subprocess.run(["curl", "-s", "-X", "POST", f"{emu.http}/emulator/v1/projects/{api.project}/devices/{token}:connect"],
                          capture_output=True, text=True, timeout=30)
    [event] = json.loads(done.stdout, object_pairs_hook=list)[0][1]
    [headers] = [value for name, value in event if name == "headers"]
    assert headers[:2] == [("apns-push-type", "alert"), ("apns-topic", BUNDLE)], headers
    assert [name for name, _ in headers[2:]] == ["apns-id"], headers


def test_an_apns_token_in_two_projects_reaches_the_device_that_is_there(emu):
    """A token is unique within a project only: the push goes to the live device, not to the
    deleted one of the project looked at first (that answered 410)."""
    apns_token = "5e" * 32
    gone, there = Api(emu.http, project="two-a"), Api(emu.http, project="two-b")
    gone_token = gone.register(platform="ios", bundleId="com.example.app", apnsToken=apns_token)
    there_token = there.register(platform="ios", bundleId="com.example.app", apnsToken=apns_token)
    assert gone.call("DELETE", f"/emulator/v1/projects/two-a/devices/{gone_token}")[0] in (200, 204)
    done = subprocess.run(
        ["curl", "-s", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code}",
         "-H", "apns-topic: com.example.app", "--data-binary", '{"aps":{"alert":"hi"}}',
         f"{emu.http}/3/device/{apns_token}"],
        capture_output=True, text=True, timeout=30)
    assert done.stdout == "200"
    [event] = there.connect(there_token)
    assert event["payload"]["aps"] == {"alert": "hi"}, event
