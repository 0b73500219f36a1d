"""`--ui-auth-file`: with an htpasswd file, the inbox and the /emulator/ API need one of its users
(HTTP Basic); sends, /healthz and /metrics do not. The file is written by `openssl passwd -apr1`
and as `htpasswd -s` writes it; a line the emulator cannot read stops the start."""
import base64
import hashlib
import subprocess
import urllib.request

import pytest
from selenium.webdriver.common.by import By

import browser
from api import Api
from conftest import BIN, SANITIZER


def htpasswd(tmp_path):
    apr1 = subprocess.run(["openssl", "passwd", "-apr1", "pass word"], check=True, capture_output=True, text=True).stdout.strip()
    sha = "{SHA}" + base64.b64encode(hashlib.sha1(b"other").digest()).decode()
    path = tmp_path / "users.htpasswd"
    path.write_text(f"# inbox users\nalice:{apr1}\nbob:{sha}\n")
    return str(path)


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def test_the_api_and_inbox_need_a_user_and_the_rest_does_not(start_emulator, tmp_path):
    emu = start_emulator("--ui-auth-file", htpasswd(tmp_path))
    api = Api(emu.http, "auth-demo")
    status, body = api.call("GET", "/emulator/v1/projects")
    assert status == 401 and body["error"]["status"] == "UNAUTHENTICATED", body
    request = urllib.request.Request(emu.http + "/emulator/ui/")
    try:
        urllib.request.urlopen(request)
        raise AssertionError("the inbox answered without a password")
    except urllib.error.HTTPError as error:
        assert error.code == 401 and error.headers["www-authenticate"].startswith('Basic realm="push-emulator"')
    assert api.call("GET", "/emulator/v1/projects", headers={"Authorization": basic("alice", "wrong")})[0] == 401
    assert api.call("GET", "/emulator/v1/projects", headers={"Authorization": basic("alice", "pass word")})[0] == 200
    assert api.call("GET", "/emulator/v1/projects", headers={"Authorization": basic("bob", "other")})[0] == 200
    status, device = api.call("POST", "/emulator/v1/projects/auth-demo/devices", {},
                              headers={"Authorization": basic("bob", "other")})
    assert status == 201, device
    # FCM sends answer as before: their Bearer token is theirs to check (--auth).
    status, sent = api.send({"token": device["token"], "data": {"k": "v"}})
    assert status == 200, sent
    assert api.call("GET", "/healthz")[0] == 200
    with urllib.request.urlopen(emu.http + "/metrics") as response:
        assert response.status == 200


@pytest.mark.skipif(bool(SANITIZER), reason="the sanitizer runs leave the browser tests to make test")
def test_a_browser_with_the_password_gets_the_live_inbox(start_emulator, tmp_path):
    emu = start_emulator("--ui-auth-file", htpasswd(tmp_path))
    driver = browser.start()
    try:
        driver.get(f"http://alice:pass%20word@127.0.0.1:{emu.port}/emulator/ui/#/p/auth-browser")
        browser.wait_for(lambda: browser.text_of(driver, "#live") == "● live")
        driver.find_element(By.CSS_SELECTOR, "form[aria-label='Register a device'] button[type=submit]").click()
        token, _ = browser.wait_for(lambda: browser.text_of(driver, "#device-token"))
        Api(emu.http, "auth-browser").send({"token": token, "notification": {"title": "Behind a password"}})
        browser.wait_for(lambda: "Behind a password" in browser.text_of(driver, "article.delivery"))
        assert browser.console_errors(driver) == []
    finally:
        driver.quit()


@pytest.mark.parametrize("line, says", [
    ("carol:$2y$05$abcdefghijklmnopqrstuuXz7U6cPbBf1vZ8o0wOeLwX1QIuP5bC", "line 2: bcrypt hashes (htpasswd -B) cannot be read"),
    ("dave:plain", "line 2: this kind of hash cannot be read"),
])
def test_a_file_it_cannot_read_stops_the_start(tmp_path, line, says):
    path = tmp_path / "bad.htpasswd"
    path.write_text(f"alice:{{SHA}}{base64.b64encode(hashlib.sha1(b'x').digest()).decode()}\n{line}\n")
    result = subprocess.run([BIN, "serve", "--port", "0", "--ui-auth-file", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and says in result.stderr, result.stderr
    missing = subprocess.run([BIN, "serve", "--port", "0", "--ui-auth-file", str(tmp_path / "none")], capture_output=True, text=True, timeout=30)
    assert missing.returncode != 0 and "--ui-auth-file: cannot read" in missing.stderr, missing.stderr
