"""revision_restore of a revision naming a media item deleted since, through the official SDK client: the answer
(structuredContent checked by the client against the tool's outputSchema) lists the dropped media and says so."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from content.entries import services
from content.models import Revision
from emdash.roles import Role
from media import services as media_services
from tests.factories import SYSTEM, make_collection
from tests.mcp_e2e.conftest import new_user, token_for
from tests.mcp_e2e.test_sdk_client import MODES, Session, connect
from tests.media.helpers import media_rows

GONE = "01ARZ3NDEKTSV4RRFFQ69G5FC1"


async def _restore(url: str, token: str, mode: str, version: str, revision_id: str) -> dict[str, Any]:
    async with connect(url, token, mode) as client:
        s = Session(client, version)
        await client.list_tools()  # the client keeps the output schemas it validates results against
        return await s.ok("revision_restore", {"revisionId": revision_id})


@pytest.mark.parametrize(("mode", "version"), MODES)
def test_a_revision_with_deleted_media_is_restored_without_it_through_the_sdk(cms, mcp_url, mode, version):
    media_rows(GONE)
    image = {"slug": "cover", "label": "Cover", "type": "image"}
    make_collection("gallery", fields=[{"slug": "title", "label": "Title", "type": "string"}, image])
    entry = services.entry_create(actor=SYSTEM, collection="gallery", data={"title": "A", "cover": {"id": GONE}})
    services.entry_update(actor=SYSTEM, collection="gallery", id=entry.id, data={"title": "B", "cover": None})
    first = Revision.objects.filter(entry_id=entry.id).order_by("created_at", "id").values_list("id", flat=True)[0]
    media_services.media_delete(actor=SYSTEM, id=GONE, force=True)
    token = token_for(new_user(Role.EDITOR), ["content:read", "content:write"])
    restored = asyncio.run(_restore(mcp_url, token, mode, version, first))
    assert restored["item"]["data"] == {"title": "A", "cover": None}
    assert restored["droppedMedia"] == [{"field": "cover", "mediaId": GONE}] and GONE in restored["note"]
