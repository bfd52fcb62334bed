"""WordPress posts scheduled ("future") arrive scheduled at their date; one whose export carries no date
(``0000-00-00 00:00:00``) cannot be scheduled and used to be published at once, showing the public a post its author
had not released yet. It is imported as a draft and the report says so."""

from __future__ import annotations

import io
from pathlib import Path

from django.core.management import call_command

from content.entries import selectors
from emdash.actor import Actor


def _export(path: Path) -> None:
    items = (
        "<item><title>Later</title><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type>"
        "<wp:post_name>later</wp:post_name><wp:status>future</wp:status>"
        "<wp:post_date_gmt>2999-01-02 03:04:05</wp:post_date_gmt></item>"
        "<item><title>Someday</title><wp:post_id>2</wp:post_id><wp:post_type>post</wp:post_type>"
        "<wp:post_name>someday</wp:post_name><wp:status>future</wp:status>"
        "<wp:post_date_gmt>0000-00-00 00:00:00</wp:post_date_gmt></item>"
        "<item><title>Missed</title><wp:post_id>3</wp:post_id><wp:post_type>post</wp:post_type>"
        "<wp:post_name>missed</wp:post_name><wp:status>future</wp:status>"
        "<wp:post_date_gmt>2001-01-02 03:04:05</wp:post_date_gmt></item>"
    )
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        f"{items}</channel></rss>"
    )


def test_scheduled_posts_without_a_date_stay_drafts(cms: None, tmp_path: Path) -> None:
    path = tmp_path / "future.xml"
    _export(path)
    out = io.StringIO()
    call_command("emdash_import_wordpress", str(path), "--no-fetch", stdout=out)
    report = out.getvalue()
    system = Actor.system()
    later = selectors.entry_get(actor=system, collection="posts", id="later").row
    assert later.status == "scheduled" and later.scheduled_at.year == 2999, report
    someday = selectors.entry_get(actor=system, collection="posts", id="someday").row
    assert someday.status == "draft" and someday.published_at is None, report
    assert "posts/2" in report and "without a date" in report
    # WordPress publishes a post whose time has passed (its cron caught up): so does the import.
    assert selectors.entry_get(actor=system, collection="posts", id="missed").row.status == "published", report
