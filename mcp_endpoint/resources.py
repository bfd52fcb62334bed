"""MCP resources (SPEC 10, protocol 2025-06-18 and later): the schema, one collection's schema, the settings and
the editorial guide, read-only views of what the tools serve, each checked as the tool it mirrors.

``emdash://schema`` lists every collection with its fields (``schema_get_collection`` for all of them: schema:read,
editor); ``emdash://schema/{collection}`` one of them; ``emdash://settings`` is ``settings_get`` (settings:read,
editor); ``emdash://guide`` is the ``editorialGuide`` setting as Markdown, readable with content:read (writers,
who cannot read settings, need it most).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from content.schema import services as schema_services
from emdash.actor import Actor
from emdash.errors import CollectionNotFound
from emdash.permissions import Perm, require
from settings_app import selectors as settings_selectors

JSON = "application/json"
MARKDOWN = "text/markdown"
SCHEMA, SETTINGS, GUIDE = "emdash://schema", "emdash://settings", "emdash://guide"
COLLECTION_TEMPLATE = "emdash://schema/{collection}"
_COLLECTION_URI = re.compile(r"^emdash://schema/([^/?#]+)$")
NO_GUIDE = (
    "# Editorial guide\n\nThis site has no editorial guide yet. An admin writes it in the admin's Settings "
    "(Editorial guide), or with settings_update's editorialGuide.\n"
)


class ResourceNotFound(Exception):
    """A URI that names no resource (the dispatcher answers it with the version's not-found error)."""

    def __init__(self, uri: str, message: str) -> None:
        super().__init__(message)
        self.uri, self.message = uri, message


@dataclass(frozen=True)
class Resource:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str

    def listed(self) -> dict[str, Any]:
        return {
            "uri": self.uri,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "mimeType": self.mime_type,
        }


RESOURCES = (
    Resource(SCHEMA, "schema", "Content schema", "Every collection with its fields (needs schema:read).", JSON),
    Resource(SETTINGS, "settings", "Site settings", "The site settings, as settings_get (needs settings:read).", JSON),
    Resource(
        GUIDE,
        "guide",
        "Editorial guide",
        "The site's house style for writers, Markdown (needs content:read).",
        MARKDOWN,
    ),
)
TEMPLATES = (
    {
        "uriTemplate": COLLECTION_TEMPLATE,
        "name": "collection-schema",
        "title": "Collection schema",
        "description": "One collection and its fields: the data keys content_create accepts (needs schema:read).",
        "mimeType": JSON,
    },
)


def listed() -> list[dict[str, Any]]:
    return [r.listed() for r in RESOURCES]


def _json(uri: str, payload: Any) -> dict[str, Any]:
    return {"uri": uri, "mimeType": JSON, "text": orjson.dumps(payload).decode()}


def _schema(actor: Actor) -> dict[str, Any]:
    collections = schema_services.collection_list(actor=actor)
    return {"collections": [spec.as_dict() for spec in collections]}


def _settings(actor: Actor) -> dict[str, Any]:
    return settings_selectors.settings_get(actor=actor)


def guide_text() -> str:
    guide = settings_selectors.stored().get("editorialGuide")
    return guide if isinstance(guide, str) and guide.strip() else NO_GUIDE


def _guide(actor: Actor) -> str:
    require(actor, Perm.CONTENT_READ)
    return guide_text()


READERS: dict[str, Callable[[Actor], Any]] = {SCHEMA: _schema, SETTINGS: _settings}


def read(uri: str, actor: Actor) -> dict[str, Any]:
    """``resources/read``'s result for ``uri``; permission errors propagate (the caller maps them)."""
    if uri == GUIDE:
        return {"contents": [{"uri": uri, "mimeType": MARKDOWN, "text": _guide(actor)}]}
    if uri in READERS:
        return {"contents": [_json(uri, READERS[uri](actor))]}
    match = _COLLECTION_URI.match(uri)
    if match:
        slug = match.group(1)
        require(actor, Perm.SCHEMA_READ)  # before the lookup: no collection names to those who may not read them
        try:
            spec = schema_services.collection_get(actor=actor, slug=slug)
        except CollectionNotFound:
            known = ", ".join(spec.slug for spec in schema_services.collection_list(actor=actor)) or "none yet"
            raise ResourceNotFound(
                uri, f"Resource not found: no collection '{slug[:100]}' (collections: {known})"
            ) from None
        return {"contents": [_json(uri, spec.as_dict())]}
    known = ", ".join([*(r.uri for r in RESOURCES), COLLECTION_TEMPLATE])
    raise ResourceNotFound(uri, f"Resource not found: {uri[:200]} (resources: {known})")
