"""The site's time zone and dateFormat: formatting, datetime-local input, DST gaps and folds."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template

from emdash.errors import ValidationError
from settings_app import localtime
from settings_app.localtime import SiteTime, site_time_from

PARIS = SiteTime(ZoneInfo("Europe/Paris"), "d MMM yyyy")
NEW_YORK = SiteTime(ZoneInfo("America/New_York"), "MMMM d, yyyy")


def test_defaults_are_utc_and_iso_dates():
    site = site_time_from({})
    assert site.zone_name == "UTC" and site.date_format == "yyyy-MM-dd"
    assert localtime.format_datetime_local("2026-11-24T16:05:00Z", site) == "2026-11-24, 16:05"


def test_unknown_zone_falls_back_to_utc():
    assert site_time_from({"timezone": "Mars/Olympus"}).zone_name == "UTC"


def test_format_uses_the_zone_and_the_pattern():
    # 23:30 UTC on 24 Nov is already 25 Nov in Paris (UTC+1 in winter).
    assert localtime.format_date("2026-11-24T23:30:00Z", PARIS) == "25 Nov 2026"
    assert localtime.format_datetime_local("2026-11-24T23:30:00Z", PARIS) == "25 Nov 2026, 00:30"
    assert localtime.format_date(datetime(2026, 7, 4, 3, 0, tzinfo=UTC), NEW_YORK) == "July 3, 2026"


def test_format_follows_daylight_saving():
    assert localtime.format_datetime_local("2026-03-29T00:30:00Z", PARIS).endswith("01:30")  # CET, +1
    assert localtime.format_datetime_local("2026-03-29T01:30:00Z", PARIS).endswith("03:30")  # CEST, +2


def test_empty_and_unreadable_values():
    assert localtime.format_date(None, PARIS) == ""
    assert localtime.format_date("not a date", PARIS) == "not a date"


def test_input_round_trip_across_a_dst_change():
    before = localtime.from_input("2026-03-28T09:00", PARIS)
    after = localtime.from_input("2026-03-30T09:00", PARIS)
    assert before == datetime(2026, 3, 28, 8, 0, tzinfo=UTC)  # CET
    assert after == datetime(2026, 3, 30, 7, 0, tzinfo=UTC)  # CEST: same wall time, one hour earlier in UTC
    assert localtime.to_input(after, PARIS) == "2026-03-30T09:00"


def test_a_time_in_the_spring_forward_gap_is_refused():
    with pytest.raises(ValidationError) as caught:
        localtime.from_input("2026-03-29T02:30", PARIS)
    assert "does not exist in Europe/Paris" in caught.value.message
    assert caught.value.details == {"fields": {"scheduledAt": caught.value.message}}
    assert caught.value.message.startswith("02:30 on 2026-03-29 does not exist in Europe/Paris")


def test_an_ambiguous_fall_back_time_means_its_first_occurrence():
    # 02:30 happens twice on 25 Oct 2026 in Paris: first in CEST (00:30 UTC), then in CET (01:30 UTC).
    assert localtime.from_input("2026-10-25T02:30", PARIS) == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)


@pytest.mark.parametrize("raw", ["", "tomorrow", "2026-13-01T09:00", "2026-06-01", "2026-06-01T09:00xyz"])
def test_unreadable_input_is_a_validation_error(raw):
    with pytest.raises(ValidationError):
        localtime.from_input(raw, PARIS)


def test_a_pattern_babel_cannot_read_falls_back_to_iso():
    broken = SiteTime(ZoneInfo("UTC"), "yyyy-MM-dd '")
    assert localtime.format_date("2026-06-01T09:00:00Z", broken) in ("2026-06-01", "2026-06-01 ")


@pytest.mark.django_db
def test_template_filters_read_the_site_settings():
    from settings_app.models import SiteSettings

    SiteSettings.objects.update_or_create(id=1, defaults={"data": {"timezone": "Asia/Tokyo", "dateFormat": "d/M/yy"}})
    out = Template(
        "{% load site_time %}{{ v|site_date }}|{{ v|site_datetime }}|{% local_time v %}|{% site_zone %}"
    ).render(Context({"v": "2026-01-31T20:00:00Z"}))
    assert out == '1/2/26|1/2/26, 05:00|<time datetime="2026-01-31T20:00:00Z">1/2/26, 05:00</time>|Asia/Tokyo'
