"""Media routes: list, get, edit, delete, multipart upload and the signed upload flow (ticket, confirm).

The signed ``PUT`` itself stays in ``media.views``: the signature is its only credential.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http.multipartparser import MultiPartParserError
from django.urls import reverse
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters
from api.base import ApiView, body
from api.parsers import CheckedJSONParser
from api.rules import rule
from api.schema_doc import OBJECT, doc
from emdash import limits
from emdash.auth import site_origin
from emdash.dates import iso
from emdash.errors import ValidationError
from emdash.permissions import Perm
from media import presenters, selectors, services, uploads
from media.errors import FileTooLarge

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


class MediaListView(ApiView):
    rules = {"GET": rule(Perm.MEDIA_READ), "POST": rule(Perm.MEDIA_CREATE)}
    parser_classes = [MultiPartParser]

    @doc("List media", params=filters.openapi_parameters(filters.MediaFilter), tags=TAGS)
    def get(self, request: Request) -> Response:
        q = filters.parse(filters.MediaFilter, request)
        page = selectors.media_list(
            actor=self.actor(request), mime_type=q.get("mimeType"), limit=q.get("limit", 50), cursor=q.get("cursor")
        )
        return Response(page.to_dict())

    @doc("Upload one file (multipart field 'file', plus alt, caption)", ok=201, body=UPLOAD_BODY, tags=TAGS)
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
        item = services.media_upload(
            actor=self.actor(request),
            file=upload,
            filename=fields.get("filename") or upload.name,
            content_type=upload.content_type,
            alt=fields.get("alt"),
            caption=fields.get("caption"),
        )
        return Response({"item": presenters.item(item)}, status=201)


class MediaDetailView(ApiView):
    rules = {
        "GET": rule(Perm.MEDIA_READ),
        "PUT": rule(Perm.MEDIA_EDIT_OWN),
        "PATCH": rule(Perm.MEDIA_EDIT_OWN),
        "DELETE": rule(Perm.MEDIA_EDIT_OWN),
    }

    @doc("Get a media item", tags=TAGS)
    def get(self, request: Request, id: str) -> Response:
        return Response({"item": presenters.item(selectors.media_get(actor=self.actor(request), id=id))})

    @doc("Change alt, caption, width or height", body=OBJECT, tags=TAGS)
    def put(self, request: Request, id: str) -> Response:
        changes = body(request, {"alt", "caption", "width", "height"})
        return Response({"item": presenters.item(services.media_update(actor=self.actor(request), id=id, **changes))})

    @doc("Change alt, caption, width or height", body=OBJECT, tags=TAGS)
    def patch(self, request: Request, id: str) -> Response:
        return self.put(request, id)

    @doc("Delete a media item and its file", tags=TAGS)
    def delete(self, request: Request, id: str) -> Response:
        services.media_delete(actor=self.actor(request), id=id)
        return Response({"deleted": True})


class UploadUrlView(ApiView):
    rules = {"POST": rule(Perm.MEDIA_CREATE)}
    parser_classes = [CheckedJSONParser]

    @doc("Get a signed URL to PUT a file to ({filename, mimeType, size?})", body=OBJECT, tags=TAGS)
    def post(self, request: Request) -> Response:
        a: dict[str, Any] = body(request, {"filename", "mimeType", "size"})
        ticket = uploads.upload_ticket(
            actor=self.actor(request), filename=a.get("filename"), mime_type=a.get("mimeType"), size=a.get("size")
        )
        path = reverse("media-upload", kwargs={"token": ticket.token})
        return Response(
            {
                "uploadUrl": f"{site_origin(request._request)}{path}",
                "method": "PUT",
                "storageKey": ticket.storage_key,
                "expiresAt": iso(ticket.expires_at),
                "maxSize": ticket.max_size,
            }
        )


class ConfirmView(ApiView):
    rules = {"POST": rule(Perm.MEDIA_CREATE)}

    @doc(
        "Register a file PUT to a signed URL ({storageKey, filename, mimeType, alt?, caption?})",
        ok=201,
        body=OBJECT,
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        a = body(request, {"storageKey", "filename", "mimeType", "alt", "caption"})
        item = uploads.confirm(
            actor=self.actor(request),
            storage_key=a.get("storageKey"),
            filename=a.get("filename"),
            mime_type=a.get("mimeType"),
            alt=a.get("alt"),
            caption=a.get("caption"),
        )
        return Response({"item": presenters.item(item)}, status=201)
