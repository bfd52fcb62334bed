"""Uploaded files, served by the app (filesystem storage; with S3 the media URLs are the bucket's).

Only files registered as media items are served (a signed upload is public once confirmed, i.e. once its
bytes were checked). Responses are safe to cache and to embed:

- strong ETag (size + mtime) and Last-Modified, with If-None-Match / If-Modified-Since → 304;
- one byte range (``Range: bytes=a-b``, ``a-``, ``-n``) → 206, or 416 when it lies outside the file; a
  multi-range request or an ``If-Range`` that no longer matches gets the whole file (RFC 9110 allows it);
- keys the app generates (``YYYY/MM/<new id>.<ext>``) are written once and never change, so they are cached
  for a year as ``immutable``; other keys (registered with ``media_create``) for an hour;
- ``nosniff`` and ``Content-Security-Policy: sandbox`` always; raster images inline, everything else
  (SVG, PDF, video, ...) as an attachment, so no stored file runs script in the site's origin;
- ``EMDASH_MEDIA_ACCEL_PREFIX``: the view only checks and sets headers, nginx sends the bytes
  (``X-Accel-Redirect``; nginx then answers conditionals and ranges itself).

Files are streamed in 64 KiB blocks, never read whole.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import IO, Any
from urllib.parse import quote

from django.core.files.storage import FileSystemStorage
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils.http import content_disposition_header, http_date, parse_http_date_safe
from django.views.decorators.http import require_safe

from emdash.actor import Actor
from emdash.conf import emdash_settings
from media import sniff
from media import storage as store
from media.models import MediaItem
from media.selectors import sees_exports

BLOCK = 64 * 1024
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=3600"
# What media/storage.new_key makes: a fresh id per stored file (the signed PUT refuses to overwrite).
GENERATED_KEY = re.compile(r"^\d{4}/\d{2}/[0-9a-z]{26}\.[a-z0-9]{1,10}$")
INLINE_TYPES = frozenset(sniff.FORMAT_MIME.values())  # raster images Pillow verified; never SVG
SAFE_PREFIXES = ("image/", "video/", "audio/")
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


@dataclass(frozen=True)
class StoredMedia:
    path: str
    key: str
    size: int
    mtime: float
    etag: str
    mime_type: str
    filename: str


def _not_found() -> HttpResponse:
    return HttpResponse("Not found", status=404, content_type="text/plain; charset=utf-8")


@require_safe
def serve(request: HttpRequest, key: str) -> HttpResponseBase:
    found = _locate(key, request)
    if found is None:
        return _not_found()
    if accel := str(emdash_settings.MEDIA_ACCEL_PREFIX or ""):
        response: HttpResponseBase = HttpResponse(content_type=found.mime_type)
        response["X-Accel-Redirect"] = accel.rstrip("/") + "/" + quote(found.key)
        return _decorate(response, found, with_validators=False)
    if _not_modified(request, found):
        response = _decorate(HttpResponse(status=304), found, disposition=False)
        del response["Content-Type"]
        return response
    span = _requested_range(request, found)
    if span == "unsatisfiable":
        response = HttpResponse(status=416, content_type="text/plain; charset=utf-8")
        response["Content-Range"] = f"bytes */{found.size}"
        return _decorate(response, found, disposition=False)
    start, end = span if isinstance(span, tuple) else (0, found.size - 1)
    response = _body(request, found, start, end)
    if isinstance(span, tuple):
        response.status_code = 206
        response["Content-Range"] = f"bytes {start}-{end}/{found.size}"
    return _decorate(response, found)


def _locate(key: str, request: HttpRequest) -> StoredMedia | None:
    """The registered file at ``key`` under the media root, or None (bad key, outside the root, missing, or a
    site export that only admins may read)."""
    storage = store.storage()
    if not isinstance(storage, FileSystemStorage) or store.key_problem(key) or not store.inside_root(key):
        return None
    row = MediaItem.objects.filter(storage_key=key).values("mime_type", "filename").first()
    if row is None or (row["mime_type"] in sniff.XML_TYPES and not _sees_exports(request)):
        return None
    path = os.path.realpath(storage.path(key))
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not os.path.isfile(path):
        return None
    etag = f'"{info.st_mtime_ns:x}-{info.st_size:x}"'
    return StoredMedia(path, key, info.st_size, info.st_mtime, etag, _content_type(row["mime_type"]), row["filename"])


def _sees_exports(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return user is not None and user.is_authenticated and sees_exports(Actor.for_user(user))


def _content_type(mime_type: str) -> str:
    """The stored type when it is a media type browsers handle as such; bytes of anything else."""
    if sniff.MIME_RE.match(mime_type or "") and (mime_type.startswith(SAFE_PREFIXES) or mime_type == "application/pdf"):
        return mime_type
    return "application/octet-stream"


def _etags(header: str) -> list[str]:
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]


def _not_modified(request: HttpRequest, found: StoredMedia) -> bool:
    """If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2)."""
    if none_match := request.headers.get("If-None-Match"):
        tags = _etags(none_match)
        return "*" in tags or found.etag in tags
    since = parse_http_date_safe(request.headers.get("If-Modified-Since") or "")
    return since is not None and int(found.mtime) <= since


def _requested_range(request: HttpRequest, found: StoredMedia) -> tuple[int, int] | str | None:
    """(first, last) byte of one satisfiable range; "unsatisfiable"; or None for the whole file."""
    header = (request.headers.get("Range") or "").strip()
    if request.method != "GET" or not header or "," in header or not _if_range_holds(request, found):
        return None
    match = _RANGE.match(header.replace(" ", ""))
    if match is None or match.groups() == ("", ""):
        return None  # not a byte range we understand: ignore it
    first, last = match.groups()
    if first == "":  # the last n bytes
        suffix = int(last)
        if suffix == 0 or found.size == 0:
            return "unsatisfiable"
        return max(found.size - suffix, 0), found.size - 1
    start = int(first)
    if last and int(last) < start:
        return None  # invalid: ignore
    if start >= found.size:
        return "unsatisfiable"
    end = int(last) if last else found.size - 1
    return start, min(end, found.size - 1)


def _if_range_holds(request: HttpRequest, found: StoredMedia) -> bool:
    condition = (request.headers.get("If-Range") or "").strip()
    if not condition:
        return True
    if condition.startswith(('"', "W/")):
        return condition == found.etag  # strong comparison only
    return parse_http_date_safe(condition) == int(found.mtime)


def _body(request: HttpRequest, found: StoredMedia, start: int, end: int) -> HttpResponseBase:
    length = max(end - start + 1, 0)
    if request.method == "HEAD":
        response: HttpResponseBase = HttpResponse(content_type=found.mime_type)
    elif start == 0 and end == found.size - 1:
        response = FileResponse(open(found.path, "rb"), content_type=found.mime_type)  # noqa: SIM115 (closed by Django)
        response.block_size = BLOCK
    else:
        handle = open(found.path, "rb")  # noqa: SIM115 (closed by the response)
        handle.seek(start)
        response = StreamingHttpResponse(_Slice(handle, length), content_type=found.mime_type)
    response["Content-Length"] = str(length)
    return response


class _Slice:
    """``length`` bytes of an open file, in blocks; Django calls ``close`` when the response is done."""

    def __init__(self, handle: IO[bytes], length: int) -> None:
        self.handle, self.left = handle, length

    def __iter__(self) -> Any:
        while self.left > 0:
            block = self.handle.read(min(BLOCK, self.left))
            if not block:
                return
            self.left -= len(block)
            yield block

    def close(self) -> None:
        self.handle.close()


def _decorate(
    response: HttpResponseBase, found: StoredMedia, *, with_validators: bool = True, disposition: bool = True
) -> HttpResponseBase:
    if with_validators:
        response["ETag"] = found.etag
        response["Last-Modified"] = http_date(found.mtime)
        response["Accept-Ranges"] = "bytes"
    response["Cache-Control"] = IMMUTABLE if GENERATED_KEY.match(found.key) else SHORT
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox"
    if disposition:
        inline = found.mime_type in INLINE_TYPES
        response["Content-Disposition"] = content_disposition_header(not inline, found.filename) or "attachment"
    return response
