"""Audit on every door: each write from MCP, REST and the admin writes exactly one row with its source, in the
same transaction as the write (SPEC 5.4, 8)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.db import DatabaseError

from audit import writer as audit_writer
from audit.models import AuditLog
from content.entries import selectors
from emdash.actor import Actor
from emdash.call import Call
from emdash.errors import NotFound
from emdash.operations import TABLE, load, run_operation
from tests.api.helpers import body, call, client_for, session_client
from tests.factories import SYSTEM, make_entry, make_user

API = "/_emdash/api/content/posts"


def _rows(**filters: str) -> list[AuditLog]:
    return list(AuditLog.objects.filter(**filters).order_by("id"))


def test_a_rest_create_writes_one_audit_row(posts) -> None:
    response = call(client_for("editor"), "POST", API, {"data": {"title": "Hello"}})
    assert response.status_code == 201
    item = body(response)["item"]
    rows = _rows()
    assert len(rows) == 1
    row = rows[0]
    assert (row.source, row.action, row.outcome, row.target) == ("rest", "content_create", "ok", f"posts/{item['id']}")
    assert row.token_ref and row.user is not None and len(row.trace_id) == 24


def test_rest_reads_and_refusals_write_no_rows(posts) -> None:
    entry = make_entry(data={"title": "Mine"})
    reader = client_for("editor")
    assert call(reader, "GET", API).status_code == 200
    assert call(reader, "GET", f"{API}/{entry.id}").status_code == 200
    assert call(client_for("subscriber"), "POST", API, {"data": {"title": "x"}}).status_code == 403
    assert call(reader, "POST", API, {"data": {"title": "x"}, "bogus": 1}).status_code == 400
    assert _rows() == []


def test_every_rest_lifecycle_write_is_audited_once(posts) -> None:
    client = client_for("admin")
    entry = make_entry(data={"title": "Go"})
    for action in ("publish", "unpublish", "duplicate"):
        assert call(client, "POST", f"{API}/{entry.id}/{action}").status_code in (200, 201)
    assert call(client, "DELETE", f"{API}/{entry.id}").status_code == 200
    assert call(client, "DELETE", f"{API}/{entry.id}/permanent").status_code == 200
    actions = [r.action for r in _rows(source="rest")]
    assert actions == [
        "content_publish",
        "content_unpublish",
        "content_duplicate",
        "content_delete",
        "content_permanent_delete",
    ]
    assert AuditLog.objects.count() == 5


def test_an_mcp_create_writes_one_audit_row(make_mcp, posts) -> None:
    client = make_mcp("editor", "content:write content:read")
    result = client.ok("content_create", {"collection": "posts", "data": {"title": "Via MCP"}})
    rows = _rows()
    assert len(rows) == 1
    assert (rows[0].source, rows[0].action, rows[0].target) == (
        "mcp",
        "content_create",
        f"posts/{result['item']['id']}",
    )


def test_mcp_reads_and_failed_writes_are_still_recorded(mcp, posts) -> None:
    mcp.ok("content_list", {"collection": "posts"})
    mcp.fails("content_get", {"collection": "posts", "id": "nope"})
    mcp.fails("content_create", {"collection": "posts"})
    outcomes = [(r.action, r.outcome, r.source) for r in _rows()]
    assert outcomes == [
        ("content_list", "ok", "mcp"),
        ("content_get", "NOT_FOUND", "mcp"),
        ("content_create", "VALIDATION_ERROR", "mcp"),
    ]


def test_an_admin_create_writes_one_audit_row(posts) -> None:
    user = make_user("editor")
    client = session_client(user)
    response = client.post("/_emdash/admin/content/posts/new/", {"f_title": "From the admin"})
    assert response.status_code == 302
    rows = _rows()
    assert len(rows) == 1
    assert (rows[0].source, rows[0].action, rows[0].user_id) == ("admin", "content_create", user.pk)
    assert rows[0].target.startswith("posts/")


def test_a_write_that_rolls_back_leaves_no_audit_row(posts) -> None:
    """The service writes, then fails: neither the write nor its audit row survive."""
    load()
    real = TABLE["content_create"]

    def present_then_fail(entry, args):
        raise NotFound("gone while presenting")

    broken = replace(real, present=present_then_fail)
    with pytest.raises(NotFound):
        run_operation(broken, Call.at("worker", SYSTEM), {"collection": "posts", "data": {"title": "Lost"}})
    assert selectors.entry_list(actor=SYSTEM, collection="posts").rows == []
    assert _rows() == []


def test_a_failed_audit_insert_rolls_the_write_back(posts, monkeypatch) -> None:
    load()

    def refuse(rows):
        raise DatabaseError("audit table unavailable")

    monkeypatch.setattr(audit_writer, "insert", refuse)
    actor = Actor.for_user(make_user("editor"))
    with pytest.raises(DatabaseError):
        run_operation(TABLE["content_create"], Call.at("rest", actor), {"collection": "posts", "data": {"title": "x"}})
    assert selectors.entry_list(actor=SYSTEM, collection="posts").rows == []
