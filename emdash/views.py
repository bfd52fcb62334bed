"""A minimal public front page until the bundled theme lands: published posts and pages only."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from content import schema, selectors
from emdash.actor import Actor
from emdash.errors import CollectionNotFound, NotFound

PUBLIC = Actor.anonymous()


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def home(request: HttpRequest) -> HttpResponse:
    sections = []
    for spec in schema.current().collections.values():
        page = selectors.entry_list(actor=PUBLIC, collection=spec.slug, order_by="published_at", limit=20)
        sections.append({"collection": spec, "items": page.items})
    return render(request, "site/home.html", {"sections": sections})


def entry(request: HttpRequest, collection: str, slug: str) -> HttpResponse:
    try:
        item = selectors.entry_get(actor=PUBLIC, collection=collection, id=slug)
    except (NotFound, CollectionNotFound):
        raise Http404("Not found") from None
    return render(request, "site/entry.html", {"item": item.to_dict(), "collection": item.spec})
