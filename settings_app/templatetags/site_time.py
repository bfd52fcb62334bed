"""``{% load site_time %}``: dates in the site's time zone and ``dateFormat`` (settings_app.localtime).

{{ value|site_date }}          the date, e.g. "24 Nov 2026"
{{ value|site_datetime }}      date and time, e.g. "24 Nov 2026, 17:30"
{% local_time value %}         ``<time datetime="…Z">`` around the date and time (for lists and metadata)
{% site_zone %}                the zone name, e.g. "Europe/Paris" (labels for times people type)
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from emdash.dates import iso
from settings_app import localtime

register = template.Library()


@register.filter
def site_date(value: Any) -> str:
    return localtime.format_date(value)


@register.filter
def site_datetime(value: Any) -> str:
    return localtime.format_datetime_local(value)


@register.simple_tag
def local_time(value: Any, date_only: bool = False) -> SafeString | str:
    if not value:
        return ""
    label = localtime.format_date(value) if date_only else localtime.format_datetime_local(value)
    machine = value if isinstance(value, str) else iso(value)
    return format_html('<time datetime="{}">{}</time>', machine, label)


@register.simple_tag
def site_zone() -> str:
    return localtime.current().zone_name
