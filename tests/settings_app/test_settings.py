"""SPEC 6.7 site settings: partial updates, validation (all problems at once, nothing written), media refs
resolved to urls, and the roles of section 3 (editors read, admins change)."""

from __future__ import annotations

from typing import Any

import pytest

from emdash.actor import Actor
from emdash.errors import InsufficientPermissions, InsufficientScope, ValidationError
from media import services as media_services
from settings_app import selectors, services
from settings_app.models import SiteSettings
from tests.factories import actor, make_user
from tests.media.helpers import make_media

pytestmark = pytest.mark.django_db
MISSING_ID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"


@pytest.fixture
def admin() -> Actor:
    return actor(role="admin")


def update(admin: Actor, **changes: Any) -> dict[str, Any]:
    return services.settings_update(actor=admin, changes=changes)


def problems(admin: Actor, **changes: Any) -> dict[str, str]:
    before = SiteSettings.objects.filter(id=1).values_list("data", flat=True).first()
    with pytest.raises(ValidationError) as exc:
        services.settings_update(actor=admin, changes=changes)
    after = SiteSettings.objects.filter(id=1).values_list("data", flat=True).first()
    assert after == before, "nothing is written when the update is refused"
    return exc.value.details["fields"]


def test_fresh_settings_are_empty(admin: Actor) -> None:
    assert services.settings_get(actor=admin) == {}
    assert selectors.site_settings() == {}


def test_partial_updates_keep_other_keys_and_omit_unset_ones(admin: Actor) -> None:
    update(admin, title="My Site", tagline="Words", postsPerPage=12, timezone="Europe/Paris")
    result = update(admin, url="https://example.com", dateFormat="d MMM yyyy")
    assert result == {
        "title": "My Site",
        "tagline": "Words",
        "postsPerPage": 12,
        "timezone": "Europe/Paris",
        "url": "https://example.com",
        "dateFormat": "d MMM yyyy",
    }
    assert services.settings_get(actor=admin) == result
    cleared = update(admin, url="", tagline=None, postsPerPage=None)
    assert cleared == {"title": "My Site", "timezone": "Europe/Paris", "dateFormat": "d MMM yyyy"}


def test_social_and_seo_are_deep_merged(admin: Actor) -> None:
    update(admin, social={"twitter": "@emdash", "github": "https://github.com/emdash"}, seo={"titleSeparator": "|"})
    result = update(admin, social={"twitter": "@other", "youtube": "https://youtube.com/@x"}, seo={"robotsTxt": "a\nb"})
    assert result["social"] == {
        "twitter": "@other",
        "github": "https://github.com/emdash",
        "youtube": "https://youtube.com/@x",
    }
    assert result["seo"] == {"titleSeparator": "|", "robotsTxt": "a\nb"}
    result = update(admin, social={"twitter": None, "github": ""})
    assert result["social"] == {"youtube": "https://youtube.com/@x"}
    result = update(admin, social={"youtube": None}, seo=None)
    assert "social" not in result and "seo" not in result


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox",
        "ftp://example.com",
        "//example.com",
        "https://",
        "example.com",
        "https://exa mple.com",
    ],
)
def test_urls_must_be_http_or_https(admin: Actor, url: str) -> None:
    update(admin, url="https://before.example")
    assert "url" in problems(admin, url=url)
    assert services.settings_get(actor=admin)["url"] == "https://before.example"


def test_social_links_may_be_handles_but_never_other_schemes(admin: Actor) -> None:
    fields = problems(admin, social={"twitter": "javascript:alert(1)", "github": "data:text/html,x"})
    assert set(fields) == {"social.twitter", "social.github"}
    assert update(admin, social={"twitter": "@emdash"})["social"] == {"twitter": "@emdash"}


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd", "/etc/localtime", "", "Europe/Paris " * 10])
def test_timezone_must_be_an_iana_name(admin: Actor, zone: str) -> None:
    if zone == "":  # "" clears instead
        assert "timezone" not in update(admin, timezone="")
        return
    assert "timezone" in problems(admin, timezone=zone)


def test_valid_timezones(admin: Actor) -> None:
    for zone in ("UTC", "America/New_York", "Asia/Kolkata"):
        assert update(admin, timezone=zone)["timezone"] == zone


@pytest.mark.parametrize("value", [0, 101, -5, True, "10", 2.5])
def test_posts_per_page_is_an_integer_from_1_to_100(admin: Actor, value: Any) -> None:
    update(admin, postsPerPage=10)
    assert problems(admin, postsPerPage=value) == {"postsPerPage": "must be an integer from 1 to 100"}
    assert services.settings_get(actor=admin)["postsPerPage"] == 10


def test_bounds_of_posts_per_page(admin: Actor) -> None:
    assert update(admin, postsPerPage=1)["postsPerPage"] == 1
    assert update(admin, postsPerPage=100)["postsPerPage"] == 100


def test_media_refs_must_exist_and_are_resolved(admin: Actor) -> None:
    logo, icon, og = make_media(admin), make_media(admin), make_media(admin)
    result = update(
        admin,
        logo={"mediaId": logo.id, "alt": "Logo"},
        favicon={"mediaId": icon.id.lower()},
        seo={"defaultOgImage": {"mediaId": og.id}},
    )
    assert result["logo"] == {"mediaId": logo.id, "alt": "Logo", "url": f"/media/{logo.storage_key}"}
    assert result["favicon"] == {"mediaId": icon.id, "url": f"/media/{icon.storage_key}"}
    assert result["seo"]["defaultOgImage"] == {"mediaId": og.id, "url": f"/media/{og.storage_key}"}
    assert selectors.site_settings() == result
    assert SiteSettings.objects.get().data["logo"] == {"mediaId": logo.id, "alt": "Logo"}, "urls are not stored"


def test_missing_media_refs_are_refused(admin: Actor) -> None:
    update(admin, title="Kept")
    fields = problems(
        admin,
        logo={"mediaId": MISSING_ID},
        favicon={"mediaId": "not-an-id"},
        seo={"defaultOgImage": {"mediaId": MISSING_ID, "alt": "x"}},
    )
    assert fields == {
        "logo.mediaId": f"no media item '{MISSING_ID}'",
        "favicon.mediaId": "must be a media item ID (see media_list)",
        "seo.defaultOgImage.mediaId": f"no media item '{MISSING_ID}'",
    }
    assert services.settings_get(actor=admin) == {"title": "Kept"}


def test_a_deleted_media_item_leaves_its_id_without_a_url(admin: Actor) -> None:
    logo = make_media(admin)
    update(admin, logo={"mediaId": logo.id})
    media_services.media_delete(actor=admin, id=logo.id, force=True)  # in use: only a forced delete goes
    assert services.settings_get(actor=admin)["logo"] == {"mediaId": logo.id}


def test_unknown_keys_are_named(admin: Actor) -> None:
    fields = problems(
        admin,
        colour="red",
        seo={"keywords": "a"},
        social={"myspace": "x"},
        logo={"mediaId": MISSING_ID, "width": 3},
    )
    assert set(fields) == {"colour", "seo.keywords", "social.myspace", "logo.width", "logo.mediaId"}
    assert "unknown setting" in fields["colour"]


def test_every_problem_is_reported_at_once_and_nothing_is_written(admin: Actor) -> None:
    update(admin, title="Before", postsPerPage=5)
    fields = problems(
        admin,
        title="After",
        url="javascript:alert(1)",
        timezone="Nowhere/Land",
        postsPerPage=0,
        social="not an object",
        seo={"titleSeparator": "x" * 11},
        tagline="bad\x00byte",
    )
    assert set(fields) == {"url", "timezone", "postsPerPage", "social", "seo.titleSeparator", "tagline"}
    assert services.settings_get(actor=admin) == {"title": "Before", "postsPerPage": 5}


def test_only_an_object_is_an_update(admin: Actor) -> None:
    with pytest.raises(ValidationError):
        services.settings_update(actor=admin, changes=["title"])


def test_editors_read_admins_change() -> None:
    editor, author = actor(role="editor"), actor(role="author")
    assert services.settings_get(actor=editor) == {}
    with pytest.raises(InsufficientPermissions):
        services.settings_get(actor=author)
    with pytest.raises(InsufficientPermissions):
        services.settings_update(actor=editor, changes={"title": "x"})
    with pytest.raises(InsufficientPermissions):
        services.settings_get(actor=Actor.anonymous())
    assert selectors.site_settings() == {}, "the public selector needs no actor"


def test_tokens_need_the_settings_scopes() -> None:
    user = make_user("admin")
    with pytest.raises(InsufficientScope) as exc:
        services.settings_update(actor=Actor.for_user(user, ["settings:read"]), changes={"title": "x"})
    assert exc.value.required_scope == "settings:manage"
    with pytest.raises(InsufficientScope):
        services.settings_get(actor=Actor.for_user(user, ["content:read"]))
    assert services.settings_update(actor=Actor.for_user(user, ["settings:manage"]), changes={"title": "x"})
