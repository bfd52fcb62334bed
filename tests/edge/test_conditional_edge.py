"""The conditional-GET edge (emdash/edge/conditional.py): the site's WSGI application answers an anonymous,
still-current conditional GET with its 304 before Django's handler, with the headers the chain gives the 200,
and leaves everything else to Django (issue 27 goal 3)."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config.wsgi import application
from content.entries import services
from tests.factories import SYSTEM

API = "/_emdash/api/content/posts"


@contextmanager
def _in_test_transaction() -> Iterator[None]:
    # As Django's test client does: the request signals would close the test's connection (its open transaction).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def wsgi_get(path: str, method: str = "GET", **headers: str) -> tuple[int, dict[str, str], bytes]:
    """One request through ``config.wsgi.application``, as gunicorn sends it."""
    route, _, query = path.partition("?")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": route,
        "QUERY_STRING": query,
        "SCRIPT_NAME": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    environ.update({"HTTP_" + name.upper(): value for name, value in headers.items()})
    started: list[Any] = []
    with _in_test_transaction():
        result = application(environ, lambda status, pairs, exc_info=None: started.extend([status, pairs]))
        try:
            content = b"".join(result)
        finally:
            getattr(result, "close", lambda: None)()
    return int(started[0].split()[0]), {k.lower(): v for k, v in started[1]}, content


@pytest.fixture
def published(posts):
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    draft = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Secret"})
    return {"entry": entry, "draft": draft}


@pytest.fixture
def django_refuses(monkeypatch):
    """Django's handler must not be reached: the edge answers."""

    def refuse(self: Any, request: Any) -> Any:
        raise AssertionError("the conditional GET reached Django's handler")

    monkeypatch.setattr(WSGIHandler, "get_response", refuse)


PATHS = [f"{API}/hello", f"{API}?limit=5", "/_emdash/api/search?q=hello", "/posts/hello/"]


@pytest.mark.parametrize("path", PATHS)
def test_a_current_anonymous_conditional_get_is_answered_before_django(published, path, monkeypatch) -> None:
    status, first, _ = wsgi_get(path)
    assert status == 200
    monkeypatch.setattr(WSGIHandler, "get_response", lambda *a: pytest.fail("reached Django's handler"))
    status, headers, content = wsgi_get(path, IF_NONE_MATCH=first["etag"])
    assert status == 304 and content == b""
    for name in ("etag", "last-modified", "cache-control"):
        assert headers[name] == first[name], name
    if path.startswith("/_emdash/api/"):  # a page's keys name what it showed, known only once it is rendered
        assert headers["surrogate-key"] == first["surrogate-key"] and headers["cache-tag"] == first["cache-tag"]
    # What the site's chain gives every response of these paths: security headers, a trace id, and on the
    # API (a CORS door) Vary: Origin; never Vary: Cookie.
    for name in ("x-content-type-options", "referrer-policy", "cross-origin-opener-policy"):
        assert headers[name] == first[name], name
    assert len(headers["x-trace-id"]) == 24 and headers["x-trace-id"] != first["x-trace-id"]
    assert headers.get("vary") == first.get("vary")
    assert "cookie" not in headers.get("vary", "").lower()
    assert wsgi_get(path, IF_MODIFIED_SINCE=first["last-modified"])[0] == 304
    assert wsgi_get(path, "HEAD", IF_NONE_MATCH=first["etag"])[0] == 304


def test_the_edge_304_costs_its_validators_queries_only(published, django_refuses) -> None:
    item_etag = _etag(f"{API}/hello")
    with CaptureQueriesContext(connection) as item:
        assert wsgi_get(f"{API}/hello", IF_NONE_MATCH=item_etag)[0] == 304
    list_etag = _etag(f"{API}?limit=5")
    with CaptureQueriesContext(connection) as listing:
        assert wsgi_get(f"{API}?limit=5", IF_NONE_MATCH=list_etag)[0] == 304
    # The change stamps with the item's revision columns in one statement (plus the schema stamp, read on every
    # call in tests: SCHEMA_CHECK_SECONDS=0); a list reads the stamps only.
    assert len(item) <= 2, [q["sql"] for q in item.captured_queries]
    assert len(listing) <= 2, [q["sql"] for q in listing.captured_queries]


def _etag(path: str) -> str:
    return str(Client().get(path)["ETag"])


def test_an_allowed_origin_gets_its_cors_grant_on_the_edge_304(published, settings, django_refuses) -> None:
    settings.EMDASH = {**settings.EMDASH, "ALLOWED_ORIGINS": ["https://front.example"]}
    etag = _etag(f"{API}/hello")
    status, headers, _ = wsgi_get(f"{API}/hello", IF_NONE_MATCH=etag, ORIGIN="https://front.example")
    assert status == 304
    assert headers["access-control-allow-origin"] == "https://front.example"
    assert "origin" in headers["vary"].lower()


@pytest.mark.parametrize(
    "extra",
    [
        {"AUTHORIZATION": "Bearer ec_pat_nothing"},  # credentials: Django decides (here: 401)
        {"COOKIE": "sessionid=abc"},  # a session: the answer may be private
        {"HOST": "evil.example"},  # not an allowed host: HostMiddleware's 400
    ],
)
def test_credentials_and_foreign_hosts_are_left_to_django(published, extra, monkeypatch) -> None:
    etag = _etag(f"{API}/hello")
    reached: list[str] = []
    real = WSGIHandler.get_response

    def counted(self: Any, request: Any) -> Any:
        reached.append(request.path)
        return real(self, request)

    monkeypatch.setattr(WSGIHandler, "get_response", counted)
    status = wsgi_get(f"{API}/hello", IF_NONE_MATCH=etag, **extra)[0]
    assert reached == [f"{API}/hello"]
    assert status == {"AUTHORIZATION": 401, "COOKIE": 304, "HOST": 400}[next(iter(extra))]


def test_stale_validators_drafts_and_bad_input_are_left_to_django(published) -> None:
    etag = _etag(f"{API}/hello")
    assert wsgi_get(f"{API}/hello", IF_NONE_MATCH='"stale"')[0] == 200
    draft = published["draft"].id
    assert wsgi_get(f"{API}/{draft}", IF_MODIFIED_SINCE="Fri, 01 Jan 2100 00:00:00 GMT")[0] == 404
    # A NUL in the query is the input guard's 400 even for a request whose date would match.
    assert wsgi_get(f"{API}?q=%00", IF_MODIFIED_SINCE="Fri, 01 Jan 2100 00:00:00 GMT")[0] == 400
    assert wsgi_get(f"{API}/hello", "POST", IF_NONE_MATCH=etag)[0] != 304


def test_an_https_redirect_comes_before_any_304(published, settings) -> None:
    etag = _etag(f"{API}/hello")
    settings.SECURE_SSL_REDIRECT = True
    status, headers, _ = wsgi_get(f"{API}/hello", IF_NONE_MATCH=etag)
    assert status == 301 and headers["location"].startswith("https://")


def test_a_failing_validator_leaves_the_request_to_django(published, monkeypatch) -> None:
    from emdash import http_cache

    etag = _etag(f"{API}/hello")

    def broken(request: Any) -> Any:
        raise RuntimeError("database gone")

    monkeypatch.setattr(http_cache, "early_answer", broken)
    status, headers, _ = wsgi_get(f"{API}/hello", IF_NONE_MATCH=etag)
    assert status == 304  # the view's own check answered, down Django's chain
    assert headers["x-trace-id"]
