"""The 2 settings tools: thin adapters over settings_app."""

from __future__ import annotations

from typing import Any

from emdash.actor import Actor
from emdash.permissions import Perm
from mcp_endpoint.registry import tool
from mcp_endpoint.schemas import obj
from settings_app import selectors, services, validation

LIMITS = validation.TEXT_LIMITS


def _text(path: str, description: str) -> dict[str, Any]:
    return {"type": ["string", "null"], "maxLength": LIMITS[path], "description": f'{description} (null or "" clears)'}


def _media_ref(description: str) -> dict[str, Any]:
    return {
        "type": ["object", "null"],
        "description": f"{description}: a media reference (null clears)",
        "properties": {
            "mediaId": {"type": "string", "minLength": 26, "maxLength": 26, "description": "Media item ID"},
            "alt": {"type": ["string", "null"], "maxLength": validation.ALT_MAX_LENGTH},
        },
        "required": ["mediaId"],
        "additionalProperties": False,
    }


def _resolved(description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": f"{description}, with the media item's url",
        "properties": {"mediaId": {"type": "string"}, "alt": {"type": "string"}, "url": {"type": "string"}},
        "required": ["mediaId"],
    }


SOCIAL = {key: _text(f"social.{key}", f"{key.title()} handle or http(s) URL") for key in validation.SOCIAL_KEYS}
INPUT = obj(
    {
        "title": _text("title", "Site title"),
        "tagline": _text("tagline", "Short description shown under the title"),
        "logo": _media_ref("Site logo"),
        "favicon": _media_ref("Favicon"),
        "url": {
            "type": ["string", "null"],
            "maxLength": validation.URL_MAX_LENGTH,
            "description": 'Public site URL: http:// or https:// only ("" or null clears)',
        },
        "postsPerPage": {"type": ["integer", "null"], "minimum": 1, "maximum": 100, "description": "Posts per page"},
        "dateFormat": _text("dateFormat", "Date format, e.g. MMMM d, yyyy"),
        "timezone": {"type": ["string", "null"], "maxLength": 64, "description": "IANA time zone, e.g. Europe/Paris"},
        "social": {
            "type": ["object", "null"],
            "description": "Social profiles; merged key by key (null clears them all)",
            "properties": SOCIAL,
            "additionalProperties": False,
        },
        "seo": {
            "type": ["object", "null"],
            "description": "SEO defaults; merged key by key (null clears them all)",
            "properties": {
                "titleSeparator": _text("seo.titleSeparator", "Separator between page and site title, e.g. |"),
                "defaultOgImage": _media_ref("Default Open Graph image"),
                "robotsTxt": _text("seo.robotsTxt", "Contents of /robots.txt"),
                "googleVerification": _text("seo.googleVerification", "Google Search Console verification code"),
                "bingVerification": _text("seo.bingVerification", "Bing Webmaster verification code"),
            },
            "additionalProperties": False,
        },
    }
)
STRING = {"type": "string"}
OUTPUT = {
    "type": "object",
    "description": "Site settings; keys that are not set are omitted",
    "properties": {
        "title": STRING,
        "tagline": STRING,
        "logo": _resolved("Site logo"),
        "favicon": _resolved("Favicon"),
        "url": STRING,
        "postsPerPage": {"type": "integer"},
        "dateFormat": STRING,
        "timezone": STRING,
        "social": {"type": "object", "properties": {key: STRING for key in validation.SOCIAL_KEYS}},
        "seo": {
            "type": "object",
            "properties": {
                "titleSeparator": STRING,
                "defaultOgImage": _resolved("Default Open Graph image"),
                "robotsTxt": STRING,
                "googleVerification": STRING,
                "bingVerification": STRING,
            },
        },
    },
}


@tool(
    "settings_get",
    title="Get site settings",
    category="settings",
    perm=Perm.SETTINGS_READ,
    read_only=True,
    idempotent=True,
    description="Get the site settings (title, tagline, logo, favicon, url, postsPerPage, dateFormat, timezone, "
    "social, seo). Keys that are not set are omitted; media references come with their url.",
    input=obj({}),
    output=OUTPUT,
)
def settings_get(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return selectors.settings_get(actor=actor)


@tool(
    "settings_update",
    title="Update site settings",
    category="settings",
    perm=Perm.SETTINGS_MANAGE,
    idempotent=True,
    description="Change some site settings; keys left out keep their values, null clears a key, and social and "
    "seo are merged key by key. Media references ({mediaId, alt?}) must name existing media items. Returns the "
    "full settings.",
    input=INPUT,
    output=OUTPUT,
)
def settings_update(actor: Actor, a: dict[str, Any]) -> dict[str, Any]:
    return services.settings_update(actor=actor, changes=a)
