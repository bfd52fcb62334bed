"""Schema routes: collections and their fields."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView, body
from api.rules import rule
from api.schema_doc import OBJECT, doc
from content import schema_services
from emdash.permissions import Perm

TAGS = ["schema"]
FIELD_KEYS = {
    "slug",
    "label",
    "type",
    "required",
    "unique",
    "defaultValue",
    "validation",
    "options",
    "searchable",
    "translatable",
}


class CollectionListView(ApiView):
    rules = {"GET": rule(Perm.SCHEMA_READ), "POST": rule(Perm.SCHEMA_WRITE)}

    @doc("List collections", tags=TAGS)
    def get(self, request: Request) -> Response:
        specs = schema_services.collection_list(actor=self.actor(request))
        return Response({"items": [spec.as_dict(with_fields=False) for spec in specs]})

    @doc("Create a collection (and its table)", ok=201, body=OBJECT, tags=TAGS)
    def post(self, request: Request) -> Response:
        a = body(
            request, {"slug", "label", "labelSingular", "description", "icon", "supports"}, required=("slug", "label")
        )
        spec = schema_services.collection_create(
            actor=self.actor(request),
            slug=a["slug"],
            label=a["label"],
            label_singular=a.get("labelSingular"),
            description=a.get("description"),
            icon=a.get("icon"),
            supports=a.get("supports"),
        )
        return Response(spec.as_dict(), status=201)


class CollectionDetailView(ApiView):
    rules = {"GET": rule(Perm.SCHEMA_READ), "DELETE": rule(Perm.SCHEMA_WRITE)}

    @doc("Get a collection with its fields", tags=TAGS)
    def get(self, request: Request, slug: str) -> Response:
        return Response(schema_services.collection_get(actor=self.actor(request), slug=slug).as_dict())

    @doc("Delete a collection; ?force=true when it has content", tags=TAGS)
    def delete(self, request: Request, slug: str) -> Response:
        force = request.query_params.get("force", "").lower() in {"1", "true", "yes"}
        schema_services.collection_delete(actor=self.actor(request), slug=slug, force=force)
        return Response({"deleted": slug})


class FieldListView(ApiView):
    rules = {"POST": rule(Perm.SCHEMA_WRITE)}

    @doc("Add a field (a new column)", ok=201, body=OBJECT, tags=TAGS)
    def post(self, request: Request, slug: str) -> Response:
        a = body(request, FIELD_KEYS, required=("slug", "label", "type"))
        field = schema_services.field_create(
            actor=self.actor(request),
            collection=slug,
            slug=a["slug"],
            label=a["label"],
            type=a["type"],
            required=a.get("required", False),
            unique=a.get("unique", False),
            default_value=a.get("defaultValue"),
            validation=a.get("validation"),
            options=a.get("options"),
            searchable=a.get("searchable", False),
            translatable=a.get("translatable", True),
        )
        return Response(field.as_dict(), status=201)


class FieldDetailView(ApiView):
    rules = {"DELETE": rule(Perm.SCHEMA_WRITE)}

    @doc("Remove a field (drops its column)", tags=TAGS)
    def delete(self, request: Request, slug: str, field_slug: str) -> Response:
        schema_services.field_delete(actor=self.actor(request), collection=slug, field_slug=field_slug)
        return Response({"deleted": field_slug, "collection": slug})
