"""The WordPress import as a service every door can run (the MCP tool ``import_wordpress``, as a task)."""

from __future__ import annotations

import shutil
import tempfile
from typing import Any

from emdash import safe_fetch
from emdash.actor import Actor
from emdash.edge import limits
from emdash.errors import NotFound, ValidationError
from emdash.permissions import Perm, require
from media import storage
from media.models import MediaItem
from transfer.wordpress.importer import import_wordpress
from transfer.wordpress.wxr import WxrError


def _download(url: str, into: Any) -> None:
    try:
        fetched = safe_fetch.fetch(url, max_bytes=limits.max_upload(), timeout=60.0)
    except safe_fetch.FetchError as exc:
        raise ValidationError.for_fields({"url": exc.message}) from None
    into.write(fetched.content)


def _copy_media(media_id: str, into: Any) -> None:
    item = MediaItem.objects.filter(pk=media_id).first()
    if item is None:
        raise NotFound(f"Media item '{media_id}' not found")
    with storage.open_file(item.storage_key) as handle:
        shutil.copyfileobj(handle, into)


def wordpress_import(
    *, actor: Actor, media_id: str | None = None, url: str | None = None, create_users: bool | None = None
) -> dict[str, Any]:
    """Import the WXR file named by ``media_id`` (uploaded with the media tools) or ``url``; the report."""
    require(actor, Perm.SITE_IMPORT)
    if (media_id is None) == (url is None):
        missing = "give mediaId (an uploaded export) or url (one to fetch)"
        raise ValidationError.for_fields({"mediaId": "send either mediaId or url, not both" if media_id else missing})
    with tempfile.NamedTemporaryFile(suffix=".xml") as export:
        _download(url, export) if url is not None else _copy_media(str(media_id), export)
        export.flush()
        try:
            report = import_wordpress(export.name, actor=actor, create_users=bool(create_users))
        except WxrError as exc:
            raise ValidationError.for_fields({"mediaId" if media_id else "url": str(exc)}) from None
    return report.to_dict()
