"""Capability URLs stay out of the logs: the token of a signed upload URL, a preview link or a share link is the
whole credential, and Django's request logger wrote it in its 4xx lines ("Not Found: /_emdash/share/<token>/").
Checked through the handler config/logging.json configures, as a server's log would be written."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from django.test import Client

from emdash.log_secrets import CapabilityPathFilter, redact

SECRET = "s3cr3t-TOKEN_value.with-dots"


@pytest.fixture
def server_log() -> Iterator[io.StringIO]:
    """The console handler of config/logging.json, writing into a buffer for the test."""
    handler = next(
        h for h in logging.getLogger().handlers if any(isinstance(f, CapabilityPathFilter) for f in h.filters)
    )
    assert isinstance(handler, logging.StreamHandler)
    buffer = io.StringIO()
    old = handler.setStream(buffer)
    try:
        yield buffer
    finally:
        handler.setStream(old)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", f"/_emdash/share/{SECRET}/"),
        ("get", f"/_emdash/preview/{SECRET}/"),
        ("put", f"/_emdash/api/media/upload/{SECRET}"),
    ],
)
def test_a_refused_capability_url_is_logged_without_its_token(server_log: io.StringIO, method: str, path: str) -> None:
    response = getattr(Client(), method)(path)
    assert 400 <= response.status_code < 500
    written = server_log.getvalue()
    assert path.split(SECRET)[0] + "[redacted]" in written, written
    assert SECRET not in written


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"GET /_emdash/share/{SECRET}/ 404", "GET /_emdash/share/[redacted]/ 404"),
        (
            f'"PUT /_emdash/api/media/upload/{SECRET}?x=1 HTTP/1.1"',
            '"PUT /_emdash/api/media/upload/[redacted]?x=1 HTTP/1.1"',
        ),
        ("GET /_emdash/api/content/posts 200", "GET /_emdash/api/content/posts 200"),
        ("/share/abc/ outside our prefix", "/share/abc/ outside our prefix"),
    ],
)
def test_redact_replaces_only_the_capability_segment(text: str, expected: str) -> None:
    assert redact(text) == expected
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "%s", (text,), None)
    CapabilityPathFilter().filter(record)
    assert record.getMessage() == expected
