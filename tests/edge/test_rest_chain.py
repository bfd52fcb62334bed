"""The REST door's own middleware chain (emdash.doors.REST_MIDDLEWARE, emdash.edge.chains): the site's chain minus
what a JSON API call never uses, with every guard and header kept (issue 27 goal 6)."""

from __future__ import annotations

import orjson
import pytest
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLResolver, get_resolver

from content.entries import services
from emdash import doors
from tests.factories import SYSTEM

API = "/_emdash/api/content/posts"
CHAIN = "emdash.edge.chains.DoorChainMiddleware"


def test_the_rest_chain_is_a_subset_of_the_sites_middleware_in_its_order() -> None:
    chain = list(doors.REST.middleware or ())
    below = settings.MIDDLEWARE[settings.MIDDLEWARE.index(CHAIN) + 1 :]
    assert chain == [path for path in below if path in chain], "a subset of MIDDLEWARE, in its order"
    for kept in (
        "django.middleware.security.SecurityMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "emdash.edge.cors.CorsMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "emdash.edge.door_limits.RateLimitMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
        "emdash.edge.csp.CSPMiddleware",
        "emdash.edge.input_guard.BadTextMiddleware",
    ):
        assert kept in chain, kept


def _routes(resolver: URLResolver, prefix: str = ""):
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern).lstrip("^")
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern, route)
        else:
            yield "/" + route, pattern.callback


def test_every_rest_view_is_csrf_exempt_so_the_chain_needs_no_csrf_middleware() -> None:
    """The chain leaves CsrfViewMiddleware out: DRF views are exempt and check the token themselves for session
    callers. A plain Django view added under the REST prefix without ``csrf_exempt`` fails here."""
    rest = [(route, view) for route, view in _routes(get_resolver()) if doors.door_for(route) is doors.REST]
    assert rest
    assert [route for route, view in rest if not getattr(view, "csrf_exempt", False)] == []


@pytest.fixture
def published(posts):
    entry = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Hello"})
    services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
    return entry


def test_a_session_write_without_the_csrf_token_is_still_refused(published, admin_user) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin_user)
    response = client.post(API, data=b'{"data": {"title": "x"}}', content_type="application/json")
    assert response.status_code == 403
    assert orjson.loads(response.content)["error"]["code"]


def test_rest_calls_skip_the_pages_middleware_and_keep_every_header(published, monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("a REST call went through the site's chain")

    monkeypatch.setattr(MessageMiddleware, "process_request", refuse)
    response = Client().get(f"{API}/hello", HTTP_ORIGIN="http://testserver")
    assert response.status_code == 200
    for name in (
        "Content-Security-Policy",
        "X-Frame-Options",
        "X-Content-Type-Options",
        "Referrer-Policy",
        "X-Trace-Id",
        "Access-Control-Allow-Origin",
        "ETag",
        "Content-Length",
    ):
        assert response.has_header(name), name
    assert "origin" in response["Vary"].lower()


def test_rest_errors_keep_their_shape_down_the_short_chain(published) -> None:
    missing = Client().get(f"{API}/nothing-here")
    assert missing.status_code == 404 and orjson.loads(missing.content)["error"]["code"]
    nul = Client().get(f"{API}?q=%00")
    assert nul.status_code == 400 and orjson.loads(nul.content)["error"]["code"] == "VALIDATION_ERROR"
    assert Client().get("/_emdash/api/docs").status_code == 301  # APPEND_SLASH still applies (CommonMiddleware)


def test_the_site_still_runs_the_whole_chain_for_pages(published, monkeypatch) -> None:
    seen: list[str] = []
    real = MessageMiddleware.process_request

    def counted(self, request):
        seen.append(request.path)
        return real(self, request)

    monkeypatch.setattr(MessageMiddleware, "process_request", counted)
    Client().get("/posts/hello/")
    assert seen == ["/posts/hello/"]


def test_anonymous_rest_reads_cost_a_fixed_number_of_queries(published) -> None:
    client = Client()
    for _ in range(2):
        services.entry_create(actor=SYSTEM, collection="posts", data={"title": "More"})
    client.get(f"{API}/hello")  # warm the per-process caches
    with CaptureQueriesContext(connection) as item:
        assert client.get(f"{API}/hello").status_code == 200
    with CaptureQueriesContext(connection) as listing:
        assert client.get(f"{API}?limit=50").status_code == 200
    # The row (with its SEO and terms) and the change stamps for the validators, plus the schema stamp, which
    # the tests read at every look (SCHEMA_CHECK_SECONDS=0; a server once a second): no session, no user, no
    # per-item queries.
    assert len(item) <= 4, "\n".join(q["sql"] for q in item.captured_queries)
    assert len(listing) <= 4, "\n".join(q["sql"] for q in listing.captured_queries)
