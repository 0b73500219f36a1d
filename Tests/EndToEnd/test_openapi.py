"""The OpenAPI document (docs/openapi.json): valid, served as it is, and true of the live emulator."""
import copy
import json
import pathlib
import urllib.request

import jsonschema
from openapi_spec_validator import validate

import openapi_fuzz
from api import Api

DOCUMENT = pathlib.Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


def test_document_is_valid_openapi_3_1():
    document = json.loads(DOCUMENT.read_text())
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_served_document_is_docs_openapi_json(emulator):
    with urllib.request.urlopen(emulator.http + "/emulator/v1/openapi.json") as response:
        assert response.status == 200
        assert response.headers["content-type"].startswith("application/json")
        assert response.read() == DOCUMENT.read_bytes()


def test_every_route_of_the_control_plane_is_described():
    paths = json.loads(DOCUMENT.read_text())["paths"]
    for path, methods in {
        "/emulator/v1/projects/{project}/devices": {"get", "post"},
        "/emulator/v1/projects/{project}/devices/{token}": {"get", "patch", "delete"},
        "/emulator/v1/projects/{project}/devices/{token}:connect": {"post"},
        "/emulator/v1/projects/{project}/devices/{token}:stream": {"get"},
        "/emulator/v1/projects/{project}/messages": {"get", "delete"},
        "/emulator/v1/projects/{project}/messages/{messageId}": {"get"},
        "/emulator/v1/projects/{project}/topics": {"get"},
        "/emulator/v1/projects/{project}/faults": {"get", "post", "delete"},
        "/emulator/v1/projects/{project}/faults/{faultId}": {"get", "delete"},
        "/emulator/v1/clock": {"get"},
        "/emulator/v1/clock:advance": {"post"},
        "/emulator/v1/clock:reset": {"post"},
        "/emulator/v1/events": {"get"},
        "/emulator/v1/projects": {"get"},
        "/emulator/v1/projects/{project}/deliveries/{file}": {"get"},
        "/emulator/v1/projects/{project}": {"delete"},
        "/emulator/v1/state": {"get", "put", "delete"},
        "/emulator/v1/ca.pem": {"get"},
        "/emulator/v1/openapi.json": {"get"},
        "/healthz": {"get"},
        "/metrics": {"get"},
    }.items():
        assert methods <= set(paths.get(path, {})), path


def test_schemathesis_finds_no_server_error_and_no_answer_the_document_contradicts(emulator):
    """A bounded run with a fixed seed (`make fuzz` runs longer with fresh seeds):
    scripts/fuzz-openapi.sh."""
    code, output = openapi_fuzz.run(emulator.http, examples=15, seed=20261124)
    assert code == 0, output[-20000:]
    assert emulator.alive(), emulator.stderr()[-3000:]


def test_state_snapshot_schema_refuses_what_the_import_refuses(start_emulator):
    """The document's StateSnapshot and `PUT /emulator/v1/state` agree: an exported state fits
    the schema and imports; each changed snapshot below is refused by both (schemathesis sent
    `projectId: ""`, which the schema allowed and the import refuses)."""
    schema = json.loads(DOCUMENT.read_text())["components"]["schemas"]["StateSnapshot"]
    emu = start_emulator()
    api = Api(emu.http, project="schema-check")
    api.register(platform="android")
    status, exported = api.call("GET", "/emulator/v1/state")
    assert status == 200
    jsonschema.validate(exported, schema)
    assert api.call("PUT", "/emulator/v1/state", exported)[0] == 200

    def changed(change):
        snapshot = copy.deepcopy(exported)
        change(snapshot)
        return snapshot

    refused = {
        "empty project id": changed(lambda s: s["projects"][0].update(projectId="")),
        "project id with a slash": changed(lambda s: s["projects"][0].update(projectId="a/b")),
        "unknown top-level field": changed(lambda s: s.update(extra=1)),
        "unknown project field": changed(lambda s: s["projects"][0].update(extra=1)),
        "unknown clock field": changed(lambda s: s["clock"].update(extra=1)),
        "unknown counters field": changed(lambda s: s["counters"].update(extra=1)),
        "message id 0": changed(lambda s: s["counters"].update(nextMessageId="0")),
        "message id of 20 digits": changed(lambda s: s["counters"].update(nextMessageId="1" * 20)),
        "delivery number 0": changed(lambda s: s["counters"].update(nextDeliveryNumber=0)),
    }
    for name, snapshot in refused.items():
        status, body = api.call("PUT", "/emulator/v1/state", snapshot)
        assert status == 400, (name, body)
        try:
            jsonschema.validate(snapshot, schema)
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"the schema allows a snapshot the import refuses: {name}")
