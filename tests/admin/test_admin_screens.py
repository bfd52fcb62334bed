"""Media, tokens, menus, taxonomies, settings, users, the schema builder and the audit log."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from accounts.models import PersonalAccessToken, User
from accounts.tokens import resolve_pat
from audit.models import AuditLog
from content.schema import specs as schema
from media.models import MediaItem
from menus import selectors as menu_selectors
from menus import services as menu_services
from settings_app.selectors import site_settings
from taxonomy.models import Term
from tests.factories import SYSTEM


def _png(name="pic.png"):
    buffer = io.BytesIO()
    Image.new("RGB", (8, 6), "blue").save(buffer, "PNG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


@pytest.mark.django_db
def test_media_upload_edit_and_delete(as_role):
    client, user = as_role("author")
    response = client.post("/_emdash/admin/media/upload/", {"file": _png()}, HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    item = MediaItem.objects.get()
    assert item.width == 8 and item.author_id == user.pk
    client.post(f"/_emdash/admin/media/{item.id}/", {"alt": "A blue box", "caption": "Blue"})
    item.refresh_from_db()
    assert (item.alt, item.caption) == ("A blue box", "Blue")
    assert "A blue box" in client.get("/_emdash/admin/media/").content.decode()
    client.post(f"/_emdash/admin/media/{item.id}/delete/")
    assert not MediaItem.objects.exists()


@pytest.mark.django_db
def test_media_upload_rejects_a_disallowed_file_and_stores_nothing(as_role):
    client, _ = as_role("author")
    bad = SimpleUploadedFile("run.sh", b"#!/bin/sh\necho hi\n", content_type="text/x-shellscript")
    response = client.post("/_emdash/admin/media/upload/", {"file": bad}, HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and response.json()["results"][0]["ok"] is False
    assert not MediaItem.objects.exists()


@pytest.mark.django_db
def test_a_new_token_is_shown_once_and_can_be_revoked(as_role):
    client, user = as_role("editor")
    response = client.post(
        "/_emdash/admin/tokens/",
        {"name": "laptop", "scopes": ["content:read", "content:write"], "expires_days": "30"},
        follow=True,
    )
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    raw = response.context["issued"]["raw"]
    assert raw in response.content.decode() and resolve_pat(raw) is not None
    assert raw not in client.get("/_emdash/admin/tokens/").content.decode()
    token = PersonalAccessToken.objects.get(user=user)
    client.post(f"/_emdash/admin/tokens/{token.pk}/revoke/")
    assert resolve_pat(raw) is None


@pytest.mark.django_db
def test_a_token_without_scopes_is_refused(as_role):
    client, _ = as_role("editor")
    response = client.post("/_emdash/admin/tokens/", {"name": "none"})
    assert response.status_code == 400 and "at least one scope" in response.content.decode()
    assert not PersonalAccessToken.objects.exists()


@pytest.mark.django_db
def test_nobody_can_revoke_someone_elses_token(as_role):
    owner, owner_user = as_role("admin")
    owner.post("/_emdash/admin/tokens/", {"name": "mine", "scopes": ["content:read"]})
    token = PersonalAccessToken.objects.get(user=owner_user)
    other, _ = as_role("admin")
    other.post(f"/_emdash/admin/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_at is None


def test_menu_editor_saves_nesting_and_order(posts, as_role):
    client, _ = as_role("editor")
    client.post("/_emdash/admin/menus/", {"name": "primary", "label": "Primary"})
    items = [
        {"label": "Home", "type": "custom", "customUrl": "/", "depth": 0},
        {"label": "Blog", "type": "collection", "referenceCollection": "posts", "depth": 0},
        {"label": "Docs", "type": "custom", "customUrl": "https://example.com/docs", "depth": 1, "target": "_blank"},
        {"label": "API", "type": "custom", "customUrl": "#api", "depth": 2},
        {"label": "About", "type": "custom", "customUrl": "/about/", "depth": 0},
    ]
    response = client.post("/_emdash/admin/menus/primary/", {"items_json": json.dumps(items)})
    assert response.status_code == 302
    stored = menu_selectors.menu_get(actor=SYSTEM, name="primary")["items"]
    assert [i["label"] for i in stored] == ["Home", "Blog", "Docs", "API", "About"]
    assert [i["parentIndex"] for i in stored] == [None, None, 1, 2, None]
    page = client.get("/_emdash/admin/menus/primary/").content.decode()
    assert "&quot;depth&quot;: 2" in page or '"depth": 2' in page


def test_a_bad_menu_item_saves_nothing(posts, as_role):
    client, _ = as_role("editor")
    menu_services.menu_create(actor=SYSTEM, name="footer", label="Footer")
    menu_services.menu_set_items(
        actor=SYSTEM, name="footer", items=[{"label": "Keep", "type": "custom", "customUrl": "/"}]
    )
    bad = [{"label": "Evil", "type": "custom", "customUrl": "javascript:alert(1)", "depth": 0}]
    response = client.post("/_emdash/admin/menus/footer/", {"items_json": json.dumps(bad)})
    assert response.status_code == 400 and "VALIDATION_ERROR" in response.content.decode()
    assert [i["label"] for i in menu_selectors.menu_get(actor=SYSTEM, name="footer")["items"]] == ["Keep"]
    response = client.post("/_emdash/admin/menus/footer/", {"items_json": "{not json"})
    assert response.status_code == 400


@pytest.mark.django_db
def test_terms_are_added_as_a_tree_and_deleted(as_role):
    client, _ = as_role("editor")
    client.post("/_emdash/admin/taxonomies/category/", {"label": "News"})
    parent = Term.objects.get(slug="news")
    client.post("/_emdash/admin/taxonomies/category/", {"label": "Local", "parent": parent.id})
    assert Term.objects.get(slug="local").parent_id == parent.id
    response = client.post("/_emdash/admin/taxonomies/category/news/delete/", follow=True)
    assert "CONFLICT" in response.content.decode() and Term.objects.filter(slug="news").exists()
    client.post("/_emdash/admin/taxonomies/category/local/delete/")
    assert not Term.objects.filter(slug="local").exists()


def test_entry_form_assigns_terms(posts, as_role):
    from taxonomy import selectors as tax_selectors
    from taxonomy import services as tax_services
    from tests.factories import make_entry

    tax_services.term_create(actor=SYSTEM, taxonomy="tag", slug="django", label="Django")
    client, _ = as_role("editor")
    entry = make_entry()
    page = client.get(f"/_emdash/admin/content/posts/{entry.id}/")
    assert 'name="terms_tag"' in page.content.decode()
    client.post(
        f"/_emdash/admin/content/posts/{entry.id}/",
        {"f_title": "Tagged", "slug": entry.row.slug, "terms_taxonomies": "category,tag", "terms_tag": ["django"]},
    )
    assigned = tax_selectors.entry_terms(actor=SYSTEM, collection="posts", id=entry.id)
    assert [t["slug"] for t in assigned["tag"]] == ["django"]


@pytest.mark.django_db
def test_settings_saved_by_admins_only(as_role):
    admin, _ = as_role("admin")
    response = admin.post(
        "/_emdash/admin/settings/", {"title": "My site", "postsPerPage": "7", "timezone": "Europe/Paris"}
    )
    assert response.status_code == 302
    assert site_settings()["title"] == "My site" and site_settings()["postsPerPage"] == 7
    response = admin.post(
        "/_emdash/admin/settings/", {"title": "Changed", "timezone": "Mars/Base", "postsPerPage": "7"}
    )
    assert response.status_code == 400 and "timezone" in response.content.decode()
    assert site_settings()["title"] == "My site"
    editor, _ = as_role("editor")
    assert "disabled" in editor.get("/_emdash/admin/settings/").content.decode()
    editor.post("/_emdash/admin/settings/", {"title": "Editor was here"})
    assert site_settings()["title"] == "My site"


@pytest.mark.django_db
def test_admins_manage_users_but_not_their_own_role(as_role):
    client, me = as_role("admin")
    response = client.post(
        "/_emdash/admin/users/", {"email": "new@example.com", "role": "30", "password": "a-good-passphrase"}
    )
    assert response.status_code == 302
    new = User.objects.get(email="new@example.com")
    assert new.role == 30 and new.check_password("a-good-passphrase")
    client.post(f"/_emdash/admin/users/{new.pk}/", {"role": "40", "is_active": "1"})
    new.refresh_from_db()
    assert new.role == 40 and new.is_active
    client.post(f"/_emdash/admin/users/{me.pk}/", {"role": "10", "is_active": "1"})
    me.refresh_from_db()
    assert me.role == 50
    # Both changes are audited with what they were on, the refused one too.
    rows = AuditLog.objects.filter(source="admin", action="users.update").order_by("id")
    assert [(r.target, r.outcome != "ok") for r in rows] == [(f"users/{new.pk}", False), (f"users/{me.pk}", True)]
    response = client.post("/_emdash/admin/users/", {"email": "bad", "role": "99", "password": "x"})
    assert response.status_code == 400 and User.objects.count() == 2


def test_schema_builder_creates_and_deletes_collections_and_fields(cms, as_role):
    client, _ = as_role("admin")
    response = client.post(
        "/_emdash/admin/schema/", {"slug": "books", "label": "Books", "supports": ["drafts", "revisions"]}
    )
    assert response.status_code == 302
    client.post(
        "/_emdash/admin/schema/books/",
        {"slug": "genre", "label": "Genre", "type": "select", "choices": "fiction, poetry", "translatable": "on"},
    )
    field = schema.get_collection("books").get_field("genre")
    assert field is not None and field.validation["options"] == ["fiction", "poetry"]
    response = client.post("/_emdash/admin/schema/books/", {"slug": "status", "label": "Status", "type": "string"})
    assert response.status_code == 400 and schema.get_collection("books").get_field("status") is None
    client.post("/_emdash/admin/schema/books/fields/genre/delete/")
    assert schema.get_collection("books").get_field("genre") is None
    client.post("/_emdash/admin/schema/books/delete/")
    assert "books" not in schema.current().collections


def test_editors_read_the_schema_but_cannot_change_it(cms, as_role):
    client, _ = as_role("editor")
    page = client.get("/_emdash/admin/schema/").content.decode()
    assert "New collection" not in page
    response = client.post("/_emdash/admin/schema/", {"slug": "sneaky", "label": "Sneaky"})
    assert "INSUFFICIENT_PERMISSIONS" in response.content.decode()
    assert "sneaky" not in schema.current().collections


@pytest.mark.django_db
def test_audit_log_lists_admin_and_mcp_actions(as_role):
    client, user = as_role("admin")
    AuditLog.objects.create(user=user, source="mcp", action="content_list", outcome="ok", trace_id="t1")
    client.post("/_emdash/admin/tokens/", {"name": "audit me", "scopes": ["content:read"]})
    page = client.get("/_emdash/admin/audit/").content.decode()
    assert "content_list" in page and "token_create" in page
    only_admin = client.get("/_emdash/admin/audit/?source=admin").content.decode()
    assert "content_list" not in only_admin
