"""The media routes that are not generated from the operation table: the list with the multipart upload
on the same path, and the signed-upload ticket (its URL is absolute, so the view finishes it).

Get, edit, delete, confirm and the JSON ``media_upload`` are generated (``media/operations.py``); the signed
``PUT`` itself stays in ``media.views`` (the signature is its only credential). Every write here is audited
with source ``rest`` in the write's transaction, as the pipeline does.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import transaction
from django.http.multipartparser import MultiPartParserError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.auth import site_origin
from api import filters
from api.base import ApiView
from api.operations import run_named as run
from api.parsers import CheckedJSONParser
from api.rules import rule
from api.schema_doc import doc
from audit.record import record
from emdash import operations
from emdash.call import Call
from emdash.edge import limits
from emdash.errors import ValidationError
from emdash.origin import serving
from emdash.permissions import Perm
from media import presenters, services
from media.errors import FileTooLarge
from media.operations import ITEM, PAGE, TICKET

TAGS = ["media"]
UPLOAD_BODY = {
    "multipart/form-data": {
        "type": "object",
        "properties": {
            "file": {"type": "string", "format": "binary"},
            "alt": {"type": "string"},
            "caption": {"type": "string"},
            "filename": {"type": "string"},
        },
        "required": ["file"],
    }
}


def _schema(name: str) -> dict[str, Any]:
    op = operations.get(name)
    assert op is not None, name
    return op.schema


class MediaListView(ApiView):
    rules = {"GET": rule(Perm.MEDIA_READ), "POST": rule(Perm.MEDIA_CREATE)}
    parser_classes = [MultiPartParser]

    @doc("List media", params=filters.openapi_parameters(filters.MediaFilter), tags=TAGS, response=PAGE)
    def get(self, request: Request) -> Response:
        return Response(run(self, request, "media_list", filters.parse(filters.MediaFilter, request), lax=True))

    @doc(
        "Upload one file (multipart field 'file', plus alt, caption)",
        ok=201,
        body=UPLOAD_BODY,
        tags=TAGS,
        response=ITEM,
    )
    def post(self, request: Request) -> Response:
        limit = limits.max_upload()
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit + limits.MULTIPART_OVERHEAD:
            raise FileTooLarge(limit)  # before the body is read
        if not (request.content_type or "").startswith("multipart/form-data"):
            raise ValidationError("Send the file as multipart/form-data in a field named 'file'")
        django_request = request._request
        try:
            upload = django_request.FILES.get("file")
            fields = django_request.POST
        except RequestDataTooBig:
            raise FileTooLarge(limit) from None
        except (MultiPartParserError, SuspiciousOperation):
            raise ValidationError("The multipart body could not be read") from None
        if upload is None:
            raise ValidationError.for_fields({"file": "is required (multipart/form-data field 'file')"})
        started = time.perf_counter()
        actor = self.actor(request)
        with transaction.atomic():  # the row and its audit row together
            item = services.media_upload(
                actor=actor,
                file=upload,
                filename=fields.get("filename") or upload.name,
                content_type=upload.content_type,
                alt=fields.get("alt"),
                caption=fields.get("caption"),
            )
            call = Call.from_user_agent("rest", actor, request.META.get("HTTP_USER_AGENT", ""))
            record(call, "media_upload", "ok", f"media/{item.id}", started=started)
        return Response({"item": presenters.item(item)}, status=201)


class UploadUrlView(ApiView):
    rules = {"POST": rule(Perm.MEDIA_CREATE)}
    parser_classes = [CheckedJSONParser]

    @doc(
        "Get a signed URL to PUT a file to ({filename, mimeType, size?})",
        body={"application/json": _schema("media_upload_url")},
        tags=TAGS,
        response=TICKET,
    )
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise ValidationError("The request body must be a JSON object")
        with serving(site_origin(request._request)):  # the presenter makes uploadUrl absolute against it
            payload = run(self, request, "media_upload_url", dict(request.data))
        return Response(payload)
