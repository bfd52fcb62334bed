"""A small catalogue for the list-filter tests at every door: one field of each filterable type, two authors,
taxonomy terms, and fixed dates."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from accounts.models import User
from content.entries import services
from content.schema import specs as schema
from taxonomy import services as taxonomy_services
from tests.factories import SYSTEM, actor, make_collection, make_entry, make_user

FIELDS: list[dict[str, Any]] = [
    {"slug": "title", "label": "Title", "type": "string", "required": True},
    {"slug": "price", "label": "Price", "type": "number"},
    {"slug": "stock", "label": "Stock", "type": "integer"},
    {"slug": "featured", "label": "Featured", "type": "boolean"},
    {"slug": "kind", "label": "Kind", "type": "select", "validation": {"options": ["news", "review", "howto"]}},
    {
        "slug": "colours",
        "label": "Colours",
        "type": "multiSelect",
        "validation": {"options": ["red", "green", "blue", "Red"]},  # options differ by case too
    },
    {"slug": "happens", "label": "Happens", "type": "datetime"},
    {"slug": "photo", "label": "Photo", "type": "image"},
]


def at(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


@dataclass
class Catalog:
    alice: User
    bob: User
    ids: dict[str, str]

    def titles(self, items: list[dict[str, Any]]) -> list[str]:
        return sorted(i["data"]["title"] for i in items)


ROWS: list[dict[str, Any]] = [
    # title, values, author, published?, category, created/published day
    {
        "title": "Alpha",
        "price": 5,
        "stock": 1,
        "featured": True,
        "kind": "news",
        "colours": ["red"],
        "happens": "2026-01-10T10:00:00Z",
        "by": "alice",
        "publish": True,
        "terms": {"category": ["news"]},
        "day": "2026-01-05T12:00:00",
    },
    {
        "title": "Beta",
        "price": 15.5,
        "stock": 2,
        "featured": False,
        "kind": "review",
        "colours": ["green", "blue"],
        "happens": "2026-02-10T10:00:00Z",
        "by": "bob",
        "publish": False,
        "terms": {"category": ["sport"]},
        "day": "2026-02-05T12:00:00",
    },
    {
        "title": "Gamma",
        "price": 25,
        "stock": 3,
        "featured": True,
        "kind": "howto",
        "colours": ["blue"],
        "by": "alice",
        "publish": True,
        "terms": {"category": ["news"], "tag": ["hot"]},
        "day": "2026-03-05T12:00:00",
    },
    {"title": "Delta", "by": "bob", "publish": False, "terms": {}, "day": "2026-03-31T23:30:00"},
]


def build_catalog() -> Catalog:
    make_collection("posts", fields=FIELDS)
    for taxonomy, slug in (("category", "news"), ("category", "sport"), ("tag", "hot")):
        taxonomy_services.term_create(actor=SYSTEM, taxonomy=taxonomy, slug=slug, label=slug.title())
    users = {"alice": make_user("editor"), "bob": make_user("editor")}
    model = schema.get_collection("posts").model
    ids = {}
    for row in ROWS:
        data = {k: v for k, v in row.items() if k not in ("by", "publish", "terms", "day")}
        entry = make_entry(by=actor(users[row["by"]]), data=data, terms=row["terms"] or None)
        if row["publish"]:
            services.entry_publish(actor=SYSTEM, collection="posts", id=entry.id)
        moment = at(row["day"])
        model.objects.filter(id=entry.id).update(created_at=moment, published_at=moment if row["publish"] else None)
        ids[row["title"]] = entry.id
    return Catalog(users["alice"], users["bob"], ids)
