"""Provider tokens under `--apns-auth strict`: the signature is verified against the `--apns-key`
files (PKCS#8 .p8, as Apple hands them out), in either form clients send (raw R‖S or DER), with
`iat` as a number or a string; a token expires an hour after its `iat` on the emulator's clock; a
connection serves one team; a new `iat` less than 20 minutes after the last one on a connection is
429 TooManyProviderTokenUpdates."""
import time

import pytest

from api import Api
from apns_helpers import (ApnsConnection, apns_headers, apns_key_option, b64url, new_key, provider_token,
                          write_p8)
from conftest import Emulator

KEY_1, KEY_ID_1, TEAM_1 = new_key(), "KEY1AAAAAA", "TEAM1AAAAA"
KEY_2, KEY_ID_2, TEAM_2 = new_key(), "KEY2BBBBBB", "TEAM2BBBBB"
ALERT = {"aps": {"alert": "great match!"}}


@pytest.fixture(scope="module")
def emu(tmp_path_factory):
    keys = tmp_path_factory.mktemp("apns-keys")
    emulator = Emulator("--apns-auth", "strict",
                        *apns_key_option(KEY_ID_1, TEAM_1, write_p8(KEY_1, keys, KEY_ID_1)),
                        *apns_key_option(KEY_ID_2, TEAM_2, write_p8(KEY_2, keys, KEY_ID_2)))
    yield emulator
    assert emulator.alive(), emulator.stderr()[-3000:]
    emulator.stop()


@pytest.fixture
def clock(emu):
    """The emulator's clock, put back after the test."""
    api = Api(emu.http)
    yield api
    assert api.reset_clock()[0] == 200


def send(conn, token):
    """(status, reason or None) of one alert sent with `token`."""
    response = conn.request(apns_headers(token), ALERT)
    return response.status, (response.json()["reason"] if response.body else None)


@pytest.mark.parametrize("signature", ["raw", "der"])
@pytest.mark.parametrize("iat_as_string", [False, True], ids=["iat-number", "iat-string"])
def test_a_token_signed_by_a_configured_key_is_accepted(emu, signature, iat_as_string):
    token = provider_token(KEY_1, KEY_ID_1, TEAM_1, signature=signature, iat_as_string=iat_as_string)
    with ApnsConnection(emu, "tls-no-alpn") as conn:
        assert send(conn, token) == (200, None)
        # The same token again: nothing is renewed.
        assert send(conn, token) == (200, None)


def test_the_second_key_of_another_team_works_on_its_own_connection(emu):
    with ApnsConnection(emu) as conn:
        assert send(conn, provider_token(KEY_2, KEY_ID_2, TEAM_2)) == (200, None)


def test_no_token_is_missing_provider_token(emu):
    with ApnsConnection(emu) as conn:
        response = conn.request([(n, v) for n, v in apns_headers("x") if n != "authorization"], ALERT)
    assert (response.status, response.json()) == (403, {"reason": "MissingProviderToken"})


@pytest.mark.parametrize("case", ["unknown key id", "signed by another key", "signature bytes changed",
                                  "team not the key's", "signature cut short"])
def test_a_token_that_does_not_verify_is_invalid_provider_token(emu, case):
    if case == "unknown key id":
        token = provider_token(KEY_1, "UNKNOWNKEY", TEAM_1)
    elif case == "signed by another key":
        token = provider_token(new_key(), KEY_ID_1, TEAM_1)
    elif case == "signature bytes changed":
        head, claims, signature = provider_token(KEY_1, KEY_ID_1, TEAM_1).split(".")
        token = ".".join([head, claims, b64url(b"\x00" * 64)])
    elif case == "team not the key's":
        token = provider_token(KEY_1, KEY_ID_1, TEAM_2)
    else:
        token = provider_token(KEY_1, KEY_ID_1, TEAM_1)[:-8]
    with ApnsConnection(emu) as conn:
        assert send(conn, token) == (403, "InvalidProviderToken")


def test_a_token_older_than_an_hour_is_expired(emu):
    with ApnsConnection(emu) as conn:
        assert send(conn, provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=int(time.time()) - 3601)) == \
            (403, "ExpiredProviderToken")


def test_a_token_expires_on_the_emulator_clock_also_on_its_connection(emu, clock):
    token = provider_token(KEY_1, KEY_ID_1, TEAM_1)
    with ApnsConnection(emu) as conn:
        assert send(conn, token) == (200, None)
        assert clock.advance(3601)[0] == 200
        # A verified token is kept by the connection; its age is still checked on every request.
        assert send(conn, token) == (403, "ExpiredProviderToken")
    with ApnsConnection(emu) as conn:
        assert send(conn, token) == (403, "ExpiredProviderToken")


def test_an_older_token_used_after_a_newer_one_expires_by_its_own_iat(emu, clock):
    # A request still carrying the token from before the client renewed becomes the one the
    # connection keeps; its age must be measured from its own iat, not the newer token's.
    now = int(time.time())
    newer = provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=now)
    older = provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=now - 3500)
    with ApnsConnection(emu) as conn:
        assert send(conn, newer) == (200, None)
        assert send(conn, older) == (200, None)
        assert clock.advance(200)[0] == 200
        assert send(conn, older) == (403, "ExpiredProviderToken")
        assert send(conn, newer) == (200, None)
        assert send(conn, older) == (403, "ExpiredProviderToken")
    with ApnsConnection(emu) as conn:
        assert send(conn, older) == (403, "ExpiredProviderToken")


def test_a_second_team_on_one_connection_is_refused(emu):
    with ApnsConnection(emu, "tls-alpn-h2") as conn:
        assert send(conn, provider_token(KEY_1, KEY_ID_1, TEAM_1)) == (200, None)
        assert send(conn, provider_token(KEY_2, KEY_ID_2, TEAM_2)) == (403, "InvalidProviderToken")
        # The connection still serves its first team.
        assert send(conn, provider_token(KEY_1, KEY_ID_1, TEAM_1)) == (200, None)


def test_a_new_token_within_20_minutes_is_too_many_updates(emu, clock):
    now = int(time.time())
    with ApnsConnection(emu) as conn:
        assert send(conn, provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=now - 60)) == (200, None)
        assert send(conn, provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=now)) == (429, "TooManyProviderTokenUpdates")
        # 20 minutes later on the emulator's clock, a renewed token is taken.
        assert clock.advance(1201)[0] == 200
        assert send(conn, provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=now + 1201)) == (200, None)
    # Another connection has its own count.
    with ApnsConnection(emu) as conn:
        assert send(conn, provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=now + 1201)) == (200, None)


@pytest.mark.parametrize("transport", ["h2c", "tls-alpn-h2"])
def test_each_change_of_a_repeated_token_on_a_connection_is_read(emu, transport):
    # Clients send the token never indexed, Huffman-coded in full in every request, and the
    # connection keeps its accepted token: a changed token must be read as sent, and the old one
    # again after it.
    now = int(time.time())
    team_1 = provider_token(KEY_1, KEY_ID_1, TEAM_1, iat=now - 60)
    team_2 = provider_token(KEY_2, KEY_ID_2, TEAM_2, iat=now - 60)
    cut_short = team_1[:-8]
    with ApnsConnection(emu, transport) as conn:
        for token, expected in [(team_1, (200, None)), (team_2, (403, "InvalidProviderToken")),
                                (cut_short, (403, "InvalidProviderToken")), (team_1, (200, None))]:
            for _ in range(4):
                assert send(conn, token) == expected
