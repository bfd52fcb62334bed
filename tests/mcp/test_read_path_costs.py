"""What the read path no longer does (issue 27 goal 2), each held by a count or a value, never a timing: prepared
queries reach the database with named placeholders, their JSON columns decode as Django's would, a bearer call
never loads the session, a process-local token cache reads no cache, the origin is built only when asked for."""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext, override_settings

from accounts import token_cache
from audit import writer as audit_writer
from audit.models import AuditLog
from content.models import EntrySeo
from emdash import origin
from emdash.actor import Actor
from emdash.prepared import Prepared, named_placeholders
from tests.factories import make_entry
from tests.mcp.test_read_path import _warm_call, read_path  # noqa: F401  (the fixture)


def test_placeholders_are_named_in_order_and_literal_percents_stay():
    sql, names = named_placeholders("a = %s AND b LIKE '%%x' AND c IN (%s, %s)")
    assert sql == "a = %(p0)s AND b LIKE '%%x' AND c IN (%(p1)s, %(p2)s)"
    assert names == ["p0", "p1", "p2"]
    assert sql % {n: "?" for n in names} == "a = ? AND b LIKE '%x' AND c IN (?, ?)"


def test_a_prepared_query_reads_what_the_orm_reads_in_one_counted_query(db):
    # A JSON value orjson refuses (an integer beyond 64 bits) goes to Django's decoder: the same value either way.
    data = {"title": "Seo", "big": 2**70, "nested": [1, 2.5, None, "é"]}
    EntrySeo.objects.create(collection="posts", entry_id="01J0000000000000000000000A", data=data)
    qs = EntrySeo.objects.filter(collection="posts", entry_id="").values_list("entry_id", "data")
    prepared = Prepared(qs)
    with CaptureQueriesContext(connection) as queries:
        rows = prepared.rows(["posts", "01J0000000000000000000000A"])
    assert [tuple(r) for r in rows] == list(qs.model.objects.filter(collection="posts").values_list("entry_id", "data"))
    assert rows[0][1] == data and rows[0][1]["big"] == 2**70
    assert len(queries.captured_queries) == 1  # the debug cursor still sees it (query counts stay true)
    assert "%(p0)s" in prepared.sql and "%s" not in prepared.sql


def test_a_bearer_call_skips_the_session_middleware_and_a_cookie_call_does_not(posts, mcp, monkeypatch):
    """The session and its user are the browser fallback's: a bearer call does not run their middleware; a call
    without a token (a browser's, with its cookie) does."""
    from django.contrib.sessions.middleware import SessionMiddleware

    from mcp_endpoint.middleware import McpPathMiddleware

    seen: list[str] = []
    real = SessionMiddleware.process_request

    def spy(self, request):
        seen.append(request.path)
        return real(self, request)

    monkeypatch.setattr(SessionMiddleware, "process_request", spy)
    handler = McpPathMiddleware(lambda request: None)  # built after the spy, as Django builds it at start-up
    entry = make_entry(status="published")
    body = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"content_get","arguments":'
    body += b'{"collection":"posts","id":"' + entry.id.encode() + b'"}}}'
    factory = RequestFactory()
    bearer = factory.post(
        "/_emdash/api/mcp", body, content_type="application/json", headers={"Authorization": f"Bearer {mcp.token}"}
    )
    assert handler(bearer).status_code == 200
    assert seen == []
    cookie = factory.post(
        "/_emdash/api/mcp", b'{"jsonrpc":"2.0","id":1,"method":"ping"}', content_type="application/json"
    )
    handler(cookie)
    assert seen == ["/_emdash/api/mcp"]


def test_a_session_call_still_goes_through_the_session(posts, mcp):
    browser = Client()
    browser.force_login(mcp.user)
    with CaptureQueriesContext(connection) as queries:
        answer = browser.generic(
            "POST",
            "/_emdash/api/mcp",
            b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
            content_type="application/json",
            headers={"Origin": "http://testserver"},
        )
    assert answer.status_code == 200
    assert [q for q in queries.captured_queries if "django_session" in q["sql"]]


def test_a_warm_bearer_call_reads_nothing_from_a_process_local_cache(posts, mcp, read_path, monkeypatch):  # noqa: F811
    entry = make_entry(status="published")
    mcp.ok("content_get", {"collection": "posts", "id": entry.id})
    reads: list[str] = []
    real_get = cache.get

    def spy(key, *args, **kwargs):
        reads.append(key)
        return real_get(key, *args, **kwargs)

    monkeypatch.setattr(cache, "get", spy)
    mcp.ok("content_get", {"collection": "posts", "id": entry.id})
    assert token_cache.GENERATION_KEY not in reads


def test_an_actor_resolved_while_tokens_were_cleared_is_not_kept(db, read_path):  # noqa: F811
    """A revocation landing while a token is being resolved must not leave the older answer cached."""
    actor = Actor.anonymous()
    calls = []

    def resolve_during_a_revocation():
        calls.append(1)
        token_cache.clear()
        return actor

    token_cache.cached("ec_pat_x", None, resolve_during_a_revocation)
    token_cache.cached("ec_pat_x", None, resolve_during_a_revocation)
    assert len(calls) == 2


def test_the_origin_is_built_only_when_asked_for():
    built = []

    def build():
        built.append(1)
        return "https://cms.example.com"

    with origin.serving(build):
        assert built == []
        assert origin.absolute("/x") == "https://cms.example.com/x"
        assert origin.current() == "https://cms.example.com"
    assert origin.current() == ""


def test_the_writer_stores_every_column_as_given(posts, mcp, read_path):  # noqa: F811
    entry = make_entry(status="published")
    mcp.ok("content_get", {"collection": "posts", "id": entry.id}, headers={"User-Agent": "probe/1.0"})
    audit_writer.flush()
    row = AuditLog.objects.get(action="content_get")
    assert (row.user_id, row.source, row.outcome, row.client) == (mcp.user.pk, "mcp", "ok", "probe/1.0")
    assert row.token_ref.startswith("pat:") and row.token_name and len(row.trace_id) == 24
    assert row.created_at is not None and row.created_at.tzinfo is not None and row.duration_ms >= 0


def test_a_warm_content_get_reads_only_the_change_stamps(posts, mcp, read_path):  # noqa: F811
    """The entry statement (five correlated subqueries) runs once; later calls check the stamps and answer from
    the per-process cache (content/entries/item_cache.py): one query, no write. On SQLite not even that while
    nothing was written since the previous call (stamps.fetch); the audit writer's thread may have written the
    warm-up's row in between, so at most one."""
    entry = make_entry(status="published")
    payload, sql = _warm_call(mcp, {"collection": "posts", "id": entry.id})
    assert payload["item"]["id"] == entry.id
    assert len(sql) == 1 or (connection.vendor == "sqlite" and not sql), sql
    assert all("content_changestamp" in q and "ec_posts" not in q for q in sql), sql


def test_a_direct_read_returns_the_cursors_rows_and_is_counted_while_queries_are_logged(db):
    from django.utils import timezone

    from content.models import ChangeStamp
    from emdash.prepared import read

    ChangeStamp.objects.create(key="test:read", version=7, changed_at=timezone.now())
    sql = "SELECT key, version FROM content_changestamp WHERE key IN (%(a)s, %(b)s) ORDER BY 1"
    params = {"a": "test:read", "b": "nothing"}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        expected = list(cursor.fetchall())
    seen: list[str] = []

    def spy(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        assert read(sql, params) == expected == [("test:read", 7)]
    assert seen == []  # not through Django's cursor: no wrapper, no placeholder rewriting
    with CaptureQueriesContext(connection) as queries, connection.execute_wrapper(spy):
        assert read(sql, params) == expected
    assert len(queries.captured_queries) == 1 and len(seen) == 1  # logged: counted like any query


def test_a_direct_read_raises_djangos_errors_and_refuses_a_broken_transaction(db):
    from django.db import DatabaseError, IntegrityError, transaction
    from django.db.transaction import TransactionManagementError

    from emdash.prepared import read

    with pytest.raises(DatabaseError), transaction.atomic():  # Django's error class, not the driver's
        read("SELECT nope FROM content_changestamp WHERE key = %(k)s", {"k": "x"})
    with transaction.atomic():
        with pytest.raises(IntegrityError), transaction.atomic(savepoint=False), connection.cursor() as cursor:
            cursor.execute("INSERT INTO content_changestamp (key, version) VALUES (NULL, NULL)")
        with pytest.raises(TransactionManagementError):
            read("SELECT 1 FROM content_changestamp WHERE key = %(k)s", {"k": "x"})


def test_a_shared_cache_configured_later_is_asked_for_the_generation(db, tmp_path):
    """Whether the cache is this process's own is decided once per CACHES setting: a cache shared with other
    processes (here a file cache) configured afterwards is read for the revocation generation again."""
    assert token_cache._generation() == token_cache._local_generation  # decided for the LocMem cache
    shared = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path)}}
    with override_settings(CACHES=shared):
        caches["default"].set(token_cache.GENERATION_KEY, 41)
        assert token_cache._generation() == 41
    assert token_cache._generation() == token_cache._local_generation
