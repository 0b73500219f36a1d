"""FCM's removed endpoints, `/fcm/send` (the legacy HTTP API) and `/batch`, answered as Google
answers them today (docs/fcm.md, "The removed legacy APIs"): the raw answers, directly and through
interception, and what the last client versions that called them raise — firebase-admin 6.9.0's
`send_all` and PyFCM 1.5.4, from their own virtualenv (.build-legacy/venv, made by
`scripts/install-deps.sh --python` from Tests/EndToEnd/legacy-requirements.txt)."""
import json
import os
import subprocess

import requests

LEGACY_PYTHON = ".build-legacy/venv/bin/python"
CLIENTS = os.path.join(os.path.dirname(__file__), "legacy_clients.py")


def legacy_client(which, base, **environment):
    done = subprocess.run([LEGACY_PYTHON, CLIENTS, which, base], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **environment})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_fcm_send_is_googles_bare_404_page(emulator):
    resp = requests.post(f"{emulator.http}/fcm/send", timeout=10,
                         headers={"Authorization": "key=legacy-server-key", "Content-Type": "application/json"},
                         data=json.dumps({"to": "t1", "notification": {"title": "hi"}}))
    assert resp.status_code == 404
    assert resp.headers["content-type"] == "text/html; charset=UTF-8"
    assert resp.content.startswith(b"<HTML>\n<HEAD>\n<TITLE>Not Found</TITLE>") and len(resp.content) == 142


def test_batch_is_googles_error_page_naming_the_path(emulator):
    resp = requests.post(f"{emulator.http}/batch", timeout=10, data=b"--boundary--",
                         headers={"Content-Type": "multipart/mixed; boundary=boundary"})
    assert resp.status_code == 404
    assert resp.headers["content-type"] == "text/html; charset=UTF-8"
    page = resp.content.decode()
    assert page.startswith("<!DOCTYPE html>") and "<title>Error 404 (Not Found)!!1</title>" in page
    assert "The requested URL <code>/batch</code> was not found on this server.  <ins>That’s all we know.</ins>" in page
    assert len(resp.content) == 1566


def test_the_same_answers_under_googles_host_name(emulator):
    proxies = {"https": f"http://127.0.0.1:{emulator.port}"}
    for path, size in (("/fcm/send", 142), ("/batch", 1566)):
        resp = requests.post(f"https://fcm.googleapis.com{path}", proxies=proxies, verify=emulator.ca, timeout=10, data=b"{}")
        assert (resp.status_code, len(resp.content)) == (404, size), path


def test_firebase_admin_6_send_all_raises_not_found_as_in_production(emulator):
    raised = legacy_client("firebase-admin-send-all", emulator.http)
    assert raised["version"] == "6.9.0"
    assert (raised["module"], raised["raised"]) == ("firebase_admin.exceptions", "NotFoundError")
    assert raised["message"].startswith("Unexpected HTTP response with status: 404; body: <!DOCTYPE html>")


def test_pyfcm_1_raises_token_not_registered_as_in_production(emulator):
    # Unmodified: PyFCM 1.5.4 posts to https://fcm.googleapis.com/fcm/send through HTTPS_PROXY,
    # and reads any 404 as an unregistered token.
    raised = legacy_client("pyfcm", "-", HTTPS_PROXY=f"http://127.0.0.1:{emulator.port}", REQUESTS_CA_BUNDLE=emulator.ca)
    assert raised["version"] == "1.5.4"
    assert (raised["module"], raised["raised"], raised["message"]) == ("pyfcm.errors", "FCMNotRegisteredError", "Token not registered")
