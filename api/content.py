"""Content routes: CRUD, every lifecycle action, revisions, translations and term assignment."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from api import filters
from api.base import ApiView, body
from api.rules import rule
from api.schema_doc import OBJECT, doc
from content import selectors, services
from content.entry import Entry
from emdash.auth import site_origin
from emdash.dates import iso
from emdash.errors import ValidationError
from emdash.permissions import Perm
from public_site import preview
from taxonomy import selectors as taxonomy_selectors
from taxonomy import services as taxonomy_services
from taxonomy.selectors import assigned_terms

TAGS = ["content"]


def _with_terms(entry: Entry) -> dict[str, Any]:
    return {**entry.to_dict(), "terms": assigned_terms(collection=entry.spec.slug, entry_id=entry.id)}


def _item_rev(entry: Entry, with_terms: bool) -> dict[str, Any]:
    return {"item": _with_terms(entry) if with_terms else entry.to_dict(), "_rev": entry.rev}


class ContentListView(ApiView):
    rules = {"GET": rule(Perm.CONTENT_READ), "POST": rule(Perm.CONTENT_CREATE)}

    @doc("List items", params=filters.openapi_parameters(filters.ContentFilter), tags=TAGS)
    def get(self, request: Request, collection: str) -> Response:
        q = filters.parse(filters.ContentFilter, request)
        page = selectors.entry_list(
            actor=self.actor(request),
            collection=collection,
            status=q.get("status"),
            locale=q.get("locale"),
            order_by=q.get("orderBy", "created_at"),
            order=q.get("order", "desc"),
            limit=q.get("limit", 50),
            cursor=q.get("cursor"),
        )
        return Response(page.to_dict())

    @doc("Create an item", ok=201, body=OBJECT, tags=TAGS)
    def post(self, request: Request, collection: str) -> Response:
        a = body(request, {"data", "slug", "status", "locale", "translationOf", "terms"}, required=("data",))
        entry = services.entry_create(
            actor=self.actor(request),
            collection=collection,
            data=a["data"],
            slug=a.get("slug"),
            status=a.get("status"),
            locale=a.get("locale"),
            translation_of=a.get("translationOf"),
            terms=a.get("terms"),
        )
        return Response(_item_rev(entry, "terms" in a), status=201)


class ContentTrashView(ApiView):
    rules = {"GET": rule(Perm.CONTENT_READ_UNPUBLISHED)}

    @doc("List trashed items", params=filters.openapi_parameters(filters.PageFilter), tags=TAGS)
    def get(self, request: Request, collection: str) -> Response:
        q = filters.parse(filters.PageFilter, request)
        page = selectors.entry_list_trashed(
            actor=self.actor(request), collection=collection, limit=q.get("limit", 50), cursor=q.get("cursor")
        )
        return Response(page.to_dict())


class ContentDetailView(ApiView):
    rules = {
        "GET": rule(Perm.CONTENT_READ),
        "PUT": rule(Perm.CONTENT_EDIT_OWN),
        "DELETE": rule(Perm.CONTENT_EDIT_OWN),
    }

    @doc(
        "Get an item (by ID or slug) with its _rev", params=filters.openapi_parameters(filters.LocaleFilter), tags=TAGS
    )
    def get(self, request: Request, collection: str, id: str) -> Response:
        q = filters.parse(filters.LocaleFilter, request)
        entry = selectors.entry_get(actor=self.actor(request), collection=collection, id=id, locale=q.get("locale"))
        return Response(_item_rev(entry, True))

    @doc("Update an item (partial data; _rev refuses stale writes with 409)", body=OBJECT, tags=TAGS)
    def put(self, request: Request, collection: str, id: str) -> Response:
        a = body(request, {"data", "slug", "status", "_rev", "terms"})
        entry = services.entry_update(
            actor=self.actor(request),
            collection=collection,
            id=id,
            data=a.get("data"),
            slug=a.get("slug"),
            status=a.get("status"),
            rev=a.get("_rev"),
            terms=a.get("terms"),
        )
        return Response(_item_rev(entry, "terms" in a))

    @doc("Move an item to the trash", tags=TAGS)
    def delete(self, request: Request, collection: str, id: str) -> Response:
        services.entry_trash(actor=self.actor(request), collection=collection, id=id)
        return Response({"deleted": True})


class ContentPermanentDeleteView(ApiView):
    rules = {"DELETE": rule(Perm.CONTENT_DELETE_PERMANENT)}

    @doc("Delete a trashed item for good", tags=TAGS)
    def delete(self, request: Request, collection: str, id: str) -> Response:
        services.entry_delete_permanently(actor=self.actor(request), collection=collection, id=id)
        return Response({"deleted": True})


class ContentActionView(ApiView):
    """``POST .../{id}/<action>``: one lifecycle service per action, no body."""

    rules = {"POST": rule(Perm.CONTENT_EDIT_OWN)}
    ACTIONS: dict[str, Any] = {
        "publish": services.entry_publish,
        "unpublish": services.entry_unpublish,
        "unschedule": services.entry_unschedule,
        "discard-draft": services.entry_discard_draft,
    }
    action_name = ""

    @doc("Lifecycle action", tags=TAGS)
    def post(self, request: Request, collection: str, id: str) -> Response:
        entry = self.ACTIONS[self.action_name](actor=self.actor(request), collection=collection, id=id)
        return Response({"item": entry.to_dict()})


class ContentScheduleView(ApiView):
    rules = {"POST": rule(Perm.CONTENT_EDIT_OWN)}

    @doc("Schedule publishing at a future time ({scheduledAt})", body=OBJECT, tags=TAGS)
    def post(self, request: Request, collection: str, id: str) -> Response:
        a = body(request, {"scheduledAt"}, required=("scheduledAt",))
        entry = services.entry_schedule(
            actor=self.actor(request), collection=collection, id=id, scheduled_at=a["scheduledAt"]
        )
        return Response({"item": entry.to_dict()})


class ContentRestoreView(ApiView):
    rules = {"POST": rule(Perm.CONTENT_EDIT_OWN)}

    @doc("Restore an item from the trash", tags=TAGS)
    def post(self, request: Request, collection: str, id: str) -> Response:
        entry = services.entry_restore(actor=self.actor(request), collection=collection, id=id)
        return Response({"restored": True, "item": entry.to_dict()})


class ContentDuplicateView(ApiView):
    rules = {"POST": rule(Perm.CONTENT_CREATE)}

    @doc("Copy an item as a new draft", ok=201, tags=TAGS)
    def post(self, request: Request, collection: str, id: str) -> Response:
        entry = services.entry_duplicate(actor=self.actor(request), collection=collection, id=id)
        return Response({"item": entry.to_dict()}, status=201)


class ContentCompareView(ApiView):
    rules = {"GET": rule(Perm.CONTENT_READ_UNPUBLISHED)}

    @doc("Compare the live values with the draft", tags=TAGS)
    def get(self, request: Request, collection: str, id: str) -> Response:
        return Response(selectors.entry_compare(actor=self.actor(request), collection=collection, id=id))


class ContentTranslationsView(ApiView):
    rules = {"GET": rule(Perm.CONTENT_READ)}

    @doc("List the locale variants of an item", tags=TAGS)
    def get(self, request: Request, collection: str, id: str) -> Response:
        return Response(selectors.entry_translations(actor=self.actor(request), collection=collection, id=id))


class ContentRevisionsView(ApiView):
    rules = {"GET": rule(Perm.CONTENT_READ_UNPUBLISHED)}

    @doc("List an item's revisions, newest first", params=filters.openapi_parameters(filters.RevisionFilter), tags=TAGS)
    def get(self, request: Request, collection: str, id: str) -> Response:
        q = filters.parse(filters.RevisionFilter, request)
        return Response(
            selectors.revision_list(actor=self.actor(request), collection=collection, id=id, limit=q.get("limit", 20))
        )


class RevisionRestoreView(ApiView):
    rules = {"POST": rule(Perm.CONTENT_EDIT_OWN)}

    @doc("Make a revision the item's new draft (not published)", tags=TAGS)
    def post(self, request: Request, revision_id: str) -> Response:
        entry = services.revision_restore(actor=self.actor(request), revision_id=revision_id)
        return Response({"item": entry.to_dict(), "_rev": entry.rev})


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
