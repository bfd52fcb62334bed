"""Renditions made once and kept: the claim that makes one process render while the others wait, the render
itself, and their removal with the original.

The lock is the ``MediaRendition`` row (a conditional insert, then a conditional UPDATE to take over a claim
whose renderer died): it works across threads, processes and machines, on SQLite and PostgreSQL, whatever the
media storage is. The bytes go to the media storage under the rendition's content-addressed key.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils import timezone

from media import images, renditions, usage
from media import storage as store
from media.images import UnsupportedImage
from media.models import MediaItem, MediaRendition

ANIMATED = "Animated images have no renditions (they would lose the animation); use the file's url"

log = logging.getLogger("emdash.media")

# Seconds a claim holds before another request may take the render over (a renderer that died).
LEASE = 60.0
POLL = 0.05


@dataclass(frozen=True)
class Rendered:
    key: str
    mime_type: str
    size: int


def fmt_for(item: MediaItem, spec: renditions.Spec, accept: str) -> str:
    """The concrete format of ``spec`` for this client (``auto`` negotiated; needs to know about transparency)."""
    if spec.fmt != "auto":
        return spec.fmt
    return renditions.negotiate("auto", accept, transparent=_transparent(item))


def _transparent(item: MediaItem) -> bool:
    if item.mime_type in ("image/jpeg", "image/bmp"):
        return False
    if item.has_alpha is None:  # uploaded before placeholders were computed: look once, remember
        with store.open_file(item.storage_key) as handle, images.open_checked(handle) as image:
            try:
                alpha = images.has_alpha(images.prepare(image))
            except Exception:  # truncated or corrupt: refused as render_bytes refuses it, not a 500
                raise UnsupportedImage("The image could not be decoded") from None
        MediaItem.objects.filter(id=item.id).update(has_alpha=alpha)
        item.has_alpha = alpha
    return bool(item.has_alpha)


def get_or_render(item: MediaItem, spec: renditions.Spec, fmt: str) -> Rendered:
    """The stored rendition, rendering it first if nobody has (once, however many requests ask at once)."""
    if not renditions.renditionable(item.mime_type):
        raise UnsupportedImage(f"{item.mime_type} files have no renditions; use the file's url")
    if item.animated:
        raise UnsupportedImage(ANIMATED)
    key = renditions.key(item.id, item.content_hash or item.storage_key, spec, fmt, (item.focal_x, item.focal_y))
    deadline = time.monotonic() + LEASE * 2
    while True:
        row = MediaRendition.objects.filter(key=key).first()
        if row is not None and row.state == MediaRendition.READY:
            return Rendered(key, row.mime_type, int(row.size or 0))
        if _claim(item, spec, key, row):
            return _render(item, spec, fmt, key)
        if time.monotonic() > deadline:
            raise TimeoutError(f"rendition {key} was not ready in time")
        time.sleep(POLL)


def _claim(item: MediaItem, spec: renditions.Spec, key: str, row: MediaRendition | None) -> bool:
    """True when this caller now owns the render of ``key``."""
    now = timezone.now()
    if row is None:
        try:
            with transaction.atomic():
                MediaRendition.objects.create(key=key, media=item, fit=spec.fit, claimed_at=now)
            return True
        except IntegrityError:
            return False  # someone else claimed it first (or the original is gone: the next look says so)
    if row.claimed_at > now - timedelta(seconds=LEASE):
        return False
    taken = MediaRendition.objects.filter(key=key, state=row.state, claimed_at=row.claimed_at)
    return taken.update(state=MediaRendition.RENDERING, claimed_at=now) == 1


def redo(rendered: Rendered) -> None:
    """A ready rendition whose file is missing (a storage switched without its renditions): render it again."""
    MediaRendition.objects.filter(key=rendered.key, state=MediaRendition.READY).update(
        state=MediaRendition.RENDERING, claimed_at=timezone.now() - timedelta(seconds=LEASE * 2)
    )


def _render(item: MediaItem, spec: renditions.Spec, fmt: str, key: str) -> Rendered:
    try:
        data, size = render_bytes(item, spec, fmt)
        if store.is_file(key):  # content-addressed: a file already there holds these bytes
            store.storage().delete(key)
        saved = store.storage().save(key, ContentFile(data))
        if saved != key:
            store.delete_quietly(saved)
            raise RuntimeError(f"storage saved the rendition as {saved}, not {key}")
    except BaseException:
        MediaRendition.objects.filter(key=key).delete()  # let the next request try again
        raise
    MediaRendition.objects.filter(key=key).update(
        state=MediaRendition.READY, mime_type=images.MIME[fmt], size=len(data), width=size[0], height=size[1]
    )
    return Rendered(key, images.MIME[fmt], len(data))


def render_bytes(item: MediaItem, spec: renditions.Spec, fmt: str) -> tuple[bytes, tuple[int, int]]:
    """Decode the original (bomb-checked), orient, convert to sRGB, resize and encode without metadata."""
    box = renditions.box(spec, item.focal_x, item.focal_y)
    with store.open_file(item.storage_key) as handle, images.open_checked(handle) as image:
        if images.is_animated(image):
            # Uploaded before animation was noted: remember, so its results stop offering renditions.
            if MediaItem.objects.filter(id=item.id, animated=False).update(animated=True, updated_at=timezone.now()):
                usage.bump_users(item.id)
            raise UnsupportedImage(ANIMATED)
        try:
            prepared = images.decode_scaled(image, box)
        except UnsupportedImage:
            raise
        except Exception:
            raise UnsupportedImage("The image could not be decoded") from None
    out = images.resize(prepared, box, item.dominant_color)
    return images.encode(out, fmt, renditions.quality(fmt)), out.size


def forget(media_id: str, fit: str | None = None) -> None:
    """Drop an original's renditions (all, or those of one fit): rows now, files after the commit."""
    rows = MediaRendition.objects.filter(media_id=media_id)
    if fit is not None:
        rows = rows.filter(fit=fit)
    keys = list(rows.values_list("key", flat=True))
    if not keys:
        return
    MediaRendition.objects.filter(key__in=keys).delete()
    transaction.on_commit(lambda: _delete(keys))


def _delete(keys: list[str]) -> None:
    for key in keys:
        store.delete_quietly(key)


def known(keys: list[str]) -> set[str]:
    """Which of ``keys`` are renditions (for the orphan sweep)."""
    wanted = [key for key in keys if key.startswith(f"{renditions.PREFIX}/")]
    return set(MediaRendition.objects.filter(key__in=wanted).values_list("key", flat=True)) if wanted else set()
