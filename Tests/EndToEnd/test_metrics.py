"""GET /metrics: Prometheus' text format, read with prometheus_client's parser, and counters that
move with requests (docs/server.md, "Metrics")."""
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from api import Api

SEND_ROUTE = "/v1/projects/{project}/messages:send"


def scrape(emulator):
    """Every sample of /metrics, by (name, sorted labels)."""
    with urllib.request.urlopen(f"{emulator.http}/metrics", timeout=20) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


def requests(samples, route, method, status):
    return value(samples, "push_emulator_http_requests_total", route=route, method=method, status=str(status))


def test_metrics_parse_and_list_the_state_gauges(emulator):
    samples = scrape(emulator)
    for state in ("pending", "delivered", "expired", "collapsed", "deleted", "dropped"):
        assert ("push_emulator_deliveries", (("state", state),)) in samples
    for name in ("push_emulator_pending_deliveries", "push_emulator_devices", "push_emulator_connected_devices"):
        assert (name, ()) in samples


def test_a_send_moves_its_route_and_send_counters_by_one(emulator):
    api = Api(emulator.http, project="metrics-send")
    token = api.register(platform="ios")
    before = scrape(emulator)
    status, body = api.send({"token": token, "data": {"k": "v"}})
    assert status == 200, body
    after = scrape(emulator)
    assert requests(after, SEND_ROUTE, "POST", 200) - requests(before, SEND_ROUTE, "POST", 200) == 1
    accepted = ("push_emulator_sends_total", dict(origin="fcm", outcome="accepted"))
    assert value(after, accepted[0], **accepted[1]) - value(before, accepted[0], **accepted[1]) == 1
    # The device never connected: its message waits.
    assert value(after, "push_emulator_pending_deliveries") - value(before, "push_emulator_pending_deliveries") == 1
    assert value(after, "push_emulator_deliveries", state="pending") >= 1
    assert value(after, "push_emulator_devices") >= 1


def test_an_unregistered_token_counts_as_unregistered(emulator):
    api = Api(emulator.http, project="metrics-unregistered")
    token = api.register(platform="ios")
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{token}")[0] in (200, 204)
    before = scrape(emulator)
    status, body = api.send({"token": token})
    assert status == 404, body
    after = scrape(emulator)
    labels = dict(origin="fcm", outcome="unregistered")
    assert value(after, "push_emulator_sends_total", **labels) - value(before, "push_emulator_sends_total", **labels) == 1
    assert requests(after, SEND_ROUTE, "POST", 404) - requests(before, SEND_ROUTE, "POST", 404) == 1


def test_an_unknown_path_counts_under_the_unmatched_route_not_its_path(emulator):
    before = scrape(emulator)
    status, _ = Api(emulator.http).call("GET", "/no/such/path/4711")
    assert status == 404
    after = scrape(emulator)
    assert requests(after, "(unmatched)", "GET", 404) - requests(before, "(unmatched)", "GET", 404) == 1
    assert not any("4711" in dict(labels).get("route", "") for _, labels in after)


def test_a_fired_fault_counts_once_and_a_delayed_answer_under_its_status(emulator):
    api = Api(emulator.http, project="metrics-faults")
    token = api.register(platform="ios")
    faults = f"/emulator/v1/projects/{api.project}/faults"
    status, body = api.call("POST", faults, {"error": "UNAVAILABLE", "times": 1, "delayMs": 50})
    assert status in (200, 201), body
    before = scrape(emulator)
    status, body = api.send({"token": token})
    assert status == 503, body
    after = scrape(emulator)
    fired = value(after, "push_emulator_faults_fired_total", origin="fcm")
    assert fired - value(before, "push_emulator_faults_fired_total", origin="fcm") == 1
    # The delayed answer is counted when it comes, with its status (not as a 0).
    assert requests(after, SEND_ROUTE, "POST", 503) - requests(before, SEND_ROUTE, "POST", 503) == 1
    assert requests(after, SEND_ROUTE, "POST", 0) == 0
    labels = dict(origin="fcm", outcome="rejected")
    assert value(after, "push_emulator_sends_total", **labels) - value(before, "push_emulator_sends_total", **labels) == 1
    # A reset forgets the faults, not the count.
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}")[0] in (200, 204)
    assert value(scrape(emulator), "push_emulator_faults_fired_total", origin="fcm") == fired
