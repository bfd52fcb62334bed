"""The settings operations (settings_get, settings_update): one record each, served by MCP, REST and the admin."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from emdash.operations import NULLABLE, READ, WHOLE, Endpoint, Input, NoInput, audit_as, family, reference
from emdash.operations.shapes import BOOLEAN, INTEGER, STRING, copy, obj, shared
from emdash.permissions import Perm
from settings_app import selectors, services, validation

LIMITS = validation.TEXT_LIMITS


Text = Annotated[str | None, NULLABLE]


def _text(path: str, description: str) -> Any:
    return Field(None, description=description, max_length=LIMITS[path])


class MediaRef(Input):
    media_id: Annotated[str, reference("Media item id", 26, min_length=26)]
    alt: Annotated[str | None, NULLABLE] = Field(None, description="Alt text", max_length=validation.ALT_MAX_LENGTH)


Ref = Annotated[MediaRef | None, NULLABLE]


def _ref(description: str) -> Any:
    return Field(None, description=description)


def _handle(key: str) -> Any:
    return _text(f"social.{key}", "Handle or URL")


class Social(Input):
    twitter: Text = _handle("twitter")
    github: Text = _handle("github")
    facebook: Text = _handle("facebook")
    instagram: Text = _handle("instagram")
    linkedin: Text = _handle("linkedin")
    youtube: Text = _handle("youtube")


class Seo(Input):
    title_separator: Text = _text("seo.titleSeparator", "Separator between page and site title, e.g. |")
    default_og_image: Ref = _ref("Default Open Graph image")
    robots_txt: Text = _text("seo.robotsTxt", "Contents of /robots.txt")
    google_verification: Text = _text("seo.googleVerification", "Google Search Console verification code")
    bing_verification: Text = _text("seo.bingVerification", "Bing Webmaster verification code")


class UpdateInput(Input):
    title: Text = _text("title", "Site title")
    tagline: Text = _text("tagline", "Short description shown under the title")
    logo: Ref = _ref("Site logo")
    favicon: Ref = _ref("Browser tab icon")
    url: Annotated[str | None, NULLABLE] = Field(
        None,
        description="Public site URL (http or https)",
        max_length=validation.URL_MAX_LENGTH,
    )
    posts_per_page: Annotated[Annotated[int, Field(ge=1, le=100), WHOLE] | None, NULLABLE] = Field(
        None, description="Items per listing page"
    )
    date_format: Text = _text("dateFormat", "Date format, e.g. MMMM d, yyyy")
    timezone: Annotated[str | None, NULLABLE] = Field(
        None, description="IANA time zone, e.g. Europe/Paris", max_length=64
    )
    social: Annotated[Social | None, NULLABLE] = Field(
        None, description="Social profiles (handle or http(s) URL), merged key by key"
    )
    seo: Annotated[Seo | None, NULLABLE] = Field(None, description="SEO defaults, merged key by key")
    editorial_guide: Text = _text("editorialGuide", "House style for writers, Markdown (resource emdash://guide)")
    changesets_self_approve: Annotated[bool | None, NULLABLE] = Field(
        None, description="Let a change set's creator approve it (default false: four-eyes)"
    )


def _resolved(description: str) -> dict[str, Any]:
    return obj(
        {"mediaId": STRING, "alt": STRING, "url": STRING}, ["mediaId"], f"{description}, with the media item's url"
    )


OUTPUT = shared(
    obj(
        {
            "title": STRING,
            "tagline": STRING,
            "logo": shared(_resolved("Site logo"), "settings_get", "logo"),
            "favicon": copy(_resolved("Favicon"), "settings_get", "logo", "Favicon"),
            "url": STRING,
            "postsPerPage": INTEGER,
            "dateFormat": STRING,
            "timezone": STRING,
            "social": obj({key: STRING for key in validation.SOCIAL_KEYS}),
            "seo": obj(
                {
                    "titleSeparator": STRING,
                    "defaultOgImage": copy(
                        _resolved("Default Open Graph image"), "settings_get", "logo", "Default Open Graph image"
                    ),
                    "robotsTxt": STRING,
                    "googleVerification": STRING,
                    "bingVerification": STRING,
                }
            ),
            "editorialGuide": STRING,
            "changesetsSelfApprove": BOOLEAN,
        },
        description="Site settings; keys that are not set are omitted",
    ),
    "settings_get",
)


SETTINGS = Endpoint("_emdash/api/settings", "api-settings")

# Both answer every setting (the shape settings_get lists).
settings = family("settings", output=OUTPUT)

settings(
    "settings_get",
    "Get site settings",
    NoInput,
    selectors.settings_get,
    SETTINGS.get(),
    perm=Perm.SETTINGS_READ,
    **READ,
).describe("Get the site settings; keys not set are left out, media references come with their url.")
settings(
    "settings_update",
    "Update site settings",
    UpdateInput,
    services.settings_set,
    SETTINGS.put(),
    perm=Perm.SETTINGS_MANAGE,
    idempotent=True,
    target=audit_as("settings"),
).describe(
    'Change some site settings: keys left out keep their values, null (or "" for text) clears one. '
    "Media references name existing media items. Returns every setting."
)
