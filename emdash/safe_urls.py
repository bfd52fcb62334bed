"""Which custom menu URLs are stored: http(s) URLs with a host, site-relative paths and in-page anchors.

An allowlist, checked on the raw string: browsers drop tabs, newlines and leading control characters or
spaces before reading a scheme (so ``java\\tscript:`` and `` javascript:`` run script), treat ``\\`` like
``/`` and ``//host`` as another site. Any whitespace, control or format character, any backslash and any
scheme but http(s) is refused, so none of those spellings can get through.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2048
ALLOWED = "an http(s) URL (https://example.com/...), a site-relative path (/about/) or an anchor (#top)"
_BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"}


def url_problem(value: object) -> str | None:
    """What is wrong with ``value`` as a custom menu URL, or None when it is fine."""
    if not isinstance(value, str) or not value:
        return f"is required for custom items: {ALLOWED}"
    if len(value) > MAX_URL_LENGTH:
        return f"must be at most {MAX_URL_LENGTH} characters"
    if any(ch.isspace() or unicodedata.category(ch) in _BAD_CATEGORIES for ch in value):
        return "must not contain spaces, control or invisible characters (encode spaces as %20)"
    if "\\" in value:
        return "must not contain backslashes"
    if value.startswith("#"):
        return None
    if value.startswith("/"):
        if value.startswith("//"):
            return "protocol-relative URLs (//host/...) are not allowed; write https://host/..."
        return None
    scheme, colon, rest = value.partition(":")
    if colon and scheme.lower() in ("http", "https"):
        try:
            host = urlsplit(value).hostname
        except ValueError:
            host = None
        if not rest.startswith("//") or not host:
            return "must name a host, e.g. https://example.com/path"
        return None
    return f"must be {ALLOWED}; other schemes (javascript:, data:, ...) are not allowed"
