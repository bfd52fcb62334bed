"""Helpers for the admin browser tests: logging in through the form, and a real daphne server (ASGI +
websockets) on the test database for the live-update journey."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.servers import daphne

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct-horse-9"


def log_in(page: Any, base_url: str, email: str, password: str = PASSWORD) -> None:
    page.goto(base_url + "/_emdash/admin/login/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base_url + "/_emdash/admin/")


def rich_text(page: Any, label: str = "Body") -> Any:
    """The rich-text editor's surface, once editor.js has mounted it. Until then the label names the plain textarea
    that the editor then hides, and a click that found the textarea first waits for it in vain (seen on a machine
    busy with parallel test workers)."""
    page.locator("[data-pt-editor].pt-ready").first.wait_for()
    return page.get_by_role("textbox", name=label)


def png_file(tmp_path: Path, name: str = "cover.png", color: str = "teal") -> Path:
    buffer = io.BytesIO()
    Image.new("RGB", (640, 360), color).save(buffer, "PNG")
    path = tmp_path / name
    path.write_bytes(buffer.getvalue())
    return path


@pytest.fixture
def daphne_server(cms: None) -> Iterator[str]:
    """``daphne config.asgi:application`` on a free port, sharing the test database; yields its base URL.

    The in-memory channel layer lives in that process, so changes made through its HTTP doors (MCP)
    reach the websockets it serves, exactly as under ``make run``."""
    with daphne({"CONN_MAX_AGE": "0"}) as (url, _process):
        yield url
