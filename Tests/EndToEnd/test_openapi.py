"""The OpenAPI document (docs/openapi.json): valid, served as it is, and true of the live emulator."""
import json
import pathlib
import urllib.request

from openapi_spec_validator import validate

import openapi_fuzz

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
        "/emulator/v1/projects/{project}/topics": {"get"},
        "/emulator/v1/projects/{project}/faults": {"get", "post", "delete"},
        "/emulator/v1/projects/{project}/faults/{faultId}": {"get", "delete"},
        "/emulator/v1/clock": {"get"},
        "/emulator/v1/clock:advance": {"post"},
        "/emulator/v1/clock:reset": {"post"},
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
