"""Issue 24's assistant task, over MCP alone (no REST or admin step): a "recipes" collection with a category
taxonomy, three Markdown recipes (one published, one scheduled), an image sent through the signed upload, and a
menu link to the published recipe."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client

from tests.mcp.conftest import MCP
from tests.media.helpers import image_bytes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _media_root(tmp_path: Any, settings: Any) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")


def test_the_recipes_task_runs_end_to_end_over_mcp(mcp: MCP, cms: Any) -> None:
    mcp.ok(
        "schema_create_collection", {"collection": "recipes", "label": "Recipes", "supports": ["drafts", "scheduling"]}
    )
    for field in (
        {"slug": "title", "label": "Title", "type": "string", "required": True},
        {"slug": "body", "label": "Method", "type": "portableText"},
        {"slug": "photo", "label": "Photo", "type": "image"},
    ):
        mcp.ok("schema_create_field", {"collection": "recipes", **field})
    assert [f["slug"] for f in mcp.ok("schema_get_collection", {"collection": "recipes"})["fields"]] == [
        "title",
        "body",
        "photo",
    ]

    # The category taxonomy exists but applies to posts only: the refusal names the tool that fixes it.
    first = {"title": "Tomato soup", "body": "## Method\n\nSimmer **slowly**."}
    refused = mcp.fails("content_create", {"collection": "recipes", "data": first, "terms": {"category": ["soups"]}})
    assert "taxonomy_update" in refused["_meta"]["details"]["fields"]["terms.category"]
    category = next(t for t in mcp.ok("taxonomy_list")["taxonomies"] if t["name"] == "category")
    mcp.ok("taxonomy_update", {"name": "category", "collections": [*category["collections"], "recipes"]})
    mcp.ok("taxonomy_create_term", {"taxonomy": "category", "slug": "soups", "label": "Soups"})

    # The image: a signed upload (no base64 through the model), then confirmed.
    content = image_bytes()
    ticket = mcp.ok("media_upload_url", {"filename": "soup.png", "mimeType": "image/png", "size": len(content)})
    put = Client().generic("PUT", urlsplit(ticket["uploadUrl"]).path, content, content_type="image/png")
    assert put.status_code == 200
    photo = mcp.ok(
        "media_confirm", {"storageKey": ticket["storageKey"], "filename": "soup.png", "mimeType": "image/png"}
    )["item"]

    made = [
        mcp.ok(
            "content_create",
            {"collection": "recipes", "data": {**data, "photo": {"id": photo["id"]}}, "terms": {"category": ["soups"]}},
        )["item"]
        for data in (
            first,
            {"title": "Leek soup", "body": "Chop, *sweat*, blend."},
            {"title": "Pea soup", "body": "- peas\n- mint"},
        )
    ]
    published = mcp.ok("content_publish", {"collection": "recipes", "id": made[0]["id"]})["item"]
    when = (datetime.now(UTC) + timedelta(days=2)).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    scheduled = mcp.ok("content_schedule", {"collection": "recipes", "id": made[1]["id"], "scheduledAt": when})["item"]
    assert published["status"] == "published" and scheduled["status"] == "scheduled"

    mcp.ok("menu_create", {"name": "main", "label": "Main"})
    link = {"label": "Tomato soup", "type": "post", "referenceCollection": "recipes", "referenceId": made[0]["id"]}
    assert mcp.ok("menu_set_items", {"name": "main", "items": [link]})["itemCount"] == 1

    # What the assistant reads back: the three recipes, only the fields it asks for, with their terms.
    page = mcp.ok("content_list", {"collection": "recipes", "fields": ["title"]})
    assert sorted(item["data"]["title"] for item in page["items"]) == ["Leek soup", "Pea soup", "Tomato soup"]
    assert {item["status"] for item in page["items"]} == {"published", "scheduled", "draft"}
    soup = mcp.ok("content_get", {"collection": "recipes", "id": made[0]["id"], "fields": ["photo"]})["item"]
    assert soup["data"]["photo"]["id"] == photo["id"]
    assert [t["slug"] for t in soup["terms"]["category"]] == ["soups"]
    menu = mcp.ok("menu_get", {"name": "main"})
    assert menu["items"][0]["label"] == "Tomato soup"
