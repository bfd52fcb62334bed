"""``GET /_emdash/media/{id}/{width}x{height}/{fit}.{format}``: a rendition, made on first request, then served.

- ``?v=`` the current version (what media results hand out): ``immutable``, a year; a stale ``v`` redirects to
  the current one (the focal point or the file changed); no ``v``: cached for ``IMAGE_UNVERSIONED_MAX_AGE``.
- ETag is the rendition's content-addressed key, so ``If-None-Match`` answers 304 without touching the file.
- ``auto`` varies on ``Accept``; every answer has ``nosniff`` and ``Content-Security-Policy: sandbox``.
- Bytes come from the media storage (filesystem or S3); with ``EMDASH_MEDIA_ACCEL_PREFIX`` nginx sends them.
- Bad sizes, fits and formats are 400 ``VALIDATION_ERROR``; unknown ids 404; non-images, animated images and
  images too large to decode 415 ``UNSUPPORTED_IMAGE``; nothing is rendered for any of them.
"""

from __future__ import annotations

from urllib.parse import quote

from django.core.files.storage import FileSystemStorage
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.views.decorators.http import require_safe

from emdash.conf import emdash_settings
from emdash.errors import EmDashError
from emdash.http import error_response, json_response
from emdash.tracing import unexpected
from media import rendition_store, renditions, responsive
from media import storage as store
from media.models import MediaItem
from media.selectors import find
from media.serving import BLOCK, IMMUTABLE


@require_safe
def rendition(request: HttpRequest, id: str, size: str, name: str) -> HttpResponseBase:
    try:
        fit, _, fmt = name.partition(".")
        spec = renditions.parse(size, fit, fmt)
        item = find(id)
        version = renditions.version(item.content_hash, item.focal_x, item.focal_y)
        asked = request.GET.get("v")
        if asked is not None and asked != version:
            return _redirect(responsive.url(item.id, spec, version))
        concrete = rendition_store.fmt_for(item, spec, request.headers.get("Accept", ""))
        return _answer(request, item, spec, concrete, versioned=asked == version)
    except EmDashError as exc:
        return error_response(exc)
    except Exception as exc:
        trace_id = unexpected(exc, f"rendition {request.path}")
        body = {"error": {"code": "INTERNAL_ERROR", "message": "Internal error", "traceId": trace_id}}
        return json_response(body, 500)


def _redirect(location: str) -> HttpResponse:
    response = HttpResponseRedirect(location)
    response["Cache-Control"] = "no-cache"
    return response


def _answer(
    request: HttpRequest, item: MediaItem, spec: renditions.Spec, fmt: str, versioned: bool
) -> HttpResponseBase:
    rendered = rendition_store.get_or_render(item, spec, fmt)
    etag = '"' + rendered.key.rsplit("/", 1)[-1].split(".")[0] + '"'
    tags = [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in tags or "*" in tags:
        not_modified = HttpResponse(status=304)
        del not_modified["Content-Type"]
        return _headers(not_modified, etag, spec, versioned)
    response: HttpResponseBase
    if (accel := str(emdash_settings.MEDIA_ACCEL_PREFIX or "")) and isinstance(store.storage(), FileSystemStorage):
        response = HttpResponse(content_type=rendered.mime_type)
        response["X-Accel-Redirect"] = accel.rstrip("/") + "/" + quote(rendered.key)
    elif request.method == "HEAD":
        response = HttpResponse(content_type=rendered.mime_type)
        response["Content-Length"] = str(rendered.size)
    else:
        try:
            handle = store.open_file(rendered.key)
        except (FileNotFoundError, OSError):
            rendition_store.redo(rendered)  # the row outlived its file (storage switched): make it again
            rendered = rendition_store.get_or_render(item, spec, fmt)
            handle = store.open_file(rendered.key)
        response = FileResponse(handle, content_type=rendered.mime_type)
        response.block_size = BLOCK
        response["Content-Length"] = str(rendered.size)
    response["Content-Disposition"] = "inline"
    return _headers(response, etag, spec, versioned)


def _headers(response: HttpResponseBase, etag: str, spec: renditions.Spec, versioned: bool) -> HttpResponseBase:
    response["ETag"] = etag
    unversioned = f"public, max-age={int(emdash_settings.IMAGE_UNVERSIONED_MAX_AGE)}"
    response["Cache-Control"] = IMMUTABLE if versioned else unversioned
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox"
    if spec.fmt == "auto":
        response["Vary"] = "Accept"
    return response
