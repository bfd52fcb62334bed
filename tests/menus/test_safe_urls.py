"""Custom menu URLs: an allowlist (http(s) with a host, site-relative paths, anchors); script URLs never pass."""

from __future__ import annotations

import pytest

from emdash.safe_urls import url_problem

ALLOWED = [
    "https://example.com",
    "https://example.com/path?q=1#frag",
    "HTTP://EXAMPLE.COM/",
    "http://localhost:8000/x",
    "https://[::1]/",
    "https://bücher.example/straße",
    "/",
    "/about/",
    "/search?q=a%20b",
    "#",
    "#top",
]

HOSTILE = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "\tjavascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "\x01javascript:alert(1)",
    "\x00javascript:alert(1)",
    "javascript\x00:alert(1)",
    "\u200bjavascript:alert(1)",
    "\ufeffjavascript:alert(1)",
    "\u00a0javascript:alert(1)",
    "javascript&colon;alert(1)",
    "javascript%3Aalert(1)",
    "jav&#x09;ascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "DATA:text/html;base64,PHNjcmlwdD4=",
    "vbscript:msgbox(1)",
    "VBScript:msgbox(1)",
    "file:///etc/passwd",
    "//evil.example/",
    "///evil.example/",
    "/\\evil.example/",
    "\\\\evil.example/",
    "\\/evil.example",
    "https:evil.example",
    "https:/evil.example",
    "http://",
    "https://[::1",
    "https:// evil.example",
    "mailto:someone@example.com",
    "about",
    "?q=1",
    "",
    "/" + "a" * 2048,
]


@pytest.mark.parametrize("url", ALLOWED)
def test_safe_urls_pass(url: str) -> None:
    assert url_problem(url) is None


@pytest.mark.parametrize("url", HOSTILE)
def test_hostile_or_unsupported_urls_are_refused(url: str) -> None:
    assert url_problem(url) is not None


@pytest.mark.parametrize("value", [None, 5, ["https://example.com"], b"https://example.com"])
def test_non_strings_are_refused(value: object) -> None:
    assert url_problem(value) is not None
