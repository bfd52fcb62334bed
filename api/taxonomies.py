"""Taxonomy routes: definitions and terms (term assignment on content lives in api.content)."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api import filters
from api.base import ApiView, body
from api.rules import rule
from api.schema_doc import OBJECT, doc
from emdash.permissions import Perm
from taxonomy import presenters, selectors, services

TAGS = ["taxonomies"]


class TaxonomyListView(ApiView):
    rules = {"GET": rule(Perm.TAXONOMY_READ)}

    @doc("List taxonomies", tags=TAGS)
    def get(self, request: Request) -> Response:
        return Response({"taxonomies": selectors.taxonomy_list(actor=self.actor(request))})


class TermListView(ApiView):
    rules = {"GET": rule(Perm.TAXONOMY_READ), "POST": rule(Perm.TAXONOMY_MANAGE)}

    @doc("List a taxonomy's terms", params=filters.openapi_parameters(filters.PageFilter), tags=TAGS)
    def get(self, request: Request, taxonomy: str) -> Response:
        q = filters.parse(filters.PageFilter, request)
        page = selectors.term_list(
            actor=self.actor(request), taxonomy=taxonomy, limit=q.get("limit", 50), cursor=q.get("cursor")
        )
        return Response(page.to_dict())

    @doc("Create a term", ok=201, body=OBJECT, tags=TAGS)
    def post(self, request: Request, taxonomy: str) -> Response:
        a = body(request, {"slug", "label", "parentId", "description"}, required=("slug", "label"))
        term = services.term_create(
            actor=self.actor(request),
            taxonomy=taxonomy,
            slug=a["slug"],
            label=a["label"],
            parent_id=a.get("parentId"),
            description=a.get("description"),
        )
        return Response({"term": presenters.term(term, taxonomy)}, status=201)


class TermDetailView(ApiView):
    rules = {
        "GET": rule(Perm.TAXONOMY_READ),
        "PUT": rule(Perm.TAXONOMY_MANAGE),
        "DELETE": rule(Perm.TAXONOMY_MANAGE),
    }

    @doc("Get a term", tags=TAGS)
    def get(self, request: Request, taxonomy: str, term: str) -> Response:
        return Response({"term": selectors.term_get(actor=self.actor(request), taxonomy=taxonomy, term=term)})

    @doc("Change a term (parentId null detaches it)", body=OBJECT, tags=TAGS)
    def put(self, request: Request, taxonomy: str, term: str) -> Response:
        a = body(request, {"slug", "label", "parentId", "description"})
        row = services.term_update(
            actor=self.actor(request),
            taxonomy=taxonomy,
            term=term,
            slug=a.get("slug"),
            label=a.get("label"),
            parent_id=a.get("parentId", services.UNSET),
            description=a.get("description"),
        )
        return Response({"term": presenters.term(row, taxonomy)})

    @doc("Delete a term (refused while it has children)", tags=TAGS)
    def delete(self, request: Request, taxonomy: str, term: str) -> Response:
        services.term_delete(actor=self.actor(request), taxonomy=taxonomy, term=term)
        return Response({"deleted": True})
