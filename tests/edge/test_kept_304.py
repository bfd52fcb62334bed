"""Kept 304s (emdash/edge/kept.py): the edge gives a 304 it computed again without a query while the database is
unchanged, and never after a change, whoever made it: this connection, another thread's connection, another
process (issue 27 goal 3). On PostgreSQL nothing is kept: every 304 computes its validators."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from tests.edge.test_conditional_edge import wsgi_get
from tests.site import conftest as site_fixtures
from tests.site import test_stale_304 as stale

API = "/_emdash/api/content/posts"
HELLO = f"{API}/hello-world"
EDGE_PATHS = [HELLO, f"{API}?limit=5", "/_emdash/api/search?q=hello", "/posts/hello-world/"]
ROOT = Path(__file__).resolve().parents[2]
CASES = stale.CASES  # every kind of change, with the reads it must move
site, media_root, credited = site_fixtures.site, site_fixtures.media_root, stale.credited  # their fixtures

sqlite_only = pytest.mark.skipif(
    django_settings.DATABASES["default"]["ENGINE"] != "emdash.sqlite3", reason="only SQLite gives a change token"
)


def _current_304(path: str, **extra: str) -> tuple[str, dict[str, str]]:
    status, first, _ = wsgi_get(path, **extra)
    assert status == 200, path
    status, headers, _ = wsgi_get(path, IF_NONE_MATCH=first["etag"], **extra)
    assert status == 304, path
    return first["etag"], headers


@sqlite_only
@pytest.mark.parametrize("path", EDGE_PATHS)
def test_a_repeated_conditional_get_is_answered_without_a_query(credited, path) -> None:
    etag, computed = _current_304(path)
    with CaptureQueriesContext(connection) as queries:
        status, again, content = wsgi_get(path, IF_NONE_MATCH=etag)
    assert status == 304 and content == b""
    assert len(queries) == 0, [q["sql"] for q in queries.captured_queries]
    assert again.pop("x-trace-id") != computed.pop("x-trace-id")
    assert again == computed  # every header the computed 304 carried: validators, keys, Vary, security, CORS
    # If-Modified-Since and a weak If-None-Match are answered from the same kept validators.
    assert wsgi_get(path, IF_MODIFIED_SINCE=computed["last-modified"])[0] == 304
    assert wsgi_get(path, IF_NONE_MATCH=f'"other", W/{etag}')[0] == 304
    assert wsgi_get(path, IF_NONE_MATCH='"other"')[0] == 200  # a stale copy gets the 200


def test_postgresql_keeps_nothing_and_counts_its_validators_queries(credited) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL side of the kept 304s")
    etag, _ = _current_304(HELLO)
    with CaptureQueriesContext(connection) as queries:
        assert wsgi_get(HELLO, IF_NONE_MATCH=etag)[0] == 304
    assert 1 <= len(queries) <= 2, [q["sql"] for q in queries.captured_queries]  # the row and the stamps


def _here(change: Callable[[dict[str, Any]], None], site: dict[str, Any]) -> None:
    change(site)


def _another_thread(change: Callable[[dict[str, Any]], None], site: dict[str, Any]) -> None:
    failed: list[BaseException] = []

    def run() -> None:
        try:
            change(site)
        except BaseException as exc:  # reported below
            failed.append(exc)
        finally:
            connections.close_all()

    writer = threading.Thread(target=run)
    writer.start()
    writer.join(60)
    assert not failed, failed


@pytest.mark.parametrize("where", [_here, _another_thread], ids=["this connection", "another connection"])
@pytest.mark.parametrize("case", list(CASES))
def test_no_change_leaves_a_kept_304_standing(credited, case, where) -> None:
    change, paths = CASES[case]
    before = {path: _current_304(path)[0] for path in paths}
    for path, etag in before.items():
        assert wsgi_get(path, IF_NONE_MATCH=etag)[0] == 304, path  # answered again (kept on SQLite)
    where(change, credited)
    for path, etag in before.items():
        status, headers, _ = wsgi_get(path, IF_NONE_MATCH=etag)
        assert status == 200, f"{case}: {path} kept its 304"
        assert headers["etag"] != etag
        assert wsgi_get(path, IF_NONE_MATCH=headers["etag"])[0] == 304, path  # and the new copy is current


WRITER = """
import json, os, sys
sys.path.insert(0, os.getcwd())
import django
django.setup()
from emdash.actor import Actor
from taxonomy import services as taxonomy
from content.entries import services as entries
what = json.loads(sys.argv[1])
if what["change"] == "field":
    from content.schema import services as schema_services
    schema_services.field_create(actor=Actor.system(), collection="posts", slug="subtitle", label="Sub", type="string")
elif what["change"] == "term":
    taxonomy.term_update(actor=Actor.system(), taxonomy="category", term="news", label="From another process")
else:
    entries.entry_update(actor=Actor.system(), collection="posts", id=what["id"], data={"title": "Elsewhere"})
    entries.entry_publish(actor=Actor.system(), collection="posts", id=what["id"])
"""


@pytest.mark.parametrize("change", ["term", "item"])
def test_a_change_by_another_process_moves_a_kept_304(credited, change) -> None:
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    else:
        url = f"sqlite:///{db['NAME']}"
    etag, _ = _current_304(HELLO)
    assert wsgi_get(HELLO, IF_NONE_MATCH=etag)[0] == 304
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    what = json.dumps({"change": change, "id": credited["hello"].id})
    done = subprocess.run(
        [sys.executable, "-c", WRITER, what], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    status, headers, _ = wsgi_get(HELLO, IF_NONE_MATCH=etag)
    assert status == 200 and headers["etag"] != etag


def _write_elsewhere(change: str, entry_id: str) -> None:
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    else:
        url = f"sqlite:///{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    what = json.dumps({"change": change, "id": entry_id})
    done = subprocess.run(
        [sys.executable, "-c", WRITER, what], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("path", [HELLO, f"{API}?limit=5", "/_emdash/api/search?q=hello"])
def test_a_field_added_by_another_process_moves_a_kept_304_inside_the_schema_window(credited, settings, path) -> None:
    """A server trusts its schema snapshot for SCHEMA_CHECK_SECONDS. The first conditional GET after another
    process added a field was computed from the trusted (old) snapshot, matched, and was kept under the new change
    token: the old ETag then got 304s until some other write, while plain GETs showed the new field."""
    settings.EMDASH = {**settings.EMDASH, "SCHEMA_CHECK_SECONDS": 3600}
    etag, _ = _current_304(path)
    assert wsgi_get(path, IF_NONE_MATCH=etag)[0] == 304
    _write_elsewhere("field", credited["hello"].id)
    status, headers, _ = wsgi_get(path, IF_NONE_MATCH=etag)
    assert status == 200 and headers["etag"] != etag
    assert wsgi_get(path, IF_NONE_MATCH=etag)[0] == 200  # and stays so
    if path == HELLO:
        _, _, content = wsgi_get(path)
        assert "subtitle" in json.loads(content)["item"]["data"]


@sqlite_only
def test_nothing_is_kept_inside_a_transaction(credited) -> None:
    with transaction.atomic():  # its writes could still roll back
        etag, _ = _current_304(HELLO)
        with CaptureQueriesContext(connection) as queries:
            assert wsgi_get(HELLO, IF_NONE_MATCH=etag)[0] == 304
    assert len(queries) >= 1


@sqlite_only
def test_a_full_table_lets_the_least_recently_given_answer_go(credited, monkeypatch) -> None:
    from emdash.edge import kept

    monkeypatch.setattr(kept, "KEPT_PER_THREAD", 2)
    hot, _ = _current_304(HELLO)
    cold, _ = _current_304(f"{API}?limit=5")
    assert wsgi_get(HELLO, IF_NONE_MATCH=hot)[0] == 304  # given again: now the most recent
    _current_304("/_emdash/api/search?q=hello")  # a third answer: the list's goes
    with CaptureQueriesContext(connection) as queries:
        assert wsgi_get(HELLO, IF_NONE_MATCH=hot)[0] == 304
    assert len(queries) == 0  # the hot answer stayed
    with CaptureQueriesContext(connection) as queries:
        assert wsgi_get(f"{API}?limit=5", IF_NONE_MATCH=cold)[0] == 304
    assert len(queries) >= 1  # computed again


@sqlite_only
def test_a_kept_304_is_kept_per_origin_host_and_query(credited, settings) -> None:
    settings.EMDASH = {**settings.EMDASH, "ALLOWED_ORIGINS": ["https://front.example"]}
    etag, granted = _current_304(HELLO, ORIGIN="https://front.example")
    assert granted["access-control-allow-origin"] == "https://front.example"
    # Another origin is not handed the first one's grant, though the validators match.
    status, other, _ = wsgi_get(HELLO, IF_NONE_MATCH=etag, ORIGIN="https://evil.example")
    assert status == 304 and "access-control-allow-origin" not in other
    assert wsgi_get(HELLO, IF_NONE_MATCH=etag, HOST="evil.example")[0] == 400
    assert wsgi_get(f"{HELLO}?q=%00", IF_NONE_MATCH=etag)[0] == 400


@sqlite_only
def test_credentials_a_changed_setting_and_if_match_still_reach_django(credited, settings, monkeypatch) -> None:
    etag, _ = _current_304(HELLO)
    reached: list[str] = []
    real = WSGIHandler.get_response

    def counted(self: Any, request: Any) -> Any:
        reached.append(request.path)
        return real(self, request)

    monkeypatch.setattr(WSGIHandler, "get_response", counted)
    assert wsgi_get(HELLO, IF_NONE_MATCH=etag, AUTHORIZATION="Bearer ec_pat_nothing")[0] == 401
    assert wsgi_get(HELLO, IF_NONE_MATCH=etag, COOKIE=f"{django_settings.SESSION_COOKIE_NAME}=abc")[0] == 304
    assert wsgi_get(HELLO, IF_NONE_MATCH=etag, IF_MATCH='"other"')[0] == 412  # Django's rules for If-Match
    assert reached == [HELLO] * 3
    assert wsgi_get(HELLO, IF_NONE_MATCH=etag, COOKIE="theme=dark")[0] == 304 and len(reached) == 3
    settings.ALLOWED_HOSTS = ["elsewhere.example"]  # a changed setting forgets every kept answer
    assert wsgi_get(HELLO, IF_NONE_MATCH=etag)[0] == 400


def test_a_plain_read_after_another_process_added_a_field_shows_it_at_once(credited, settings) -> None:
    """The item cache's stamps query reads the database's schema version: when it is ahead of this process's
    trusted snapshot the snapshot is reloaded, so the 200 shows the new field with the new ETag at once rather
    than the old body under the old ETag for up to SCHEMA_CHECK_SECONDS."""
    settings.EMDASH = {**settings.EMDASH, "SCHEMA_CHECK_SECONDS": 3600}
    status, first, _ = wsgi_get(HELLO)
    assert status == 200 and wsgi_get(HELLO)[0] == 200  # warm: kept by the item cache
    _write_elsewhere("field", credited["hello"].id)
    status, headers, content = wsgi_get(HELLO)
    assert status == 200 and "subtitle" in json.loads(content)["item"]["data"]
    assert headers["etag"] != first["etag"]
