"""Where media files live: Django's default storage, with storage keys checked so none escapes the root."""

from __future__ import annotations

import hashlib
import logging
import mimetypes
import os
import re
from collections.abc import Iterator
from datetime import datetime
from typing import IO, Any
from urllib.parse import urljoin

from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.utils import timezone

from emdash.conf import emdash_settings
from emdash.errors import ValidationError

log = logging.getLogger("emdash.media")

KEY_MAX_LENGTH = 512
CHUNK = 64 * 1024
_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def storage() -> Storage:
    return default_storage


def key_problem(key: Any) -> str | None:
    """Why ``key`` is not a safe storage key (relative, inside the root), or None when it is."""
    if not isinstance(key, str) or not key:
        return "must be a non-empty string"
    if len(key) > KEY_MAX_LENGTH:
        return f"must have at most {KEY_MAX_LENGTH} characters"
    if "\x00" in key or _CONTROL.search(key):
        return "must not contain control characters"
    if "\\" in key:
        return "must use '/' as the separator (no backslashes)"
    if key.startswith("/") or _DRIVE.match(key):
        return "must be relative to the media root (no absolute paths)"
    parts = key.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "must not contain '..', '.' or empty path segments"
    return None


def check_key(key: Any, field: str = "storageKey") -> str:
    problem = key_problem(key)
    if problem is not None:
        raise ValidationError.for_fields({field: problem})
    if not inside_root(key):
        raise ValidationError.for_fields({field: "must stay inside the media root"})
    return str(key)


def inside_root(key: str) -> bool:
    """False when the key resolves outside the media root (symlinks inside the root may point out of it)."""
    store = storage()
    if not isinstance(store, FileSystemStorage):
        return True  # object storage has no symlinks; the key syntax is all there is
    root = os.path.realpath(store.location)
    try:
        real = os.path.realpath(store.path(key))
    except SuspiciousFileOperation:
        return False
    return os.path.commonpath([root, real]) == root


def is_file(key: str) -> bool:
    store = storage()
    try:
        if isinstance(store, FileSystemStorage):
            return os.path.isfile(store.path(key))
        return bool(store.exists(key))
    except (OSError, SuspiciousFileOperation):
        return False


def new_key(item_id: str, mime_type: str, now: datetime | None = None) -> str:
    """``YYYY/MM/<id><ext>``: nothing the client chose, and an extension that matches the real type."""
    now = now or timezone.now()
    return f"{now:%Y/%m}/{item_id.lower()}{extension_for(mime_type)}"


# Where mimetypes' first guess is not the usual name (application/xml guesses .xsl on some systems).
_PREFERRED_EXT = {
    "image/jpeg": ".jpg",
    "image/x-icon": ".ico",
    "audio/mpeg": ".mp3",
    "video/quicktime": ".mov",
    "application/xml": ".xml",
    "text/xml": ".xml",
}


def extension_for(mime_type: str) -> str:
    ext = _PREFERRED_EXT.get(mime_type) or mimetypes.guess_extension(mime_type, strict=False) or ".bin"
    return ext if re.fullmatch(r"\.[a-z0-9]{1,10}", ext) else ".bin"


def url_for(key: str) -> str:
    """The public URL; absolute against EMDASH_SITE_URL when the storage answers with a path."""
    url = storage().url(key)
    site = str(emdash_settings.SITE_URL or "")
    return urljoin(site, url) if site and url.startswith("/") else url


def open_file(key: str) -> IO[bytes]:
    return storage().open(key, "rb")


def sha256_of(key: str) -> str:
    digest = hashlib.sha256()
    with open_file(key) as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def delete_quietly(key: str) -> None:
    """Remove a file; a missing file or a storage hiccup is logged, not raised (the sweep retries)."""
    try:
        storage().delete(key)
    except Exception:
        log.warning("could not delete media file %s", key, exc_info=True)


def walk(prefix: str = "") -> Iterator[str]:
    """Every file key under ``prefix`` (dot-files and dot-directories skipped)."""
    store = storage()
    try:
        dirs, files = store.listdir(prefix)
    except (FileNotFoundError, NotADirectoryError):
        return
    for name in files:
        if not name.startswith("."):
            yield f"{prefix}{name}"
    for name in dirs:
        if not name.startswith("."):
            yield from walk(f"{prefix}{name}/")
