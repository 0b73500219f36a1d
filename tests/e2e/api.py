"""A small JSON client for the emulator's HTTP API (standard library only)."""
import json
import urllib.error
import urllib.request


class Api:
    def __init__(self, base, project="demo"):
        self.base = base
        self.project = project

    def call(self, method, path, body=None, headers=None):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
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

    def connect(self, token):
        status, body = self.call("POST", f"/emulator/v1/projects/{self.project}/devices/{token}:connect")
        assert status == 200, body
        return body["events"]

    def advance(self, seconds):
        return self.call("POST", "/emulator/v1/clock:advance", {"seconds": seconds})

    def reset_clock(self):
        return self.call("POST", "/emulator/v1/clock:reset")
