"""Issue 21.1: media de-duplication cannot be poisoned. The server hashes stored bytes itself (a caller's
``contentHash`` is only checked), and ``media_upload`` never answers with another user's item."""

from __future__ import annotations

import base64
import hashlib

import pytest
from django.test import Client

from emdash.roles import Role
from media.models import MediaItem
from tests.mcp.conftest import MakeMCP
from tests.media.helpers import image_bytes, place

pytestmark = pytest.mark.django_db

LOGO = image_bytes("PNG", size=(32, 32), colour=(10, 90, 200))
RED = image_bytes("PNG", size=(32, 32), colour=(255, 0, 0))


def b64(content: bytes) -> str:
    return base64.b64encode(content).decode()


def test_a_forged_content_hash_is_refused_and_cannot_capture_a_later_upload(make_mcp: MakeMCP) -> None:
    author, admin = make_mcp(Role.AUTHOR), make_mcp(Role.ADMIN)
    forged = hashlib.sha256(LOGO).hexdigest()
    key = place(RED, "incoming/red.png")
    refused = author.fails(
        "media_create", {"filename": "logo.png", "mimeType": "image/png", "storageKey": key, "contentHash": forged}
    )
    assert refused["_meta"]["code"] == "VALIDATION_ERROR"
    assert "does not match the stored file" in refused["_meta"]["details"]["fields"]["contentHash"]
    assert not MediaItem.objects.exists()
    # Without the forged hash the red file registers under its own hash, so the logo still lands on the admin.
    red = author.ok("media_create", {"filename": "logo.png", "mimeType": "image/png", "storageKey": key})["item"]
    assert red["contentHash"] == hashlib.sha256(RED).hexdigest()
    logo = admin.ok("media_upload", {"filename": "logo.png", "data": b64(LOGO)})["item"]
    assert logo["id"] != red["id"] and MediaItem.objects.get(id=logo["id"]).author_id == admin.user.id
    assert b"".join(Client().get(logo["url"]).streaming_content) == LOGO


def test_a_matching_content_hash_is_accepted_in_either_spelling(make_mcp: MakeMCP) -> None:
    author = make_mcp(Role.AUTHOR)
    digest = hashlib.sha256(RED).hexdigest()
    for spelling in (digest, f"sha256:{digest.upper()}"):
        key = place(RED)
        item = author.ok(
            "media_create", {"filename": "r.png", "mimeType": "image/png", "storageKey": key, "contentHash": spelling}
        )["item"]
        assert item["contentHash"] == digest


def test_the_same_bytes_from_another_user_make_their_own_item(make_mcp: MakeMCP) -> None:
    author, admin = make_mcp(Role.AUTHOR), make_mcp(Role.ADMIN)
    theirs = author.ok("media_upload", {"filename": "logo.png", "data": b64(LOGO)})["item"]
    mine = admin.ok("media_upload", {"filename": "logo.png", "data": b64(LOGO)})["item"]
    again = admin.ok("media_upload", {"filename": "copy.png", "data": b64(LOGO)})["item"]
    assert mine["id"] != theirs["id"] and again["id"] == mine["id"]
    assert MediaItem.objects.get(id=mine["id"]).author_id == admin.user.id
    # The author deleting their copy leaves the admin's in place.
    author.ok("media_delete", {"id": theirs["id"]})
    assert b"".join(Client().get(mine["url"]).streaming_content) == LOGO
