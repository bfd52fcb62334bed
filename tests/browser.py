"""Headless Chromium for browser tests: Playwright driving Debian's ``/usr/bin/chromium``.

Never a downloaded browser build. Without the system chromium (or the ``playwright`` package) the browser
tests skip with a reason that says so. Use the ``page`` fixture with pytest-django's ``live_server``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("EMDASH_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def _skip_reason() -> str | None:
    if not CHROMIUM.exists():
        return f"browser test needs Debian's chromium at {CHROMIUM} (apt-get install chromium); .ci/run installs it"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser test needs the playwright package (make install)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module: Playwright's sync API keeps an event loop running in this thread while
    it is open, which would break later tests that call ``asyncio.run`` (the MCP SDK tests)."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # The Django ORM calls the tests make between browser steps are plain synchronous calls, made while that
    # loop runs, so Django's async-safety guard must stand aside until the browser is gone.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context (no cookies) and page; 10 s default timeout so failures are quick."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    violations: list[str] = []
    tab.on("console", lambda message: _note_csp_violation(violations, message.text))
    yield tab
    context.close()
    assert not violations, f"Content-Security-Policy violations in the browser console: {violations}"


def _note_csp_violation(violations: list[str], text: str) -> None:
    """Chromium reports every blocked script, style or connection on the console; any one fails the test."""
    if "Content Security Policy" in text:
        violations.append(text[:300])


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page PNG under ``docs/screenshots/<name>.png`` (the docs show the test run's pictures)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# Pictures the tests take for a person to look at, which the docs do not show: kept out of the tree.
WORKING_SHOTS = Path(os.environ.get("EMDASH_WORKING_SHOTS", "/tmp/emdash-screenshots"))


def working_screenshot(page: Any, name: str) -> Path:
    """Save a full-page PNG under ``$EMDASH_WORKING_SHOTS`` (``/tmp/emdash-screenshots``), not in the tree."""
    WORKING_SHOTS.mkdir(parents=True, exist_ok=True)
    path = WORKING_SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@contextmanager
def sized_page(browser: Any, width: int) -> Iterator[Any]:
    """A page ``width`` px wide (not mobile emulation, which widens innerWidth over an overflowing page); like the
    ``page`` fixture, a Content-Security-Policy violation on the console fails the test."""
    viewport = {"width": width, "height": 900 if width > 500 else 844}
    context = browser.new_context(viewport=viewport, has_touch=width < 500)
    context.set_default_timeout(10_000)
    tab = context.new_page()
    violations: list[str] = []
    tab.on("console", lambda message: _note_csp_violation(violations, message.text))
    try:
        yield tab
    finally:
        context.close()
    assert not violations, f"Content-Security-Policy violations in the browser console: {violations}"


NAMED_ROLES = ("button", "textbox", "searchbox", "combobox", "checkbox", "listbox", "link", "spinbutton")


def unnamed_controls(locator: Any) -> list[str]:
    """The controls inside ``locator`` whose accessible name, as Chromium computes it, is empty (from its ARIA
    snapshot: a control without a name is listed as its bare role)."""
    lines = [line.strip().removeprefix("- ").rstrip(":") for line in locator.aria_snapshot().splitlines()]
    return [line for line in lines if line.split(" ")[0] in NAMED_ROLES and '"' not in line.split(":")[0]]
