"""SPEC 2: MCP and REST request rates per token (per session user, else per IP), 429 with Retry-After in each
door's error shape, shared across processes through Redis."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.test import Client, override_settings

from accounts.tokens import token_create
from emdash import ratelimit
from emdash.edge import door_limits
from tests.factories import make_user

pytestmark = pytest.mark.django_db

MCP = "/_emdash/api/mcp"
REST = "/_emdash/api/taxonomies"
LOW = override_settings(EMDASH={"RATE_LIMITS": "mcp=3/m,rest=3/m"})


def _token(role: str = "editor") -> str:
    return token_create(user=make_user(role), name="t", scopes="admin").raw


def _mcp(token: str | None = None, ip: str = "10.1.0.1", request_id: int = 7):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": {}}
    return Client(REMOTE_ADDR=ip).post(MCP, body, content_type="application/json", **headers)


def _rest(token: str | None = None, ip: str = "10.1.0.1", client: Client | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return (client or Client(REMOTE_ADDR=ip)).get(REST, **headers)


@LOW
def test_mcp_answers_429_with_retry_after_and_a_json_rpc_error_per_token():
    token, other = _token(), _token()
    assert [_mcp(token).status_code for _ in range(3)] == [200, 200, 200]
    limited = _mcp(token, request_id=42)
    assert limited.status_code == 429
    assert 1 <= int(limited["Retry-After"]) <= 60
    body = limited.json()
    assert body["jsonrpc"] == "2.0" and body["id"] == 42
    assert body["error"]["code"] == door_limits.RATE_LIMITED_CODE == -32029
    assert body["error"]["data"]["retryAfter"] == int(limited["Retry-After"])
    assert _mcp(other).status_code == 200  # another token has its own count
    assert _mcp(token, ip="10.1.0.99").status_code == 429  # a token's count does not depend on the IP


@LOW
def test_rest_answers_429_with_the_rest_error_shape_per_token():
    token, other = _token(), _token()
    assert [_rest(token).status_code for _ in range(3)] == [200, 200, 200]
    limited = _rest(token)
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1
    assert limited.json()["error"]["code"] == "RATE_LIMITED"
    assert _rest(other).status_code == 200
    assert _mcp(token).status_code == 200  # each door counts separately


@LOW
def test_anonymous_callers_are_counted_per_ip():
    assert [_mcp(ip="10.2.0.1").status_code for _ in range(3)] == [401, 401, 401]
    assert _mcp(ip="10.2.0.1").status_code == 429
    assert _mcp(ip="10.2.0.2").status_code == 401
    assert [_rest(ip="10.3.0.1").status_code for _ in range(3)] == [200, 200, 200]
    assert _rest(ip="10.3.0.1").status_code == 429
    assert _rest(ip="10.3.0.2").status_code == 200


@LOW
def test_session_callers_are_counted_per_user_not_per_ip():
    user = make_user("editor")
    browser = Client(REMOTE_ADDR="10.4.0.1")
    browser.force_login(user)
    assert [_rest(client=browser).status_code for _ in range(3)] == [200, 200, 200]
    assert _rest(client=browser).status_code == 429
    assert _rest(ip="10.4.0.1").status_code == 200  # an anonymous caller from the same address is not


@override_settings(EMDASH={"RATE_LIMITS": "mcp=off,rest=2/m"})
def test_a_door_can_be_switched_off():
    token = _token()
    assert all(_mcp(token).status_code == 200 for _ in range(5))
    assert [_rest(token).status_code for _ in range(3)] == [200, 200, 429]


def test_the_oauth_endpoints_keep_their_own_limits():
    assert door_limits.door_for("/_emdash/api/oauth/token") is None
    assert door_limits.door_for("/_emdash/api/mcp") == "mcp"
    assert door_limits.door_for("/_emdash/api/content/posts") == "rest"
    assert door_limits.door_for("/_emdash/admin/") is None


def test_the_default_limits_and_the_rate_syntax():
    assert door_limits.rate_for("mcp") == ratelimit.Rate(600, 60)
    assert door_limits.rate_for("rest") == ratelimit.Rate(600, 60)
    assert ratelimit.parse_rate("10/15m") == ratelimit.Rate(10, 900)
    assert ratelimit.parse_rates("mcp=5000/h, rest=off") == {"mcp": ratelimit.Rate(5000, 3600), "rest": None}
    for bad in ("600", "x/m", "600/w", "600/0m"):
        with pytest.raises(ValueError):
            ratelimit.parse_rate(bad)
    with pytest.raises(ValueError):
        ratelimit.parse_rates("mcp")


def test_a_malformed_setting_is_a_system_check_error():
    with override_settings(EMDASH={"RATE_LIMITS": "mcp=lots"}):
        assert [e.id for e in door_limits.check_config()] == ["emdash.E010"]
    assert door_limits.check_config() == []


REDIS_URL = os.environ.get("EMDASH_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
_COUNT_IN_ANOTHER_PROCESS = """
import django, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
django.setup()
from django.conf import settings
settings.CACHES["default"]["KEY_PREFIX"] = sys.argv[1]
from emdash import ratelimit
print([ratelimit.hit("door.mcp", "token:shared", ratelimit.Rate(3, 60)) for _ in range(3)])
"""


def _redis_or_skip() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:  # loud: this is the only proof that processes share counts
        pytest.skip(f"REDIS NOT REACHABLE at {REDIS_URL} ({exc}): the cross-process rate-limit test did NOT run")


def test_two_processes_share_one_count_through_redis():
    _redis_or_skip()
    prefix = f"wt-auth-test-{uuid.uuid4().hex}"
    cache_settings = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": prefix,
        }
    }
    if time.time() % 60 > 45:  # both processes must count in the same one-minute window
        time.sleep(61 - time.time() % 60)
    env = {**os.environ, "REDIS_URL": REDIS_URL}
    root = Path(__file__).resolve().parents[2]
    other = subprocess.run(
        [sys.executable, "-c", _COUNT_IN_ANOTHER_PROCESS, prefix], env=env, cwd=root, capture_output=True, text=True
    )
    assert other.returncode == 0, other.stderr[-2000:]
    assert other.stdout.strip().splitlines()[-1] == "[None, None, None]"
    with override_settings(CACHES=cache_settings):  # the keys expire with their window; the prefix is unique
        wait = ratelimit.hit("door.mcp", "token:shared", ratelimit.Rate(3, 60))
        assert wait is not None and 1 <= wait <= 60  # the 4th event, counted by this process
        assert ratelimit.hit("door.mcp", "token:other", ratelimit.Rate(3, 60)) is None


SEARCH_PAGE = "/search/"


@override_settings(EMDASH={"RATE_LIMITS": "search=2/m"})
def test_the_public_search_page_answers_429_past_its_rate_per_visitor():
    visitor = Client(REMOTE_ADDR="10.2.0.1")
    assert [visitor.get(SEARCH_PAGE, {"q": q}).status_code for q in ("apple", "pear")] == [200, 200]
    assert visitor.get(SEARCH_PAGE).status_code == 200  # the empty form runs no search: not counted
    limited = visitor.get(SEARCH_PAGE, {"q": "plum"})
    assert limited.status_code == 429
    assert 1 <= int(limited["Retry-After"]) <= 60 and limited["Cache-Control"] == "no-store"
    page = limited.content.decode()
    assert "Too many searches from your address" in page and 'value="plum"' in page  # the form keeps the query
    assert Client(REMOTE_ADDR="10.2.0.2").get(SEARCH_PAGE, {"q": "plum"}).status_code == 200  # another visitor


@override_settings(EMDASH={"RATE_LIMITS": "search=1/m"})
def test_a_search_page_still_current_is_not_counted():
    visitor = Client(REMOTE_ADDR="10.2.0.3")
    first = visitor.get(SEARCH_PAGE, {"q": "apple"})
    assert first.status_code == 200
    again = [visitor.get(SEARCH_PAGE, {"q": "apple"}, HTTP_IF_NONE_MATCH=first["ETag"]).status_code for _ in range(3)]
    assert again == [304, 304, 304]
    assert visitor.get(SEARCH_PAGE, {"q": "pear"}).status_code == 429


@override_settings(EMDASH={"RATE_LIMITS": "search=off"})
def test_the_search_page_limit_can_be_turned_off():
    visitor = Client(REMOTE_ADDR="10.2.0.4")
    assert {visitor.get(SEARCH_PAGE, {"q": f"w{i}"}).status_code for i in range(5)} == {200}
