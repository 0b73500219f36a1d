"""What fault creation refuses (docs/faults.md): a match no attempt could carry, more than 1000 faults
in a project, `times` past 2147483647; and a state import refuses the same."""
import http.client
import json

import pytest

from api import Api


@pytest.fixture
def api(emulator, request):
    return Api(emulator.http, project=request.node.name.replace("_", "-")[:30].lower())


def refused_field(status, body):
    assert status == 400, body
    assert body["error"]["status"] == "INVALID_ARGUMENT", body
    return body["error"]["details"][0]["fieldViolations"][0]["field"]


@pytest.mark.parametrize("match", [
    {"topic": "news feed"}, {"topic": "/topics/"}, {"apnsToken": "xyz"}, {"apnsToken": "abc"}, {"apnsToken": "ab" * 257},
])
def test_a_match_that_can_never_match_is_refused(api, match):
    error = "Unregistered" if "apnsToken" in match else "UNAVAILABLE"
    status, body = api.call("POST", f"/emulator/v1/projects/{api.project}/faults", {"match": match, "error": error})
    (key,) = match
    assert refused_field(status, body) == f"match.{key}"
    assert "can never match" in body["error"]["message"], body


def test_a_match_a_request_can_carry_is_taken(api):
    for match, error in [({"topic": "/topics/news"}, "UNAVAILABLE"), ({"apnsToken": "ABCD"}, "Unregistered"),
                         ({"token": "not a token"}, "UNREGISTERED"), ({"condition": "'a' in"}, "UNAVAILABLE")]:
        api.add_fault(match=match, error=error)


def test_times_goes_up_to_its_documented_maximum(api):
    assert api.add_fault(error="UNAVAILABLE", times=2147483647)["times"] == 2147483647
    status, body = api.call("POST", f"/emulator/v1/projects/{api.project}/faults", {"error": "UNAVAILABLE", "times": 2147483648})
    assert refused_field(status, body) == "times"


def test_a_project_keeps_at_most_a_thousand_faults(emulator, api):
    path = f"/emulator/v1/projects/{api.project}/faults"
    conn = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=20)
    try:
        for _ in range(1000):
            conn.request("POST", path, json.dumps({"error": "UNAVAILABLE", "times": 1}), {"Content-Type": "application/json"})
            response = conn.getresponse()
            assert response.status == 201, response.read()
            response.read()
    finally:
        conn.close()
    status, body = api.call("POST", path, {"error": "UNAVAILABLE"})
    assert status == 400 and body["error"]["status"] == "FAILED_PRECONDITION", body
    assert "1000 faults" in body["error"]["message"], body
    # Another project is not concerned, and deleting one makes room.
    assert Api(emulator.http, project=api.project + "-other").add_fault(error="UNAVAILABLE")["id"] == "1"
    assert api.call("DELETE", f"{path}/1")[0] == 200
    assert api.add_fault(error="UNAVAILABLE")["id"] == "1001"


def test_an_import_refuses_a_fault_that_creation_refuses(emulator, api):
    api.add_fault(match={"topic": "news"}, error="UNAVAILABLE")
    status, snapshot = api.call("GET", "/emulator/v1/state")
    assert status == 200, snapshot
    (project,) = [p for p in snapshot["projects"] if p["projectId"] == api.project]
    project["faults"][0]["match"] = {"topic": "news feed"}
    status, body = api.call("PUT", "/emulator/v1/state", snapshot, {"Content-Type": "application/json"})
    assert status == 400, body
    assert "faults[0]" in body["error"]["message"] and "can never match" in body["error"]["message"], body
