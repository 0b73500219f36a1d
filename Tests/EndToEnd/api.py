"""A small JSON client for the emulator's HTTP API (standard library only)."""
import json
import time
import urllib.error
import urllib.request


class Api:
    def __init__(self, base, project="demo"):
        self.base = base
        self.project = project

    def call(self, method, path, body=None, headers=None, timeout=20):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
                return response.status, (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, (json.loads(raw) if raw else None)

    def register(self, **fields):
        status, device = self.call("POST", f"/emulator/v1/projects/{self.project}/devices", fields)
        assert status == 201, device
        return device["token"]

    def send(self, message, validate_only=False, auth="Bearer test"):
        body = {"message": message}
        if validate_only:
            body["validate_only"] = True
        headers = {"Content-Type": "application/json"}
        if auth:
            headers["Authorization"] = auth
        return self.call("POST", f"/v1/projects/{self.project}/messages:send", body, headers)

    def add_fault(self, **fault):
        """Injects a fault in the project (docs/faults.md); returns it as the API shows it."""
        status, body = self.call("POST", f"/emulator/v1/projects/{self.project}/faults", fault)
        assert status == 201, body
        return body

    def fault_state(self, fault):
        """The fault as it stands now (`fired`, `matched`)."""
        status, body = self.call("GET", f"/emulator/v1/projects/{self.project}/faults/{fault['id']}")
        assert status == 200, body
        return body

    def connect(self, token):
        status, body = self.call("POST", f"/emulator/v1/projects/{self.project}/devices/{token}:connect")
        assert status == 200, body
        return body["events"]

    def advance(self, seconds):
        return self.call("POST", "/emulator/v1/clock:advance", {"seconds": seconds})

    def reset_clock(self):
        return self.call("POST", "/emulator/v1/clock:reset")


def read_sse_events(stream, count, timeout=10):
    """Reads `count` SSE data lines from a file-like object of a curl process."""
    events = []
    deadline = time.time() + timeout
    while len(events) < count and time.time() < deadline:
        line = stream.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            events.append(json.loads(line[6:]))
    return events


class Topics:
    """The two topic APIs of FCM, as raw HTTP calls (the SDK tests use firebase-admin instead)."""

    def __init__(self, api):
        self.api = api
        self.auth = {"Authorization": "Bearer test", "Content-Type": "application/json"}

    def v1_path(self, token, topic=None):
        path = f"/v1/projects/{self.api.project}/registrations/{token}/topicSubscriptions"
        return path if topic is None else f"{path}/{topic}"

    def subscribe(self, token, topic, name="topicName"):
        return self.api.call("POST", f"{self.v1_path(token)}?{name}={topic}", {}, self.auth)

    def unsubscribe(self, token, topic, query=""):
        return self.api.call("DELETE", self.v1_path(token, topic) + query, None, self.auth)

    def get(self, token, topic=None, query=""):
        return self.api.call("GET", self.v1_path(token, topic) + query, None, self.auth)

    def batch(self, operation, topic, tokens):
        return self.api.call("POST", f"/iid/v1:{operation}", {"to": topic, "registration_tokens": tokens}, self.auth)

    def info(self, token, details=True):
        return self.api.call("GET", f"/iid/info/{token}" + ("?details=true" if details else ""), None, self.auth)

    def listed(self):
        status, body = self.api.call("GET", f"/emulator/v1/projects/{self.api.project}/topics")
        assert status == 200, body
        return {topic["name"]: topic["subscriberCount"] for topic in body["topics"]}
