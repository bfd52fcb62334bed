"""The settings keys (SPEC 6.7) and their rules. ``clean`` reports every problem at once, keyed by path."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

TOP_KEYS = (
    "title",
    "tagline",
    "logo",
    "favicon",
    "url",
    "postsPerPage",
    "dateFormat",
    "timezone",
    "social",
    "seo",
    "editorialGuide",
    "changesetsSelfApprove",
)
FLAGS = {"changesetsSelfApprove"}  # true/false; null unsets (back to the default, false)
SOCIAL_KEYS = ("twitter", "github", "facebook", "instagram", "linkedin", "youtube")
SEO_KEYS = ("titleSeparator", "defaultOgImage", "robotsTxt", "googleVerification", "bingVerification")
NESTED = {"social": SOCIAL_KEYS, "seo": SEO_KEYS}
MEDIA_REFS = {"logo", "favicon", "seo.defaultOgImage"}
# Plain strings and their length caps; robotsTxt alone may span lines.
TEXT_LIMITS = {
    "title": 200,
    "tagline": 500,
    "dateFormat": 64,
    "seo.titleSeparator": 10,
    "seo.robotsTxt": 10_000,
    "editorialGuide": 20_000,  # Markdown for writers and assistants (the MCP resource emdash://guide)
    "seo.googleVerification": 200,
    "seo.bingVerification": 200,
    **{f"social.{key}": 300 for key in SOCIAL_KEYS},
}
MULTILINE = {"seo.robotsTxt", "editorialGuide"}
URL_MAX_LENGTH = 2048
POSTS_PER_PAGE = (1, 100)
ALT_MAX_LENGTH = 1000
DELETE: Any = None  # a cleaned value of None means "unset this key"

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_EXCEPT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_HAS_SCHEME = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.-]*:")
_ULID = re.compile(r"^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$")


def url_problem(value: str) -> str | None:
    """Only absolute http(s) URLs: never javascript:, data: or any other scheme."""
    if len(value) > URL_MAX_LENGTH:
        return f"must have at most {URL_MAX_LENGTH} characters"
    if _CONTROL.search(value) or any(ch.isspace() for ch in value):
        return "must not contain spaces or control characters"
    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError:
        return "must be an http:// or https:// URL"
    if parts.scheme.lower() not in ("http", "https") or not host:
        return 'must be an http:// or https:// URL (or "" to clear)'
    return None


@lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def timezone_problem(value: str) -> str | None:
    if len(value) > 64 or not value:
        return "must be an IANA time zone name such as Europe/Paris"
    zones = _zones()
    if zones:
        return None if value in zones else f"'{value}' is not an IANA time zone name (e.g. Europe/Paris)"
    try:  # no zone list on this system: ask zoneinfo directly
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return f"'{value}' is not an IANA time zone name (e.g. Europe/Paris)"
    return None


def _text(path: str, value: Any, problems: dict[str, str]) -> Any:
    if value is None or value == "":
        return DELETE
    limit = TEXT_LIMITS[path]
    if not isinstance(value, str) or len(value) > limit:
        problems[path] = f'must be a string of at most {limit} characters (null or "" clears it)'
        return DELETE
    control = _CONTROL_EXCEPT_LINES if path in MULTILINE else _CONTROL
    if control.search(value):
        problems[path] = "must not contain control characters"
        return DELETE
    if path.startswith("social.") and _HAS_SCHEME.match(value) and (problem := url_problem(value)):
        problems[path] = f"must be a handle or an http(s) URL: {problem}"
        return DELETE
    return value


def _media_ref(path: str, value: Any, problems: dict[str, str]) -> Any:
    if value is None:
        return DELETE
    if not isinstance(value, dict):
        problems[path] = 'must be a media reference like {"mediaId": "<media id>", "alt": "..."} or null'
        return DELETE
    for key in sorted(set(value) - {"mediaId", "alt"}):
        problems[f"{path}.{key}"] = "unknown key (accepted: mediaId, alt)"
    media_id, alt = value.get("mediaId"), value.get("alt")
    if not isinstance(media_id, str) or not _ULID.match(media_id):
        problems[f"{path}.mediaId"] = "must be a media item ID (see media_list)"
    if alt is not None and (not isinstance(alt, str) or len(alt) > ALT_MAX_LENGTH):
        problems[f"{path}.alt"] = f"must be a string of at most {ALT_MAX_LENGTH} characters"
    ref = {"mediaId": media_id.upper() if isinstance(media_id, str) else media_id}
    if alt:
        ref["alt"] = alt
    return ref


# Settings whose string value has its own check ("" or null clears them): the check, and the problem when not a string.
CHECKED_STRINGS: dict[str, tuple[Callable[[str], str | None], str]] = {
    "url": (url_problem, 'must be an http(s) URL string (or "" to clear)'),
    "timezone": (timezone_problem, "must be an IANA time zone name"),
}


def _value(path: str, value: Any, problems: dict[str, str]) -> Any:
    if path in MEDIA_REFS:
        return _media_ref(path, value, problems)
    if path in CHECKED_STRINGS:
        if value is None or value == "":
            return DELETE
        check, not_a_string = CHECKED_STRINGS[path]
        if problem := check(value) if isinstance(value, str) else not_a_string:
            problems[path] = problem
        return value
    if path in FLAGS:
        if value is not None and not isinstance(value, bool):
            problems[path] = "must be true or false (null restores the default, false)"
        return value
    if path == "postsPerPage":
        low, high = POSTS_PER_PAGE
        if value is None:
            return DELETE
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems[path] = f"must be an integer from {low} to {high}"
        return value
    return _text(path, value, problems)


def clean(changes: Any, problems: dict[str, str]) -> dict[str, Any]:
    """``{key: value}`` to write, where None unsets; nested ``social``/``seo`` hold ``{subkey: value}`` to merge
    (None unsets the whole group). Unknown keys are problems, named by their path."""
    if not isinstance(changes, dict):
        problems["settings"] = "must be an object of settings keys"
        return {}
    cleaned: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in TOP_KEYS:
            problems[str(key)[:100]] = f"unknown setting (accepted: {', '.join(TOP_KEYS)})"
        elif key in NESTED:
            if value is None:
                cleaned[key] = DELETE
            elif not isinstance(value, dict):
                problems[key] = f"must be an object with keys: {', '.join(NESTED[key])} (or null to clear)"
            else:
                cleaned[key] = _group(key, value, problems)
        else:
            cleaned[key] = _value(key, value, problems)
    return cleaned


def _group(group: str, value: dict[str, Any], problems: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, sub in value.items():
        path = f"{group}.{key}"
        if key not in NESTED[group]:
            problems[path[:100]] = f"unknown setting (accepted: {', '.join(NESTED[group])})"
        else:
            out[key] = _value(path, sub, problems)
    return out


def media_ids(cleaned: dict[str, Any]) -> dict[str, str]:
    """``{path: mediaId}`` for every media reference being set."""
    refs = {"logo": cleaned.get("logo"), "favicon": cleaned.get("favicon")}
    seo = cleaned.get("seo")
    if isinstance(seo, dict):
        refs["seo.defaultOgImage"] = seo.get("defaultOgImage")
    return {path: ref["mediaId"] for path, ref in refs.items() if isinstance(ref, dict)}
