"""Attachments → media items: read from a local copy of ``wp-content/uploads`` (``--media-dir``), or fetched
from their URLs under the SSRF rules of SPEC 6.4b (media.ingest). Same bytes twice give the same item, and two
imports of one file at once make each attachment's item once."""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.core.files.base import ContentFile
from django.db import transaction

from emdash.actor import Actor
from emdash.edge import limits
from emdash.errors import EmDashError
from media import ingest, services
from media import storage as store
from media.models import MediaItem
from transfer.wordpress import wxr
from transfer.wordpress.report import LinkedMeanwhile, Links, Report


def upload_path(url: str) -> str:
    """The file's path inside ``uploads/`` (or after the host for WordPress.com files), sizes suffix kept."""
    parts = urlsplit(url)
    path = unquote(parts.path)
    marker = path.find("/uploads/")
    return path[marker + len("/uploads/") :] if marker != -1 else path.lstrip("/")


def base_path(url: str) -> str:
    """``2008/06/x-300x200.jpg`` → ``2008/06/x.jpg``: WordPress's resized copies point back at the original."""
    path = upload_path(url)
    stem, dot, ext = path.rpartition(".")
    name, dash, size = stem.rpartition("-")
    width, x, height = size.partition("x")
    if dot and dash and x and width.isdigit() and height.isdigit():
        return f"{name}.{ext}"
    return path


def _local(media_dir: Path, url: str) -> bytes | None:
    relative = upload_path(url)
    if "\x00" in relative:  # a decoded %00: no file can have that name, and the OS calls refuse it with an error
        return None
    candidate = (media_dir / relative).resolve()
    if media_dir.resolve() not in candidate.parents or not candidate.is_file():
        return None  # outside the folder given (a crafted URL with ../), or absent
    return candidate.read_bytes()


def _content(item: wxr.Item, media_dir: Path | None, fetch: bool) -> tuple[bytes, str | None] | str:
    """The attachment's bytes and the type its server declared, or why there are none. Read before any
    transaction: a fetch may take seconds, and a write transaction on SQLite holds the database's write lock."""
    content = _local(media_dir, item.attachment_url) if media_dir else None
    if content is not None:
        return content, None
    if not fetch:
        return "not in --media-dir" if media_dir else "fetching is off and no --media-dir was given"
    try:
        return ingest.download(item.attachment_url, limits.max_upload())
    except EmDashError as exc:
        return str(exc)


def _store(item: wxr.Item, actor: Actor, content: bytes, declared: str | None) -> MediaItem:
    """The media item holding ``content``: one that already does, else a new one."""
    digest = hashlib.sha256(content).hexdigest()
    found = MediaItem.objects.filter(content_hash=digest).order_by("created_at", "id").first()
    if found is not None:
        return found
    name = Path(upload_path(item.attachment_url)).name or f"attachment-{item.post_id}"
    alt = wxr.value(item.meta, "_wp_attachment_image_alt")
    return services.media_upload(
        actor=actor, file=ContentFile(content, name=name), filename=name, content_type=declared, alt=alt,
        caption=item.excerpt,
    )  # fmt: skip


def _linked(item: wxr.Item, actor: Actor, links: Links, content: bytes, declared: str | None) -> tuple[str, bool]:
    """The media id of ``item`` and whether this import made it. The item and its link are written in one
    transaction: when another import of the same file linked the attachment first, this one's copy is rolled back
    (and its stored file removed) and the other's is used, as items are."""
    try:
        with transaction.atomic():
            stored = _store(item, actor, content, declared)
            if not links.add("media", item.post_id, stored.id):
                raise LinkedMeanwhile
    except LinkedMeanwhile:
        if not MediaItem.objects.filter(pk=stored.id).exists():  # made here and rolled back: its file goes too
            store.delete_quietly(stored.storage_key)
        linked = links.get("media", item.post_id)
        return (linked.target if linked is not None else stored.id), False
    return stored.id, True


def import_attachments(
    site: wxr.Site, actor: Actor, links: Links, report: Report, *, media_dir: Path | None, fetch: bool
) -> dict[str, str]:
    """Every attachment as media; the map from WordPress ids and upload paths to media ids."""
    found: dict[str, str] = {}
    for item in site.items:
        if item.post_type != "attachment" or not item.attachment_url:
            continue
        link = links.get("media", item.post_id)
        if link is not None:
            report.existing["media"] += 1
            media_id = link.target
        else:
            what = f"attachment {item.post_id} ({item.attachment_url})"
            fetched = _content(item, media_dir, fetch)
            if isinstance(fetched, str):
                report.skip(what, fetched)
                continue
            try:
                media_id, made = _linked(item, actor, links, *fetched)
            except EmDashError as exc:
                report.skip(what, str(exc))
                continue
            (report.created if made else report.existing)["media"] += 1
        found[f"id:{item.post_id}"] = media_id
        found[base_path(item.attachment_url)] = media_id
    return found
