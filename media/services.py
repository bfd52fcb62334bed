"""Media writes: registering files, uploads, edits, deletes and the orphan sweep. Each checks the actor first."""

from __future__ import annotations

import hashlib
import logging
import mimetypes
import re
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from emdash.actor import Actor
from emdash.conf import emdash_settings
from emdash.edge import limits
from emdash.errors import Conflict, InsufficientPermissions, ValidationError
from emdash.ids import new_id
from emdash.permissions import Perm, can, require, require_owner_or
from media import presenters, rendition_store, sniff, usage
from media import storage as store
from media.errors import FileTooLarge, MediaInUse
from media.models import MediaItem, UploadReservation
from media.selectors import find
from media.signals import send_media_changed

log = logging.getLogger("emdash.media")

UNSET: Any = object()
TEXT_LIMITS = {"alt": 1000, "caption": 5000}
DIMENSION_MAX = 1_000_000
_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
_HASH_RE = re.compile(r"^[A-Za-z0-9:+/=_-]{1,128}$")
_BLURHASH_RE = re.compile(r"^[0-9A-Za-z#$%*+,\-.:;=?@\[\]^_{|}~]{6,128}$")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class StoredFile:
    """A file in storage, checked: its real type, size, hash and image facts."""

    key: str
    size: int
    content_hash: str
    facts: sniff.Inspection


@dataclass(frozen=True)
class Extras:
    """What the caller may say about a file that the file cannot: text, and hints for non-images."""

    width: int | None = None
    height: int | None = None
    alt: str = ""
    caption: str = ""
    blurhash: str = ""
    dominant_color: str = ""


def clean_filename(value: Any, problems: dict[str, str]) -> str:
    if not isinstance(value, str) or not value.strip():
        problems["filename"] = "must be a non-empty string"
        return ""
    name = value.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name or len(name) > 255 or _CONTROL_RE.search(name):
        problems["filename"] = "must be a file name of 1-255 characters without control characters"
    return name


def _text(name: str, value: Any, problems: dict[str, str]) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > TEXT_LIMITS[name]:
        problems[name] = f"must be a string of at most {TEXT_LIMITS[name]} characters"
        return ""
    return value


def _dimension(name: str, value: Any, problems: dict[str, str]) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= DIMENSION_MAX:
        problems[name] = f"must be an integer from 1 to {DIMENSION_MAX}"
        return None
    return value


def _pattern(name: str, value: Any, pattern: re.Pattern[str], hint: str, problems: dict[str, str]) -> str:
    if value is None or value == "":
        return ""
    if not isinstance(value, str) or not pattern.match(value):
        problems[name] = hint
        return ""
    return value


def clean_mime_type(value: Any, problems: dict[str, str]) -> str:
    try:
        mime_type = sniff.normalise_type(value)
        sniff.check_allowed(mime_type)
    except ValidationError as exc:
        problems.update((exc.details or {}).get("fields", {}))
        return ""
    return mime_type


def media_create(
    *,
    actor: Actor,
    filename: Any,
    mime_type: Any,
    storage_key: Any,
    size: Any = None,
    width: Any = None,
    height: Any = None,
    content_hash: Any = None,
    blurhash: Any = None,
    dominant_color: Any = None,
    alt: Any = None,
    caption: Any = None,
) -> MediaItem:
    """Register a file already in storage at ``storage_key``. Size, type and (for images) dimensions and
    colour come from the file itself; a declared type the bytes contradict is refused."""
    require(actor, Perm.MEDIA_CREATE)
    problems: dict[str, str] = {}
    name = clean_filename(filename, problems)
    declared = clean_mime_type(mime_type, problems)
    key_problem = _url_problem(storage_key) or store.key_problem(storage_key)
    if key_problem:
        problems["storageKey"] = key_problem
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
        problems["size"] = "must be a non-negative integer"
    content_hash = _pattern("contentHash", content_hash, _HASH_RE, "must be a hash string", problems)
    extras = Extras(
        width=_dimension("width", width, problems),
        height=_dimension("height", height, problems),
        alt=_text("alt", alt, problems),
        caption=_text("caption", caption, problems),
        blurhash=_pattern("blurhash", blurhash, _BLURHASH_RE, "must be a BlurHash string", problems),
        dominant_color=_pattern("dominantColor", dominant_color, _COLOUR_RE, "must look like #a1b2c3", problems),
    )
    if problems:
        raise ValidationError.for_fields(problems)
    key = store.check_key(storage_key)
    _check_reservation(actor, key)
    if not store.is_file(key):
        raise ValidationError.for_fields({"storageKey": f"no file is stored at '{key}'"})
    if MediaItem.objects.filter(storage_key=key).exists():
        raise Conflict(f"The file at '{key}' is already registered as a media item")
    actual_size = store.storage().size(key)
    if size is not None and size != actual_size:
        raise ValidationError.for_fields({"size": f"the stored file has {actual_size} bytes, not {size}"})
    with store.open_file(key) as handle:
        facts = sniff.inspect(handle, declared)
    # The server hashes the stored bytes itself: a caller's hash is only checked, never stored, since
    # media_upload de-duplicates by it (a forged hash would hand someone else's upload their file).
    digest = store.sha256_of(key)
    if content_hash and content_hash.lower().removeprefix("sha256:") != digest:
        raise ValidationError.for_fields({"contentHash": f"does not match the stored file (its SHA-256 is {digest})"})
    stored = StoredFile(key, actual_size, digest, facts)
    row = _register(actor, new_id(), name, stored, extras)
    UploadReservation.objects.filter(storage_key=key).delete()
    return row


_URL_RE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*://|//|data:)", re.IGNORECASE)


def _url_problem(storage_key: Any) -> str | None:
    """A URL is the commonest mistake here (an assistant holding an image link): say what to use instead."""
    if isinstance(storage_key, str) and _URL_RE.match(storage_key):
        return (
            "is a URL, but storageKey is a path relative to the media root of a file already stored; "
            "to add a file from a URL (or from base64 data) use media_upload"
        )
    return None


def _check_reservation(actor: Actor, key: str) -> None:
    """A key handed out with a signed upload URL is registered only by the user who asked for it."""
    reservation = UploadReservation.objects.filter(storage_key=key).first()
    if reservation is not None and not actor.is_system and reservation.user_id != actor.user_id:
        raise InsufficientPermissions("only the user who requested this upload URL may register its file")


def _register(actor: Actor, item_id: str, filename: str, stored: StoredFile, extras: Extras) -> MediaItem:
    """Insert the row; measured image facts win over the caller's."""
    facts = stored.facts
    now = timezone.now()
    row = MediaItem(
        id=item_id,
        filename=filename,
        mime_type=facts.mime_type,
        size=stored.size,
        width=facts.width or extras.width,
        height=facts.height or extras.height,
        alt=extras.alt,
        caption=extras.caption,
        storage_key=stored.key,
        content_hash=stored.content_hash,
        blurhash=facts.placeholders.blurhash or extras.blurhash,
        dominant_color=facts.dominant_color or extras.dominant_color,
        has_alpha=facts.placeholders.has_alpha,
        animated=facts.animated,
        author=actor.user,
        created_at=now,
        updated_at=now,
    )
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:
        raise Conflict(f"The file at '{stored.key}' is already registered as a media item") from None
    send_media_changed(presenters.item(row), "created", actor)
    return row


def declared_upload_type(content_type: Any, filename: str) -> str | None:
    """The type a client declared for an upload: its Content-Type, else a guess from the name, else None."""
    text = content_type.split(";")[0].strip().lower() if isinstance(content_type, str) else ""
    if text in ("", "application/octet-stream", "binary/octet-stream"):
        text = (mimetypes.guess_type(filename, strict=False)[0] or "").lower()
    return sniff.normalise_type(text) if text else None


def media_upload(
    *, actor: Actor, file: Any, filename: Any, content_type: Any = None, alt: Any = None, caption: Any = None
) -> MediaItem:
    """Store an uploaded file (multipart) under a fresh key and register it. The bytes decide the type."""
    require(actor, Perm.MEDIA_CREATE)
    problems: dict[str, str] = {}
    name = clean_filename(filename, problems)
    extras = Extras(alt=_text("alt", alt, problems), caption=_text("caption", caption, problems))
    if problems:
        raise ValidationError.for_fields(problems)
    limit = limits.max_upload()
    if file.size > limit:
        raise FileTooLarge(limit)
    if file.size == 0:
        raise ValidationError.for_fields({"file": "is empty"}, prefix="Invalid file")
    declared = declared_upload_type(content_type, name)
    file.seek(0)
    if declared in sniff.XML_TYPES and can(actor, Perm.SITE_IMPORT):
        # An admin's WordPress export, kept for import_wordpress's mediaId; served only as an attachment.
        facts = sniff.inspect_xml(file)
    else:
        if declared is not None:
            sniff.check_allowed(declared)
        facts = sniff.inspect(file, declared)
        sniff.check_allowed(facts.mime_type)
    digest = hashlib.sha256()
    file.seek(0)
    for chunk in file.chunks():
        digest.update(chunk)
    item_id = new_id()
    file.seek(0)
    key = store.storage().save(store.new_key(item_id, facts.mime_type), file)
    try:
        return _register(actor, item_id, name, StoredFile(key, file.size, digest.hexdigest(), facts), extras)
    except BaseException:
        store.delete_quietly(key)
        raise


def media_update(
    *,
    actor: Actor,
    id: Any,
    alt: Any = UNSET,
    caption: Any = UNSET,
    width: Any = UNSET,
    height: Any = UNSET,
    focal_point: Any = UNSET,
) -> MediaItem:
    """Change alt text, caption, dimensions (null clears) or the focal point (null: the centre). Authors
    change their own items; editors any. A new focal point drops the ``cover`` renditions cut around the old."""
    require(actor, Perm.MEDIA_EDIT_OWN)
    problems: dict[str, str] = {}
    changes: dict[str, Any] = {}
    for name, value in (("alt", alt), ("caption", caption)):
        if value is not UNSET:
            changes[name] = _text(name, value, problems)
    for name, value in (("width", width), ("height", height)):
        if value is not UNSET:
            changes[name] = _dimension(name, value, problems)
    if focal_point is not UNSET:
        changes["focal_x"], changes["focal_y"] = clean_focal_point(focal_point, problems)
    if problems:
        raise ValidationError.for_fields(problems)
    with transaction.atomic():
        row = find(id)
        require_owner_or(actor, row.author_id, Perm.MEDIA_EDIT_OWN, Perm.MEDIA_EDIT_ANY)
        if changes:
            moved = "focal_x" in changes and (changes["focal_x"], changes["focal_y"]) != (row.focal_x, row.focal_y)
            changes["updated_at"] = timezone.now()
            MediaItem.objects.filter(id=row.id).update(**changes)
            if moved:
                rendition_store.forget(row.id, fit="cover")
            usage.bump_users(row.id)
            row.refresh_from_db()
    return row


def clean_focal_point(value: Any, problems: dict[str, str]) -> tuple[float, float]:
    """``{x, y}`` with both in 0..1 (None: the centre)."""
    if value is None:
        return 0.5, 0.5
    point = value if isinstance(value, dict) else getattr(value, "__dict__", {})
    x, y = point.get("x"), point.get("y")
    if set(point) != {"x", "y"} or not all(_fraction(v) for v in (x, y)):
        problems["focalPoint"] = "must be {x, y} with numbers from 0 to 1"
        return 0.5, 0.5
    return float(point["x"]), float(point["y"])


def _fraction(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def media_delete(*, actor: Actor, id: Any, force: Any = False) -> None:
    """Delete the row now and the stored file once the transaction commits (never a file whose row survives).
    An item content or settings still use is refused (MEDIA_IN_USE, listing the uses) unless ``force``."""
    require(actor, Perm.MEDIA_EDIT_OWN)
    with transaction.atomic():
        row = find(id)
        require_owner_or(actor, row.author_id, Perm.MEDIA_EDIT_OWN, Perm.MEDIA_EDIT_ANY)
        uses = usage.usage_of(row.id)
        if uses and force is not True:
            raise MediaInUse(row.id, uses)
        usage.bump_users(row.id)
        usage.forget_media(row.id)
        key = row.storage_key
        rendition_store.forget(row.id)
        MediaItem.objects.filter(id=row.id).delete()
        transaction.on_commit(lambda: store.delete_quietly(key))
        send_media_changed({"id": row.id, "filename": row.filename, "mimeType": row.mime_type}, "deleted", actor)


def media_sweep_orphans(*, older_than: timedelta | None = None) -> int:
    """Delete stored files that no media item points at and that are older than ``MEDIA_ORPHAN_AGE``
    (younger ones may be signed uploads waiting for their confirm). Returns how many went."""
    age = older_than if older_than is not None else timedelta(seconds=float(emdash_settings.MEDIA_ORPHAN_AGE))
    cutoff = timezone.now() - age
    # A reservation outlives its URL by the orphan age; its file (PUT before the URL expired) goes below.
    ttl = timedelta(seconds=float(emdash_settings.MEDIA_UPLOAD_URL_TTL))
    UploadReservation.objects.filter(created_at__lt=cutoff - ttl).delete()
    removed = 0
    batch: list[str] = []
    for key in store.walk():
        batch.append(key)
        if len(batch) >= 500:
            removed += _sweep_batch(batch, cutoff)
            batch = []
    if batch:
        removed += _sweep_batch(batch, cutoff)
    return removed


def _sweep_batch(keys: list[str], cutoff: Any) -> int:
    known = set(MediaItem.objects.filter(storage_key__in=keys).values_list("storage_key", flat=True))
    known |= rendition_store.known(keys)
    removed = 0
    for key in keys:
        if key in known or store.key_problem(key) or not store.inside_root(key):
            continue
        try:
            modified = store.storage().get_modified_time(key)
        except (OSError, NotImplementedError):
            continue
        if modified < cutoff and not MediaItem.objects.filter(storage_key=key).exists():
            store.delete_quietly(key)
            removed += 1
    return removed


_last_sweep: float | None = None


def sweep_if_due() -> int:
    """The worker's hook: sweep at most every ``MEDIA_SWEEP_INTERVAL`` seconds per process; never raises."""
    global _last_sweep
    now = time.monotonic()
    if _last_sweep is not None and now - _last_sweep < float(emdash_settings.MEDIA_SWEEP_INTERVAL):
        return 0
    _last_sweep = now
    try:
        removed = media_sweep_orphans()
    except Exception:
        log.exception("media orphan sweep failed")
        return 0
    if removed:
        log.info("media orphan sweep removed %d file(s)", removed)
    return removed
