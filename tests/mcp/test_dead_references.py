"""Items whose link targets were deleted (SPEC 10 "deleting a target leaves the others"): they stay editable,
submittable, publishable and restorable; the dead id is dropped when the link field is written again, and a new
write naming a missing item is still refused."""

from __future__ import annotations

from typing import Any

import pytest

from content.entries import services
from content.schema import specs as schema
from content.schema.dynamic import field_attname
from tests.api.helpers import body, call, client_for
from tests.factories import SYSTEM, make_collection
from tests.mcp.conftest import MCP

pytestmark = pytest.mark.django_db
TITLE = {"slug": "title", "label": "Title", "type": "string", "required": True}


@pytest.fixture
def recipes(cms: None) -> None:
    make_collection("ingredients", fields=[TITLE])
    uses = {"slug": "uses", "label": "Uses", "type": "references", "options": {"collections": ["ingredients"]}}
    main = {"slug": "main", "label": "Main", "type": "reference", "options": {"collection": "ingredients"}}
    make_collection("recipes", fields=[TITLE, uses, main])


def made(title: str) -> Any:
    return services.entry_create(actor=SYSTEM, collection="ingredients", data={"title": title}, status="published")


def stored(item_id: str, field: str) -> Any:
    model = schema.get_collection("recipes").model
    return model.objects.values_list(field_attname(field), flat=True).get(pk=item_id)


def cake(mcp: MCP, *, purge: bool) -> tuple[str, Any, Any]:
    """A published recipe linking flour (then deleted: trashed, or for good with ``purge``) and sugar."""
    flour, sugar = made("Flour"), made("Sugar")
    data = {"title": "Cake", "uses": [flour.id, sugar.id], "main": flour.id}
    item = mcp.ok("content_create", {"collection": "recipes", "data": data, "status": "published"})["item"]
    services.entry_trash(actor=SYSTEM, collection="ingredients", id=flour.id)
    if purge:
        services.entry_delete_permanently(actor=SYSTEM, collection="ingredients", id=flour.id)
    return item["id"], flour, sugar


@pytest.mark.parametrize("purge", [False, True], ids=["trashed", "deleted"])
def test_an_item_with_a_dead_target_can_be_edited_submitted_and_published(recipes: None, mcp: MCP, purge: bool) -> None:
    item, _flour, sugar = cake(mcp, purge=purge)
    got = mcp.ok("content_get", {"collection": "recipes", "id": item})["item"]["data"]
    assert [u["id"] for u in got["uses"]] == [sugar.id]
    mcp.ok("content_update", {"collection": "recipes", "id": item, "data": {"title": "Cake II"}})
    changeset = mcp.ok("changeset_create", {"title": "Cakes"})["changeset"]["id"]
    mcp.ok("changeset_add", {"id": changeset, "collection": "recipes", "item": item})
    seen = mcp.ok("changeset_get", {"id": changeset})
    assert seen["entries"][0]["problems"] == {}
    assert mcp.ok("changeset_submit", {"id": changeset})["changeset"]["state"] == "submitted"
    mcp.ok("content_publish", {"collection": "recipes", "id": item})
    assert mcp.ok("content_get", {"collection": "recipes", "id": item})["item"]["data"]["title"] == "Cake II"


@pytest.mark.parametrize("purge", [False, True], ids=["trashed", "deleted"])
def test_writing_the_field_again_drops_the_dead_id_and_a_new_missing_one_is_refused(
    recipes: None, mcp: MCP, purge: bool
) -> None:
    item, flour, sugar = cake(mcp, purge=purge)
    salt = made("Salt")
    # A client that writes back what it stored (ids it kept from before the delete) is not refused.
    data = {"uses": [flour.id, sugar.id, salt.id], "main": flour.id}
    mcp.ok("content_update", {"collection": "recipes", "id": item, "data": data})
    mcp.ok("content_publish", {"collection": "recipes", "id": item})
    assert [u["id"] for u in stored(item, "uses")] == [sugar.id, salt.id]
    assert stored(item, "main") is None
    for data, path in [({"uses": [sugar.id, flour.id]}, "data.uses[1]"), ({"main": flour.id}, "data.main")]:
        refused = mcp.fails("content_update", {"collection": "recipes", "id": item, "data": data})
        assert refused["_meta"]["code"] == "VALIDATION_ERROR" and path in refused["content"][0]["text"], data
    missing = {"title": "Pie", "uses": [flour.id], "main": flour.id}
    refused = mcp.fails("content_create", {"collection": "recipes", "data": missing})
    assert refused["_meta"]["code"] == "VALIDATION_ERROR"
    assert "data.uses[0]" in refused["content"][0]["text"] and "data.main" in refused["content"][0]["text"]
    assert [u["id"] for u in stored(item, "uses")] == [sugar.id, salt.id]


@pytest.mark.parametrize("purge", [False, True], ids=["trashed", "deleted"])
def test_restoring_a_revision_naming_a_dead_target_drops_it(recipes: None, mcp: MCP, purge: bool) -> None:
    item, _flour, sugar = cake(mcp, purge=purge)
    revisions = mcp.ok("revision_list", {"collection": "recipes", "id": item})["items"]
    mcp.ok("content_update", {"collection": "recipes", "id": item, "data": {"title": "Later", "uses": [sugar.id]}})
    restored = mcp.ok("revision_restore", {"revisionId": revisions[-1]["id"]})
    assert [u["id"] for u in restored["item"]["data"]["uses"]] == [sugar.id]
    copy = mcp.ok("content_duplicate", {"collection": "recipes", "id": item})["item"]
    assert [u["id"] for u in copy["data"]["uses"]] == [sugar.id] and copy["data"]["main"] is None


def test_a_restored_target_shows_again_where_the_id_is_still_stored(recipes: None, mcp: MCP) -> None:
    item, flour, sugar = cake(mcp, purge=False)
    services.entry_restore(actor=SYSTEM, collection="ingredients", id=flour.id)
    got = mcp.ok("content_get", {"collection": "recipes", "id": item})["item"]["data"]
    assert [u["id"] for u in got["uses"]] == [flour.id, sugar.id] and got["main"] == flour.id


def test_rest_edits_an_item_with_a_dead_target_and_refuses_a_new_missing_one(recipes: None, mcp: MCP) -> None:
    item, flour, sugar = cake(mcp, purge=True)
    editor = client_for("editor")
    url = f"/_emdash/api/content/recipes/{item}"
    rev = body(call(editor, "GET", url))["_rev"]
    response = call(editor, "PUT", url, {"data": {"title": "Cake III", "uses": [flour.id, sugar.id]}, "_rev": rev})
    assert response.status_code == 200, response.content
    assert [u["id"] for u in body(response)["item"]["data"]["uses"]] == [sugar.id]
    assert call(editor, "POST", f"{url}/publish").status_code == 200
    refused = call(editor, "POST", "/_emdash/api/content/recipes", {"data": {"title": "Pie", "uses": [flour.id]}})
    assert refused.status_code == 400 and body(refused)["error"]["code"] == "VALIDATION_ERROR"
    assert "data.uses[0]" in body(refused)["error"]["details"]["fields"]


def test_the_admin_edit_form_saves_an_item_with_a_dead_target(recipes: None, mcp: MCP) -> None:
    from django.test import Client

    from tests.factories import make_user

    item, flour, sugar = cake(mcp, purge=True)
    client = Client()
    client.force_login(make_user("editor"))
    page = client.get(f"/_emdash/admin/content/recipes/{item}/")
    form = {"f_title": "Cake IV", "f_uses": f"{flour.id} {sugar.id}", "f_main": flour.id, "_rev": page.context["rev"]}
    saved = client.post(f"/_emdash/admin/content/recipes/{item}/", form)
    assert saved.status_code == 302, saved.content.decode()[:2000]
    got = mcp.ok("content_get", {"collection": "recipes", "id": item})["item"]["data"]
    assert got["title"] == "Cake IV" and [u["id"] for u in got["uses"]] == [sugar.id]
    assert got["main"] == flour.id  # the form sends changed fields only: an unchanged value stays as stored
