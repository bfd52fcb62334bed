"""SPEC 6.5 / issue 13 items 5 and 7: taxonomy definitions created, edited, attached to any collection and
deleted by editors (REST and admin), terms on every attached collection, archives on the public site."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from audit.models import AuditLog
from content.schema import services as schema_services
from emdash.permissions import RULES, Perm
from emdash.roles import Role
from taxonomy import services
from taxonomy.models import TaxonomyDefinition, TermAssignment
from tests.api.helpers import body, call, client_for, session_client
from tests.factories import SYSTEM, make_collection, make_entry, make_user

API = "/_emdash/api/taxonomies"
ROLES = ("subscriber", "contributor", "author", "editor", "admin")


@pytest.fixture
def two_collections(posts: Any) -> None:
    make_collection("pages", supports=["drafts"])


def genre(client: Client, **extra: Any) -> Any:
    data = {"name": "genre", "label": "Genres", "labelSingular": "Genre", "collections": ["posts", "pages"], **extra}
    return call(client, "POST", API, data)


@pytest.mark.usefixtures("two_collections")
def test_editors_define_edit_and_delete_a_taxonomy_over_rest() -> None:
    editor = client_for("editor")
    created = genre(editor, hierarchical=True)
    assert created.status_code == 201, body(created)
    assert body(created)["taxonomy"] == {
        "name": "genre",
        "label": "Genres",
        "labelSingular": "Genre",
        "hierarchical": True,
        "collections": ["posts", "pages"],
    }
    assert body(call(editor, "GET", f"{API}/genre"))["taxonomy"]["name"] == "genre"
    changed = call(editor, "PATCH", f"{API}/genre", {"label": "Kinds", "collections": ["pages"]})
    assert changed.status_code == 200 and body(changed)["taxonomy"]["collections"] == ["pages"]
    assert body(changed)["taxonomy"]["labelSingular"] == "Genre"
    assert call(editor, "DELETE", f"{API}/genre").status_code == 200
    assert not TaxonomyDefinition.objects.filter(name="genre").exists()
    actions = list(AuditLog.objects.filter(source="rest").order_by("id").values_list("action", "target"))
    assert actions == [
        ("taxonomy_create", "taxonomies/genre"),
        ("taxonomy_update", "taxonomies/genre"),
        ("taxonomy_delete", "taxonomies/genre"),
    ]


@pytest.mark.usefixtures("two_collections")
@pytest.mark.parametrize(
    ("data", "code", "key"),
    [
        ({"name": "Bad Name"}, "VALIDATION_ERROR", "name"),
        ({"name": "search"}, "VALIDATION_ERROR", "name"),
        ({"name": "pages"}, "CONFLICT", None),  # a collection's URLs: /pages/<slug>/
        ({"name": "tag"}, "CONFLICT", None),
        ({"collections": ["nope"]}, "VALIDATION_ERROR", "collections"),
        ({"hierarchical": "yes"}, "VALIDATION_ERROR", "hierarchical"),
        ({"label": ""}, "VALIDATION_ERROR", "label"),
        ({"extra": 1}, "VALIDATION_ERROR", "extra"),
    ],
)
def test_bad_definitions_are_refused_and_change_nothing(data: dict[str, Any], code: str, key: str | None) -> None:
    before = list(TaxonomyDefinition.objects.values_list("name", "collections"))
    response = genre(client_for("editor"), **data)
    error = body(response)["error"]
    assert error["code"] == code, error
    if key:
        assert key in error["details"]["fields"]
    assert list(TaxonomyDefinition.objects.values_list("name", "collections")) == before


def _expected(role: str, perm: Perm) -> bool:
    return Role[role.upper()] >= RULES[perm].min_role


@pytest.mark.usefixtures("two_collections")
@pytest.mark.parametrize("role", ROLES)
def test_the_permission_matrix_comes_from_the_permission_table(role: str) -> None:
    client = client_for(role)
    allowed = _expected(role, Perm.TAXONOMY_MANAGE)
    created = genre(client)
    assert created.status_code == (201 if allowed else 403), body(created)
    if not allowed:
        services_made = genre(client_for("editor"))
        assert services_made.status_code == 201
    assert call(client, "PATCH", f"{API}/genre", {"label": "X"}).status_code == (200 if allowed else 403)
    assert call(client, "DELETE", f"{API}/genre").status_code == (200 if allowed else 403)
    # Reading is public (TAXONOMY_READ), so every role lists the definitions.
    assert call(client, "GET", API).status_code == 200


@pytest.mark.usefixtures("two_collections")
def test_a_token_without_the_taxonomies_scope_is_refused() -> None:
    narrow = client_for("admin", scopes="content:read media:write")  # content:write implies taxonomies:manage
    response = genre(narrow)
    assert response.status_code == 403 and body(response)["error"]["code"] == "INSUFFICIENT_SCOPE"
    assert genre(client_for("admin", scopes="taxonomies:manage")).status_code == 201


@pytest.mark.usefixtures("two_collections")
def test_terms_are_assignable_on_every_attached_collection() -> None:
    editor = client_for("editor")
    genre(editor)
    call(editor, "POST", f"{API}/genre/terms", {"slug": "jazz", "label": "Jazz"})
    page = make_entry("pages", data={"title": "About jazz"})
    put = call(editor, "PUT", f"/_emdash/api/content/pages/{page.id}/terms/genre", {"terms": ["jazz"]})
    assert put.status_code == 200 and [t["slug"] for t in body(put)["terms"]] == ["jazz"]
    created = call(editor, "POST", "/_emdash/api/content/pages", {"data": {"title": "B"}, "terms": {"genre": ["jazz"]}})
    assert created.status_code == 201, body(created)
    assert [t["slug"] for t in body(created)["item"]["terms"]["genre"]] == ["jazz"]
    # category stays on posts only.
    refused = call(editor, "PUT", f"/_emdash/api/content/pages/{page.id}/terms/category", {"terms": []})
    assert body(refused)["error"]["code"] == "VALIDATION_ERROR"


@pytest.mark.usefixtures("two_collections")
def test_detaching_a_collection_removes_its_assignments_only() -> None:
    editor = client_for("editor")
    genre(editor)
    call(editor, "POST", f"{API}/genre/terms", {"slug": "jazz", "label": "Jazz"})
    page = make_entry("pages", data={"title": "P"})
    post = make_entry("posts", data={"title": "Q"})
    services.entry_terms_set(actor=SYSTEM, collection="pages", id=page.id, taxonomy="genre", terms=["jazz"])
    services.entry_terms_set(actor=SYSTEM, collection="posts", id=post.id, taxonomy="genre", terms=["jazz"])
    call(editor, "PATCH", f"{API}/genre", {"collections": ["posts"]})
    assert list(TermAssignment.objects.values_list("collection", flat=True)) == ["posts"]


@pytest.mark.usefixtures("posts")
def test_a_taxonomy_with_nested_terms_cannot_become_flat() -> None:
    editor = client_for("editor")
    parent = body(call(editor, "POST", f"{API}/category/terms", {"slug": "a", "label": "A"}))["term"]
    call(editor, "POST", f"{API}/category/terms", {"slug": "b", "label": "B", "parentId": parent["id"]})
    refused = call(editor, "PATCH", f"{API}/category", {"hierarchical": False})
    assert body(refused)["error"]["code"] == "CONFLICT"
    assert TaxonomyDefinition.objects.get(name="category").hierarchical is True


@pytest.mark.usefixtures("two_collections")
def test_deleting_a_collection_detaches_it_and_taxonomy_list_names_only_existing_ones() -> None:
    genre(client_for("editor"))
    schema_services.collection_delete(actor=SYSTEM, slug="pages", force=True)
    assert TaxonomyDefinition.objects.get(name="genre").collections == ["posts"]
    listed = {t["name"]: t["collections"] for t in body(call(Client(), "GET", API))["taxonomies"]}
    assert listed == {"category": ["posts"], "tag": ["posts"], "genre": ["posts"]}


@pytest.mark.usefixtures("two_collections")
def test_definitions_are_mcp_tools_since_spec_10(mcp: Any) -> None:
    names = {t["name"] for t in mcp.result("tools/list")["tools"]}
    assert {"taxonomy_list", "taxonomy_create", "taxonomy_update", "taxonomy_delete"} <= names
    assert "token_create" not in names


@pytest.mark.usefixtures("two_collections")
def test_the_admin_defines_edits_and_deletes_taxonomies_audited_as_admin() -> None:
    client = session_client(make_user("editor"))
    form = {"name": "genre", "label": "Genres", "label_singular": "Genre", "collections": ["posts", "pages"]}
    created = client.post("/_emdash/admin/taxonomies/", form)
    assert created.status_code == 302, created.content.decode()[:500]
    assert TaxonomyDefinition.objects.get(name="genre").collections == ["posts", "pages"]
    page = client.get("/_emdash/admin/taxonomy-settings/genre/")
    assert page.status_code == 200 and "Genres" in page.content.decode()
    edited = client.post(
        "/_emdash/admin/taxonomy-settings/genre/", {**form, "collections": ["pages"], "hierarchical": "1"}
    )
    assert edited.status_code == 302
    row = TaxonomyDefinition.objects.get(name="genre")
    assert (row.collections, row.hierarchical) == (["pages"], True)
    bad = client.post("/_emdash/admin/taxonomy-settings/genre/", {**form, "collections": ["nope"]})
    assert bad.status_code == 400 and "no such collection" in bad.content.decode()
    assert client.post("/_emdash/admin/taxonomy-settings/genre/delete/").status_code == 302
    assert not TaxonomyDefinition.objects.filter(name="genre").exists()
    actions = list(
        AuditLog.objects.filter(source="admin", outcome="ok").order_by("id").values_list("action", flat=True)
    )
    assert actions == ["taxonomy_create", "taxonomy_update", "taxonomy_delete"]


@pytest.mark.usefixtures("two_collections")
def test_authors_cannot_reach_the_definition_screens() -> None:
    client = session_client(make_user("author"))
    assert client.post("/_emdash/admin/taxonomies/", {"name": "genre", "label": "G"}).status_code == 403
    assert not TaxonomyDefinition.objects.filter(name="genre").exists()


@pytest.mark.usefixtures("two_collections")
def test_archives_span_every_attached_collection_and_old_urls_keep_working() -> None:
    editor = client_for("editor")
    genre(editor)
    call(editor, "POST", f"{API}/genre/terms", {"slug": "jazz", "label": "Jazz"})
    call(editor, "POST", f"{API}/category/terms", {"slug": "news", "label": "News"})
    page = make_entry("pages", data={"title": "Page about jazz"}, status="published")
    post = make_entry("posts", data={"title": "Post about jazz"}, status="published", terms={"category": ["news"]})
    hidden = make_entry("posts", data={"title": "Draft about jazz"})
    for collection, entry in (("pages", page), ("posts", post), ("posts", hidden)):
        services.entry_terms_set(actor=SYSTEM, collection=collection, id=entry.id, taxonomy="genre", terms=["jazz"])
    archive = Client().get("/genre/jazz/")
    html = archive.content.decode()
    assert archive.status_code == 200
    assert "Page about jazz" in html and "Post about jazz" in html and "Draft about jazz" not in html
    assert "Post about jazz" in Client().get("/category/news/").content.decode()
    assert Client().get("/genre/nope/").status_code == 404
    assert Client().get("/pages/").status_code == 200  # the collection index is not an archive
