"""Schema, taxonomies, menus, settings, search and API tokens over REST, and the OpenAPI pages."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.api.helpers import body, call, client_for, session_client
from tests.factories import make_collection, make_entry, make_user

pytestmark = pytest.mark.django_db
SCHEMA = "/_emdash/api/schema/collections"


def test_schema_collections_and_fields(cms) -> None:
    admin = client_for("admin")
    created = call(admin, "POST", SCHEMA, {"slug": "books", "label": "Books", "supports": []})
    assert created.status_code == 201 and body(created)["slug"] == "books"
    duplicate = call(admin, "POST", SCHEMA, {"slug": "books", "label": "Books"})
    assert duplicate.status_code == 409 and body(duplicate)["error"]["code"] == "COLLECTION_EXISTS"
    field = call(admin, "POST", f"{SCHEMA}/books/fields", {"slug": "title", "label": "Title", "type": "string"})
    assert field.status_code == 201, field.content
    bad = call(admin, "POST", f"{SCHEMA}/books/fields", {"slug": "x", "label": "X", "type": "nope"})
    assert bad.status_code == 400
    got = body(call(client_for("editor", "schema:read"), "GET", f"{SCHEMA}/books"))
    assert [f["slug"] for f in got["fields"]] == ["title"]
    assert [c["slug"] for c in body(call(admin, "GET", SCHEMA))["items"]] == ["books"]
    call(admin, "POST", "/_emdash/api/content/books", {"data": {"title": "Dune"}})
    refused = call(admin, "DELETE", f"{SCHEMA}/books")
    assert refused.status_code == 409 and body(refused)["error"]["code"] == "COLLECTION_HAS_CONTENT"
    assert body(call(admin, "DELETE", f"{SCHEMA}/books/fields/title")) == {"deleted": "title", "collection": "books"}
    assert body(call(admin, "DELETE", f"{SCHEMA}/books?force=true")) == {"deleted": "books"}


def test_taxonomy_terms_crud() -> None:
    editor = client_for("editor", "taxonomies:manage content:read")
    assert {t["name"] for t in body(call(Client(), "GET", "/_emdash/api/taxonomies"))["taxonomies"]} >= {
        "category",
        "tag",
    }
    terms = "/_emdash/api/taxonomies/category/terms"
    parent = body(call(editor, "POST", terms, {"slug": "news", "label": "News"}))["term"]
    child = call(editor, "POST", terms, {"slug": "local", "label": "Local", "parentId": parent["id"]})
    assert child.status_code == 201 and body(child)["term"]["parentId"] == parent["id"]
    assert call(editor, "POST", terms, {"slug": "news", "label": "Again"}).status_code == 409
    assert [t["slug"] for t in body(call(Client(), "GET", terms))["items"]] == ["local", "news"]
    renamed = call(editor, "PUT", f"{terms}/local", {"label": "Local news", "parentId": None})
    assert body(renamed)["term"]["label"] == "Local news" and body(renamed)["term"]["parentId"] is None
    assert body(call(Client(), "GET", f"{terms}/local"))["term"]["label"] == "Local news"
    assert body(call(editor, "DELETE", f"{terms}/local")) == {"deleted": True}
    assert call(editor, "GET", f"{terms}/local").status_code == 404


def test_menus_crud_and_items() -> None:
    editor = client_for("editor", "menus:manage content:read")
    created = call(editor, "POST", "/_emdash/api/menus", {"name": "primary", "label": "Primary"})
    assert created.status_code == 201
    assert call(editor, "POST", "/_emdash/api/menus", {"name": "primary", "label": "Again"}).status_code == 409
    items = [
        {"label": "Home", "type": "custom", "customUrl": "/"},
        {"label": "Docs", "type": "custom", "customUrl": "https://example.com/docs", "parentIndex": 0},
    ]
    assert body(call(editor, "PUT", "/_emdash/api/menus/primary/items", {"items": items})) == {
        "name": "primary",
        "itemCount": 2,
    }
    evil = [{"label": "x", "type": "custom", "customUrl": "javascript:alert(1)"}]
    assert call(editor, "PUT", "/_emdash/api/menus/primary/items", {"items": evil}).status_code == 400
    menu = body(call(Client(), "GET", "/_emdash/api/menus/primary"))
    assert [i["label"] for i in menu["items"]] == ["Home", "Docs"]
    assert body(call(editor, "PUT", "/_emdash/api/menus/primary", {"label": "Main"}))["label"] == "Main"
    assert [m["name"] for m in body(call(Client(), "GET", "/_emdash/api/menus"))["items"]] == ["primary"]
    assert body(call(editor, "DELETE", "/_emdash/api/menus/primary")) == {"deleted": True}


def test_settings_read_and_partial_update() -> None:
    admin = client_for("admin", "settings:manage settings:read")
    updated = call(admin, "PUT", "/_emdash/api/settings", {"title": "My site", "postsPerPage": 5})
    assert updated.status_code == 200 and body(updated)["title"] == "My site"
    bad = call(admin, "PUT", "/_emdash/api/settings", {"postsPerPage": 0, "title": "Changed"})
    assert bad.status_code == 400 and "postsPerPage" in body(bad)["error"]["details"]["fields"]
    got = body(call(client_for("editor", "settings:read"), "GET", "/_emdash/api/settings"))
    assert got["title"] == "My site" and got["postsPerPage"] == 5
    assert call(client_for("editor"), "PUT", "/_emdash/api/settings", {"title": "x"}).status_code == 403


def test_search_returns_published_items_only(cms) -> None:
    make_collection("posts", fields=[{"slug": "title", "label": "Title", "type": "string", "searchable": True}])
    make_entry(data={"title": "Marmalade recipes"}, status="published")
    make_entry(data={"title": "Marmalade secrets"})
    results = body(call(Client(), "GET", "/_emdash/api/search", {"q": "marmalade"}))["items"]
    assert [r["title"] for r in results] == ["Marmalade recipes"]
    assert "<mark>" in results[0]["snippet"]
    assert body(call(Client(), "GET", "/_emdash/api/search", {"q": ""}))["items"] == []
    assert call(Client(), "GET", "/_emdash/api/search", {"q": "x", "limit": 500}).status_code == 400
    one = call(Client(), "GET", "/_emdash/api/search", {"q": "marmalade", "collections": "posts"})
    assert len(body(one)["items"]) == 1


def test_api_tokens_create_list_use_and_revoke() -> None:
    user = make_user("editor")
    client = session_client(user)
    created = call(client, "POST", "/_emdash/api/tokens", {"name": "ci", "scopes": ["content:read"]})
    assert created.status_code == 201, created.content
    secret = body(created)["secret"]
    token = body(created)["token"]
    assert secret.startswith("ec_pat_") and token["scopes"] == ["content:read"]
    listed = body(call(client, "GET", "/_emdash/api/tokens"))["items"]
    assert [t["id"] for t in listed] == [token["id"]] and "secret" not in listed[0]
    assert secret not in str(listed)
    bearer = Client(headers={"Authorization": f"Bearer {secret}"})
    assert call(bearer, "GET", "/_emdash/api/menus").status_code == 200
    narrow = call(bearer, "POST", "/_emdash/api/tokens", {"name": "wider", "scopes": ["admin"]})
    assert narrow.status_code == 403 and body(narrow)["error"]["code"] == "INSUFFICIENT_SCOPE"
    bad = call(client, "POST", "/_emdash/api/tokens", {"name": "x", "scopes": ["root"]})
    assert bad.status_code == 400
    assert body(call(client, "DELETE", f"/_emdash/api/tokens/{token['id']}")) == {"revoked": True}
    assert call(bearer, "GET", "/_emdash/api/menus").status_code == 401
    other = session_client(make_user("editor"))
    assert call(other, "DELETE", f"/_emdash/api/tokens/{token['id']}").status_code == 404


def test_openapi_document_lists_every_route_and_docs_are_served_offline() -> None:
    from api import catalog
    from tests.api.helpers import routes

    response = Client().get("/_emdash/api/openapi.json")
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    assert "/_emdash/api/content/{collection}/{id}/publish" in paths
    assert not any(p.startswith(("/_emdash/api/mcp", "/_emdash/api/oauth")) for p in paths)
    operations = sum(1 for p in paths.values() for m in p if m in ("get", "post", "put", "patch", "delete"))
    assert operations == len(routes())
    for route in catalog.routes():
        operation = paths[route.path][route.method.lower()]
        assert route.rule is not None and route.rule.scope.value in operation["description"]
        assert ({} in operation["security"]) == route.rule.public, str(route)
    docs = Client().get("/_emdash/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html and "cdn" not in html.lower() and "https://" not in html
