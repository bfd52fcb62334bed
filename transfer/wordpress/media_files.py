"""Attachments → media items: read from a local copy of ``wp-content/uploads`` (``--media-dir``), or fetched
from their URLs under the SSRF rules of SPEC 6.4b (media.ingest). Same bytes twice give the same item."""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.core.files.base import ContentFile

from emdash.actor import Actor
from emdash.errors import EmDashError
from media import ingest, services
from media.models import MediaItem
from transfer.wordpress import wxr
from transfer.wordpress.report import Links, Report


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
    candidate = (media_dir / upload_path(url)).resolve()
    if media_dir.resolve() not in candidate.parents or not candidate.is_file():
        return None  # outside the folder given (a crafted URL with ../), or absent
    return candidate.read_bytes()


def _store(item: wxr.Item, actor: Actor, media_dir: Path | None, fetch: bool) -> MediaItem | str:
    """The media item, or why there is none."""
    url, alt = item.attachment_url, wxr.value(item.meta, "_wp_attachment_image_alt")
    name = Path(upload_path(url)).name or f"attachment-{item.post_id}"
    content = _local(media_dir, url) if media_dir else None
    try:
        if content is not None:
            digest = hashlib.sha256(content).hexdigest()
            found = MediaItem.objects.filter(content_hash=digest).order_by("created_at", "id").first()
            return found or services.media_upload(
                actor=actor, file=ContentFile(content, name=name), filename=name, alt=alt, caption=item.excerpt
            )
        if not fetch:
            return "not in --media-dir" if media_dir else "fetching is off and no --media-dir was given"
        return ingest.media_upload(actor=actor, filename=name, url=url, alt=alt, caption=item.excerpt or None)
    except EmDashError as exc:
        return str(exc)


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
            stored = _store(item, actor, media_dir, fetch)
            if isinstance(stored, str):
                report.skip(f"attachment {item.post_id} ({item.attachment_url})", stored)
                continue
            links.add("media", item.post_id, stored.id)
            report.created["media"] += 1
            media_id = stored.id
        found[f"id:{item.post_id}"] = media_id
        found[base_path(item.attachment_url)] = media_id
    return found
