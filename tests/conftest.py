"""Suite-wide fixtures. Tests that change the schema need real commits (``transactional_db``): SQLite's
schema editor cannot run inside the per-test transaction. Dynamic ``ec_*`` tables are dropped after
each such test, because Django's flush only knows its own models."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from content.schema import specs as schema

pytest_plugins = ["tests.browser"]


def _drop_entry_tables() -> None:
    tables = [t for t in connection.introspection.table_names() if t.startswith("ec_")]
    if tables:
        with connection.cursor() as cursor:
            for table in tables:
                cursor.execute(f"DROP TABLE {connection.ops.quote_name(table)}")
    schema.invalidate()


def offline_getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> Any:
    """Resolves IP literals only: no test resolves (or then fetches from) a real host name."""
    import socket

    try:
        return socket.getaddrinfo(host, port, *args, flags=socket.AI_NUMERICHOST, **kwargs)
    except socket.gaierror:
        raise socket.gaierror(socket.EAI_NONAME, "offline in tests") from None


@pytest.fixture(autouse=True)
def _offline_fetch(monkeypatch: pytest.MonkeyPatch) -> None:
    """URL fetches (media_upload's url) never leave the machine in tests; tests map names themselves."""
    from emdash import safe_fetch

    monkeypatch.setattr(safe_fetch, "getaddrinfo", offline_getaddrinfo)


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Rate-limit and lockout counters live in the cache: no test inherits another's."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _audit_writer_stopped() -> Iterator[None]:
    """A test that started the background audit writer stops it, and its unwritten rows are dropped: this runs
    after the test's database is torn down, and they must not land in the next test's."""
    yield
    from audit import writer as audit_writer

    if audit_writer._thread is not None:
        audit_writer._pending.clear()
        audit_writer.shutdown()


@pytest.fixture
def operation_table() -> Iterator[Any]:
    """Declare test operations with the production ``declare()`` (``operation_table.add(...)``); the table and
    the tool registry are restored afterwards."""
    from tests import operation_table as table

    with table.restored():
        yield table


@pytest.fixture
def unlimited_rates(settings) -> None:
    """Switch the MCP/REST request rate limits off, for tests that send more than the default 600 a minute."""
    settings.EMDASH = {**settings.EMDASH, "RATE_LIMITS": "off"}


@pytest.fixture
def cms(transactional_db: None) -> Iterator[None]:
    """A database where schema changes commit; entry tables are dropped afterwards."""
    schema.invalidate()
    yield
    _drop_entry_tables()


@pytest.fixture
def posts(cms: None):
    """The demo-like ``posts`` collection (title, excerpt, body) with drafts, revisions and scheduling."""
    from tests.factories import make_collection

    return make_collection("posts")


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    # Real hashing costs ~0.3 s per user; the suite makes hundreds of users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The read-path caches and the background audit writer are off for the suite, so a test sees its own
    # revocations, raw schema bumps and audit rows at once; tests/operations/test_read_path.py turns them on.
    settings.EMDASH = {
        **settings.EMDASH,
        "AUTH_CACHE_SECONDS": 0,
        "SCHEMA_CHECK_SECONDS": 0,
        "AUDIT_ASYNC": False,
    }


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://... to run")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


def pytest_report_header(config: pytest.Config) -> str:
    from django.conf import settings

    db = settings.DATABASES["default"]
    import django

    return f"emdash: database {db['ENGINE'].rsplit('.', 1)[-1]} ({db.get('NAME')}), Django {django.get_version()}"


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return
    # Counted from the reports, not at collection: under xdist the workers collect and this process only reports.
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "postgres" in getattr(r, "keywords", {})]
    if skipped:
        terminalreporter.section("PostgreSQL tests skipped", sep="!", yellow=True, bold=True)
        terminalreporter.write_line(
            f"{len(skipped)} test(s) need PostgreSQL and did NOT run on SQLite. "
            "Run `DATABASE_URL=postgres://postgres@127.0.0.1:5432/test make test` (CI does).",
            yellow=True,
            bold=True,
        )


@pytest.fixture(autouse=True)
def _fresh_stamp_caches() -> Iterator[None]:
    """Menus, settings and taxonomies cached per process (content/stamps.py) never outlive a test's database."""
    from content import stamps

    stamps.forget_all()
    yield
    stamps.forget_all()
