"""Writes the web inbox's screenshots (docs/images/) from Debian's Chromium, and measures how long a
send takes to appear in an open page: `make screenshots` (docs/inbox.md).

Usage: inbox-screenshots.py BINARY OUTPUT_DIR"""
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "EndToEnd"))
os.environ["PUSH_EMULATOR_BIN"] = sys.argv[1]

import browser  # noqa: E402
from api import Api  # noqa: E402
from apns_helpers import ApnsConnection, apns_headers, new_key, provider_token  # noqa: E402
from conftest import Emulator  # noqa: E402

PROJECT = "demo-shop"
APNS_TOKEN = "5f3c" * 16


def seed(emulator):
    """A shop's project: three iPhones in each app state, an Android phone and a browser, and the
    notifications a backend sends."""
    api = Api(emulator.http, PROJECT)
    phone = api.register(platform="ios", bundleId="com.example.shop", apnsToken=APNS_TOKEN, appState="background")
    open_app = api.register(platform="ios", bundleId="com.example.shop", appState="foreground")
    api.register(platform="ios", bundleId="com.example.shop", appState="notRunning", notificationServiceExtension=False)
    sends = [
        {"token": open_app, "notification": {"title": "Flash sale", "body": "20% off shoes until midnight"}},
        {"token": phone, "data": {"cartId": "c-981", "action": "sync"},
         "apns": {"headers": {"apns-push-type": "background", "apns-priority": "5"}, "payload": {"aps": {"content-available": 1}}}},
        {"token": phone, "notification": {"title": "Your order shipped", "body": "Order #4411 is on its way. Track it in the app."},
         "data": {"orderId": "4411"},
         "apns": {"payload": {"aps": {"mutable-content": 1, "badge": 3, "sound": "default"}},
                  "fcm_options": {"image": "https://cdn.example.com/parcel.png"}}},
    ]
    android = api.register(platform="android", packageName="com.example.shop", channels=["orders"])
    web = api.register(platform="web", origin="https://shop.example")
    sends += [
        {"token": android, "notification": {"title": "Your order shipped", "body": "Order #4411 is on its way."},
         "data": {"orderId": "4411"},
         "android": {"notification": {"channel_id": "orders", "color": "#0b63ce", "tag": "order-4411",
                                      "click_action": "OPEN_ORDER", "image": "https://cdn.example.com/parcel.png"}}},
        {"token": web, "notification": {"title": "Flash sale", "body": "20% off shoes until midnight"},
         "webpush": {"notification": {"icon": "https://shop.example/icon.png",
                                      "actions": [{"action": "shop", "title": "Shop now"}]},
                     "fcm_options": {"link": "https://shop.example/sale"}}},
    ]
    for message in sends:
        status, body = api.send(message)
        assert status == 200, body
    with ApnsConnection(emulator) as connection:
        response = connection.request(
            apns_headers(provider_token(new_key(), "SHOTKEY001", "SHOTTEAM01"), topic="com.example.shop",
                         apns_collapse_id="delivery-eta"),
            {"aps": {"alert": {"title": "Courier nearby", "subtitle": "Order #4411", "body": "Arriving in 10 minutes"},
                     "sound": "default"}, "orderId": "4411"},
            path=f"/3/device/{APNS_TOKEN}")
        assert response.status == 200, response.body
    return phone, android, web


def show(driver, emulator, route, ready_css):
    driver.get(f"{emulator.http}/emulator/ui/#{route}")
    browser.wait_for(lambda: browser.text_of(driver, "#live") == "● live" and browser.find(driver, ready_css))
    time.sleep(0.3)


def latency(driver, emulator, rounds=9):
    """Milliseconds from a send's answer to its card in an open device page, per round."""
    api = Api(emulator.http, "latency")
    token = api.register(platform="ios")
    show(driver, emulator, f"/p/latency/devices/{token}", "section")
    taken = []
    for round_ in range(rounds):
        status, _ = api.send({"token": token, "notification": {"title": f"round {round_}"}})
        assert status == 200
        started = time.monotonic()
        browser.wait_for(lambda: f"round {round_}" in browser.text_of(driver, "article.delivery .ios-card"), interval=0.005)
        taken.append((time.monotonic() - started) * 1000)
        time.sleep(0.4)
    return taken


def main():
    output = sys.argv[2]
    os.makedirs(output, exist_ok=True)
    emulator = Emulator()
    driver = browser.start()
    try:
        phone, android, web = seed(emulator)
        shots = []
        for width, size in (("wide", browser.WIDE), ("narrow", browser.NARROW)):
            driver.set_window_size(*size)
            show(driver, emulator, f"/p/{PROJECT}/messages", "tr[data-message]")
            shots.append(driver.save_screenshot(os.path.join(output, f"inbox-log-{width}.png")))
            show(driver, emulator, f"/p/{PROJECT}/devices/{phone}", "article.delivery")
            shots.append(driver.save_screenshot(os.path.join(output, f"inbox-device-{width}.png")))
            # The shipped order's card: title, body, badge, sound and its image.
            preview = [card for card in browser.find(driver, "article.delivery .preview")
                       if "Your order shipped" in card.text][0]
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", preview)
            shots.append(preview.screenshot(os.path.join(output, f"inbox-preview-{width}.png")))
        # One preview of each other platform: an Android notification-shade card, a browser notification.
        for name, token in (("android", android), ("web", web)):
            show(driver, emulator, f"/p/{PROJECT}/devices/{token}", "article.delivery .preview figure")
            preview = browser.find(driver, "article.delivery .preview")[0]
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", preview)
            shots.append(preview.screenshot(os.path.join(output, f"inbox-preview-{name}.png")))
        browser.prefer_dark(driver)
        driver.set_window_size(*browser.WIDE)
        show(driver, emulator, f"/p/{PROJECT}/devices/{phone}", "article.delivery")
        shots.append(driver.save_screenshot(os.path.join(output, "inbox-device-dark.png")))
        browser.prefer_dark(driver, False)
        assert all(shots)
        errors = browser.console_errors(driver)
        assert errors == [], errors
        taken = latency(driver, emulator)
        print(f"inbox-screenshots: wrote {len(shots)} images to {output}")
        print(f"inbox-screenshots: a send appeared in the open page after {statistics.median(taken):.0f} ms "
              f"(median of {len(taken)}; slowest {max(taken):.0f} ms)")
        print(json.dumps({"latency_ms": [round(value) for value in taken]}))
    finally:
        driver.quit()
        emulator.stop()


if __name__ == "__main__":
    main()
