"""Topic subscriptions through FCM's v1 topic API and the legacy Instance ID API (one store),
and topic sends fanned out to the subscribed devices."""
import http.client
import subprocess

import pytest

from api import Api, Topics, read_sse_events
from conftest import Emulator


@pytest.fixture(scope="module")
def emu():
    emulator = Emulator()
    yield emulator
    assert emulator.alive(), emulator.stderr()[-3000:]
    emulator.stop()


@pytest.fixture
def api(emu, request):
    return Api(emu.http, project=request.node.name.replace("_", "-")[:30].lower())


@pytest.fixture
def topics(api):
    return Topics(api)


def test_v1_create_get_list_delete(api, topics):
    token = api.register()
    status, body = topics.subscribe(token, "news")
    assert status == 200
    assert body["name"] == f"projects/{api.project}/registrations/{token}/topicSubscriptions/news"
    assert body["topicName"] == "news" and body["createTime"].endswith("Z")
    # The SDK's spelling of the parameter works too; a second subscription is 409.
    status, body = topics.subscribe(token, "news", name="topic_name")
    assert status == 409 and body["error"]["status"] == "ALREADY_EXISTS"
    assert topics.subscribe(token, "sports", name="topic_name")[0] == 200
    status, body = topics.get(token, "sports")
    assert status == 200 and body["topicName"] == "sports"
    status, body = topics.get(token)
    assert status == 200 and [s["topicName"] for s in body["topicSubscriptions"]] == ["news", "sports"]
    status, first = topics.get(token, query="?pageSize=1")
    assert [s["topicName"] for s in first["topicSubscriptions"]] == ["news"]
    status, second = topics.get(token, query=f"?pageSize=1&pageToken={first['nextPageToken']}")
    assert [s["topicName"] for s in second["topicSubscriptions"]] == ["sports"] and "nextPageToken" not in second
    status, device = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{token}")
    assert device["topics"] == ["news", "sports"]
    assert topics.unsubscribe(token, "news") == (200, {})
    status, body = topics.unsubscribe(token, "news")
    assert status == 404 and body["error"]["status"] == "NOT_FOUND"
    assert topics.unsubscribe(token, "news", "?allowMissing=true") == (200, {})
    assert topics.unsubscribe(token, "news", "?allow_missing=true") == (200, {})
    status, body = topics.get(token, "news")
    assert status == 404 and body["error"]["status"] == "NOT_FOUND"
    assert topics.listed() == {"news": 0, "sports": 1}


def test_v1_errors(api, topics):
    token = api.register()
    status, body = topics.subscribe(token, "bad%20topic!")
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
    assert "a-z A-Z 0-9" in body["error"]["message"]
    status, body = api.call("POST", topics.v1_path(token), {}, topics.auth)
    assert status == 400 and "topicName" in body["error"]["message"]
    status, body = topics.subscribe("bad%20token!", "news")
    assert status == 400 and body["error"]["details"][0]["errorCode"] == "INVALID_ARGUMENT"
    assert api.call("DELETE", f"/emulator/v1/projects/{api.project}/devices/{token}")[0] == 200
    status, body = topics.subscribe(token, "news")
    assert status == 404 and body["error"]["details"][0]["errorCode"] == "UNREGISTERED"
    status, body = api.call("POST", topics.v1_path(token) + "?topicName=news", {})
    assert status == 401 and body["error"]["status"] == "UNAUTHENTICATED"
    status, body = api.call("POST", topics.v1_path(token) + "?topicName=news", {"unknown": 1}, topics.auth)
    assert status == 400 and "Unknown name" in body["error"]["message"]


def test_one_topic_length_rule_for_every_api(api, topics):
    # A 901-character topic was refused by the subscription APIs but accepted by a send.
    token = api.register()
    longest, too_long = "a" * 900, "a" * 901
    for send in ({"topic": too_long}, {"condition": f"'{too_long}' in topics"}, {"topic": "b" * 100000}):
        status, body = api.send(send)
        assert status == 400, (status, body)
        assert body["error"]["status"] == "INVALID_ARGUMENT" and "use 1 to 900 of the characters" in body["error"]["message"]
        assert body["error"]["details"][-1]["errorCode"] == "INVALID_ARGUMENT"
    status, body = topics.subscribe(token, too_long)
    assert status == 400 and "use 1 to 900 of the characters" in body["error"]["message"]
    for operation in ("batchAdd", "batchRemove"):
        status, body = topics.batch(operation, f"/topics/{too_long}", [token])
        assert status == 400 and body["error"] == "INVALID_ARGUMENT", (operation, status, body)
    assert topics.subscribe(token, longest)[0] == 200
    assert api.send({"topic": longest})[0] == 200
    assert api.send({"condition": f"'{longest}' in topics"})[0] == 200


def test_v1_strict_mode_knows_only_registered_devices(start_emulator):
    emu = start_emulator("--tokens", "strict")
    topics = Topics(Api(emu.http))
    status, body = topics.subscribe("never-seen:APA91bX", "news")
    assert status == 404 and body["error"]["status"] == "NOT_FOUND"


def test_lenient_mode_registers_an_unknown_token_on_subscribe(api, topics):
    assert topics.subscribe("made-up:APA91bToken", "news")[0] == 200
    status, device = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/made-up:APA91bToken")
    assert status == 200 and device["topics"] == ["news"]


def test_iid_batch_add_and_remove_with_mixed_tokens(api, topics):
    first, second = api.register(), api.register()
    status, body = topics.batch("batchAdd", "/topics/movies", [first, "unknown:APA91bNobody", "bad token!", second])
    assert status == 200
    assert body == {"results": [{}, {"error": "NOT_FOUND"}, {"error": "INVALID_ARGUMENT"}, {}]}
    assert topics.listed() == {"movies": 2}
    status, body = topics.batch("batchAdd", "/topics/movies", [first])
    assert (status, body) == (200, {"results": [{}]})
    status, body = topics.batch("batchRemove", "/topics/movies", [first, "unknown:APA91bNobody"])
    assert body == {"results": [{}, {"error": "NOT_FOUND"}]}
    assert topics.listed() == {"movies": 1}


def test_iid_whole_request_errors(api, topics):
    token = api.register()
    for body in [{"registration_tokens": [token]}, {"to": "movies", "registration_tokens": [token]},
                 {"to": "/topics/bad name", "registration_tokens": [token]}, {"to": "/topics/movies"},
                 {"to": "/topics/movies", "registration_tokens": []},
                 {"to": "/topics/movies", "registration_tokens": [1]},
                 {"to": "/topics/movies", "registration_tokens": [token] * 1001}]:
        status, answer = api.call("POST", "/iid/v1:batchAdd", body, topics.auth)
        assert status == 400 and answer["error"] == "INVALID_ARGUMENT" and answer["message"], body
    status, answer = api.call("POST", "/iid/v1:batchAdd", b"{not json", topics.auth)
    assert status == 400 and answer["error"] == "INVALID_ARGUMENT"
    status, answer = api.call("POST", "/iid/v1:batchAdd", {"to": "/topics/x", "registration_tokens": [token]})
    assert status == 401 and answer["error"] == "UNAUTHENTICATED"
    status, answer = topics.batch("batchAdd", "/topics/movies", [token] * 1000)
    assert status == 200 and len(answer["results"]) == 1000


def test_iid_rel_and_info(api, topics):
    token = api.register(bundleId="com.acme.news")
    status, body = api.call("POST", f"/iid/v1/{token}/rel/topics/weather", b"", topics.auth)
    assert (status, body) == (200, {})
    status, body = api.call("POST", "/iid/v1/unknown:APA91bNobody/rel/topics/weather", b"", topics.auth)
    assert status == 404 and body["error"] == "NOT_FOUND"
    status, info = topics.info(token)
    assert status == 200
    assert info["application"] == "com.acme.news" and info["platform"] == "IOS" and info["authorizedEntity"].isdigit()
    assert list(info["rel"]["topics"]) == ["weather"] and len(info["rel"]["topics"]["weather"]["addDate"]) == 10
    assert "rel" not in topics.info(token, details=False)[1]
    status, body = topics.info("unknown:APA91bNobody")
    assert status == 404 and body["error"] == "No information found about this instance id."


def test_one_store_behind_both_apis(api, topics):
    token = api.register()
    assert topics.batch("batchAdd", "/topics/shared", [token])[1] == {"results": [{}]}
    status, body = topics.get(token, "shared")
    assert status == 200 and body["topicName"] == "shared"
    assert topics.subscribe(token, "v1-made")[0] == 200
    assert sorted(topics.info(token)[1]["rel"]["topics"]) == ["shared", "v1-made"]
    assert topics.batch("batchRemove", "/topics/v1-made", [token])[1] == {"results": [{}]}
    assert topics.get(token, "v1-made")[0] == 404


def test_topic_send_reaches_exactly_the_subscribers(emu, api, topics):
    offline, online, outsider = api.register(), api.register(), api.register()
    for token in (offline, online):
        assert topics.subscribe(token, "scores")[0] == 200
    curl = subprocess.Popen(["curl", "-sN", "--http2-prior-knowledge",
                             f"{emu.http}/emulator/v1/projects/{api.project}/devices/{online}:stream"],
                            stdout=subprocess.PIPE)
    try:
        status, _ = api.call("GET", f"/emulator/v1/projects/{api.project}/devices/{online}")
        status, body = api.send({"topic": "scores", "data": {"score": "3x1"}})
        assert status == 200 and body["name"].startswith(f"projects/{api.project}/messages/")
        [live] = read_sse_events(curl.stdout, 1)
        assert live["payload"]["score"] == "3x1"
    finally:
        curl.terminate()
        curl.wait()
    [queued] = api.connect(offline)
    assert queued["payload"]["score"] == "3x1" and queued["messageName"] == body["name"]
    assert api.connect(outsider) == []
    status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?topic=scores")
    [entry] = log["messages"]
    assert entry["target"] == {"topic": "scores"}
    assert sorted(d["token"] for d in entry["deliveries"]) == sorted([offline, online])


def test_topic_send_to_a_topic_without_subscribers_is_accepted(api):
    status, body = api.send({"topic": "empty-room", "data": {"a": "b"}})
    assert status == 200 and "name" in body


def test_topic_messages_are_limited_to_2048_bytes(api, topics):
    token = api.register()
    assert topics.subscribe(token, "big")[0] == 200
    status, body = api.send({"topic": "big", "data": {"k": "x" * 2100}})
    assert status == 400 and "2048" in body["error"]["message"]
    assert api.send({"token": token, "data": {"k": "x" * 2100}})[0] == 200


def test_condition_send_reaches_exactly_the_matching_devices(emu, api, topics):
    plain, news, news_sports, muted = (api.register() for _ in range(4))
    for token, names in [(news, ["news"]), (news_sports, ["news", "sports"]), (muted, ["news", "muted"])]:
        for name in names:
            assert topics.subscribe(token, name)[0] == 200
    curl = subprocess.Popen(["curl", "-sN", "--http1.1",
                             f"{emu.http}/emulator/v1/projects/{api.project}/devices/{news_sports}:stream"],
                            stdout=subprocess.PIPE)
    try:
        status, body = api.send({"condition": "'news' in topics && !('muted' in topics)", "data": {"k": "v"}})
        assert status == 200, body
        [live] = read_sse_events(curl.stdout, 1)
        assert live["messageName"] == body["name"]
    finally:
        curl.terminate()
        curl.wait()
    assert [e["messageName"] for e in api.connect(news)] == [body["name"]]
    assert api.connect(plain) == [] and api.connect(muted) == []
    # Negation matches devices with no subscriptions at all.
    status, body = api.send({"condition": "!(\"news\" in topics)", "data": {"k": "v"}})
    assert [e["messageName"] for e in api.connect(plain)] == [body["name"]]
    status, log = api.call("GET", f"/emulator/v1/projects/{api.project}/messages?topic=muted")
    assert [m["target"] for m in log["messages"]] == [{"condition": "'news' in topics && !('muted' in topics)"}]


@pytest.mark.parametrize("condition, gist", [
    ("'a' in topics &&", "found the end of the condition"),
    ("('a' in topics", "never closed"),
    ("'a' in topics & 'b' in topics", "write `&&`"),
    ("'a' in topic", "in topics"),
    (" || ".join(f"'t{n}' in topics" for n in range(6)), "at most 5"),
])
def test_malformed_conditions_are_invalid_argument(api, condition, gist):
    status, body = api.send({"condition": condition, "data": {"k": "v"}})
    assert status == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
    assert gist in body["error"]["message"]
    assert body["error"]["details"][0]["fieldViolations"][0]["field"] == "message.condition"


def test_a_device_holds_at_most_2000_topics_through_either_api(emu, api, topics):
    token = api.register()
    conn = http.client.HTTPConnection("127.0.0.1", emu.port, timeout=20)
    for n in range(2000):
        conn.request("POST", f"/iid/v1/{token}/rel/topics/t{n}", b"", topics.auth)
        response = conn.getresponse()
        assert response.status == 200, response.read()
        response.read()
    conn.close()
    status, body = topics.subscribe(token, "one-more")
    assert status == 400 and body["error"]["status"] == "FAILED_PRECONDITION"
    assert body["error"]["details"][0]["reason"] == "TOO_MANY_TOPICS"
    assert topics.batch("batchAdd", "/topics/one-more", [token])[1] == {"results": [{"error": "TOO_MANY_TOPICS"}]}
    status, body = api.call("POST", f"/iid/v1/{token}/rel/topics/one-more", b"", topics.auth)
    assert status == 400 and body["error"] == "TOO_MANY_TOPICS"
    assert len(topics.info(token)[1]["rel"]["topics"]) == 2000
