"""REST views for media: list, get, edit, delete, multipart upload and the signed upload flow."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from emdash.actor import Actor
from emdash.auth import site_origin
from emdash.conf import emdash_settings
from emdash.dates import iso
from emdash.errors import EmDashError, ValidationError
from emdash.http import api_view, error_response, json_body, json_response
from emdash.permissions import Perm, require
from media import presenters, selectors, services, uploads
from media.errors import FileTooLarge

log = logging.getLogger("emdash.api")
MULTIPART_OVERHEAD = 64 * 1024  # form fields and boundaries around the file


def _not_allowed(*methods: str) -> HttpResponse:
    response = json_response({"error": {"code": "METHOD_NOT_ALLOWED", "message": "Method not allowed"}}, 405)
    response["Allow"] = ", ".join(methods)
    return response


def _reject_unknown(body: dict[str, Any], accepted: set[str]) -> None:
    unknown = sorted(set(body) - accepted)
    if unknown:
        listed = ", ".join(sorted(accepted))
        raise ValidationError.for_fields({key: f"unknown field (accepted: {listed})" for key in unknown})


def _int_param(request: HttpRequest, name: str, default: int) -> int:
    raw = request.GET.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValidationError.for_fields({name: "must be an integer"}) from None


@api_view
def media_collection(request: HttpRequest, actor: Actor) -> Any:
    """``GET /_emdash/api/media`` lists; ``POST`` uploads one file (multipart field ``file``, plus alt, caption)."""
    if request.method == "GET":
        return selectors.media_list(
            actor=actor,
            mime_type=request.GET.get("mimeType") or None,
            limit=_int_param(request, "limit", 50),
            cursor=request.GET.get("cursor") or None,
        ).to_dict()
    if request.method == "POST":
        return _upload(request, actor)
    return _not_allowed("GET", "POST")


def _upload(request: HttpRequest, actor: Actor) -> HttpResponse:
    require(actor, Perm.MEDIA_CREATE)
    limit = int(emdash_settings.MEDIA_MAX_UPLOAD_SIZE)
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit + MULTIPART_OVERHEAD:
        raise FileTooLarge(limit)  # before the body is read
    if not (request.content_type or "").startswith("multipart/form-data"):
        raise ValidationError("Send the file as multipart/form-data in a field named 'file'")
    try:
        upload = request.FILES.get("file")
        fields = request.POST
    except RequestDataTooBig:
        raise FileTooLarge(limit) from None
    except (MultiPartParserError, SuspiciousOperation):
        raise ValidationError("The multipart body could not be read") from None
    if upload is None:
        raise ValidationError.for_fields({"file": "is required (multipart/form-data field 'file')"})
    item = services.media_upload(
        actor=actor,
        file=upload,
        filename=fields.get("filename") or upload.name,
        content_type=upload.content_type,
        alt=fields.get("alt"),
        caption=fields.get("caption"),
    )
    return json_response({"item": presenters.item(item)}, 201)


@api_view
def media_detail(request: HttpRequest, actor: Actor, id: str) -> Any:
    """``GET``, ``PUT``/``PATCH`` (alt, caption, width, height) and ``DELETE`` one media item."""
    if request.method == "GET":
        return {"item": presenters.item(selectors.media_get(actor=actor, id=id))}
    if request.method in ("PUT", "PATCH"):
        body = json_body(request)
        unknown = sorted(set(body) - {"alt", "caption", "width", "height"})
        if unknown:
            raise ValidationError.for_fields(
                {key: "unknown field (accepted: alt, caption, width, height)" for key in unknown}
            )
        item = services.media_update(actor=actor, id=id, **body)
        return {"item": presenters.item(item)}
    if request.method == "DELETE":
        services.media_delete(actor=actor, id=id)
        return {"deleted": True}
    return _not_allowed("GET", "PUT", "PATCH", "DELETE")


@api_view
def upload_url(request: HttpRequest, actor: Actor) -> Any:
    """``POST {filename, mimeType, size?}`` -> ``{uploadUrl, storageKey, expiresAt, method, maxSize}``."""
    if request.method != "POST":
        return _not_allowed("POST")
    body = json_body(request)
    _reject_unknown(body, {"filename", "mimeType", "size"})
    ticket = uploads.upload_ticket(
        actor=actor, filename=body.get("filename"), mime_type=body.get("mimeType"), size=body.get("size")
    )
    path = reverse("media-upload", kwargs={"token": ticket.token})
    return {
        "uploadUrl": f"{site_origin(request)}{path}",
        "method": "PUT",
        "storageKey": ticket.storage_key,
        "expiresAt": iso(ticket.expires_at),
        "maxSize": ticket.max_size,
    }


@csrf_exempt
def upload(request: HttpRequest, token: str) -> HttpResponse:
    """``PUT`` the bytes to a signed URL. No cookie or token: the signature is the credential."""
    if request.method != "PUT":
        return _not_allowed("PUT")
    try:
        body = uploads.receive(token=token, stream=request, length=request.META.get("CONTENT_LENGTH"))
    except EmDashError as exc:
        return error_response(exc)
    except Exception:
        trace_id = secrets.token_hex(8)
        log.exception("PUT %s failed (trace %s)", request.path, trace_id)
        return json_response(
            {"error": {"code": "INTERNAL_ERROR", "message": "Internal error", "traceId": trace_id}}, 500
        )
    return json_response(body)


@api_view
def confirm(request: HttpRequest, actor: Actor) -> Any:
    """``POST {storageKey, filename, mimeType, alt?, caption?}`` registers a signed upload -> ``{item}``."""
    if request.method != "POST":
        return _not_allowed("POST")
    body = json_body(request)
    accepted = {"storageKey", "filename", "mimeType", "alt", "caption"}
    unknown = sorted(set(body) - accepted)
    if unknown:
        raise ValidationError.for_fields(
            {key: f"unknown field (accepted: {', '.join(sorted(accepted))})" for key in unknown}
        )
    item = uploads.confirm(
        actor=actor,
        storage_key=body.get("storageKey"),
        filename=body.get("filename"),
        mime_type=body.get("mimeType"),
        alt=body.get("alt"),
        caption=body.get("caption"),
    )
    return json_response({"item": presenters.item(item)}, 201)
