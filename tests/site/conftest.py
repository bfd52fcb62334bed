"""A small published site: posts and pages, a category, a primary menu, site settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from content.entries import services
from emdash.actor import Actor
from menus import services as menu_services
from settings_app import services as settings_services
from taxonomy import services as taxonomy_services
from tests.factories import make_collection
from tests.mcp.conftest import make_mcp, mcp  # noqa: F401 (fixtures: the term translation tests use MCP)

SYSTEM = Actor.system()


def body(*paragraphs: str) -> list[dict[str, Any]]:
    return [
        {"_type": "block", "style": "normal", "markDefs": [], "children": [{"_type": "span", "text": p, "marks": []}]}
        for p in paragraphs
    ]


def publish(collection: str, title: str, **data: Any) -> Any:
    entry = services.entry_create(actor=SYSTEM, collection=collection, data={"title": title, **data})
    return services.entry_publish(actor=SYSTEM, collection=collection, id=entry.id)


@pytest.fixture
def media_root(tmp_path: Path, settings) -> Path:
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = str(root)
    return root


@pytest.fixture
def site(cms, media_root) -> dict[str, Any]:
    searchable = [
        {"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True},
        {"slug": "excerpt", "label": "Excerpt", "type": "text", "searchable": True},
        {"slug": "body", "label": "Body", "type": "portableText", "searchable": True},
        {"slug": "cover", "label": "Cover", "type": "image"},
    ]
    make_collection("posts", fields=searchable)
    make_collection("pages", fields=searchable[:1] + searchable[2:3])
    hello = publish("posts", "Hello world", excerpt="The first post", body=body("Welcome to the marmalade blog."))
    second = publish("posts", "Second post", excerpt="More", body=body("Another one."))
    draft = services.entry_create(actor=SYSTEM, collection="posts", data={"title": "Secret plans", "excerpt": "hush"})
    about = publish("pages", "About us", body=body("We make marmalade."))
    taxonomy_services.term_create(actor=SYSTEM, taxonomy="category", slug="news", label="News")
    taxonomy_services.entry_terms_set(
        actor=SYSTEM, collection="posts", id=hello.id, taxonomy="category", terms=["news"]
    )
    taxonomy_services.entry_terms_set(
        actor=SYSTEM, collection="posts", id=draft.id, taxonomy="category", terms=["news"]
    )
    menu_services.menu_create(actor=SYSTEM, name="primary", label="Primary")
    menu_services.menu_set_items(
        actor=SYSTEM,
        name="primary",
        items=[
            {"label": "Home", "type": "custom", "customUrl": "/"},
            {"label": "News", "type": "taxonomy", "referenceCollection": "category", "referenceId": "news"},
            {"label": "About", "type": "page", "referenceCollection": "pages", "referenceId": about.id},
        ],
    )
    settings_services.settings_update(
        actor=SYSTEM, changes={"title": "Marmalade Times", "tagline": "All about jam", "postsPerPage": 1}
    )
    return {"hello": hello, "second": second, "draft": draft, "about": about}
