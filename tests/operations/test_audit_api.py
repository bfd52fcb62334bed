"""``GET /_emdash/api/audit`` (SPEC 8): admins only; filters by actor, source, action, target and time range;
cursor pagination."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from audit.models import AuditLog
from tests.api.helpers import body, call, client_for, session_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db
URL = "/_emdash/api/audit"


def _row(**fields) -> AuditLog:
    defaults = {"source": "rest", "action": "content_create", "outcome": "ok", "trace_id": "t"}
    return AuditLog.objects.create(**{**defaults, **fields})


def test_only_admins_read_the_audit_log() -> None:
    anonymous = Client().get(URL)
    assert anonymous.status_code == 401 and body(anonymous)["error"]["code"] == "UNAUTHORIZED"
    editor = call(client_for("editor", "admin"), "GET", URL)
    assert editor.status_code == 403 and body(editor)["error"]["code"] == "INSUFFICIENT_PERMISSIONS"
    narrow = call(client_for("admin", "content:read"), "GET", URL)
    assert narrow.status_code == 403 and body(narrow)["error"]["code"] == "INSUFFICIENT_SCOPE"
    assert call(client_for("admin", "admin"), "GET", URL).status_code == 200
    assert session_client(make_user("admin")).get(URL).status_code == 200


def test_rows_are_presented_newest_first() -> None:
    user = make_user("author")
    _row(user=user, source="mcp", action="content_list", target="", client="claude", duration_ms=1.5)
    _row(user=user, target="posts/01J")
    items = body(call(client_for("admin"), "GET", URL))["items"]
    assert [i["action"] for i in items] == ["content_create", "content_list"]
    assert items[0]["actor"] == {"id": user.pk, "email": user.email}
    assert items[0]["target"] == "posts/01J" and items[1]["client"] == "claude" and items[1]["durationMs"] == 1.5
    assert set(items[0]) == {
        "id", "createdAt", "actor", "tokenRef", "client", "source", "action", "target", "outcome", "durationMs",
        "traceId", "tokenName", "oauthClient", "clientVersion", "via",  # SPEC 9.3 provenance
    }  # fmt: skip
    assert items[1]["via"] == "claude (MCP)"


def test_filters_combine() -> None:
    alice, bob = make_user("author"), make_user("author")
    now = timezone.now()
    _row(user=alice, source="mcp", target="posts/a", created_at=now - timedelta(days=2))
    _row(user=alice, source="rest", target="posts/a", action="content_update", created_at=now - timedelta(hours=1))
    _row(user=bob, source="admin", target="posts/b", created_at=now)
    admin = client_for("admin")

    def actions(**query) -> list[tuple[str, str]]:
        return [(i["source"], i["target"]) for i in body(call(admin, "GET", URL, query))["items"]]

    assert actions(actor=str(alice.pk)) == [("rest", "posts/a"), ("mcp", "posts/a")]
    assert actions(actor=bob.email.upper()) == [("admin", "posts/b")]
    assert actions(source="mcp") == [("mcp", "posts/a")]
    assert actions(action="content_update") == [("rest", "posts/a")]
    assert actions(target="posts/b") == [("admin", "posts/b")]
    since = (now - timedelta(days=1)).isoformat()
    assert actions(since=since) == [("admin", "posts/b"), ("rest", "posts/a")]
    assert actions(since=since, until=(now - timedelta(minutes=1)).isoformat()) == [("rest", "posts/a")]
    assert actions(target="posts/a", source="rest", actor=str(alice.pk)) == [("rest", "posts/a")]


@pytest.mark.parametrize(
    ("query", "field"),
    [({"source": "ftp"}, "source"), ({"since": "yesterday"}, "since"), ({"limit": "0"}, "limit")],
)
def test_bad_filters_are_validation_errors(query, field) -> None:
    response = call(client_for("admin"), "GET", URL, query)
    assert response.status_code == 400
    error = body(response)["error"]
    assert error["code"] == "VALIDATION_ERROR" and field in error["details"]["fields"]


def test_cursor_pagination_walks_every_row_once() -> None:
    for n in range(7):
        _row(target=f"posts/{n}")
    admin = client_for("admin")
    seen, cursor = [], None
    while True:
        page = body(call(admin, "GET", URL, {"limit": 3, **({"cursor": cursor} if cursor else {})}))
        seen += [i["target"] for i in page["items"]]
        cursor = page.get("nextCursor")
        if cursor is None:
            break
    assert seen == [f"posts/{n}" for n in reversed(range(7))]


def test_tampered_or_foreign_cursors_are_refused() -> None:
    for n in range(3):
        _row(target=f"posts/{n}", source="mcp")
    admin = client_for("admin")
    cursor = body(call(admin, "GET", URL, {"limit": 1}))["nextCursor"]
    garbage = call(admin, "GET", URL, {"cursor": cursor[:-2] + "xx"})
    assert garbage.status_code == 400 and body(garbage)["error"]["code"] == "INVALID_CURSOR"
    other_query = call(admin, "GET", URL, {"cursor": cursor, "source": "mcp"})
    assert other_query.status_code == 400 and body(other_query)["error"]["code"] == "INVALID_CURSOR"
