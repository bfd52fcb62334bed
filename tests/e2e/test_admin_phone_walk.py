"""SPEC 13 "The admin on a phone": every admin page, taken from the URL conf, at 390 px without horizontal
scrolling; and no page of the admin logs a 404 (the favicon), at 390 and 1280 px."""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, reverse
from PIL import Image

from accounts import tokens
from accounts.models import User
from accounts.oauth.models import OAuthClient
from admin_ui import urls as admin_urls
from bylines.services import byline_create
from content.changesets.services import changeset_add, changeset_create
from content.entries import services as entry_services
from content.entries import shares
from content.models import PreviewShare, Revision
from content.redirects import services as redirects
from emdash.actor import Actor
from media import services as media_services
from taxonomy.services import term_create
from tests.browser import screenshot
from tests.e2e.admin_helpers import log_in
from tests.factories import make_user
from tests.site.conftest import SYSTEM
from transfer.models import ImportJob
from webhooks import services as webhook_services

pytestmark = pytest.mark.slow
PHONE = {"width": 390, "height": 844}
# Routes that are not pages a person opens: an HTML fragment and JSON answers read by the admin's scripts.
NOT_PAGES = {"entry_rows": "table rows for live updates", "entry_state": "JSON", "menu_content_search": "JSON"}
REDIRECTS = {"login": "signed in already", "entry_preview": "to the signed preview on the public site"}
SCREENSHOTS = {"dashboard", "entries", "menu_edit", "schema_collection", "tokens", "media"}


def _png() -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (800, 500), "teal").save(buffer, "PNG")
    return SimpleUploadedFile("photo.png", buffer.getvalue(), content_type="image/png")


def _objects(site: dict[str, Any], admin: User) -> dict[str, str]:
    """One object of every kind an admin URL names, created through the services."""
    hello = site["hello"]
    media = media_services.media_upload(actor=SYSTEM, file=_png(), filename="photo.png", content_type="image/png")
    hook = webhook_services.webhook_create(actor=SYSTEM, url="https://93.184.216.34/in", events=["content.published"])
    moved = redirects.redirect_create(actor=SYSTEM, source="/old-hello/", target="/posts/hello-world/")
    share, _ = shares.share_create(actor=SYSTEM, collection="posts", id=hello.id, lifetime="1h")
    token = tokens.token_create(user=admin, name="Phone walk", scopes=["content:read"])
    return {
        "entry": hello.id,
        "media": media.id,
        "webhook": hook["id"],
        "redirect": moved["id"],
        "share_id": str(PreviewShare.objects.get(pk=share.pk).pk),
        "revision_id": Revision.objects.filter(entry_id=hello.id).values_list("id", flat=True).first(),
        "user_id": str(make_user("editor", email="walked@example.com").pk),
        "token_id": str(token.token.pk),
        "client_id": OAuthClient.objects.values_list("client_id", flat=True).first(),
        "job_id": str(
            ImportJob.objects.create(kind=ImportJob.WORDPRESS, status=ImportJob.DONE, filename="site.xml", path="").pk
        ),
        "byline": byline_create(actor=SYSTEM, slug="walker", display_name="A Walker").id,
        "changeset": changeset_create(actor=Actor.for_user(admin), title="Walked").id,
    }


ID_KIND = {
    "media_edit": "media",
    "media_delete": "media",
    "webhook": "webhook",
    "webhook_delete": "webhook",
    "byline_edit": "byline",
    "byline_delete": "byline",
    "review_detail": "changeset",
    "review_action": "changeset",
}


def _value(name: str, param: str, made: dict[str, str]) -> str:
    """A path parameter's value for route ``name``: ``id`` and ``name`` mean different things on different routes."""
    if param == "id":
        return made[ID_KIND.get(name, "redirect" if name.startswith("redirect") else "entry")]
    if param == "name":
        return "primary" if name.startswith("menu") else "category"
    fixed = {"collection": "posts", "slug": "posts", "field": "title", "term": "news", "action": "publish"}
    return fixed.get(param) or made[param]


def admin_urls_to_walk(made: dict[str, str]) -> list[tuple[str, str]]:
    """(route name, path) for every admin route, from the URL conf, plus the device page the OAuth app routes."""
    walked = []
    for pattern in admin_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        name = pattern.name or ""
        if name in NOT_PAGES:
            continue
        params = pattern.pattern.converters
        kwargs = {param: _value(name, param, made) for param in params}
        walked.append((name, reverse(f"admin_ui:{name}", kwargs=kwargs)))
    return [*walked, ("device", reverse("oauth-device"))]


def _overflow(page: Any) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def test_every_admin_page_fits_a_390px_screen(site, live_server, browser):
    """Derived from the URL conf, so a new admin page is walked without editing this test; a route whose
    parameter this test cannot fill fails with a KeyError, not silently."""
    admin = make_user("admin", email="admin@example.com")
    made = _objects(site, admin)
    # Not is_mobile: mobile emulation widens innerWidth to fit an overflowing page, which would hide the overflow.
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    log_in(page, live_server.url, "admin@example.com")
    pages, actions, wide = [], [], []
    for name, path in admin_urls_to_walk(made):
        status = page.request.get(live_server.url + path, max_redirects=0).status  # with the page's session
        if status == 405 or (status == 302 and name in REDIRECTS):  # POST-only actions have no page
            actions.append(name)
            continue
        assert status == 200, f"{name} {path} answered {status}"
        page.goto(live_server.url + path)
        pages.append(name)
        width, inner = _overflow(page)
        if width > inner:
            wide.append(f"{name} ({path}): scrollWidth {width} > innerWidth {inner}")
        if name in SCREENSHOTS:
            screenshot(page, f"admin-phone-{name.replace('_', '-')}")
    context.close()
    assert not wide, "pages wider than a 390 px phone:\n" + "\n".join(wide)
    assert len(pages) >= 25 and {"dashboard", "entries", "entry_edit", "menu_edit", "tokens", "device"} <= set(pages)
    assert {"logout", "entry_bulk", "media_upload", "setup"} <= set(actions)


def test_the_login_page_fits_a_390px_screen(cms, live_server, browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + "/_emdash/admin/login/")
    width, inner = _overflow(page)
    context.close()
    assert width <= inner


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["390", "1280"])
def test_admin_pages_log_no_404_and_show_a_favicon(site, live_server, browser, caplog, viewport):
    make_user("admin", email="admin@example.com")
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    caplog.set_level(logging.WARNING, logger="django.request")
    log_in(page, live_server.url, "admin@example.com")
    for path in ("/_emdash/admin/", "/_emdash/admin/content/posts/", "/_emdash/admin/menus/primary/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    icon = page.eval_on_selector("link[rel=icon]", "el => el.href")
    assert page.request.get(icon).status == 200
    context.close()
    # The live-update websocket is served by daphne or granian; the test's WSGI live server answers it 404.
    missing = [url for url in missing if "/ws/changes/" not in url]
    logged = [r.getMessage() for r in caplog.records if "Not Found" in r.getMessage() and "/ws/" not in r.getMessage()]
    assert not missing, missing
    assert not logged, logged


LONG = "Supercalifragilistic" * 9  # one 180-character word: a pasted URL, a German compound, a slug


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["390", "1280"])
def test_pages_showing_one_long_word_stay_within_the_screen(site, live_server, browser, viewport):
    """A title, a change set's description, a term's label or a redirect that is one long word widened the
    dashboard, the editor, the revisions, the review screen, the terms and the redirects to thousands of pixels
    (the review screen to 6,900 at 390 px): the admin's main column now wraps such words."""
    admin = make_user("admin", email="admin@example.com")
    actor = Actor.for_user(admin)
    entry = entry_services.entry_create(actor=actor, collection="posts", data={"title": LONG, "excerpt": LONG * 3})
    proposal = changeset_create(actor=actor, title=LONG, description=LONG * 4)
    changeset_add(actor=actor, id=proposal.id, collection="posts", item=entry.id)
    term_create(actor=SYSTEM, taxonomy="category", slug="l" * 90, label=LONG)
    redirects.redirect_create(actor=SYSTEM, source="/" + "a" * 400, target="/" + "b" * 400)
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    log_in(page, live_server.url, "admin@example.com")
    wide = []
    for path in (
        "",
        f"content/posts/{entry.id}/",
        f"content/posts/{entry.id}/revisions/",
        f"review/{proposal.id}/",
        "taxonomies/category/",
        "redirects/",
    ):
        page.goto(f"{live_server.url}/_emdash/admin/{path}")
        width, inner = _overflow(page)
        if width > inner:
            wide.append(f"/{path}: scrollWidth {width} > innerWidth {inner}")
    context.close()
    assert not wide, f"pages wider than {viewport['width']} px:\n" + "\n".join(wide)
