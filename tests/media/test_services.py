"""SPEC 6.4 media: registering files (media_create), editing, deleting, listing and the role rules of section 3."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from django.db import transaction

from emdash.actor import Actor
from emdash.errors import (
    Conflict,
    InsufficientPermissions,
    InsufficientScope,
    InvalidCursor,
    NotFound,
    ValidationError,
)
from media import presenters, selectors, services
from media.models import MediaItem
from tests.factories import actor, make_user
from tests.media.helpers import PDF, image_bytes, make_media, place

pytestmark = pytest.mark.django_db


def fields_of(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, str]:
    return exc.value.details["fields"]


# --- media_create ------------------------------------------------------------------------------------------


def test_create_measures_the_image_and_exposes_a_url(media_root: Path) -> None:
    author = actor(role="author")
    content = image_bytes("PNG", (40, 20), (200, 16, 32))
    key = place(content, "uploads/red.png")
    row = services.media_create(
        actor=author, filename="red.png", mime_type="IMAGE/PNG", storage_key=key, width=999, alt="Red"
    )
    assert (row.mime_type, row.width, row.height, row.size) == ("image/png", 40, 20, len(content))
    assert row.dominant_color == "#c81020"
    assert row.content_hash == hashlib.sha256(content).hexdigest()
    assert row.author_id == author.user_id and row.alt == "Red"
    got = selectors.media_get(actor=Actor.anonymous(), id=row.id.lower())
    assert got.id == row.id
    body = presenters.item(got)
    assert body["url"] == "/media/uploads/red.png"
    assert body["mimeType"] == "image/png" and body["storageKey"] == key


def test_create_keeps_caller_facts_for_files_it_cannot_measure() -> None:
    row = make_media(
        actor(role="author"),
        content=b"\x00\x00\x00\x18ftypmp42",
        mime_type="video/mp4",
        width=1920,
        height=1080,
        content_hash=None,
        blurhash="LEHV6nWB2yk8pyo0adR*.7kCMdnj",
        dominant_color="#112233",
    )
    assert (row.width, row.height, row.content_hash, row.dominant_color) == (
        1920,
        1080,
        hashlib.sha256(b"\x00\x00\x00\x18ftypmp42").hexdigest(),
        "#112233",
    )
    assert row.blurhash == "LEHV6nWB2yk8pyo0adR*.7kCMdnj"


@pytest.mark.parametrize(
    "key",
    [
        "../outside.png",
        "a/../../outside.png",
        "a/../b.png",
        "/etc/passwd",
        "C:/windows/file.png",
        "a\\b.png",
        "a\x00b.png",
        "a//b.png",
        "./a.png",
        "",
    ],
)
def test_storage_keys_that_could_escape_the_root_are_rejected(key: str) -> None:
    with pytest.raises(ValidationError) as exc:
        services.media_create(actor=actor(role="author"), filename="x.png", mime_type="image/png", storage_key=key)
    assert "storageKey" in fields_of(exc)
    assert not MediaItem.objects.exists()


def test_a_symlink_out_of_the_root_is_rejected(media_root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.png"
    outside.write_bytes(image_bytes())
    os.symlink(outside, media_root / "link.png")
    with pytest.raises(ValidationError) as exc:
        services.media_create(actor=actor(), filename="x.png", mime_type="image/png", storage_key="link.png")
    assert fields_of(exc) == {"storageKey": "must stay inside the media root"}


def test_the_key_must_name_a_stored_file(media_root: Path) -> None:
    (media_root / "folder").mkdir()
    for key in ("missing.png", "folder"):
        with pytest.raises(ValidationError) as exc:
            services.media_create(actor=actor(), filename="x.png", mime_type="image/png", storage_key=key)
        assert "no file is stored" in fields_of(exc)["storageKey"]


def test_every_bad_argument_is_named_at_once() -> None:
    with pytest.raises(ValidationError) as exc:
        services.media_create(
            actor=actor(),
            filename="",
            mime_type="not a type",
            storage_key="../x",
            size=-1,
            width=0,
            dominant_color="red",
        )
    assert set(fields_of(exc)) == {"filename", "mimeType", "storageKey", "size", "width", "dominantColor"}


def test_mime_allowlist_defaults_and_is_configurable(settings) -> None:
    key = place(b"PK\x03\x04zip", ext=".zip")
    with pytest.raises(ValidationError) as exc:
        services.media_create(actor=actor(), filename="a.zip", mime_type="application/zip", storage_key=key)
    assert "not an allowed media type" in fields_of(exc)["mimeType"]
    settings.EMDASH = {**settings.EMDASH, "MEDIA_ALLOWED_TYPES": ["application/zip"]}
    row = services.media_create(actor=actor(), filename="a.zip", mime_type="application/zip", storage_key=key)
    assert row.mime_type == "application/zip"
    png = place(image_bytes())
    with pytest.raises(ValidationError):
        services.media_create(actor=actor(), filename="a.png", mime_type="image/png", storage_key=png)


def test_defaults_allow_pdf_audio_video_and_images_but_not_svg(settings) -> None:
    pdf = make_media(actor(), content=PDF, mime_type="application/pdf")
    assert pdf.mime_type == "application/pdf" and pdf.width is None
    audio = services.media_create(
        actor=actor(), filename="a.mp3", mime_type="audio/mpeg", storage_key=place(b"ID3\x03", ext=".mp3")
    )
    assert audio.mime_type == "audio/mpeg"
    svg_key = place(b'<svg xmlns="http://www.w3.org/2000/svg"/>', ext=".svg")
    with pytest.raises(ValidationError):
        services.media_create(actor=actor(), filename="a.svg", mime_type="image/svg+xml", storage_key=svg_key)
    settings.EMDASH = {**settings.EMDASH, "MEDIA_ALLOWED_TYPES": ["image/*", "image/svg+xml"]}
    row = services.media_create(actor=actor(), filename="a.svg", mime_type="image/svg+xml", storage_key=svg_key)
    assert row.mime_type == "image/svg+xml"


@pytest.mark.parametrize(
    ("content", "declared", "problem"),
    [
        (image_bytes("JPEG"), "image/png", "the content is image/jpeg, not image/png as declared"),
        (b"not an image at all", "image/png", "is not a valid image/png image"),
        (image_bytes("PNG"), "application/pdf", "the content is image/png, not application/pdf as declared"),
        (b"<html>hi</html>", "application/pdf", "is not a PDF document"),
        (image_bytes("PNG"), "video/mp4", "the content is image/png, not video/mp4 as declared"),
    ],
)
def test_the_bytes_must_match_the_declared_type(content: bytes, declared: str, problem: str) -> None:
    key = place(content)
    with pytest.raises(ValidationError) as exc:
        services.media_create(actor=actor(), filename="f", mime_type=declared, storage_key=key)
    assert fields_of(exc) == {"file": problem}


def test_jpeg_aliases_are_normalised() -> None:
    row = make_media(actor(), content=image_bytes("JPEG"), mime_type="image/jpg")
    assert row.mime_type == "image/jpeg"


def test_a_wrong_size_is_refused() -> None:
    key = place(b"abcd", ext=".mp3")
    with pytest.raises(ValidationError) as exc:
        services.media_create(actor=actor(), filename="a.mp3", mime_type="audio/mpeg", storage_key=key, size=5)
    assert fields_of(exc) == {"size": "the stored file has 4 bytes, not 5"}


def test_one_file_is_registered_once() -> None:
    row = make_media(actor())
    with pytest.raises(Conflict):
        services.media_create(actor=actor(), filename="again.png", mime_type="image/png", storage_key=row.storage_key)


@pytest.mark.parametrize("role", ["subscriber", "contributor"])
def test_registering_needs_the_author_role(role: str) -> None:
    key = place(image_bytes())
    with pytest.raises(InsufficientPermissions):
        services.media_create(actor=actor(role=role), filename="a.png", mime_type="image/png", storage_key=key)
    with pytest.raises(InsufficientPermissions):
        services.media_create(actor=Actor.anonymous(), filename="a.png", mime_type="image/png", storage_key=key)


def test_registering_needs_the_media_write_scope() -> None:
    user = make_user("admin")
    key = place(image_bytes())
    with pytest.raises(InsufficientScope) as exc:
        services.media_create(
            actor=Actor.for_user(user, ["media:read", "content:write"]),
            filename="a.png",
            mime_type="image/png",
            storage_key=key,
        )
    assert exc.value.required_scope == "media:write"
    row = services.media_create(
        actor=Actor.for_user(user, ["media:write"]), filename="a.png", mime_type="image/png", storage_key=key
    )
    assert row.author_id == user.pk


# --- media_update ------------------------------------------------------------------------------------------


def test_authors_edit_their_own_media_and_editors_any() -> None:
    alice, bob = actor(role="author"), actor(role="author")
    row = make_media(alice, alt="old", caption="cap")
    updated = services.media_update(actor=alice, id=row.id, alt="new", caption=None, width=10)
    assert (updated.alt, updated.caption, updated.width) == ("new", "", 10)
    assert updated.updated_at > row.updated_at
    with pytest.raises(InsufficientPermissions):
        services.media_update(actor=bob, id=row.id, alt="bob was here")
    services.media_update(actor=actor(role="editor"), id=row.id, alt="editor")
    assert MediaItem.objects.get(id=row.id).alt == "editor"


def test_media_with_no_owner_needs_an_editor() -> None:
    row = make_media(Actor.system())
    assert row.author_id is None
    with pytest.raises(InsufficientPermissions):
        services.media_update(actor=actor(role="author"), id=row.id, alt="x")


def test_update_validates_every_field() -> None:
    row = make_media(actor())
    with pytest.raises(ValidationError) as exc:
        services.media_update(actor=actor(), id=row.id, alt=5, width=0, height="7")
    assert set(fields_of(exc)) == {"alt", "width", "height"}
    with pytest.raises(NotFound):
        services.media_update(actor=actor(), id="01ARZ3NDEKTSV4RRFFQ69G5FAV", alt="x")


# --- media_delete ------------------------------------------------------------------------------------------


def test_delete_removes_the_row_now_and_the_file_after_commit(media_root: Path, django_capture_on_commit_callbacks):
    author = actor(role="author")
    row = make_media(author)
    path = media_root / row.storage_key
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.media_delete(actor=author, id=row.id)
        assert not MediaItem.objects.filter(id=row.id).exists()
        assert path.exists(), "the file waits for the commit"
    assert len(callbacks) == 2  # the file removal and the media.deleted signal (webhooks)
    for callback in callbacks:
        callback()
    assert not path.exists()


def test_a_rolled_back_delete_keeps_the_file(media_root: Path, django_capture_on_commit_callbacks) -> None:
    author = actor(role="author")
    row = make_media(author)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.media_delete(actor=author, id=row.id)
        raise RuntimeError("roll back")
    assert callbacks == []
    assert MediaItem.objects.filter(id=row.id).exists()
    assert (media_root / row.storage_key).exists()


def test_delete_follows_the_ownership_rules() -> None:
    alice = actor(role="author")
    row = make_media(alice)
    with pytest.raises(InsufficientPermissions):
        services.media_delete(actor=actor(role="author"), id=row.id)
    with pytest.raises(InsufficientPermissions):
        services.media_delete(actor=actor(role="contributor"), id=row.id)
    services.media_delete(actor=actor(role="editor"), id=row.id)
    with pytest.raises(NotFound):
        services.media_delete(actor=actor(role="editor"), id=row.id)


# --- media_list / media_get --------------------------------------------------------------------------------


def test_list_pages_newest_first_and_filters_by_type_prefix() -> None:
    by = actor()
    images = [make_media(by) for _ in range(5)]
    pdf = make_media(by, content=PDF, mime_type="application/pdf")
    everyone = Actor.anonymous()
    first = selectors.media_list(actor=everyone, limit=4)
    assert [i["id"] for i in first.items] == [pdf.id, *[r.id for r in reversed(images)][:3]]
    assert first.next_cursor
    second = selectors.media_list(actor=everyone, limit=4, cursor=first.next_cursor)
    assert [i["id"] for i in second.items] == [r.id for r in reversed(images)][3:]
    assert second.next_cursor is None
    only_images = selectors.media_list(actor=everyone, mime_type="image/", limit=100)
    assert {i["id"] for i in only_images.items} == {r.id for r in images}
    assert [i["id"] for i in selectors.media_list(actor=everyone, mime_type="application/pdf").items] == [pdf.id]


def test_list_rejects_bad_limits_and_cursors() -> None:
    make_media(actor())
    make_media(actor())
    for limit in (0, 101, True, "5"):
        with pytest.raises(ValidationError):
            selectors.media_list(actor=actor(), limit=limit)
    cursor = selectors.media_list(actor=actor(), limit=1).next_cursor
    assert cursor
    with pytest.raises(InvalidCursor):
        selectors.media_list(actor=actor(), limit=1, cursor=cursor[:-2] + "xx")
    with pytest.raises(InvalidCursor):
        selectors.media_list(actor=actor(), limit=1, mime_type="image/", cursor=cursor)
    with pytest.raises(InvalidCursor):
        selectors.media_list(actor=actor(), cursor="garbage")


def test_reading_needs_the_media_read_scope() -> None:
    user = make_user("admin")
    with pytest.raises(InsufficientScope):
        selectors.media_list(actor=Actor.for_user(user, ["content:read"]))
    with pytest.raises(NotFound):
        selectors.media_get(actor=Actor.for_user(user, ["media:read"]), id="../../etc/passwd")
