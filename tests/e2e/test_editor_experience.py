"""The editor's experience in headless Chromium (issue 14 items 3, 4, 7, 8): preview and share links, local time
and scheduling in the site's zone, plain-language errors, the phone layout, and the dark scheme."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.utils import timezone

from content.entries import selectors, services
from content.models import PreviewShare
from menus import services as menu_services
from settings_app import services as settings_services
from tests.browser import _note_csp_violation, screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import make_user
from tests.site.conftest import SYSTEM

pytestmark = pytest.mark.slow
PHONE = {"width": 375, "height": 812}


def _expect():
    from playwright.sync_api import expect

    return expect


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    """Make extra browser contexts (fresh cookies, a phone viewport, the dark scheme); each fails on CSP violations."""
    made: list[tuple[Any, list[str]]] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", {"width": 1280, "height": 900})
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        violations: list[str] = []
        context.on("console", lambda message: _note_csp_violation(violations, message.text))
        made.append((context, violations))
        return context

    yield make
    for context, violations in made:
        context.close()
        assert not violations, f"Content-Security-Policy violations: {violations}"


def _no_horizontal_overflow(page: Any) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url} overflows: scrollWidth {width} > innerWidth {inner}"


def test_preview_opens_the_draft_and_a_share_link_works_without_an_account_until_revoked(
    site, live_server, page, contexts
):
    expect = _expect()
    make_user("editor", email="editor@example.com")
    post = site["hello"]
    services.entry_update(actor=SYSTEM, collection="posts", id=post.id, data={"title": "Hello with draft changes"})
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.goto(base + f"/_emdash/admin/content/posts/{post.id}/")

    with page.context.expect_page() as opened:
        page.get_by_role("link", name="Preview draft").click()
    tab = opened.value
    tab.wait_for_load_state()
    expect(tab.get_by_role("heading", level=1)).to_have_text("Hello with draft changes")
    expect(tab.get_by_role("status")).to_contain_text("Preview of an unpublished draft")
    tab.close()
    assert "Hello with draft changes" not in page.request.get(base + "/posts/hello-world/").text()

    page.get_by_label("Share with reviewers for").select_option(label="1 hour")
    page.get_by_role("button", name="Create share link").click()
    expect(page.get_by_role("heading", name="Share link created")).to_be_visible()
    url = page.get_by_label("Share link").input_value()
    assert url.startswith(base + "/_emdash/share/")
    screenshot(page, "admin-share-link")

    reviewer = contexts().new_page()  # no session: a reviewer outside the CMS
    response = reviewer.goto(url)
    assert response.status == 200 and response.headers["x-robots-tag"] == "noindex, nofollow"
    assert response.headers["cache-control"] == "private, no-store"
    expect(reviewer.get_by_role("heading", level=1)).to_have_text("Hello with draft changes")
    expect(reviewer.get_by_role("status")).to_contain_text("shared for review")
    screenshot(reviewer, "site-share-preview")

    page.get_by_role("link", name="Back to the item").click()
    expect(page.get_by_role("heading", name="Active share links")).to_be_visible()
    page.get_by_role("button", name=re.compile("Switch off")).click()
    expect(page.get_by_text("Share link switched off")).to_be_visible()
    gone = reviewer.goto(url)
    assert gone.status == 410
    expect(reviewer.get_by_role("heading", level=1)).to_have_text("Preview link expired")
    expect(reviewer.get_by_text("switched off")).to_be_visible()
    assert "Hello with draft changes" not in reviewer.content()
    screenshot(reviewer, "site-share-revoked")

    # A second link stops working when its time is up.
    page.get_by_role("button", name="Create share link").click()
    second = page.get_by_label("Share link").input_value()
    assert reviewer.goto(second).status == 200
    PreviewShare.objects.filter(revoked_at__isnull=True).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert reviewer.goto(second).status == 410
    expect(reviewer.get_by_text("has expired")).to_be_visible()


def test_a_time_typed_in_the_sites_zone_is_stored_in_utc_and_published_then(site, live_server, page):
    expect = _expect()
    settings_services.settings_update(actor=SYSTEM, changes={"timezone": "Europe/Paris", "dateFormat": "d MMMM yyyy"})
    make_user("editor", email="editor@example.com")
    draft = site["draft"]
    base = live_server.url
    log_in(page, base, "editor@example.com")
    page.goto(base + f"/_emdash/admin/content/posts/{draft.id}/")
    expect(page.locator("label[for=id_scheduled_at]")).to_contain_text("Europe/Paris")

    # A time in the spring-forward gap is refused with a sentence, and nothing is scheduled.
    year = timezone.now().year + 1
    gap = _last_sunday(year, 3)
    page.get_by_label("Publish at").fill(f"{gap:%Y-%m-%d}T02:30")
    page.get_by_role("button", name="Schedule").click()
    expect(page.get_by_text("does not exist in Europe/Paris")).to_be_visible()
    assert "(VALIDATION_ERROR)" not in page.content()
    assert _stored(draft.id)["scheduledAt"] is None

    # Summer time (UTC+2): 09:15 in Paris is 07:15 UTC.
    page.get_by_label("Publish at").fill(f"{year}-07-14T09:15")
    page.get_by_role("button", name="Schedule").click()
    expect(page.get_by_text("Scheduled.")).to_be_visible()
    assert _stored(draft.id)["scheduledAt"] == f"{year}-07-14T07:15:00Z"
    expect(page.locator("header .muted")).to_contain_text(f"scheduled for 14 July {year}, 09:15")
    screenshot(page, "admin-schedule-local-time")

    # When that moment comes the worker publishes it (moved to just past, rather than waiting).
    page.get_by_role("button", name="Cancel schedule").click()
    soon = (timezone.now() + timedelta(minutes=2)).astimezone(ZoneInfo("Europe/Paris"))
    page.get_by_label("Publish at").fill(soon.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Schedule").click()
    expect(page.get_by_text("Scheduled.")).to_be_visible()
    stored = datetime.fromisoformat(_stored(draft.id)["scheduledAt"])
    assert stored == soon.replace(second=0, microsecond=0).astimezone(UTC)
    call_command("emdash_worker", "--once")
    assert _stored(draft.id)["status"] == "scheduled"  # not yet due
    _move_schedule(draft.id, timezone.now() - timedelta(seconds=1))
    call_command("emdash_worker", "--once")
    assert _stored(draft.id)["status"] == "published"

    # The public site shows dates in the site's zone and format; the feed stays RFC 822 in UTC.
    published = datetime.fromisoformat(_stored(draft.id)["publishedAt"]).astimezone(ZoneInfo("Europe/Paris"))
    page.goto(base + "/posts/secret-plans/")
    expect(page.locator("article time")).to_have_text(f"{published.day} {published:%B %Y}")
    feed = page.request.get(base + "/feed.xml").text()
    assert re.search(r"<pubDate>\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} (\+0000|GMT)</pubDate>", feed)


def _last_sunday(year: int, month: int) -> datetime:
    day = datetime(year, month + 1, 1) - timedelta(days=1)
    return day - timedelta(days=(day.weekday() + 1) % 7)


def _stored(id: str) -> dict[str, Any]:
    return selectors.entry_get(actor=SYSTEM, collection="posts", id=id).to_dict()


def _move_schedule(id: str, when: datetime) -> None:
    entry = selectors.entry_get(actor=SYSTEM, collection="posts", id=id)
    type(entry.row).objects.filter(pk=entry.row.pk).update(scheduled_at=when)


def _six_menu_items() -> None:
    items = [{"label": label, "type": "custom", "customUrl": f"/{label.lower()}/"} for label in
             ("News", "Recipes", "Shop", "Events", "About", "Contact")]  # fmt: skip
    menu_services.menu_set_items(actor=SYSTEM, name="primary", items=items)


def test_phone_layout_has_no_horizontal_overflow_and_menus_work_by_keyboard(site, live_server, contexts):
    expect = _expect()
    _six_menu_items()
    for n in range(3):
        services.entry_create(actor=SYSTEM, collection="posts", data={"title": f"A fairly long draft title number {n}"})
    make_user("admin", email="admin@example.com")
    base = live_server.url
    phone = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()

    phone.goto(base + "/")
    _no_horizontal_overflow(phone)
    menu = phone.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(phone.get_by_role("link", name="Contact")).to_be_hidden()
    screenshot(phone, "site-phone-home")
    menu.focus()
    phone.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(phone.get_by_role("link", name="Contact")).to_be_visible()
    _no_horizontal_overflow(phone)
    screenshot(phone, "site-phone-menu-open")
    phone.keyboard.press("Tab")
    phone.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()

    log_in(phone, base, "admin@example.com")
    draft = site["draft"].id
    screens = {
        "dashboard": "/_emdash/admin/",
        "list": "/_emdash/admin/content/posts/",
        "edit": f"/_emdash/admin/content/posts/{draft}/",
        "media": "/_emdash/admin/media/",
        "menus": "/_emdash/admin/menus/primary/",
        "settings": "/_emdash/admin/settings/",
        "tokens": "/_emdash/admin/tokens/",
        "audit": "/_emdash/admin/audit/",
    }
    for name, path in screens.items():
        phone.goto(base + path)
        _no_horizontal_overflow(phone)
        if name in ("dashboard", "list", "edit"):
            screenshot(phone, f"admin-phone-{name}")
    nav = phone.get_by_role("button", name="Menu")
    expect(phone.get_by_role("link", name="Settings")).to_be_hidden()
    nav.focus()
    phone.keyboard.press("Enter")
    expect(phone.get_by_role("link", name="Settings")).to_be_visible()
    screenshot(phone, "admin-phone-menu-open")


def test_wide_public_header_with_six_links_collapses_into_a_menu_button(site, live_server, page):
    expect = _expect()
    _six_menu_items()
    page.goto(live_server.url + "/")
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_be_visible()
    page.keyboard.press("Tab")  # skip link
    page.keyboard.press("Tab")  # brand
    page.keyboard.press("Tab")
    expect(menu).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_role("link", name="Contact")).to_be_visible()
    screenshot(page, "site-header-menu-open")
    page.goto(live_server.url + "/")
    menu_services.menu_set_items(
        actor=SYSTEM, name="primary", items=[{"label": "Home", "type": "custom", "customUrl": "/"}]
    )
    page.reload()
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()  # four or fewer links stay in the header
    expect(page.get_by_role("link", name="Home")).to_be_visible()


def _background(page: Any, selector: str) -> tuple[int, ...]:
    color = page.eval_on_selector(selector, "el => getComputedStyle(el).backgroundColor")
    return tuple(int(n) for n in re.findall(r"\d+", color)[:3])


def test_dark_scheme_follows_the_system_in_the_admin_and_on_the_site(site, live_server, contexts):
    expect = _expect()
    make_user("editor", email="editor@example.com")
    services.entry_update(actor=SYSTEM, collection="posts", id=site["hello"].id, data={"excerpt": "Draft excerpt"})
    base = live_server.url
    dark = contexts(color_scheme="dark").new_page()
    dark.goto(base + "/")
    assert sum(_background(dark, "body")) < 120
    screenshot(dark, "site-dark-home")
    log_in(dark, base, "editor@example.com")
    assert sum(_background(dark, "html")) < 120 and sum(_background(dark, ".card")) < 150
    dark.goto(base + f"/_emdash/admin/content/posts/{site['hello'].id}/")
    expect(dark.get_by_role("link", name="Preview draft")).to_be_visible()
    screenshot(dark, "admin-dark-entry-edit")
    dark.goto(base + "/_emdash/admin/content/posts/")
    screenshot(dark, "admin-dark-list")
    light = contexts(color_scheme="light").new_page()
    light.goto(base + "/")
    assert sum(_background(light, "body")) > 700
