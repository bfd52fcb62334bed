"""The media usage index (SPEC 10): image/file fields, inline Portable Text images, SEO images, drafts and the
settings' logo/favicon/Open Graph image count as uses; kept current on every write; media_get lists them,
media_list counts them, media_delete refuses a used item unless forced, media_usage_repair rebuilds the index."""

from __future__ import annotations

import pytest

from media.models import MediaUsage
from tests.factories import make_collection
from tests.media.helpers import media_rows

IMG, DOC, INLINE, LOGO = (
    "01ARZ3NDEKTSV4RRFFQ69G5FA1",
    "01ARZ3NDEKTSV4RRFFQ69G5FA2",
    "01ARZ3NDEKTSV4RRFFQ69G5FA3",
    "01ARZ3NDEKTSV4RRFFQ69G5FA4",
)


def inline_image(media_id: str) -> list[dict]:
    return [
        {"_type": "block", "_key": "a", "children": [{"_type": "span", "_key": "s", "text": "Hello"}]},
        {"_type": "image", "_key": "b", "asset": {"id": media_id}},
    ]


@pytest.fixture
def gallery(cms):
    media_rows(IMG, DOC, INLINE, LOGO)
    return make_collection(
        "gallery",
        fields=[
            {"slug": "title", "label": "Title", "type": "string"},
            {"slug": "cover", "label": "Cover", "type": "image"},
            {"slug": "attachment", "label": "Attachment", "type": "file"},
            {"slug": "body", "label": "Body", "type": "portableText"},
        ],
        supports=["drafts", "revisions"],
    )


def create(mcp, **data) -> str:
    return mcp.ok("content_create", {"collection": "gallery", "data": {"title": "Sunset", **data}})["item"]["id"]


def usage(mcp, media_id: str) -> list[dict]:
    return mcp.ok("media_get", {"id": media_id})["item"]["usage"]


def test_fields_inline_images_and_seo_are_uses(gallery, mcp) -> None:
    item = mcp.ok(
        "content_create",
        {
            "collection": "gallery",
            "data": {"title": "Sunset", "cover": {"id": IMG}, "attachment": {"id": DOC}, "body": inline_image(INLINE)},
            "seo": {"image": {"id": LOGO}},
        },
    )["item"]["id"]
    assert usage(mcp, IMG) == [{"collection": "gallery", "id": item, "title": "Sunset", "field": "cover"}]
    assert usage(mcp, DOC) == [{"collection": "gallery", "id": item, "title": "Sunset", "field": "attachment"}]
    assert usage(mcp, INLINE) == [{"collection": "gallery", "id": item, "title": "Sunset", "field": "body"}]
    assert usage(mcp, LOGO) == [{"collection": "gallery", "id": item, "title": "Sunset", "field": "seo.image"}]
    got = mcp.ok("media_get", {"id": IMG})["item"]
    assert got["usageCount"] == 1


def test_usage_follows_updates_drafts_publish_and_permanent_delete(gallery, mcp) -> None:
    item = create(mcp, cover={"id": IMG})
    mcp.ok("content_publish", {"collection": "gallery", "id": item})
    # a draft that swaps the cover: the live value and the pending one both use their images
    mcp.ok("content_update", {"collection": "gallery", "id": item, "data": {"cover": {"id": DOC}, "title": "Dusk"}})
    assert [u["field"] for u in usage(mcp, IMG)] == ["cover"]
    assert usage(mcp, DOC)[0]["title"] == "Dusk"
    mcp.ok("content_publish", {"collection": "gallery", "id": item})
    assert usage(mcp, IMG) == []
    assert [u["id"] for u in usage(mcp, DOC)] == [item]
    mcp.ok("content_delete", {"collection": "gallery", "id": item})
    assert [u["id"] for u in usage(mcp, DOC)] == [item]  # trashed items can come back: still a use
    mcp.ok("content_permanent_delete", {"collection": "gallery", "id": item})
    assert usage(mcp, DOC) == []


def test_settings_media_count_as_uses(gallery, mcp) -> None:
    mcp.ok("settings_update", {"logo": {"mediaId": LOGO}, "seo": {"defaultOgImage": {"mediaId": IMG}}})
    assert usage(mcp, LOGO) == [{"collection": "settings", "field": "logo"}]
    assert usage(mcp, IMG) == [{"collection": "settings", "field": "seo.defaultOgImage"}]
    mcp.ok("settings_update", {"logo": None})
    assert usage(mcp, LOGO) == []


def test_media_list_counts_uses(gallery, mcp) -> None:
    create(mcp, cover={"id": IMG}, body=inline_image(IMG))
    create(mcp, cover={"id": IMG})
    counts = {i["id"]: i["usageCount"] for i in mcp.ok("media_list", {})["items"]}
    assert counts[IMG] == 3  # cover and body of one item, cover of another
    assert counts[DOC] == 0


def test_deleting_a_used_item_is_refused_with_its_uses_unless_forced(gallery, mcp) -> None:
    item = create(mcp, cover={"id": IMG})
    result = mcp.fails("media_delete", {"id": IMG})
    assert result["_meta"]["code"] == "MEDIA_IN_USE"
    assert result["_meta"]["details"]["usage"] == [
        {"collection": "gallery", "id": item, "title": "Sunset", "field": "cover"}
    ]
    text = result["content"][0]["text"]
    assert f"gallery/{item}" in text and "force: true" in text
    assert mcp.ok("media_get", {"id": IMG})  # still there
    mcp.ok("media_delete", {"id": IMG, "force": True})
    assert not MediaUsage.objects.filter(media_id=IMG).exists()
    assert mcp.fails("media_get", {"id": IMG})["_meta"]["code"] == "NOT_FOUND"


def test_an_unused_item_deletes_without_force(gallery, mcp) -> None:
    mcp.ok("media_delete", {"id": DOC})


def test_rest_delete_of_a_used_item_is_409(gallery, mcp) -> None:
    create(mcp, cover={"id": IMG})
    response = mcp.client.delete(f"/_emdash/api/media/{IMG}", headers={"Authorization": f"Bearer {mcp.token}"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "MEDIA_IN_USE"


def test_rest_delete_with_force_deletes_a_used_item(gallery, mcp) -> None:
    """REST offers media_delete's force (as ?force=true, like DELETE of a collection or a menu)."""
    create(mcp, cover={"id": IMG})
    auth = {"Authorization": f"Bearer {mcp.token}"}
    response = mcp.client.delete(f"/_emdash/api/media/{IMG}?force=true", headers=auth)
    assert response.status_code == 200, response.content
    assert mcp.fails("media_get", {"id": IMG})["_meta"]["code"] == "NOT_FOUND"


def test_repair_rebuilds_a_damaged_index_and_reports_it(gallery, mcp) -> None:
    item = create(mcp, cover={"id": IMG}, attachment={"id": DOC})
    mcp.ok("settings_update", {"favicon": {"mediaId": LOGO}})
    MediaUsage.objects.filter(media_id=IMG).delete()
    MediaUsage.objects.create(media_id=INLINE, collection="gallery", entry_id=item, field="body", title="x")
    MediaUsage.objects.filter(media_id=DOC).update(title="Old")
    report = mcp.ok("media_usage_repair", {})
    assert report["added"] == [{"mediaId": IMG, "collection": "gallery", "id": item, "field": "cover"}]
    assert report["removed"] == [{"mediaId": INLINE, "collection": "gallery", "id": item, "field": "body"}]
    assert report["retitled"] == 1
    assert report["usages"] == 3 and report["scanned"] == 1
    assert mcp.ok("media_usage_repair", {})["addedCount"] == 0  # nothing left to fix


def test_repair_of_one_item_touches_only_its_rows(gallery, mcp) -> None:
    create(mcp, cover={"id": IMG}, attachment={"id": DOC})
    MediaUsage.objects.all().delete()
    report = mcp.ok("media_usage_repair", {"mediaId": IMG})
    assert [a["mediaId"] for a in report["added"]] == [IMG]
    assert not MediaUsage.objects.filter(media_id=DOC).exists()


def test_repair_is_admin_only(gallery, make_mcp) -> None:
    editor = make_mcp("editor", "media:read media:write content:write")
    result = editor.error("tools/call", {"name": "media_usage_repair", "arguments": {}}, status=403)
    assert result["data"]["code"] == "INSUFFICIENT_SCOPE"
    admin_narrow = make_mcp("editor", "admin")
    assert admin_narrow.error("tools/call", {"name": "media_usage_repair", "arguments": {}})["data"]["code"] == (
        "INSUFFICIENT_PERMISSIONS"
    )


def test_a_removed_field_takes_its_uses_along(gallery, mcp) -> None:
    create(mcp, cover={"id": IMG}, attachment={"id": DOC})
    mcp.ok("schema_delete_field", {"collection": "gallery", "fieldSlug": "attachment"})
    assert usage(mcp, DOC) == []
    assert len(usage(mcp, IMG)) == 1


def test_the_admin_library_shows_where_an_item_is_used(gallery, mcp) -> None:
    from django.test import Client

    item = create(mcp, cover={"id": IMG})
    client = Client()
    client.force_login(mcp.user)
    page = client.get("/_emdash/admin/media/").content.decode()
    assert "Used in 1 place" in page
    assert f"/_emdash/admin/content/gallery/{item}/" in page and "Sunset" in page
    # deleting from the library after its "delete anyway?" question sends force
    assert 'name="force" value="1"' in page
    refused = client.post(f"/_emdash/admin/media/{IMG}/delete/", follow=True).content.decode()
    assert "is used in 1 place" in refused
    assert mcp.ok("media_get", {"id": IMG})


def test_a_create_alone_is_indexed_from_the_row_it_wrote(gallery, django_capture_on_commit_callbacks) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from content.entries import services
    from tests.factories import SYSTEM

    with CaptureQueriesContext(connection) as seen, django_capture_on_commit_callbacks(execute=True):
        plain = services.entry_create(actor=SYSTEM, collection="gallery", data={"title": "Plain"}).id
    after_insert = [q["sql"] for q in seen.captured_queries if "ec_gallery" in q["sql"]]
    assert len(after_insert) == 1 and after_insert[0].startswith("INSERT")  # nothing read back after the commit
    assert not MediaUsage.objects.filter(entry_id=plain).exists()
    with django_capture_on_commit_callbacks(execute=True):
        item = services.entry_create(actor=SYSTEM, collection="gallery", data={"title": "Lit", "cover": {"id": IMG}})
    assert set(MediaUsage.objects.filter(entry_id=item.id).values_list("media_id", "field")) == {(IMG, "cover")}


def test_a_create_changed_again_in_its_transaction_is_indexed_as_committed(gallery, django_capture_on_commit_callbacks):
    from django.db import transaction

    from content.entries import services
    from tests.factories import SYSTEM

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        item = services.entry_create(actor=SYSTEM, collection="gallery", data={"title": "Later", "cover": {"id": IMG}})
        services.entry_update(
            actor=SYSTEM, collection="gallery", id=item.id, data={"cover": {"id": DOC}, "body": inline_image(INLINE)}
        )
    held = set(MediaUsage.objects.filter(entry_id=item.id).values_list("media_id", "field"))
    assert held == {(DOC, "cover"), (INLINE, "body")}  # the update's uses, not the create's row
