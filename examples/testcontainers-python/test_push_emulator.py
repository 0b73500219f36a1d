"""What a backend's test looks like against push-emulator in a container: register a device, let
the code under test send, then await the message instead of sleeping (docs/testing.md).

Here the "backend" is a plain HTTP call of FCM's v1 API; in your suite it is your code, pointed at
the container's URL (or at Google's host names through it: docs/interception.md)."""


def backend_sends(push_emulator, project, token, title):
    """Stands in for the code under test: FCM's messages:send, as the Admin SDKs post it."""
    status, sent = push_emulator.call(
        "POST", f"/v1/projects/{project}/messages:send",
        {"message": {"token": token, "notification": {"title": title}}}, {"Authorization": "Bearer test"})
    assert status == 200, sent
    return sent["name"]


def test_a_send_is_awaited_not_slept_for(push_emulator, project):
    status, device = push_emulator.call("POST", f"/emulator/v1/projects/{project}/devices", {"platform": "ios"})
    assert status == 201, device
    name = backend_sends(push_emulator, project, device["token"], "Order shipped")
    status, log = push_emulator.call(
        "GET", f"/emulator/v1/projects/{project}/messages?token={device['token']}&waitSeconds=10")
    assert status == 200
    assert [m["name"] for m in log["messages"]] == [name]
    assert log["messages"][0]["deliveries"][0]["payload"]["aps"]["alert"]["title"] == "Order shipped"


def test_each_test_has_a_project_of_its_own(push_emulator, project):
    status, listed = push_emulator.call("GET", f"/emulator/v1/projects/{project}/devices")
    assert status == 200 and listed["devices"] == []
