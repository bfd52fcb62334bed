"""The site's local time: its ``timezone`` and ``dateFormat`` settings, one formatter for every screen.

``dateFormat`` is a Unicode (CLDR/LDML) date pattern, the same letters date-fns and Babel use:
``yyyy`` year, ``MM`` month number, ``MMM``/``MMMM`` month name, ``d``/``dd`` day, ``EEE`` weekday.
Formatting goes through Babel, so month and day names come from CLDR. Unset values fall back to
UTC and ``yyyy-MM-dd``. Storage stays UTC; only what people read and type is local.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime

from content import stamps
from emdash.dates import parse_iso
from emdash.errors import ValidationError

DEFAULT_DATE_FORMAT = "yyyy-MM-dd"
TIME_FORMAT = "HH:mm"
INPUT_FORMAT = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> sends and shows


@dataclass(frozen=True)
class SiteTime:
    zone: ZoneInfo
    date_format: str

    @property
    def zone_name(self) -> str:
        return self.zone.key


def site_time_from(settings: dict[str, Any]) -> SiteTime:
    """The zone and pattern of a settings document; bad or missing values fall back to the defaults."""
    name = settings.get("timezone")
    try:
        zone = ZoneInfo(name) if isinstance(name, str) and name else ZoneInfo("UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    pattern = settings.get("dateFormat")
    return SiteTime(zone, pattern if isinstance(pattern, str) and pattern.strip() else DEFAULT_DATE_FORMAT)


# Built once per process and again when the settings' change stamp moves (a public page reads the stamps anyway).
_cached = stamps.PerProcess("settings")

# One settings read per request at most (SiteTimeMiddleware opens the memo); outside a request, every call reads.
_memo: contextvars.ContextVar[dict[str, SiteTime] | None] = contextvars.ContextVar("emdash_site_time", default=None)


def current() -> SiteTime:
    from settings_app.selectors import stored  # late: selectors import media models

    memo = _memo.get()
    if memo is not None and "t" in memo:
        return memo["t"]
    value = _cached.get("t", lambda: site_time_from(stored()))  # per process on public pages (content/stamps.py)
    if memo is not None:
        memo["t"] = value
    return value


class SiteTimeMiddleware:
    """Opens the per-request memo (lazy: requests that format no date never read the settings)."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        token = _memo.set({})
        try:
            return self.get_response(request)
        finally:
            _memo.reset(token)


def _moment(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str) and value:
        return parse_iso(value)
    return None


def format_date(value: Any, site: SiteTime | None = None) -> str:
    """The date in the site's zone and ``dateFormat``; "" for empty values, the input itself if unreadable."""
    return _format(value, site, with_time=False)


def format_datetime_local(value: Any, site: SiteTime | None = None) -> str:
    """Date (``dateFormat``) and 24-hour time, both in the site's zone."""
    return _format(value, site, with_time=True)


def _format(value: Any, site: SiteTime | None, *, with_time: bool) -> str:
    try:
        moment = _moment(value)
    except ValueError:
        return str(value)
    if moment is None:
        return ""
    site = site or current()
    pattern = f"{site.date_format}, {TIME_FORMAT}" if with_time else site.date_format
    try:
        return format_datetime(moment, pattern, tzinfo=site.zone, locale="en")
    except (ValueError, KeyError, AttributeError, OverflowError):  # a pattern Babel cannot read: show ISO
        return _local(moment, site).strftime("%Y-%m-%d %H:%M" if with_time else "%Y-%m-%d")


def _local(moment: datetime, site: SiteTime) -> datetime:
    """``moment`` in the site's zone; in UTC at the calendar's two ends (0001-01-01, 9999-12-31), where the zone's
    offset would leave the years 1-9999 that Python's datetime holds."""
    try:
        return moment.astimezone(site.zone)
    except OverflowError:
        return moment


def to_input(value: Any, site: SiteTime | None = None) -> str:
    """A stored UTC instant as a ``datetime-local`` value in the site's zone."""
    moment = _moment(value)
    if moment is None:
        return ""
    # isoformat, not strftime: glibc writes year 1 as "1", which the input cannot read
    return _local(moment, site or current()).replace(tzinfo=None).isoformat(timespec="minutes")


def from_input(raw: str, site: SiteTime | None = None) -> datetime:
    """A ``datetime-local`` value typed in the site's zone, as an aware UTC datetime.

    A wall-clock time that does not exist (skipped by a spring-forward change) is refused; one that happens
    twice (the autumn fall-back hour) means its first occurrence, as most calendars do.
    """
    site = site or current()
    text = raw.strip()
    try:
        naive = datetime.strptime(text[:16], INPUT_FORMAT) if len(text) >= 16 else None
    except ValueError:
        naive = None
    if naive is None or (len(text) > 16 and not text[16:].lstrip(":").replace(".", "").isdigit()):
        raise ValidationError.for_fields({"scheduledAt": "Enter a date and time, e.g. 2026-06-01 09:00."})
    local = naive.replace(tzinfo=site.zone, fold=0)
    try:
        instant = local.astimezone(UTC)
        back = instant.astimezone(site.zone).replace(tzinfo=None)
    except OverflowError:
        raise ValidationError.for_fields(
            {"scheduledAt": f"Enter a date and time between years 1 and 9999 in {site.zone_name}."}
        ) from None
    if back != naive:
        text = (
            f"{naive:%H:%M} on {naive:%Y-%m-%d} does not exist in {site.zone_name}: the clocks skip that hour "
            "(daylight saving time starts). Pick a time outside the gap."
        )
        raise ValidationError(text, details={"fields": {"scheduledAt": text}})
    return instant
