"""Signed upload URLs are bound to the user who asked for them (issue 10 item 12): another user who learns the
storage key cannot register the file, whatever their role, through confirm or media_create; a PUT that
carries another user's identity is refused."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest
from django.test import Client
from django.utils import timezone

from accounts.tokens import token_create
from emdash.actor import Actor
from media import services
from media.models import MediaItem, UploadReservation
from tests.factories import make_user
from tests.media.helpers import image_bytes

pytestmark = pytest.mark.django_db
API = "/_emdash/api/media"


class Caller:
    def __init__(self, role: str) -> None:
        self.user = make_user(role)
        self.raw = token_create(user=self.user, name="t", scopes="admin").raw
        self.client = Client(headers={"Authorization": f"Bearer {self.raw}"})

    def post(self, path: str, payload: dict[str, Any]) -> Any:
        return self.client.post(path, payload, content_type="application/json")


def uploaded(owner: Caller) -> dict[str, Any]:
    """Ask for a URL as ``owner`` and PUT a PNG to it (no identity on the PUT, as clients do)."""
    response = owner.post(f"{API}/upload-url", {"filename": "p.png", "mimeType": "image/png"})
    ticket = orjson.loads(response.content)
    path = urlsplit(ticket["uploadUrl"]).path
    assert Client().generic("PUT", path, image_bytes(), content_type="image/png").status_code == 200
    return ticket


def confirm(caller: Caller, ticket: dict[str, Any]) -> Any:
    return caller.post(
        f"{API}/confirm", {"storageKey": ticket["storageKey"], "filename": "p.png", "mimeType": "image/png"}
    )


@pytest.mark.parametrize("other_role", ["author", "editor", "admin"])
def test_only_the_requester_may_confirm(other_role: str) -> None:
    owner, other = Caller("author"), Caller(other_role)
    ticket = uploaded(owner)
    response = confirm(other, ticket)
    assert response.status_code == 403
    error = orjson.loads(response.content)["error"]
    assert error["code"] == "INSUFFICIENT_PERMISSIONS"
    assert "only the user who requested this upload URL" in error["message"]
    assert not MediaItem.objects.filter(storage_key=ticket["storageKey"]).exists()
    # The requester still can, and the reservation is gone afterwards.
    assert confirm(owner, ticket).status_code == 201
    assert not UploadReservation.objects.filter(storage_key=ticket["storageKey"]).exists()


def test_media_create_over_mcp_cannot_claim_someone_elses_upload(make_mcp) -> None:
    owner, other = Caller("author"), Caller("editor")
    ticket = uploaded(owner)
    mcp = make_mcp(user=other.user)
    arguments = {"storageKey": ticket["storageKey"], "filename": "p.png", "mimeType": "image/png"}
    answer = mcp.rpc("tools/call", {"name": "media_create", "arguments": arguments}, version="2025-06-18")
    assert answer["error"]["data"]["code"] == "INSUFFICIENT_PERMISSIONS"  # permission errors are protocol errors
    assert "only the user who requested this upload URL" in answer["error"]["message"]
    assert not MediaItem.objects.filter(storage_key=ticket["storageKey"]).exists()


def test_the_system_actor_may_register_any_reserved_key(media_root: Path) -> None:
    owner = Caller("author")
    ticket = uploaded(owner)
    item = services.media_create(
        actor=Actor.system(), filename="p.png", mime_type="image/png", storage_key=ticket["storageKey"]
    )
    assert item.storage_key == ticket["storageKey"]


def test_a_put_carrying_another_identity_is_refused(media_root: Path) -> None:
    owner, other = Caller("author"), Caller("author")
    response = owner.post(f"{API}/upload-url", {"filename": "p.png", "mimeType": "image/png"})
    ticket = orjson.loads(response.content)
    path = urlsplit(ticket["uploadUrl"]).path
    headers = {"Authorization": f"Bearer {other.raw}"}
    refused = Client(headers=headers).generic("PUT", path, image_bytes(), content_type="image/png")
    assert refused.status_code == 403
    assert orjson.loads(refused.content)["error"]["code"] == "INSUFFICIENT_PERMISSIONS"
    assert not (media_root / ticket["storageKey"]).exists()
    bad = Client(headers={"Authorization": "Bearer ec_pat_bogus"}).generic("PUT", path, b"x", content_type="image/png")
    assert bad.status_code == 403
    own = Client(headers={"Authorization": f"Bearer {owner.raw}"})
    assert own.generic("PUT", path, image_bytes(), content_type="image/png").status_code == 200


def test_the_sweep_forgets_old_reservations() -> None:
    owner = Caller("author")
    ticket = uploaded(owner)
    UploadReservation.objects.filter(storage_key=ticket["storageKey"]).update(
        created_at=timezone.now() - timedelta(days=2)
    )
    fresh = uploaded(owner)
    services.media_sweep_orphans()
    assert not UploadReservation.objects.filter(storage_key=ticket["storageKey"]).exists()
    assert UploadReservation.objects.filter(storage_key=fresh["storageKey"]).exists()
