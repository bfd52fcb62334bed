"""Content routes outside the operation table: the signed preview link.

CRUD, the lifecycle actions, revisions and translations are generated from content/entries/operations.py
(see api/operations.py).
"""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from accounts.auth import site_origin
from api.base import ApiView
from api.rules import rule
from api.schema_doc import doc
from content.entries import preview
from emdash.dates import iso
from emdash.permissions import Perm

TAGS = ["content"]
PREVIEW_URL = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "format": "uri", "description": "Absolute link to the draft on the public site"},
        "expiresAt": {"type": "string", "format": "date-time", "description": "When the link stops working (UTC)"},
    },
    "required": ["url", "expiresAt"],
}


class ContentPreviewUrlView(ApiView):
    """A signed, expiring link to the item's draft on the public site (for signed-in editors)."""

    rules = {"GET": rule(Perm.CONTENT_READ_UNPUBLISHED)}

    @doc("A signed, expiring preview link to the item's draft", tags=TAGS, response=PREVIEW_URL)
    def get(self, request: Request, collection: str, id: str) -> Response:
        link = preview.preview_link(actor=self.actor(request), collection=collection, id=id)
        return Response({"url": site_origin(request._request) + link.path, "expiresAt": iso(link.expires_at)})
