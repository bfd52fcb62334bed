"""Content routes outside the operation table: term assignment on an item and the signed preview link.

CRUD, the lifecycle actions, revisions and translations are generated from content/operations.py
(see api/operations.py).
"""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView, body
from api.rules import rule
from api.schema_doc import OBJECT, doc
from content import preview
from emdash.auth import site_origin
from emdash.dates import iso
from emdash.errors import ValidationError
from emdash.permissions import Perm
from taxonomy import selectors as taxonomy_selectors
from taxonomy import services as taxonomy_services

TAGS = ["content"]


class ContentTermsView(ApiView):
    """An entry's terms of one taxonomy: read them, or replace them with ``{"terms": [slug or id, ...]}``."""

    rules = {"GET": rule(Perm.CONTENT_READ), "PUT": rule(Perm.CONTENT_EDIT_OWN)}

    @doc("An item's terms in one taxonomy", tags=TAGS)
    def get(self, request: Request, collection: str, id: str, taxonomy: str) -> Response:
        terms = taxonomy_selectors.entry_terms(actor=self.actor(request), collection=collection, id=id)
        taxonomy_selectors.taxonomy_get(actor=self.actor(request), name=taxonomy)  # NOT_FOUND for unknown names
        return Response({"taxonomy": taxonomy, "terms": terms.get(taxonomy, [])})

    @doc("Replace an item's terms in one taxonomy", body=OBJECT, tags=TAGS)
    def put(self, request: Request, collection: str, id: str, taxonomy: str) -> Response:
        a = body(request, {"terms"}, required=("terms",))
        if not isinstance(a["terms"], list):
            raise ValidationError.for_fields({"terms": "must be a list of term slugs or IDs"})
        actor = self.actor(request)
        taxonomy_services.entry_terms_set(
            actor=actor, collection=collection, id=id, taxonomy=taxonomy, terms=a["terms"]
        )
        terms = taxonomy_selectors.entry_terms(actor=actor, collection=collection, id=id)
        return Response({"taxonomy": taxonomy, "terms": terms.get(taxonomy, [])})


class ContentPreviewUrlView(ApiView):
    """A signed, expiring link to the item's draft on the public site (for signed-in editors)."""

    rules = {"GET": rule(Perm.CONTENT_READ_UNPUBLISHED)}

    @doc("A signed, expiring preview link to the item's draft", tags=TAGS)
    def get(self, request: Request, collection: str, id: str) -> Response:
        link = preview.preview_link(actor=self.actor(request), collection=collection, id=id)
        return Response({"url": site_origin(request._request) + link.path, "expiresAt": iso(link.expires_at)})
