"""``media_upload`` (SPEC 6.4b): a file from base64 bytes or from a URL, for clients that cannot PUT files.

The bytes go through the same checks as a multipart upload (allowlist, sniffing, active-content refusal,
image measurement); the same bytes twice from the same user give back the item already stored (deduplicated by
the SHA-256 the server computed from stored bytes). De-duplication never crosses users: another user's item is not
the caller's to edit or delete, and sharing it would let whoever stored first decide what a later upload serves.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

from django.core.files.base import ContentFile

from emdash import safe_fetch
from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.edge import limits
from emdash.errors import ValidationError
from emdash.permissions import Perm, require
from media import services
from media.errors import FileTooLarge
from media.models import MediaItem


def media_upload(
    *,
    actor: Actor,
    filename: str,
    data: str | None = None,
    url: str | None = None,
    alt: str | None = None,
    caption: str | None = None,
) -> MediaItem:
    """Store the file and register it, or return the item that already holds these exact bytes."""
    require(actor, Perm.MEDIA_CREATE)
    if (data is None) == (url is None):
        missing = "give the file as data (base64) or url (one to fetch)"
        raise ValidationError.for_fields({"data": "send either data (base64) or url, not both" if data else missing})
    limit = limits.max_upload()
    content, declared_type = (_decode(data, limit), None) if data is not None else download(str(url), limit)
    name = filename
    if not content:
        raise ValidationError.for_fields({"data" if data is not None else "url": "the file is empty"})
    digest = hashlib.sha256(content).hexdigest()
    existing = _own_copy(actor, digest)
    if existing is not None:
        return existing
    upload = ContentFile(content, name=name)
    return services.media_upload(
        actor=actor, file=upload, filename=name, content_type=declared_type, alt=alt, caption=caption
    )


def _own_copy(actor: Actor, digest: str) -> MediaItem | None:
    """The caller's earliest item holding exactly these bytes (anonymous and system callers never share)."""
    if actor.user is None:
        return None
    mine = MediaItem.objects.filter(content_hash=digest, author=actor.user)
    return mine.order_by("created_at", "id").first()


def _decode(data: str, limit: int) -> bytes:
    # base64 grows by 4/3: refuse an oversized payload before decoding it.
    if len(data) > (limit + 2) // 3 * 4 + 4:
        raise FileTooLarge(limit)
    try:
        content = base64.b64decode("".join(data.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError.for_fields({"data": "must be base64 (RFC 4648, standard alphabet)"}) from None
    if len(content) > limit:
        raise FileTooLarge(limit)
    return content


def download(url: str, limit: int) -> tuple[bytes, str | None]:
    """The bytes at ``url`` (SSRF rules, at most ``limit``) and the type the server declared, if telling."""
    try:
        fetched = safe_fetch.fetch(url, max_bytes=limit, timeout=float(emdash_settings.FETCH_TIMEOUT))
    except safe_fetch.FetchError as exc:
        if exc.too_large:
            raise FileTooLarge(limit) from None
        raise ValidationError.for_fields({"url": exc.message}) from None
    declared = fetched.content_type
    # Servers often label files generically; the bytes (and the name) decide then.
    return fetched.content, (declared if declared and declared != "text/plain" else None)
