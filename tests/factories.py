"""Builders for users, actors, collections and entries used across the suite."""

from __future__ import annotations

import itertools
from typing import Any

from accounts.models import User
from content.entries import services
from content.entries.entry import Entry
from content.media_values import stored
from content.schema import services as schema_services
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from emdash.roles import Role

_seq = itertools.count(1)
SYSTEM = Actor.system()


def make_user(role: Role | str = Role.EDITOR, *, email: str | None = None, password: str = "correct-horse-9") -> User:
    role = Role.from_name(role) if isinstance(role, str) else role
    email = email or f"{role.label}{next(_seq)}@example.com"
    return User.objects.create_user(email=email, password=password, role=role)


def actor(user: User | None = None, scopes: Any = None, role: Role | str | None = None) -> Actor:
    if user is None:
        user = make_user(role or Role.EDITOR)
    return Actor.for_user(user, scopes)


POST_FIELDS: list[dict[str, Any]] = [
    {"slug": "title", "label": "Title", "type": "string", "required": True},
    {"slug": "excerpt", "label": "Excerpt", "type": "text"},
    {"slug": "body", "label": "Body", "type": "portableText"},
]


def make_collection(
    slug: str = "posts",
    fields: list[dict[str, Any]] | None = None,
    supports: list[str] | None = None,
    **extra: Any,
) -> CollectionSpec:
    """A collection with real table and columns, created through the schema services."""
    if supports is None:
        supports = ["drafts", "revisions", "scheduling", "search"]
    schema_services.collection_create(
        actor=SYSTEM, slug=slug, label=extra.pop("label", slug.title()), supports=supports, **extra
    )
    for field in POST_FIELDS if fields is None else fields:
        definition = dict(field)
        if "defaultValue" in definition:
            definition["default_value"] = definition.pop("defaultValue")
        schema_services.field_create(actor=SYSTEM, collection=slug, **definition)
    return schema_services.collection_get(actor=SYSTEM, slug=slug)


def make_entry(
    collection: str = "posts", *, by: Actor = SYSTEM, data: dict[str, Any] | None = None, **kwargs: Any
) -> Entry:
    if data is None:
        data = {"title": f"Item {next(_seq)}"}
    return services.entry_create(actor=by, collection=collection, data=data, **kwargs)


def swap_service(monkeypatch: Any, name: str, service: Any) -> None:
    """Make operation ``name`` call ``service`` at every door (REST looks the record up in the table per call;
    the MCP registry holds its own reference, built once)."""
    from dataclasses import replace

    from emdash.operations import TABLE, load
    from mcp_endpoint import registry

    load()
    registry.load_tools()
    swapped = replace(TABLE[name], service=service)
    monkeypatch.setitem(TABLE, name, swapped)
    if name in registry.REGISTRY:
        monkeypatch.setitem(registry.REGISTRY, name, replace(registry.REGISTRY[name], operation=swapped))


def without_media_details(data: dict[str, Any]) -> dict[str, Any]:
    """Read values as they were stored: image/file values and inline image assets without the media details
    reads add (content.media_values), for tests that compare a read with what was written."""

    def plain(value: Any) -> Any:
        if isinstance(value, dict) and "mimeType" in value and "id" in value:
            return stored(value)
        if isinstance(value, list):
            return [
                {**v, "asset": stored(v["asset"])} if isinstance(v, dict) and isinstance(v.get("asset"), dict) else v
                for v in value
            ]
        return value

    return {key: plain(value) for key, value in data.items()}
