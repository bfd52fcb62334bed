"""Moving media between storages (``manage.py emdash_media_migrate --to s3|filesystem``, SPEC 11).

Every registered original and every ready rendition is copied from the other storage, then read back from the
target and verified (size and SHA-256). A file already in the target with the same size and hash is skipped,
so a second run copies nothing (idempotent) and a run that was killed continues where it stopped (resumable):
a half-written file fails the check and is copied again. Nothing is deleted from the source.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.files.base import File
from django.core.files.storage import FileSystemStorage, Storage

from emdash.errors import ValidationError
from media.models import MediaItem, MediaRendition
from media.storage import CHUNK

SIDES = ("s3", "filesystem")


@dataclass
class Report:
    total: int = 0
    copied: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)


def filesystem() -> Storage:
    return FileSystemStorage(location=str(settings.MEDIA_ROOT))


def s3() -> Storage:
    """The bucket from the EMDASH_S3_* settings (whether or not it is the default storage today)."""
    from storages.backends.s3 import S3Storage

    default = settings.STORAGES.get("default", {})
    options = default.get("OPTIONS") if str(default.get("BACKEND", "")).endswith("S3Storage") else None
    options = options or getattr(settings, "MEDIA_S3_OPTIONS", None)
    if not options:
        raise ValidationError("S3 is not configured: set EMDASH_S3_BUCKET (and EMDASH_S3_ENDPOINT_URL, ...)")
    return S3Storage(**options)


def sides(to: str) -> tuple[Storage, Storage]:
    """(source, target) for ``--to``."""
    if to not in SIDES:
        raise ValidationError.for_fields({"to": f"must be one of {', '.join(SIDES)}"})
    return (filesystem(), s3()) if to == "s3" else (s3(), filesystem())


def stored_keys() -> Iterator[str]:
    """Every original's key, then every ready rendition's, in a stable order."""
    yield from MediaItem.objects.order_by("id").values_list("storage_key", flat=True).iterator()
    ready = MediaRendition.objects.filter(state=MediaRendition.READY).order_by("key")
    yield from ready.values_list("key", flat=True).iterator()


def count() -> int:
    return MediaItem.objects.count() + MediaRendition.objects.filter(state=MediaRendition.READY).count()


def digest_of(storage: Storage, key: str) -> tuple[int, str]:
    """(size, sha256) of a stored file, read in blocks."""
    digest, size = hashlib.sha256(), 0
    with storage.open(key, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def _exists(storage: Storage, key: str) -> bool:
    try:
        return bool(storage.exists(key))
    except OSError:
        return False


def copy_one(source: Storage, target: Storage, key: str) -> str:
    """``copied``, ``skipped`` (already there, verified) or raises (missing source, failed verification)."""
    expected = digest_of(source, key)
    if _exists(target, key):
        if digest_of(target, key) == expected:
            return "skipped"
        target.delete(key)  # a partial copy from an interrupted run, or other bytes: replace it
    with source.open(key, "rb") as handle:
        saved = target.save(key, File(handle, name=key))
    if saved != key:
        target.delete(saved)
        raise RuntimeError(f"the target stored {key} as {saved}")
    if digest_of(target, key) != expected:
        raise RuntimeError(f"{key}: the copy does not match the original (size or SHA-256)")
    return "copied"


def migrate(to: str, progress: Callable[[int, int, str, str], Any] | None = None) -> Report:
    """Copy everything to the ``to`` side; ``progress(done, total, key, outcome)`` after each file."""
    source, target = sides(to)
    report = Report(total=count())
    for done, key in enumerate(stored_keys(), start=1):
        try:
            outcome = copy_one(source, target, key)
        except Exception as exc:
            outcome = f"failed: {exc}"
            report.failed.append(key)
        else:
            report.copied += outcome == "copied"
            report.skipped += outcome == "skipped"
        if progress is not None:
            progress(done, report.total, key, outcome)
    return report
