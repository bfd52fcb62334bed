"""A collection and a taxonomy share the public URL space: ``/<name>/<slug>/`` is a taxonomy's archive when a
taxonomy has that name, so a collection of the same name could never show an entry (its item URLs, sitemap lines
and feed links would all 404). Creating a taxonomy named like a collection was refused; the other order is too,
on every door that makes collections (MCP, REST, a WordPress import's custom post types)."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest
from django.core.management import call_command
from django.test import Client

from accounts.tokens import token_create
from content.models import Collection
from content.schema import specs as schema
from emdash.actor import Actor
from taxonomy.definitions import taxonomy_create
from tests.factories import make_user


@pytest.fixture
def token(cms: None) -> str:
    taxonomy_create(actor=Actor.system(), name="genre", label="Genres")
    return token_create(user=make_user("admin"), name="t", scopes="admin").raw


def _create(token: str, slug: str) -> dict:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "schema_create_collection", "arguments": {"slug": slug, "label": slug.title()}},
    }
    response = Client().post(
        "/_emdash/api/mcp", orjson.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    return response.json()["result"]


def test_a_collection_named_like_a_taxonomy_is_refused(token: str) -> None:
    result = _create(token, "genre")
    assert result["isError"] and result["_meta"]["code"] == "CONFLICT", result
    assert "taxonomy" in result["content"][0]["text"]
    rest = Client().post(
        "/_emdash/api/schema/collections",
        orjson.dumps({"slug": "genre", "label": "Genre"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert rest.status_code == 409 and rest.json()["error"]["code"] == "CONFLICT", rest.content
    assert not Collection.objects.filter(slug="genre").exists()
    assert not _create(token, "films").get("isError")


def test_static_is_reserved(token: str) -> None:
    assert _create(token, "static")["_meta"]["code"] == "RESERVED_SLUG"


def test_a_wordpress_post_type_named_like_a_taxonomy_is_skipped_and_the_rest_imported(
    token: str, tmp_path: Path
) -> None:
    path = tmp_path / "genre.xml"
    path.write_text(
        '<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>'
        "<item><title>Jazz</title><wp:post_id>1</wp:post_id><wp:post_type>genre</wp:post_type>"
        "<wp:status>publish</wp:status></item>"
        "<item><title>Kept</title><wp:post_id>2</wp:post_id><wp:post_type>post</wp:post_type>"
        "<wp:status>publish</wp:status></item></channel></rss>"
    )
    out = io.StringIO()
    call_command("emdash_import_wordpress", str(path), "--no-fetch", stdout=out)
    report = out.getvalue()
    assert "skipped post type genre" in report and "created 1 posts" in report, report
    assert "genre" not in schema.current(fresh=True).collections
