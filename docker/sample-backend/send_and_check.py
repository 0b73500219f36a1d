"""The compose example's backend: registers a simulated device with the emulator, sends it a
message with the unmodified firebase-admin SDK — which posts to https://fcm.googleapis.com as it
ships, and reaches the emulator through HTTPS_PROXY — then checks that the device received it.
Exits 0 when it did, 1 otherwise. Settings, from the environment (docker/compose.yaml):
  EMULATOR_URL   the emulator's own address, for its device API and its CA (http://emulator:9499)
  HTTPS_PROXY    the emulator too: the SDK's HTTPS requests go through it (interception)
  PROJECT_ID     the Firebase project (default demo-project)
"""
import json
import os
import sys
import time
import warnings

import firebase_admin
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from firebase_admin import credentials, messaging

EMULATOR_URL = os.environ.get("EMULATOR_URL", "http://emulator:9499")
PROJECT_ID = os.environ.get("PROJECT_ID", "demo-project")
DEVICES = f"{EMULATOR_URL}/emulator/v1/projects/{PROJECT_ID}/devices"
# The emulator's own API is plain HTTP on its port: talk to it directly, never through the proxy.
direct = requests.Session()
direct.trust_env = False
# firebase-admin 7 marks Message.token deprecated in favour of Message.fid; FCM's HTTP v1 API still
# takes a registration token, which is what the emulator's simulated device has.
warnings.filterwarnings("ignore", message="Message.token is deprecated", category=DeprecationWarning)


def service_account_file():
    """A service-account key file as the Cloud console writes it, its token_uri Google's own. A real
    backend mounts its own; this one makes a fresh key, which the emulator's token endpoint takes
    as long as it is not started with --service-account (docs/auth.md)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    info = {
        "type": "service_account", "project_id": PROJECT_ID, "private_key_id": "compose-example",
        "private_key": pem, "client_email": f"backend@{PROJECT_ID}.iam.gserviceaccount.com",
        "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token",
    }
    path = "/tmp/service-account.json"
    with open(path, "w") as out:
        json.dump(info, out)
    return path


def wait_until_healthy(seconds=60):
    """compose's `condition: service_healthy` is not enforced by every runner (podman-compose
    before podman 4.6 ignores it), so the backend also waits for /healthz itself."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if direct.get(f"{EMULATOR_URL}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            sys.exit(f"the emulator at {EMULATOR_URL} is not healthy after {seconds} s")
        time.sleep(0.5)


def trust_the_emulators_ca():
    """REQUESTS_CA_BUNDLE replaces the default roots, so it names the system's roots plus the
    emulator's CA (what `push-emulator ca --bundle` prints)."""
    ca = direct.get(f"{EMULATOR_URL}/emulator/v1/ca.pem", timeout=10)
    ca.raise_for_status()
    bundle = "/tmp/ca-bundle.pem"
    with open("/etc/ssl/certs/ca-certificates.crt") as roots, open(bundle, "w") as out:
        out.write(roots.read() + "\n" + ca.text)
    os.environ["REQUESTS_CA_BUNDLE"] = bundle


def main():
    wait_until_healthy()
    trust_the_emulators_ca()

    resp = direct.post(DEVICES, json={"platform": "ios", "bundleId": "com.example.app"}, timeout=10)
    resp.raise_for_status()
    token = resp.json()["token"]

    # The SDK signs an assertion and asks https://oauth2.googleapis.com/token for an access token:
    # through HTTPS_PROXY that is the emulator's token endpoint too.
    credential = credentials.Certificate(service_account_file())
    app = firebase_admin.initialize_app(credential, {"projectId": PROJECT_ID})
    name = messaging.send(messaging.Message(
        token=token, notification=messaging.Notification(title="Hello from compose")), app=app)
    print(f"sent {name} through {os.environ.get('HTTPS_PROXY')}")

    resp = direct.post(f"{DEVICES}/{token}:connect", timeout=10)
    resp.raise_for_status()
    titles = [event["payload"]["aps"]["alert"]["title"] for event in resp.json()["events"]]
    if titles != ["Hello from compose"]:
        sys.exit(f"the device did not receive the message: {resp.text}")
    print("the device received it")


if __name__ == "__main__":
    main()
