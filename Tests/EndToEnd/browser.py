"""Debian's Chromium, driven by Selenium through Debian's chromedriver, for the web inbox's tests
and its screenshots (scripts/inbox-screenshots.py). Headless; nothing is downloaded."""
import os
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

CHROMIUM = os.environ.get("PUSH_EMULATOR_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("PUSH_EMULATOR_CHROMEDRIVER", "/usr/bin/chromedriver")
WIDE = (1280, 900)
NARROW = (390, 844)


def start(download_dir=None, size=WIDE):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={size[0]},{size[1]}", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--metrics-recording-only", "--force-color-profile=srgb",
                     "--hide-scrollbars"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if download_dir:
        options.add_experimental_option("prefs", {
            "download.default_directory": download_dir, "download.prompt_for_download": False,
            "safebrowsing.enabled": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(30)
    return driver


def wait_for(predicate, timeout=10.0, interval=0.02):
    """Polls `predicate` until it gives something true; returns it and the seconds it took."""
    started = time.monotonic()
    while True:
        value = predicate()
        if value:
            return value, time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise AssertionError(f"not within {timeout} s")
        time.sleep(interval)


def find(driver, css):
    return driver.find_elements(By.CSS_SELECTOR, css)


def text_of(driver, css):
    """The rendered text of every element `css` selects, read at once (the page redraws as events come)."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.innerText).join(' ')", css)


def console_errors(driver):
    """The console's errors since the last call (Chromium hands each entry once)."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def requested_urls(driver):
    """Every URL the page fetched (resource timing), the document's own included."""
    return driver.execute_script(
        "return [location.href].concat(performance.getEntriesByType('resource').map(e => e.name))")


def heap_used(driver):
    """The page's JS heap in bytes after a forced collection (DevTools protocol)."""
    driver.execute_cdp_cmd("HeapProfiler.enable", {})
    for _ in range(2):
        driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    return driver.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"]


def prefer_dark(driver, dark=True):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
