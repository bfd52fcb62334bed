"""Every unexpected error is logged once with its trace id, and the answer shows only that id (SPEC 2; issue 10
item 5, issue 11 item 4). Each door is made to fail for real by breaking a function it calls."""

from __future__ import annotations

import logging
import time
from io import StringIO
from typing import Any

import orjson
import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from emdash.tracing import HEADER, TraceIdFilter, current_trace_id, log_exception, new_trace_id, trace
from tests.factories import swap_service
from tests.mcp.conftest import MCP

SECRET = "sekrit-internal-detail-42"


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError(SECRET)


class Records:
    """The test's log records, each with the trace id the console formatter prints (pytest gives every test
    phase a new capture handler, so the filter is added when the test body starts)."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog
        caplog.set_level(logging.INFO)
        caplog.handler.addFilter(TraceIdFilter())

    def __iter__(self) -> Any:
        return iter(self.caplog.records)


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> Any:
    return lambda: Records(caplog)


def _assert_logged_once(records: Any, response: Any) -> str:
    failures = [r for r in records if r.levelno >= logging.ERROR]
    assert len(failures) == 1, [(r.name, r.getMessage()) for r in failures]
    trace_id = response[HEADER]
    assert len(trace_id) == 24 and int(trace_id, 16) >= 0
    assert failures[0].trace_id == trace_id  # type: ignore[attr-defined]
    assert failures[0].exc_info is not None  # the stack trace is in the log...
    body = response.content.decode()
    assert trace_id in body
    assert SECRET not in body and "Traceback" not in body and "RuntimeError" not in body  # ...and only there
    return trace_id


@override_settings(DEBUG=False)
def test_admin_page(db: None, errors: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    log = errors()
    from tests.factories import make_user

    client = Client(raise_request_exception=False)
    client.force_login(make_user("editor"))
    monkeypatch.setattr("admin_ui.views.dashboard.can", _boom)
    response = client.get("/_emdash/admin/")
    assert response.status_code == 500
    _assert_logged_once(log, response)


@override_settings(DEBUG=False)
def test_public_site(db: None, errors: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    log = errors()
    monkeypatch.setattr("public_site.views.query.site_settings", _boom)
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    assert "text/html" in response["Content-Type"]
    _assert_logged_once(log, response)


@override_settings(DEBUG=False)
def test_rest_api(posts: Any, errors: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    log = errors()
    swap_service(monkeypatch, "content_list", _boom)
    response = Client(raise_request_exception=False).get("/_emdash/api/content/posts")
    assert response.status_code == 500
    trace_id = _assert_logged_once(log, response)
    assert response.json()["error"] == {"code": "INTERNAL_ERROR", "message": "Internal error", "traceId": trace_id}


@override_settings(DEBUG=False)
def test_mcp_tool(posts: Any, errors: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    log = errors()
    from accounts.tokens import token_create
    from audit.models import AuditLog
    from tests.factories import make_user

    mcp = MCP(
        Client(raise_request_exception=False), token_create(user=make_user("admin"), name="t", scopes="admin").raw
    )
    swap_service(monkeypatch, "content_list", _boom)
    response = mcp.post(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "content_list", "arguments": {"collection": "posts"}},
        }
    )
    assert response.status_code == 500
    trace_id = _assert_logged_once(log, response)
    assert orjson.loads(response.content)["error"]["data"] == {"traceId": trace_id}
    assert AuditLog.objects.get(action="content_list").trace_id == trace_id  # the audit row names the same id


@override_settings(DEBUG=False)
def test_oauth_token_endpoint(db: None, errors: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    log = errors()
    monkeypatch.setattr("accounts.oauth.clients.get_client", _boom)
    response = Client(raise_request_exception=False).post(
        "/_emdash/api/oauth/token", {"grant_type": "authorization_code", "client_id": "x"}
    )
    assert response.status_code == 500
    trace_id = _assert_logged_once(log, response)
    assert response.json()["error"] == "server_error" and trace_id in response.json()["error_description"]


def test_a_500_nobody_logged_is_logged_once_by_the_middleware(errors: Any) -> None:
    """A view that answers 500 without raising or logging still leaves one line with the id; a view that
    logged through log_exception leaves only its own. Either way Django's handler is told not to add another."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    from emdash.tracing import TraceMiddleware

    log = errors()
    silent = TraceMiddleware(lambda request: HttpResponse("down", status=503))(RequestFactory().get("/x"))
    failures = [r for r in log if r.levelno >= logging.ERROR]
    assert len(failures) == 1 and failures[0].trace_id == silent[HEADER]  # type: ignore[attr-defined]
    assert silent._has_been_logged  # type: ignore[attr-defined]

    def logs_itself(request: Any) -> HttpResponse:
        try:
            raise RuntimeError(SECRET)
        except RuntimeError:
            return HttpResponse(log_exception(logging.getLogger("emdash.test"), "failed"), status=500)

    answered = TraceMiddleware(logs_itself)(RequestFactory().get("/y"))
    failures = [r for r in log if r.levelno >= logging.ERROR]
    assert len(failures) == 2 and failures[1].name == "emdash.test"
    assert answered.content.decode() == answered[HEADER] and answered._has_been_logged  # type: ignore[attr-defined]


def test_worker_errors_are_logged_once_with_an_id(
    transactional_db: None, errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = errors()
    from emdash.background import sweeps

    monkeypatch.setattr(next(s for s in sweeps() if s.name == "scheduled"), "run", _boom)
    call_command("emdash_worker", "--once", stdout=StringIO())  # the worker survives the failed pass
    failures = [r for r in log if r.levelno >= logging.ERROR]
    assert len(failures) == 1
    assert failures[0].name == "emdash.worker" and len(failures[0].trace_id) == 24  # type: ignore[attr-defined]
    assert failures[0].trace_id in failures[0].getMessage()  # type: ignore[attr-defined]


def test_one_trace_per_unit_of_work() -> None:
    with trace() as first:
        assert current_trace_id() == first
        try:
            raise ValueError("x")
        except ValueError:
            assert log_exception(logging.getLogger("emdash.test"), "failed") == first
    with trace() as second:
        assert second != first and len(second) == 24


def test_trace_ids_start_with_the_time_so_the_audit_index_appends() -> None:
    """Random ids scattered every audit row's insert across the trace index; a time prefix keeps them at its end."""
    before = int(time.time())
    ids = [new_trace_id() for _ in range(1000)]
    after = int(time.time())
    assert all(before <= int(one[:8], 16) <= after for one in ids)
    assert len(set(ids)) == 1000 and len({one[8:] for one in ids}) == 1000  # the random part alone is unique


def test_every_response_carries_its_trace_id(db: None) -> None:
    one, two = Client().get("/_emdash/health"), Client().get("/_emdash/health")
    assert len(one[HEADER]) == 24 and one[HEADER] != two[HEADER]
