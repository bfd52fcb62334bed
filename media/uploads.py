"""Signed uploads: a short-lived signed URL to PUT bytes to, then a confirm that registers the file.

The URL is the credential (as with S3 presigned URLs): the PUT carries no cookie or token. It is signed
with ``django.core.signing``, names the storage key it may write, once, and expires. The key is reserved
for the user who asked for the URL (``UploadReservation``): only that user may register the file (confirm
or ``media_create``), and a PUT that does carry another user's identity is refused.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core import signing
from django.core.files.base import File

from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.edge import limits
from emdash.errors import Conflict, InsufficientPermissions, ValidationError
from emdash.ids import new_id
from emdash.permissions import Perm, require
from media import services, sniff
from media import storage as store
from media.errors import FileTooLarge, InvalidUploadUrl
from media.models import MediaItem, UploadReservation

SALT = "emdash.media.upload.v1"
SPOOL = 1024 * 1024


@dataclass(frozen=True)
class Ticket:
    token: str
    storage_key: str
    expires_at: datetime
    max_size: int


def _limit() -> int:
    return limits.max_upload()


def upload_ticket(*, actor: Actor, filename: Any, mime_type: Any, size: Any = None) -> Ticket:
    """Reserve a fresh storage key for a file of ``mime_type`` and sign the right to PUT it there."""
    require(actor, Perm.MEDIA_CREATE)
    problems: dict[str, str] = {}
    services.clean_filename(filename, problems)
    declared = services.clean_mime_type(mime_type, problems)
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
        problems["size"] = "must be a positive integer (bytes)"
    if problems:
        raise ValidationError.for_fields(problems)
    limit = _limit()
    if size is not None and size > limit:
        raise FileTooLarge(limit)
    key = store.new_key(new_id(), declared)
    expires = int(time.time()) + int(emdash_settings.MEDIA_UPLOAD_URL_TTL)
    UploadReservation.objects.create(storage_key=key, user=actor.user)
    token = signing.dumps({"k": key, "x": expires, "m": limit, "u": actor.user_id}, salt=SALT)
    return Ticket(token, key, datetime.fromtimestamp(expires, UTC), limit)


def _payload(token: str) -> dict[str, Any]:
    try:
        payload = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        raise InvalidUploadUrl("The upload URL is not valid; request a new one") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("k"), str) or not isinstance(payload.get("x"), int):
        raise InvalidUploadUrl("The upload URL is not valid; request a new one")
    if time.time() > payload["x"]:
        raise InvalidUploadUrl("The upload URL has expired; request a new one")
    return payload


def receive(*, token: str, stream: Any, length: Any, caller: Actor | None = None) -> dict[str, Any]:
    """Write the PUT body to the signed key. Refuses bad or expired URLs, oversize bodies, a second PUT,
    and a caller who identifies as someone other than the user the URL was issued to."""
    payload = _payload(token)
    if caller is not None and not caller.is_anonymous and caller.user_id != payload.get("u"):
        raise InsufficientPermissions("this upload URL was issued to another user")
    key = payload["k"]
    limit = min(int(payload.get("m") or 0), _limit())
    if store.key_problem(key) or not store.inside_root(key):
        raise InvalidUploadUrl("The upload URL is not valid; request a new one")
    try:
        expected = int(length)
    except (TypeError, ValueError):
        raise ValidationError("A Content-Length header is required") from None
    if expected > limit:
        raise FileTooLarge(limit)
    if expected <= 0:
        raise ValidationError.for_fields({"file": "is empty"}, prefix="Invalid file")
    if store.is_file(key) or MediaItem.objects.filter(storage_key=key).exists():
        raise Conflict("A file was already uploaded to this URL; request a new one")
    with tempfile.SpooledTemporaryFile(max_size=SPOOL) as buffer:
        received = 0
        while received < expected:
            chunk = stream.read(min(store.CHUNK, expected - received))
            if not chunk:
                break
            buffer.write(chunk)
            received += len(chunk)
        if received != expected:
            raise ValidationError("The body is shorter than its Content-Length")
        buffer.seek(0)
        saved = store.storage().save(key, File(buffer, name=key))
    if saved != key:  # someone raced us to the same key
        store.delete_quietly(saved)
        raise Conflict("A file was already uploaded to this URL; request a new one")
    return {"storageKey": key, "size": received}


def confirm(
    *, actor: Actor, storage_key: Any, filename: Any, mime_type: Any, alt: Any = None, caption: Any = None
) -> MediaItem:
    """Register a signed upload. The type must be the one the URL was issued for (the key's extension says
    which), and the bytes must match it."""
    require(actor, Perm.MEDIA_CREATE)
    if isinstance(storage_key, str) and isinstance(mime_type, str) and not store.key_problem(storage_key):
        try:
            declared = sniff.normalise_type(mime_type)
        except ValidationError:
            declared = None
        if declared and not storage_key.endswith(store.extension_for(declared)):
            raise ValidationError.for_fields({"mimeType": "must be the type given when the upload URL was issued"})
    return services.media_create(
        actor=actor, filename=filename, mime_type=mime_type, storage_key=storage_key, alt=alt, caption=caption
    )
