"""Schema changes and registry rows commit together or not at all, bump the version stamp by exactly one,
and other processes notice them without a restart.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.conf import settings
from django.db import DatabaseError, OperationalError, connection

from content.entries import selectors
from content.models import Collection, Field, Revision, SchemaState
from content.schema import services as schema_services
from content.schema import specs as schema
from content.schema import updates as schema_updates
from content.schema.dynamic import field_attname
from content.signals import schema_changed
from emdash.errors import CollectionExists, Conflict, EmDashError, ValidationError
from tests.factories import SYSTEM, make_collection, make_entry

SUBPROCESS_TIMEOUT = 120


# --- helpers --------------------------------------------------------------------------------------------


def tables() -> set[str]:
    return set(connection.introspection.table_names())


def columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {col.name for col in connection.introspection.get_table_description(cursor, table)}


def stored_version() -> int:
    return SchemaState.objects.filter(pk=1).values_list("version", flat=True).first() or 0


def registry_state() -> tuple[Any, ...]:
    return (
        sorted(Collection.objects.values_list("slug", "label", "table_name", "updated_at")),
        sorted(Field.objects.values_list("collection__slug", "slug", "type", "position")),
        {t: columns(t) for t in sorted(t for t in tables() if t.startswith("ec_"))},
        stored_version(),
    )


def raises(code: str, error_class: type[EmDashError], fn: Callable[..., Any], **kwargs: Any) -> EmDashError:
    with pytest.raises(EmDashError) as info:
        fn(**kwargs)
    assert type(info.value) is error_class, f"{type(info.value).__name__}: {info.value}"
    assert info.value.code == code
    return info.value


def editor_class() -> type:
    """The schema editor class this backend really uses (SQLite overrides add_field/remove_field)."""
    return connection.SchemaEditorClass


def failing(
    original: Callable[..., Any], seen: list[dict[str, Any]], *, run_first: bool, probe: Callable[[], dict[str, Any]]
) -> Callable[..., Any]:
    """A schema-editor method that records what the transaction holds so far, then raises a DB error.

    With ``run_first`` the real DDL runs before the error, so the rollback must undo it too.
    """

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if run_first:
            original(self, *args, **kwargs)
        seen.append(probe())
        raise OperationalError("disk I/O error (simulated)")

    return method


@contextmanager
def signals_sent() -> Iterator[list[Any]]:
    sent: list[Any] = []

    def receiver(sender: Any, **kwargs: Any) -> None:
        sent.append(sender)

    schema_changed.connect(receiver, weak=False)
    try:
        yield sent
    finally:
        schema_changed.disconnect(receiver)


# --- (a) a stray table ----------------------------------------------------------------------------------


def _make_stray_table(name: str) -> None:
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {qn(name)} (legacy_id integer, note varchar(20))")
        cursor.execute(f"INSERT INTO {qn(name)} (legacy_id, note) VALUES (1, 'keep me')")


def _stray_rows(name: str) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT legacy_id, note FROM {connection.ops.quote_name(name)}")
        return cursor.fetchall()


def test_stray_table_makes_create_fail_cleanly(cms):
    _make_stray_table("ec_x")
    start = stored_version()
    err = raises(
        "COLLECTION_EXISTS", CollectionExists, schema_services.collection_create, actor=SYSTEM, slug="x", label="X"
    )
    assert "ec_x" in err.message
    assert not Collection.objects.exists()
    assert stored_version() == start
    assert columns("ec_x") == {"legacy_id", "note"}  # the stray table is left alone
    assert _stray_rows("ec_x") == [(1, "keep me")]
    assert "x" not in schema.current().collections
    # Another slug still works.
    schema_services.collection_create(actor=SYSTEM, slug="y", label="Y")
    assert stored_version() == start + 1


def test_stray_table_appearing_after_the_check_is_a_domain_error(cms, monkeypatch):
    """The table shows up between the existence check and CREATE TABLE: the database refuses."""
    _make_stray_table("ec_x")
    start = stored_version()
    real = connection.introspection.table_names
    with monkeypatch.context() as m:
        m.setattr(connection.introspection, "table_names", lambda *a, **k: [t for t in real(*a, **k) if t != "ec_x"])
        err = raises("CONFLICT", Conflict, schema_services.collection_create, actor=SYSTEM, slug="x", label="X")
    assert "nothing was changed" in err.message
    assert not Collection.objects.exists()
    assert stored_version() == start
    assert columns("ec_x") == {"legacy_id", "note"}
    assert _stray_rows("ec_x") == [(1, "keep me")]
    assert schema.current().collections == {}


# --- (b) DDL failing inside the transaction -------------------------------------------------------------


@pytest.mark.parametrize("run_first", [False, True], ids=["before-ddl", "after-ddl"])
def test_failed_create_table_leaves_no_registry_row(cms, monkeypatch, run_first):
    make_collection("pages", fields=[])
    before = registry_state()
    seen: list[dict[str, Any]] = []
    cls = editor_class()

    def probe():
        return {
            "row": Collection.objects.filter(slug="articles").exists(),
            "table": "ec_articles" in tables(),
        }

    monkeypatch.setattr(cls, "create_model", failing(cls.create_model, seen, run_first=run_first, probe=probe))

    with signals_sent() as sent:
        err = raises(
            "CONFLICT", Conflict, schema_services.collection_create, actor=SYSTEM, slug="articles", label="Articles"
        )
    monkeypatch.undo()

    assert seen == [{"row": True, "table": run_first}]  # the row was written inside the transaction
    assert "nothing was changed" in err.message
    assert not isinstance(err, DatabaseError)
    assert not Collection.objects.filter(slug="articles").exists()
    assert "ec_articles" not in tables()
    assert registry_state() == before
    assert sent == []
    assert "articles" not in schema.current().collections
    # Nothing is left half-done: the same create now succeeds.
    schema_services.collection_create(actor=SYSTEM, slug="articles", label="Articles")
    assert "ec_articles" in tables()
    assert stored_version() == before[-1] + 1


@pytest.mark.parametrize("run_first", [False, True], ids=["before-ddl", "after-ddl"])
def test_failed_add_column_leaves_no_field_row(posts, monkeypatch, run_first):
    make_entry(data={"title": "Existing"})
    before = registry_state()
    seen: list[dict[str, Any]] = []
    cls = editor_class()

    def probe():
        return {
            "row": Field.objects.filter(slug="rating").exists(),
            "column": "rating" in columns("ec_posts"),
        }

    monkeypatch.setattr(cls, "add_field", failing(cls.add_field, seen, run_first=run_first, probe=probe))

    with signals_sent() as sent:
        raises(
            "CONFLICT",
            Conflict,
            schema_services.field_create,
            actor=SYSTEM,
            collection="posts",
            slug="rating",
            label="Rating",
            type="integer",
            default_value=3,
        )
    monkeypatch.undo()

    assert seen == [{"row": True, "column": run_first}]
    assert not Field.objects.filter(slug="rating").exists()
    assert "rating" not in columns("ec_posts")
    assert registry_state() == before
    assert sent == []
    spec = schema.current().get("posts")
    assert spec.get_field("rating") is None
    # Entries still work with the unchanged schema, and the field can be added afterwards.
    make_entry(data={"title": "After"})
    schema_services.field_create(actor=SYSTEM, collection="posts", slug="rating", label="Rating", type="integer")
    assert "rating" in columns("ec_posts")
    assert stored_version() == before[-1] + 1


@pytest.mark.parametrize("run_first", [False, True], ids=["before-ddl", "after-ddl"])
def test_failed_drop_column_keeps_field_and_data(posts, monkeypatch, run_first):
    entry = make_entry(data={"title": "T", "excerpt": "keep"})
    before = registry_state()
    seen: list[dict[str, Any]] = []
    cls = editor_class()
    probe = lambda: {"row": Field.objects.filter(slug="excerpt").exists()}  # noqa: E731
    monkeypatch.setattr(cls, "remove_field", failing(cls.remove_field, seen, run_first=run_first, probe=probe))

    raises("CONFLICT", Conflict, schema_services.field_delete, actor=SYSTEM, collection="posts", field_slug="excerpt")
    monkeypatch.undo()

    assert seen == [{"row": False}]  # the registry row was already deleted inside the transaction
    assert Field.objects.filter(collection__slug="posts", slug="excerpt").exists()
    assert "excerpt" in columns("ec_posts")
    assert registry_state() == before
    got = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()
    assert got["data"]["excerpt"] == "keep"


@pytest.mark.parametrize("run_first", [False, True], ids=["before-ddl", "after-ddl"])
def test_failed_drop_table_keeps_collection_content_and_revisions(posts, monkeypatch, run_first):
    entry = make_entry(data={"title": "T"})
    revisions = set(Revision.objects.filter(collection="posts").values_list("id", flat=True))
    assert revisions
    before = registry_state()
    seen: list[dict[str, Any]] = []
    cls = editor_class()

    def probe():
        return {
            "row": Collection.objects.filter(slug="posts").exists(),
            "revisions": Revision.objects.filter(collection="posts").count(),
        }

    monkeypatch.setattr(cls, "delete_model", failing(cls.delete_model, seen, run_first=run_first, probe=probe))

    raises("CONFLICT", Conflict, schema_services.collection_delete, actor=SYSTEM, slug="posts", force=True)
    monkeypatch.undo()

    assert seen == [{"row": False, "revisions": 0}]
    assert registry_state() == before
    assert "ec_posts" in tables()
    assert set(Revision.objects.filter(collection="posts").values_list("id", flat=True)) == revisions
    assert selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]["title"] == "T"


@pytest.mark.parametrize("target", ["back-fill", "version-stamp"])
def test_failure_after_the_ddl_rolls_back_the_column(posts, monkeypatch, target):
    """A failure after the DDL succeeded (back-filling the default, bumping the stamp) still undoes everything."""
    from django.db.models.query import QuerySet

    make_entry(data={"title": "Existing"})
    before = registry_state()
    seen: list[bool] = []
    original = QuerySet.update
    marker = field_attname("rating") if target == "back-fill" else "version"

    def update(self: Any, **kwargs: Any) -> int:
        if marker in kwargs:
            seen.append("rating" in columns("ec_posts"))
            raise OperationalError("database is locked (simulated)")
        return original(self, **kwargs)

    monkeypatch.setattr(QuerySet, "update", update)
    raises(
        "CONFLICT",
        Conflict,
        schema_services.field_create,
        actor=SYSTEM,
        collection="posts",
        slug="rating",
        label="Rating",
        type="integer",
        default_value=3,
    )
    monkeypatch.undo()
    assert seen == [True]  # the column existed inside the transaction
    assert registry_state() == before
    assert "rating" not in columns("ec_posts")
    assert schema.current().get("posts").get_field("rating") is None


def test_validation_failures_do_not_touch_the_database(posts):
    before = registry_state()
    raises(
        "VALIDATION_ERROR",
        ValidationError,
        schema_services.field_create,
        actor=SYSTEM,
        collection="posts",
        slug="rating",
        label="Rating",
        type="integer",
        default_value="high",
    )
    raises("VALIDATION_ERROR", ValidationError, schema_services.collection_create, actor=SYSTEM, slug="pages", label="")
    assert registry_state() == before


# --- (c) the version stamp ------------------------------------------------------------------------------


def test_version_goes_up_by_one_per_successful_change(cms):
    versions = [stored_version()]

    def step() -> None:
        versions.append(stored_version())
        assert schema.current().version == versions[-1]  # this process follows at once

    with signals_sent() as sent:
        schema_services.collection_create(actor=SYSTEM, slug="posts", label="Posts")
        step()
        schema_services.field_create(actor=SYSTEM, collection="posts", slug="title", label="Title", type="string")
        step()
        make_entry(data={"title": "x"})
        schema_services.field_create(
            actor=SYSTEM, collection="posts", slug="rating", label="Rating", type="integer", default_value=1
        )  # DDL plus back-fill: still one change
        step()
        schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="rating")
        step()
        # Failures change nothing.
        for call in (
            lambda: schema_services.collection_create(actor=SYSTEM, slug="posts", label="Again"),
            lambda: schema_services.field_create(
                actor=SYSTEM, collection="posts", slug="title", label="T", type="string"
            ),
            lambda: schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="nope"),
            lambda: schema_services.collection_delete(actor=SYSTEM, slug="posts"),  # has content
        ):
            with pytest.raises(EmDashError):
                call()
            step()
        schema_services.collection_delete(actor=SYSTEM, slug="posts", force=True)
        step()

    assert [b - a for a, b in itertools.pairwise(versions)] == [1, 1, 1, 1, 0, 0, 0, 0, 1]
    assert len(sent) == 5  # schema_changed once per committed change


def test_snapshot_is_reused_until_the_version_changes(posts):
    first = schema.current()
    assert schema.current() is first
    make_entry(data={"title": "content writes do not bump the stamp"})
    assert schema.current() is first
    schema_services.field_create(actor=SYSTEM, collection="posts", slug="rating", label="Rating", type="integer")
    second = schema.current()
    assert second is not first
    assert second.version == first.version + 1
    assert second.get("posts").get_field("rating") is not None
    assert first.get("posts").get_field("rating") is None  # old snapshots are immutable


def test_another_writer_bumping_the_stamp_is_noticed(posts):
    """A change committed elsewhere (simulated with a raw registry write plus a stamp bump)."""
    spec = schema.current().get("posts")
    Collection.objects.filter(slug="posts").update(label="Renamed elsewhere")
    assert schema.current().get("posts") is spec  # same stamp: the cached snapshot is still used
    SchemaState.objects.filter(pk=1).update(version=stored_version() + 1)
    assert schema.current().get("posts").label == "Renamed elsewhere"


def test_schema_changes_never_trust_a_stale_snapshot(posts, settings):
    """Reads may trust a snapshot for SCHEMA_CHECK_SECONDS, schema changes may not: a task worker that loaded the
    schema just before the web process added a field must still find that field when a task deletes it."""
    settings.EMDASH = {**settings.EMDASH, "SCHEMA_CHECK_SECONDS": 60}
    stale = schema.current()
    schema_services.field_create(actor=SYSTEM, collection="posts", slug="rating", label="Rating", type="integer")
    schema_services.collection_create(actor=SYSTEM, slug="pages", label="Pages")

    def loaded_before_the_change() -> None:  # as another process that read the schema a moment earlier
        schema._snapshot, schema._checked_at = stale, time.monotonic()

    loaded_before_the_change()
    assert schema.current() is stale, "reads trust the window"
    assert schema_updates.field_update(actor=SYSTEM, collection="posts", field_slug="rating", label="Stars").label
    loaded_before_the_change()
    assert schema_updates.collection_update(actor=SYSTEM, slug="pages", label="Static pages").label == "Static pages"
    loaded_before_the_change()
    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="rating")
    loaded_before_the_change()
    schema_services.collection_delete(actor=SYSTEM, slug="pages")
    assert not Collection.objects.filter(slug="pages").exists()
    assert not Field.objects.filter(collection__slug="posts", slug="rating").exists()


# --- (d) other processes --------------------------------------------------------------------------------


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    if connection.vendor == "postgresql":
        auth = s.get("USER") or ""
        if s.get("PASSWORD"):
            auth += f":{s['PASSWORD']}"
        host = s.get("HOST") or "localhost"
        port = s.get("PORT") or 5432
        return f"postgres://{auth}@{host}:{port}/{s['NAME']}"
    pytest.skip(f"no subprocess URL for {connection.vendor}")


def _subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = _database_url()
    env.setdefault("EMDASH_VAR_DIR", str(settings.VAR_DIR))
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _manage_shell(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=settings.BASE_DIR,
        env=_subprocess_env(),
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT,
    )


CREATE_FIELD_ELSEWHERE = """
from content.schema import services as schema_services
from emdash.actor import Actor
schema_services.field_create(actor=Actor.system(), collection="posts", slug="subtitle", label="Subtitle",
                             type="string", default_value="from another process")
print("CREATED")
"""


def test_this_process_sees_a_field_created_by_another_process(posts):
    old = schema.current()
    entry = make_entry(data={"title": "Before"})
    assert schema.current() is old  # cached, and without the field
    assert old.get("posts").get_field("subtitle") is None

    result = _manage_shell(CREATE_FIELD_ELSEWHERE)
    assert result.returncode == 0, result.stderr
    assert "CREATED" in result.stdout

    # No invalidate(): the version stamp alone tells this process to reload.
    fresh = schema.current()
    assert fresh is not old
    assert fresh.version == old.version + 1
    field = fresh.get("posts").get_field("subtitle")
    assert field is not None and field.type == "string"
    assert "subtitle" in columns("ec_posts")
    # The reloaded model classes know the new column.
    data = selectors.entry_get(actor=SYSTEM, collection="posts", id=entry.id).to_dict()["data"]
    assert data["subtitle"] == "from another process"
    created = make_entry(data={"title": "After", "subtitle": "mine"})
    assert created.to_dict()["data"]["subtitle"] == "mine"


WATCHER = r"""
import json, sys
from content.schema import specs as schema
from content.entries import services
from emdash.actor import Actor

def report(**extra):
    snap = schema.current()
    body = {"version": snap.version,
            "collections": {slug: [f.slug for f in spec.fields] for slug, spec in snap.collections.items()}}
    body.update(extra)
    print(json.dumps(body), flush=True)

report()
for line in sys.stdin:
    command = line.strip()
    if command == "quit":
        break
    if command == "write":
        entry = services.entry_create(actor=Actor.system(), collection="posts",
                                      data={"title": "From watcher", "subtitle": "sub"})
        report(entry=entry.to_dict()["data"])
    else:
        report()
"""


class Watcher:
    """A long-lived ``manage.py shell`` that loads the schema once and answers one JSON line per command."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", WATCHER],
            cwd=settings.BASE_DIR,
            env=_subprocess_env(),
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def read(self) -> dict[str, Any]:
        while True:
            try:
                line = self.lines.get(timeout=SUBPROCESS_TIMEOUT)
            except queue.Empty:
                pytest.fail("the watcher process did not answer in time")
            if line is None:
                stderr = self.proc.stderr.read() if self.proc.stderr else ""
                pytest.fail(f"the watcher process exited early: {stderr}")
            if line.startswith("{"):
                return json.loads(line)

    def ask(self, command: str = "report") -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(timeout=30)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def watcher(posts) -> Iterator[Watcher]:
    w = Watcher()
    try:
        yield w
    finally:
        w.close()


def test_another_process_sees_schema_changes_made_here(watcher):
    loaded = watcher.read()  # the watcher loaded the schema before any change
    assert loaded["collections"] == {"posts": ["title", "excerpt", "body"]}
    assert loaded["version"] == stored_version()
    assert watcher.ask()["version"] == loaded["version"]  # nothing changed: same snapshot

    schema_services.field_create(actor=SYSTEM, collection="posts", slug="subtitle", label="Subtitle", type="string")
    schema_services.field_delete(actor=SYSTEM, collection="posts", field_slug="excerpt")
    schema_services.collection_create(actor=SYSTEM, slug="pages", label="Pages")

    time.sleep(1.1)  # another process trusts its snapshot for SCHEMA_CHECK_SECONDS (1 s) before reading the stamp
    seen = watcher.ask()
    assert seen["version"] == loaded["version"] + 3 == stored_version()
    assert seen["collections"] == {"pages": [], "posts": ["title", "body", "subtitle"]}

    # Its model classes were rebuilt too: it can write the new column.
    wrote = watcher.ask("write")
    assert wrote["entry"] == {"title": "From watcher", "body": None, "subtitle": "sub"}
    spec = schema.current().get("posts")
    assert spec.model.objects.count() == 1
    row = spec.model.objects.get()
    assert getattr(row, "f_subtitle") == "sub"  # noqa: B009

    schema_services.collection_delete(actor=SYSTEM, slug="pages")
    time.sleep(1.1)
    assert watcher.ask()["collections"] == {"posts": ["title", "body", "subtitle"]}
