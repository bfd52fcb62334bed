"""The search route: published items only, for everyone. It runs the ``search`` operation; only the query
string's shape is REST's own (``q``, comma-separated ``collections``), as in the reference."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import ResolverMatch
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters
from api.base import ApiView
from api.operations import cached_response
from api.operations import run_named as run
from api.rules import rule
from api.schema_doc import doc
from content import caching
from content.search.operations import OUTPUT
from emdash import http_cache
from emdash.actor import Actor
from emdash.http_cache import Validators
from emdash.permissions import Perm


class SearchView(ApiView):
    rules = {"GET": rule(Perm.SEARCH)}

    @doc(
        "Full-text search of published content",
        params=filters.openapi_parameters(filters.SearchFilter),
        tags=["search"],
        response=OUTPUT,
    )
    def get(self, request: Request) -> Response:
        q = filters.parse(filters.SearchFilter, request)
        raw: dict[str, Any] = {"query": q.get("q", "")}
        if "collections" in q:
            raw["collections"] = list(dict.fromkeys(c.strip() for c in q["collections"].split(",") if c.strip()))
        raw.update({key: q[key] for key in ("locale", "limit") if key in q})
        return cached_response(self, request, "search", raw, lambda: run(self, request, "search", raw, lax=True))


def _early(request: HttpRequest, match: ResolverMatch) -> Validators | None:
    return caching.validators("search", Actor.anonymous(), {}, request.META.get("QUERY_STRING", ""))


http_cache.EARLY["api-search"] = _early  # anonymous conditional searches (EarlyNotModifiedMiddleware)
