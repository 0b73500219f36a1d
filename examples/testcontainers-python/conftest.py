"""pytest fixtures for testing a backend against push-emulator in a Testcontainers container
(docs/testing.md): one container for the session, a project of its own for each test.

Copy this file next to your tests. It needs `testcontainers` and `pytest` from PyPI, and a
Docker-compatible engine (Docker, or Podman's `podman system service` with `DOCKER_HOST` set)."""
import json
import os
import time
import urllib.error
import urllib.request
import uuid

import pytest
from testcontainers.core.container import DockerContainer

IMAGE = os.environ.get("PUSH_EMULATOR_IMAGE", "push-emulator:latest")


class PushEmulator:
    """The running container: its base URL and a small JSON client for its admin API."""

    def __init__(self, base_url):
        self.base_url = base_url

    def call(self, method, path, body=None, headers=None, timeout=70):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, json.loads(raw) if raw else None

    def healthy(self):
        try:
            return self.call("GET", "/healthz", timeout=2)[0] == 200
        except OSError:
            return False


@pytest.fixture(scope="session")
def push_emulator():
    """One emulator for the whole session, on a port Testcontainers maps; ready once its health
    check (`/healthz`, what the image's HEALTHCHECK runs) answers."""
    with DockerContainer(IMAGE).with_exposed_ports(9499) as container:
        emulator = PushEmulator(f"http://{container.get_container_host_ip()}:{container.get_exposed_port(9499)}")
        deadline = time.monotonic() + 60
        while not emulator.healthy():
            assert time.monotonic() < deadline, "push-emulator did not become healthy in 60 s"
            time.sleep(0.2)
        yield emulator


@pytest.fixture
def project(push_emulator):
    """A project of this test's own: nothing another test sent is in it. Reset afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    push_emulator.call("DELETE", f"/emulator/v1/projects/{name}")
