"""`GET /emulator/v1/projects`: every project, oldest first, with its counts, paged."""
import pytest

from api import Api
from conftest import Emulator


@pytest.fixture(scope="module")
def emu():
    emulator = Emulator()
    yield emulator
    emulator.stop()


def listed(emu, query=""):
    status, body = Api(emu.http).call("GET", f"/emulator/v1/projects{query}")
    assert status == 200, body
    return body


def test_projects_appear_with_their_counts_and_go_when_reset(emu):
    first, second = Api(emu.http, "first"), Api(emu.http, "second")
    token = first.register()
    first.register()
    assert first.send({"token": token, "data": {"k": "v"}})[0] == 200
    assert first.send({"token": token, "data": {"k": "w"}})[0] == 200
    second.add_fault(error="UNAVAILABLE")
    assert listed(emu)["projects"] == [
        {"projectId": "first", "deviceCount": 2, "connectedDeviceCount": 0, "pendingDeliveryCount": 2,
         "messageCount": 2, "faultCount": 0},
        {"projectId": "second", "deviceCount": 0, "connectedDeviceCount": 0, "pendingDeliveryCount": 0,
         "messageCount": 0, "faultCount": 1},
    ]
    first.connect(token)
    assert listed(emu)["projects"][0]["pendingDeliveryCount"] == 0
    # A read of a project that does not exist makes none.
    assert Api(emu.http, "ghost").call("GET", "/emulator/v1/projects/ghost/messages")[0] == 200
    assert first.call("DELETE", "/emulator/v1/projects/first")[0] == 200
    assert [p["projectId"] for p in listed(emu)["projects"]] == ["second"]
    assert Api(emu.http).call("DELETE", "/emulator/v1/state")[0] == 200


def test_paging_walks_every_project_once(emu):
    ids = [f"paged-{n}" for n in range(7)]
    for project in ids:
        Api(emu.http, project).register()
    seen, token = [], None
    while True:
        body = listed(emu, f"?pageSize=3" + (f"&pageToken={token}" if token else ""))
        seen += [p["projectId"] for p in body["projects"]]
        token = body.get("nextPageToken")
        if not token:
            break
    assert seen == ids
    assert Api(emu.http).call("DELETE", "/emulator/v1/state")[0] == 200
