"""The web inbox (/emulator/ui/) in Debian's Chromium, driven by Selenium: a device registered in
the page, sends from firebase-admin and aioapns appearing live, the messages-deleted signal, the
log's filters, uninstall, the Simulator file download, the keyboard, narrow and dark layouts,
several tabs, and a log of 10,000 messages with 10,000 more arriving. Every test ends with no
console error and no request outside the emulator (docs/inbox.md)."""
import asyncio
import http.client
import json
import os
import secrets
import ssl
import threading
import time
import urllib.parse
import uuid
from functools import partial
from http.server import HTTPServer, SimpleHTTPRequestHandler

import pytest
from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol, APNsTLSClientProtocol
from firebase_admin import messaging
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser
from api import Api
from apns_helpers import ApnsConnection, apns_headers, new_key, p8_pem, provider_token
from conftest import SANITIZER
from fcm_helpers import start_firebase_app

# A missing browser fails the tests (scripts/install-deps.sh --python installs it); only the
# sanitizer runs, which test the emulator and not its pages, leave them out.
pytestmark = pytest.mark.skipif(bool(SANITIZER), reason="the sanitizer runs leave the browser tests to make test")


@pytest.fixture(scope="module")
def driver(emulator, tmp_path_factory):
    downloads = str(tmp_path_factory.mktemp("downloads"))
    chromium = browser.start(download_dir=downloads)
    chromium.downloads = downloads
    yield chromium
    chromium.quit()


@pytest.fixture
def page(driver, emulator):
    """The browser, checked after each test: no console error, nothing fetched elsewhere."""
    driver.set_window_size(*browser.WIDE)
    browser.console_errors(driver)
    # The document may stay from test to test (routes change its hash only): what it fetched
    # before was checked then, and the buffer must not fill up (it keeps 250 entries by default).
    driver.execute_script("performance.clearResourceTimings(); performance.setResourceTimingBufferSize(100000)")
    yield driver
    foreign = [url for url in browser.requested_urls(driver)
               if not url.startswith(emulator.http + "/") and not url.startswith("data:")]
    assert foreign == [], foreign
    assert browser.console_errors(driver) == []


def own_project():
    return f"inbox-{uuid.uuid4().hex[:10]}"


def open_view(driver, emulator, route):
    """Shows `route` and waits until its view is drawn (the page marks it) and events flow."""
    driver.get(f"{emulator.http}/emulator/ui/#{route}")
    browser.wait_for(lambda: driver.execute_script(
        "const main = document.getElementById('view');"
        "return main.dataset.route === (location.hash.slice(1).split('?')[0] || '/')"))
    browser.wait_for(lambda: browser.text_of(driver, "#live") == "● live")


def press(driver, label):
    """Finds the button with this text and presses it in one step: the page redraws its buttons
    as events come, so an element found first may be gone when it is clicked."""
    browser.wait_for(lambda: driver.execute_script(
        "const b = [...document.querySelectorAll('button')].find(b => b.textContent.trim() === arguments[0]);"
        "if (b) b.click(); return !!b", label))


def fcm_sender(emulator, project):
    """A persistent HTTP/1.1 connection that sends FCM messages quickly."""
    connection = http.client.HTTPConnection("127.0.0.1", emulator.port, timeout=30)

    def send(message):
        connection.request("POST", f"/v1/projects/{project}/messages:send", json.dumps({"message": message}),
                           {"content-type": "application/json", "authorization": "Bearer inbox-test"})
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, body
        return json.loads(body)["name"]
    return send


def test_a_device_registered_in_the_page_shows_an_sdk_send_without_a_reload(page, emulator):
    project = own_project()
    open_view(page, emulator, f"/p/{project}")
    page.find_element(By.NAME, "appId").send_keys("com.example.inbox")
    page.find_element(By.CSS_SELECTOR, "form[aria-label='Register a device'] button[type=submit]").click()
    token, _ = browser.wait_for(lambda: browser.text_of(page, "#device-token"))
    assert Api(emulator.http, project).call("GET", f"/emulator/v1/projects/{project}/devices/{token}")[0] == 200
    page.execute_script("window.notReloaded = true")

    app = start_firebase_app(emulator.http, project=project)
    sent_at = time.monotonic()
    messaging.send(messaging.Message(token=token, notification=messaging.Notification(title="Order shipped", body="It is on its way")), app=app)
    _, took = browser.wait_for(lambda: "Order shipped" in browser.text_of(page, "article.delivery .ios-card"), timeout=10)
    print(f"\nthe send appeared in the page {(time.monotonic() - sent_at) * 1000:.0f} ms after it was sent")
    assert took < 10
    assert page.execute_script("return window.notReloaded") is True
    card = browser.text_of(page, "article.delivery")
    assert "It is on its way" in card and "COM.EXAMPLE.INBOX" in card.upper()


def test_android_and_web_deliveries_are_previewed_as_their_devices_show_them(page, emulator):
    project = own_project()
    api = Api(emulator.http, project)
    android = api.register(platform="android", packageName="com.example.shade", channels=["news"])
    web = api.register(platform="web", origin="https://shop.example")
    send = fcm_sender(emulator, project)
    send({"token": android, "notification": {"title": "Shade title", "body": "Shade body"},
          "android": {"notification": {"channel_id": "scores", "color": "#ff0000"}}})
    open_view(page, emulator, f"/p/{project}/devices/{android}")
    card, _ = browser.wait_for(lambda: browser.text_of(page, "article.delivery .android-card"))
    assert "Shade title" in card and "Shade body" in card and "com.example.shade" in card
    assert "channel fcm_fallback_notification_channel" in card
    notes = browser.text_of(page, "article.delivery .notes")
    assert "never created channel" in notes and "launcher activity" in notes
    assert "gcm.notification.title" in browser.text_of(page, "article.delivery details")
    assert browser.find(page, "article.delivery a[download]") == []

    send({"token": web, "notification": {"title": "Sale", "body": "50% off"},
          "webpush": {"notification": {"actions": [{"action": "buy", "title": "Buy now"}]},
                      "fcm_options": {"link": "https://shop.example/sale"}}})
    open_view(page, emulator, f"/p/{project}/devices/{web}")
    card, _ = browser.wait_for(lambda: browser.text_of(page, "article.delivery .web-card"))
    assert "Sale" in card and "50% off" in card and "shop.example" in card and "Buy now" in card
    preview = browser.text_of(page, "article.delivery .preview")
    assert "A click opens https://shop.example/sale" in preview and "onBackgroundMessage" in preview
    # The web app's own switch: its service worker's handler.
    page.find_element(By.NAME, "backgroundHandler").click()
    browser.wait_for(lambda: api.call("GET", f"/emulator/v1/projects/{project}/devices/{web}")[1]["backgroundHandler"] is False)
    assert browser.find(page, "input[name=notificationServiceExtension]") == []


def test_101_queued_then_a_connect_shows_the_messages_deleted_signal(page, emulator):
    project = own_project()
    api = Api(emulator.http, project)
    token = api.register(platform="ios")
    send = fcm_sender(emulator, project)
    for index in range(101):
        send({"token": token, "data": {"n": str(index)}})
    open_view(page, emulator, f"/p/{project}/devices/{token}")
    assert browser.text_of(page, "#device-pending") == "101"
    api.connect(token)
    activity, took = browser.wait_for(lambda: "messages deleted: 101" in browser.text_of(page, ".activity") and browser.text_of(page, ".activity"))
    print(f"\nmessagesDeleted shown after {took * 1000:.0f} ms: {activity.splitlines()[0]}")
    browser.wait_for(lambda: "deleted" in browser.text_of(page, "article.delivery .badge"))


def test_the_filters_narrow_the_log(page, emulator):
    project = own_project()
    api = Api(emulator.http, project)
    apns_token = secrets.token_hex(32)
    first = api.register(platform="ios")
    second = api.register(platform="ios", apnsToken=apns_token, bundleId="com.example.filters")
    send = fcm_sender(emulator, project)
    send({"token": first, "notification": {"title": "Invoice ready", "body": "April"}})
    send({"token": second, "notification": {"title": "Weekly digest"}})
    send({"token": second, "data": {"note": "invoice INV-7"}})
    with ApnsConnection(emulator) as connection:
        pushed = connection.request(
            apns_headers(provider_token(new_key(), "INBOXKEY01", "INBOXTEAM1"), topic="com.example.filters"),
            {"aps": {"alert": {"title": "Invoice paid"}}}, path=f"/3/device/{apns_token}")
    assert pushed.status == 200, pushed.body
    api.connect(first)

    open_view(page, emulator, f"/p/{project}/messages")
    rows = lambda: len(browser.find(page, "tr[data-message]"))
    browser.wait_for(lambda: rows() == 4)
    form = page.find_element(By.CSS_SELECTOR, "form[role=search]")
    form.find_element(By.NAME, "text").send_keys("invoice")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait_for(lambda: rows() == 3)
    form = page.find_element(By.CSS_SELECTOR, "form[role=search]")
    form.find_element(By.CSS_SELECTOR, "select[name=origin] option[value=apns]").click()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait_for(lambda: rows() == 1 and "Invoice paid" in browser.text_of(page, "tr[data-message]"))
    open_view(page, emulator, f"/p/{project}/messages?state=delivered")
    browser.wait_for(lambda: rows() == 1 and "Invoice ready" in browser.text_of(page, "tr[data-message]"))
    open_view(page, emulator, f"/p/{project}/messages?token={second}")
    browser.wait_for(lambda: rows() == 3)


def test_uninstall_from_the_page_makes_the_next_sdk_send_unregistered(page, emulator):
    project = own_project()
    token = Api(emulator.http, project).register(platform="ios")
    open_view(page, emulator, f"/p/{project}/devices/{token}")
    press(page, "Uninstall")
    press(page, "Confirm: uninstall")
    browser.wait_for(lambda: page.current_url.endswith(f"#/p/{project}"))
    app = start_firebase_app(emulator.http, project=project)
    with pytest.raises(messaging.UnregisteredError):
        messaging.send(messaging.Message(token=token, data={"after": "uninstall"}), app=app)


def test_reinstall_from_the_page_opens_the_new_device(page, emulator):
    project = own_project()
    api = Api(emulator.http, project)
    token = api.register(platform="android", packageName="com.example.again")
    open_view(page, emulator, f"/p/{project}/devices/{token}")
    press(page, "Reinstall")
    press(page, "Confirm: reinstall")
    fresh, _ = browser.wait_for(lambda: (browser.text_of(page, "#device-token") or token) != token
                                and browser.text_of(page, "#device-token"))
    assert urllib.parse.unquote(page.current_url).endswith(f"/devices/{fresh}")
    assert api.call("GET", f"/emulator/v1/projects/{project}/devices/{fresh}")[1]["packageName"] == "com.example.again"
    assert api.call("GET", f"/emulator/v1/projects/{project}/devices/{token}")[0] == 404


def test_an_aioapns_push_appears_with_its_headers_and_downloads_as_a_simulator_file(page, emulator, monkeypatch):
    project = own_project()
    apns_token = secrets.token_hex(32)
    token = Api(emulator.http, project).register(platform="ios", apnsToken=apns_token, bundleId="com.example.aioapns")
    open_view(page, emulator, f"/p/{project}/devices/{token}")

    monkeypatch.setattr(APNsProductionClientProtocol, "APNS_SERVER", "localhost")
    monkeypatch.setattr(APNsTLSClientProtocol, "APNS_PORT", emulator.port)
    request = NotificationRequest(
        device_token=apns_token, push_type=PushType.ALERT, priority=10, collapse_key="score",
        message={"aps": {"alert": {"title": "Goal!", "subtitle": "Portugal 1–0", "body": "Minute 12"}, "badge": 2,
                         "sound": "default"}, "matchId": "42"})

    async def push():
        apns = APNs(key=p8_pem(new_key()), key_id="INBOXKEY02", team_id="INBOXTEAM2", topic="com.example.aioapns",
                    use_sandbox=False, ssl_context=ssl.create_default_context(cafile=emulator.ca), max_connection_attempts=1)
        try:
            return await apns.send_notification(request)
        finally:
            apns.pool.close()
    result = asyncio.run(asyncio.wait_for(push(), 20))
    assert result.is_successful, result.description

    browser.wait_for(lambda: "Goal!" in browser.text_of(page, "article.delivery .ios-card"))
    headers = {row.find_elements(By.TAG_NAME, "td")[0].text: row.find_elements(By.TAG_NAME, "td")[1].text
               for row in browser.find(page, "table.headers tbody tr")}
    assert headers["apns-push-type"] == "alert"
    assert headers["apns-topic"] == "com.example.aioapns"
    assert headers["apns-collapse-id"] == "score"
    assert headers["apns-id"].lower() == request.notification_id.lower()
    card = browser.text_of(page, "article.delivery .ios-card")
    assert "Portugal 1–0" in card and "Minute 12" in card and "badge 2" in card and "sound default" in card

    page.find_element(By.LINK_TEXT, "Download .apns").click()
    files, _ = browser.wait_for(lambda: [name for name in os.listdir(page.downloads) if name.endswith(".apns")], timeout=15)
    with open(os.path.join(page.downloads, files[0]), encoding="utf-8") as file:
        simulator = json.load(file)
    assert simulator["Simulator Target Bundle"] == "com.example.aioapns"
    assert {key: value for key, value in simulator.items() if key != "Simulator Target Bundle"} == request.message


def test_an_image_shows_only_with_mutable_content_and_the_extension(page, emulator):
    project = own_project()
    api = Api(emulator.http, project)
    token = api.register(platform="ios")
    send = fcm_sender(emulator, project)
    image = {"image": "https://images.example/cat.png"}
    send({"token": token, "notification": {"title": "with"}, "apns": {"payload": {"aps": {"mutable-content": 1}}, "fcm_options": image}})
    send({"token": token, "notification": {"title": "without"}, "apns": {"fcm_options": image}})
    open_view(page, emulator, f"/p/{project}/devices/{token}")
    browser.wait_for(lambda: len(browser.find(page, "article.delivery")) == 2)
    assert len(browser.find(page, ".ios-card .image")) == 1
    assert "mutable-content" in browser.text_of(page, ".preview")
    page.find_element(By.NAME, "notificationServiceExtension").click()
    browser.wait_for(lambda: api.call("GET", f"/emulator/v1/projects/{project}/devices/{token}")[1]["notificationServiceExtension"] is False)
    browser.wait_for(lambda: len(browser.find(page, ".ios-card .image")) == 0)
    assert "no notification service extension" in browser.text_of(page, ".preview")


def test_the_keyboard_alone_registers_a_device_and_every_control_has_a_label(page, emulator):
    project = own_project()
    open_view(page, emulator, f"/p/{project}")
    unlabelled = page.execute_script("""
        return [...document.querySelectorAll('input, select, textarea, button')]
          .filter(c => !(c.labels && c.labels.length) && !c.getAttribute('aria-label') && !c.textContent.trim())
          .map(c => c.outerHTML)""")
    assert unlabelled == []
    # A fresh load: the keyboard starts at the top of the document, as a person's would.
    page.refresh()
    browser.wait_for(lambda: page.execute_script("return document.getElementById('view').dataset.route") == f"/p/{project}")
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    # The first stop skips to the content, and stays on the page.
    assert page.switch_to.active_element.text == "Skip to content"
    page.switch_to.active_element.send_keys(Keys.ENTER)
    assert page.switch_to.active_element.get_attribute("id") == "view"
    assert page.execute_script("return document.getElementById('view').dataset.route") == f"/p/{project}"
    page.switch_to.active_element.send_keys(Keys.TAB)
    for _ in range(40):
        if page.switch_to.active_element.get_attribute("name") == "appId":
            break
        page.switch_to.active_element.send_keys(Keys.TAB)
    assert page.switch_to.active_element.get_attribute("name") == "appId"
    page.switch_to.active_element.send_keys("com.example.keys")
    for _ in range(10):
        page.switch_to.active_element.send_keys(Keys.TAB)
        if page.switch_to.active_element.text == "Register device":
            break
    page.switch_to.active_element.send_keys(Keys.ENTER)
    browser.wait_for(lambda: "com.example.keys" in browser.text_of(page, "dl.kv"))


def test_narrow_and_dark_layouts(page, emulator):
    project = own_project()
    token = Api(emulator.http, project).register(platform="ios")
    fcm_sender(emulator, project)({"token": token, "notification": {"title": "Narrow", "body": "A phone's width"}})
    page.set_window_size(*browser.NARROW)
    for route in ("/", f"/p/{project}", f"/p/{project}/devices/{token}", f"/p/{project}/messages"):
        open_view(page, emulator, route)
        browser.wait_for(lambda: page.execute_script("return document.querySelector('main').children.length > 0"))
        assert page.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1"), route
    light = page.execute_script("return getComputedStyle(document.body).backgroundColor")
    browser.prefer_dark(page)
    dark = page.execute_script("return getComputedStyle(document.body).backgroundColor")
    browser.prefer_dark(page, False)
    assert light != dark, (light, dark)


def test_several_tabs_share_one_event_stream(page, emulator):
    project = own_project()
    token = Api(emulator.http, project).register(platform="ios")
    first = page.current_window_handle
    tabs = []
    for _ in range(7):
        page.switch_to.new_window("tab")
        tabs.append(page.current_window_handle)
        open_view(page, emulator, f"/p/{project}/devices/{token}")
    fcm_sender(emulator, project)({"token": token, "notification": {"title": "Seven tabs"}})
    for handle in tabs:
        page.switch_to.window(handle)
        browser.wait_for(lambda: "Seven tabs" in browser.text_of(page, "article.delivery"))
    for handle in tabs:
        page.switch_to.window(handle)
        assert browser.console_errors(page) == []
        page.close()
    page.switch_to.window(first)


def test_a_page_of_another_site_cannot_change_state(page, emulator, tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>elsewhere</title>")
    server = HTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    project = own_project()
    try:
        page.get(f"http://localhost:{server.server_port}/index.html")
        sent = page.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(arguments[0], {method: 'POST', mode: 'no-cors', headers: {'content-type': 'text/plain'}, body: '{}'})
              .then(() => done('sent'), (error) => done(String(error)))""",
            f"{emulator.http}/emulator/v1/projects/{project}/devices")
    finally:
        server.shutdown()
    assert sent == "sent", sent
    status, devices = Api(emulator.http, project).call("GET", f"/emulator/v1/projects/{project}/devices")
    assert status == 200 and devices.get("devices", []) == []
    # The page above is not the emulator's: the fixture's checks are for the inbox's pages.
    browser.console_errors(page)
    page.get(f"{emulator.http}/emulator/ui/")


def test_ten_thousand_messages_keep_one_page_in_the_dom_and_the_heap_bounded(page, emulator):
    project = own_project()
    token = Api(emulator.http, project).register(platform="ios")
    send = fcm_sender(emulator, project)
    for index in range(10_000):
        send({"token": token, "data": {"n": str(index)}})
    open_view(page, emulator, f"/p/{project}/messages")
    rows = lambda: len(browser.find(page, "tr[data-message]"))
    browser.wait_for(lambda: rows() == 50)
    reads = [url for url in browser.requested_urls(page) if f"/projects/{project}/messages" in url]
    assert len(reads) == 1 and "pageSize=50" in reads[0], reads
    before = browser.heap_used(page)
    most = 0
    last = None
    for index in range(10_000):
        last = send({"token": token, "data": {"n": f"live-{index}"}})
        if index % 500 == 0:
            most = max(most, page.execute_script("return document.querySelectorAll('tr').length"))
    last_id = last.rsplit("/", 1)[1]
    _, took = browser.wait_for(lambda: page.execute_script(
        "const row = document.querySelector('tr[data-message]'); return row && row.dataset.message") == last_id, timeout=30)
    most = max(most, page.execute_script("return document.querySelectorAll('tr').length"))
    after = browser.heap_used(page)
    print(f"\n10,000 live sends: at most {most} rows in the DOM; JS heap {before / 1e6:.1f} MB → {after / 1e6:.1f} MB;"
          f" the newest shown {took * 1000:.0f} ms after the last send")
    assert most <= 51  # a page of 50 rows and the header
    assert after <= 2 * before


def test_every_action_of_the_page_is_an_admin_api_call(page, emulator):
    project = own_project()
    api = Api(emulator.http, project)
    token = api.register(platform="ios")
    device = lambda: api.call("GET", f"/emulator/v1/projects/{project}/devices/{token}")[1]
    open_view(page, emulator, f"/p/{project}/devices/{token}")

    press(page, "Open stream")
    browser.wait_for(lambda: device()["connected"])
    fcm_sender(emulator, project)({"token": token, "notification": {"title": "On the stream"}})
    browser.wait_for(lambda: "stream: notification d-" in browser.text_of(page, ".activity"))
    press(page, "Close stream")
    browser.wait_for(lambda: not device()["connected"])
    press(page, "Connect once")
    browser.wait_for(lambda: "connected: 0 notification(s) received" in browser.text_of(page, ".activity"))
    browser.wait_for(lambda: page.execute_script(
        "const s = document.querySelector('select[name=appState]'); if (!s) return false;"
        "s.value = 'foreground'; s.dispatchEvent(new Event('change')); return true"))
    browser.wait_for(lambda: device()["appState"] == "foreground")

    seconds = page.find_element(By.ID, "clock-seconds")
    seconds.clear()
    seconds.send_keys("7200")
    press(page, "Advance")
    browser.wait_for(lambda: api.call("GET", "/emulator/v1/clock")[1]["offsetSeconds"] == 7200)
    browser.wait_for(lambda: "(+7200 s)" in browser.text_of(page, "#clock-now"))
    press(page, "Reset clock")
    browser.wait_for(lambda: api.call("GET", "/emulator/v1/clock")[1]["offsetSeconds"] == 0)

    open_view(page, emulator, f"/p/{project}")
    faults = lambda: api.call("GET", f"/emulator/v1/projects/{project}/faults")[1]["faults"]
    text = page.find_element(By.NAME, "fault")
    text.clear()
    text.send_keys(json.dumps({"match": {"token": token}, "error": "UNAVAILABLE", "times": 2}))
    press(page, "Add fault")
    browser.wait_for(lambda: len(faults()) == 1)
    fault_id = faults()[0]["id"]
    press(page, f"Remove fault {fault_id}")
    browser.wait_for(lambda: faults() == [])
    press(page, "Reset project")
    press(page, "Confirm: reset project")
    browser.wait_for(lambda: api.call("GET", f"/emulator/v1/projects/{project}/devices")[1].get("devices", []) == [])
    browser.wait_for(lambda: "No devices" in browser.text_of(page, "section"))
