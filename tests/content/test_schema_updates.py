"""Schema evolution (SPEC 6.4d, issue 13 item 6): changing collections and fields on MCP, REST and the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from audit.models import AuditLog
from content.entries import services
from content.models import Collection, Field, SchemaState
from content.schema import services as schema_services
from content.schema import specs as schema
from content.schema import updates as schema_updates
from content.schema.dynamic import field_attname
from content.search.models import SearchDocument, SearchIndexState
from emdash.errors import Conflict, EmDashError, FieldNotFound, InsufficientPermissions, ValidationError
from emdash.roles import Role
from tests.admin.conftest import login
from tests.api.helpers import body, call, client_for
from tests.factories import SYSTEM, actor, make_collection, make_entry, make_user

SCHEMA = "/_emdash/api/schema/collections"


def version() -> int:
    return SchemaState.objects.get(pk=1).version


def order(slug: str = "posts") -> list[str]:
    return [f.slug for f in schema.current().get(slug).fields]


def field_of(slug: str) -> Any:
    return schema.current().get("posts").get_field(slug)


def details(error: EmDashError) -> dict[str, Any]:
    return error.details or {}


def update_field(field: str, **given: Any) -> Any:
    return schema_updates.field_update(actor=SYSTEM, collection="posts", field_slug=field, **given)


def add(slug: str, type: str = "string", **extra: Any) -> None:
    schema_services.field_create(actor=SYSTEM, collection="posts", slug=slug, label=slug.title(), type=type, **extra)


# --- collections ------------------------------------------------------------------------------------------


def test_collection_settings_change_and_bump_the_version(posts) -> None:
    before = version()
    spec = schema_updates.collection_update(
        actor=SYSTEM, slug="posts", label="Articles", label_singular="Article", description="Long reads", icon="doc"
    )
    assert (spec.label, spec.label_singular, spec.description, spec.icon) == (
        "Articles",
        "Article",
        "Long reads",
        "doc",
    )
    assert version() == before + 1
    row = Collection.objects.get(slug="posts")
    assert (row.label, row.icon) == ("Articles", "doc")


def test_a_change_to_nothing_keeps_the_version(posts) -> None:
    before = version()
    schema_updates.collection_update(actor=SYSTEM, slug="posts", label=posts.label)
    assert version() == before


def test_bad_collection_settings_change_nothing(posts) -> None:
    before = version()
    with pytest.raises(ValidationError) as info:
        schema_updates.collection_update(actor=SYSTEM, slug="posts", label="  ", supports=["drafts", "nope"])
    assert set(details(info.value)["fields"]) == {"label", "supports"}
    assert version() == before and Collection.objects.get(slug="posts").label == posts.label


def test_turning_search_on_builds_the_index_and_off_drops_it(cms) -> None:
    make_collection("posts", supports=["drafts", "revisions"])
    update_field("title", searchable=True)
    entry = make_entry(data={"title": "Findable words"}, status="published")
    assert not SearchDocument.objects.filter(collection="posts").exists()
    schema_updates.collection_update(actor=SYSTEM, slug="posts", supports=["drafts", "revisions", "search"])
    assert SearchDocument.objects.filter(collection="posts", entry_id=entry.id).exists()
    assert SearchIndexState.objects.filter(collection="posts").exists()
    schema_updates.collection_update(actor=SYSTEM, slug="posts", supports=["drafts", "revisions"])
    assert not SearchDocument.objects.filter(collection="posts").exists()
    assert not SearchIndexState.objects.filter(collection="posts").exists()


def test_dropping_drafts_is_refused_while_drafts_are_pending(posts) -> None:
    entry = make_entry(status="published")
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"title": "Pending"})
    with pytest.raises(Conflict) as info:
        schema_updates.collection_update(actor=SYSTEM, slug="posts", supports=["scheduling"])
    assert entry.id in info.value.message and details(info.value)["items"] == [entry.id]
    assert "drafts" in schema.current().get("posts").supports


# --- fields -----------------------------------------------------------------------------------------------


def test_field_settings_change(posts) -> None:
    before = version()
    field = update_field("excerpt", label="Summary", validation={"maxLength": 300}, searchable=True, translatable=False)
    assert (field.label, field.validation, field.searchable, field.translatable) == (
        "Summary",
        {"maxLength": 300},
        True,
        False,
    )
    assert version() == before + 1
    with pytest.raises(ValidationError):
        services.entry_create(actor=SYSTEM, collection="posts", data={"title": "T", "excerpt": "x" * 301})


def test_a_type_change_is_refused_and_says_so(posts) -> None:
    with pytest.raises(ValidationError) as info:
        update_field("title", type="integer")
    assert "cannot be changed" in details(info.value)["fields"]["type"]
    assert field_of("title").type == "string"
    assert update_field("title", type="string", label="Headline").label == "Headline"  # the same type is fine


def test_unknown_field_and_bad_rules(posts) -> None:
    with pytest.raises(FieldNotFound):
        update_field("nope", label="X")
    with pytest.raises(ValidationError) as info:
        update_field("title", validation={"min": 1}, position=0)
    assert set(details(info.value)["fields"]) == {"validation.min", "position"}


def test_required_is_refused_while_items_lack_a_value_and_lists_them(posts) -> None:
    empty = [make_entry(data={"title": f"T{n}"}) for n in range(23)]
    make_entry(data={"title": "Full", "excerpt": "has one"})
    with pytest.raises(Conflict) as info:
        update_field("excerpt", required=True)
    details = info.value.details or {}
    assert details["count"] == 23 and len(details["items"]) == schema_updates.MAX_OFFENDERS == 20
    assert set(details["items"]) <= {e.id for e in empty} and "23 existing item(s)" in info.value.message
    assert not field_of("excerpt").required
    for entry in empty:
        services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"excerpt": "now set"})
    assert update_field("excerpt", required=True).required


def test_required_counts_a_pending_draft_without_the_value(posts) -> None:
    entry = make_entry(data={"title": "T", "excerpt": "live value"}, status="published")
    services.entry_update(actor=SYSTEM, collection="posts", id=entry.id, data={"excerpt": ""})
    with pytest.raises(Conflict) as info:
        update_field("excerpt", required=True)
    assert details(info.value)["items"] == [entry.id]


def test_unique_is_refused_on_duplicates_then_adds_a_unique_index(posts) -> None:
    add("code")
    a = make_entry(data={"title": "A", "code": "same"})
    b = make_entry(data={"title": "B", "code": "same"})
    make_entry(data={"title": "C", "code": "other"})
    with pytest.raises(Conflict) as info:
        update_field("code", unique=True)
    assert sorted(details(info.value)["items"]) == sorted([a.id, b.id])
    services.entry_update(actor=SYSTEM, collection="posts", id=b.id, data={"code": "third"})
    assert update_field("code", unique=True).unique
    model = schema.current().get("posts").model
    with pytest.raises(IntegrityError), transaction.atomic():  # the database itself refuses now
        model.objects.filter(id=b.id).update(**{field_attname("code"): "same"})
    assert update_field("code", unique=False).unique is False
    services.entry_update(actor=SYSTEM, collection="posts", id=b.id, data={"code": "same"})


def test_position_reorders_fields(posts) -> None:
    assert order() == ["title", "excerpt", "body"]
    update_field("body", position=1)
    assert order() == ["body", "title", "excerpt"]
    update_field("body", position=99)  # clamped to the end
    assert order() == ["title", "excerpt", "body"]
    assert list(
        Field.objects.filter(collection__slug="posts").order_by("position").values_list("position", flat=True)
    ) == [
        1,
        2,
        3,
    ]


def test_default_value_set_and_removed(posts) -> None:
    assert update_field("excerpt", default_value="n/a").default_value == "n/a"
    assert make_entry(data={"title": "T"}).to_dict()["data"]["excerpt"] == "n/a"
    assert update_field("excerpt", default_value=None).default_value is None
    with pytest.raises(ValidationError):
        update_field("title", unique=True, default_value="x")


def test_only_admins_change_the_schema(posts) -> None:
    with pytest.raises(InsufficientPermissions):
        schema_updates.field_update(
            actor=actor(make_user(Role.EDITOR)), collection="posts", field_slug="title", label="X"
        )


# --- doors ------------------------------------------------------------------------------------------------


def test_rest_patch_collection_and_field(posts) -> None:
    admin = client_for("admin")
    changed = call(admin, "PATCH", f"{SCHEMA}/posts", {"label": "Articles", "icon": "doc"})
    assert changed.status_code == 200 and body(changed)["label"] == "Articles"
    field = call(admin, "PATCH", f"{SCHEMA}/posts/fields/excerpt", {"label": "Summary", "position": 1})
    assert field.status_code == 200 and body(field)["label"] == "Summary"
    assert next(f["slug"] for f in body(call(admin, "GET", f"{SCHEMA}/posts"))["fields"]) == "excerpt"
    typed = call(admin, "PATCH", f"{SCHEMA}/posts/fields/title", {"type": "text"})
    assert typed.status_code == 400 and "cannot be changed" in typed.content.decode()
    make_entry(data={"title": "T"})
    refused = call(admin, "PATCH", f"{SCHEMA}/posts/fields/excerpt", {"required": True})
    assert refused.status_code == 409 and body(refused)["error"]["details"]["count"] == 1
    unknown = call(admin, "PATCH", f"{SCHEMA}/posts", {"slugg": "x"})
    assert unknown.status_code == 400
    editor = call(client_for("editor", "schema:write"), "PATCH", f"{SCHEMA}/posts", {"label": "No"})
    assert editor.status_code == 403
    actions = set(AuditLog.objects.filter(source="rest").values_list("action", flat=True))
    assert {"schema_update_collection", "schema_update_field"} <= actions


def test_admin_settings_edit_and_move_without_javascript(posts) -> None:
    client, _ = login(Role.ADMIN)
    page = client.get(reverse("admin_ui:schema_collection", args=["posts"]))
    assert page.status_code == 200 and b"Move Body up" in page.content and b"Collection settings" in page.content
    moved = client.post(reverse("admin_ui:schema_field_move", args=["posts", "body"]), {"position": "2"})
    assert moved.status_code == 302 and order() == ["title", "body", "excerpt"]
    saved = client.post(
        reverse("admin_ui:schema_collection_settings", args=["posts"]),
        {
            "label": "Articles",
            "label_singular": "Article",
            "description": "",
            "icon": "",
            "supports": ["drafts", "revisions"],
        },
    )
    assert saved.status_code == 302 and schema.current().get("posts").supports == ("drafts", "revisions")
    edit = reverse("admin_ui:schema_field_edit", args=["posts", "excerpt"])
    assert client.get(edit).status_code == 200
    assert client.post(edit, {"label": "Summary", "translatable": "on", "searchable": "on"}).status_code == 302
    field = field_of("excerpt")
    assert (field.label, field.searchable, field.required) == ("Summary", True, False)
    make_entry(data={"title": "T"})
    refused = client.post(edit, {"label": "Summary", "required": "on", "translatable": "on"})
    assert refused.status_code == 409 and b"CONFLICT" in refused.content
    outcomes = AuditLog.objects.filter(source="admin", action="schema_update_field").values_list("outcome", flat=True)
    assert sorted(outcomes) == ["CONFLICT", "ok", "ok"]  # the move, the edit, the refused edit


def test_admin_editor_cannot_change_the_schema(posts) -> None:
    client, _ = login(Role.EDITOR)
    response = client.post(reverse("admin_ui:schema_field_move", args=["posts", "body"]), {"position": "1"})
    assert response.status_code == 403 and order() == ["title", "excerpt", "body"]


def test_a_failed_change_leaves_registry_and_table_alone(posts, monkeypatch) -> None:
    """Registry rows and the DDL commit together: an error from the table change rolls the flag back."""
    add("code")

    def refuse(*args: Any, **kwargs: Any) -> None:
        from django.db import DatabaseError

        raise DatabaseError("refused")

    monkeypatch.setattr(connection.schema_editor().__class__, "alter_field", refuse)
    before = version()
    with pytest.raises(EmDashError) as info:
        update_field("code", unique=True, label="Code!")
    assert info.value.code == "CONFLICT"
    assert version() == before
    field = Field.objects.get(collection__slug="posts", slug="code")
    assert (field.unique, field.label) == (False, "Code")
    make_user(Role.ADMIN)  # the connection is still usable
