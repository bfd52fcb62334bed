"""The search route: published items only, for everyone."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api import filters
from api.base import ApiView
from api.rules import rule
from api.schema_doc import doc
from content.search import selectors
from emdash.permissions import Perm


class SearchView(ApiView):
    rules = {"GET": rule(Perm.SEARCH)}

    @doc(
        "Full-text search of published content",
        params=filters.openapi_parameters(filters.SearchFilter),
        tags=["search"],
    )
    def get(self, request: Request) -> Response:
        q = filters.parse(filters.SearchFilter, request)
        collections = [c.strip() for c in q["collections"].split(",") if c.strip()] if "collections" in q else None
        results = selectors.search(
            actor=self.actor(request),
            query=q.get("q", ""),
            collections=collections,
            locale=q.get("locale"),
            limit=q.get("limit", 20),
        )
        return Response({"items": [r.to_dict() for r in results]})
