"""Issue 21.5 and 21.7 (SPEC 13, "Operations"): one host check at the edge for every path, the MCP endpoint
included, and a health probe that answers by IP whatever ALLOWED_HOSTS says, deep only for those who may."""

from __future__ import annotations

import logging

import orjson
import pytest
from django.test import Client

from accounts.tokens import token_create
from audit.models import AuditLog
from tests.factories import make_user

pytestmark = pytest.mark.django_db
MCP = "/_emdash/api/mcp"
PING = orjson.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})


@pytest.fixture
def public_name_only(settings) -> None:
    settings.ALLOWED_HOSTS = ["cms.example.com"]


def mcp_headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}


@pytest.mark.parametrize("path", [MCP, "/_emdash/api/content/posts", "/_emdash/admin/login/", "/"])
def test_a_host_not_allowed_is_refused_on_every_path(public_name_only, path: str, caplog) -> None:
    token = token_create(user=make_user("admin"), name="t", scopes="admin").raw
    with caplog.at_level(logging.WARNING):
        response = Client(HTTP_HOST="evil.example", headers=mcp_headers(token)).generic(
            "POST", path, PING, "application/json"
        )
    assert response.status_code == 400
    assert response.content == b"Bad Request: host not allowed\n"
    assert not AuditLog.objects.exists()  # the MCP call never ran
    refusals = [r for r in caplog.records if "not in ALLOWED_HOSTS" in r.getMessage()]
    assert len(refusals) == 1 and refusals[0].exc_info is None  # one line, no traceback
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_mcp_endpoint_answers_its_own_host(public_name_only) -> None:
    token = token_create(user=make_user("admin"), name="t", scopes="admin").raw
    response = Client(HTTP_HOST="cms.example.com", headers=mcp_headers(token)).post(
        MCP, PING, content_type="application/json"
    )
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("host", ["10.0.0.7:8000", "127.0.0.1", "evil.example", "[::1]:8000"])
def test_health_answers_by_ip_and_reveals_nothing(public_name_only, host: str, caplog) -> None:
    with caplog.at_level(logging.WARNING):
        response = Client(HTTP_HOST=host, REMOTE_ADDR="10.0.0.2").get("/_emdash/health?deep=1")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}  # not deep: neither an admin's token nor this machine
    assert response["Cache-Control"] == "no-store"
    assert not caplog.records


def test_deep_health_for_an_admin_token(public_name_only) -> None:
    admin = token_create(user=make_user("admin"), name="t", scopes="content:read").raw
    editor = token_create(user=make_user("editor"), name="t", scopes="admin").raw
    client = Client(HTTP_HOST="10.0.0.7", REMOTE_ADDR="10.0.0.2")
    deep = client.get("/_emdash/health?deep=1", headers={"Authorization": f"Bearer {admin}"}).json()
    assert deep["status"] == "ok"
    assert set(deep["checks"]) == {"database", "cache", "taskQueue"}
    assert all(check["ok"] for check in deep["checks"].values())
    assert deep["checks"]["taskQueue"]["oldestReadySeconds"] == 0
    plain = client.get("/_emdash/health?deep=1", headers={"Authorization": f"Bearer {editor}"}).json()
    assert plain == {"status": "ok"}
    forged = client.get("/_emdash/health?deep=1", headers={"Authorization": "Bearer ec_pat_nope"}).json()
    assert forged == {"status": "ok"}


def test_deep_health_from_this_machine_only_without_a_trusted_proxy(public_name_only, settings) -> None:
    local = Client(HTTP_HOST="127.0.0.1:8000", REMOTE_ADDR="127.0.0.1")
    assert "checks" in local.get("/_emdash/health?deep=1").json()
    settings.EMDASH_TRUST_PROXY = 1  # behind a proxy, every request comes from this machine
    assert local.get("/_emdash/health?deep=1").json() == {"status": "ok"}


def test_deep_health_reports_a_failing_check_without_details(public_name_only, monkeypatch, caplog) -> None:
    from emdash.edge import health

    def broken() -> dict:
        raise RuntimeError("password=hunter2 at db.internal:5432")

    monkeypatch.setattr(health, "_database", broken)
    local = Client(HTTP_HOST="127.0.0.1", REMOTE_ADDR="127.0.0.1")
    with caplog.at_level(logging.ERROR):
        response = local.get("/_emdash/health?deep=1")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error" and body["checks"]["database"]["ok"] is False
    assert b"hunter2" not in response.content and b"internal" not in response.content
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(logged) == 1 and response["X-Trace-Id"] in logged[0].getMessage()
