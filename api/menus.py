"""Menu routes: menus and their ordered, nestable items."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView, body
from api.rules import rule
from api.schema_doc import OBJECT, doc
from emdash.permissions import Perm
from menus import selectors, services

TAGS = ["menus"]


class MenuListView(ApiView):
    rules = {"GET": rule(Perm.MENU_READ), "POST": rule(Perm.MENU_MANAGE)}

    @doc("List menus", tags=TAGS)
    def get(self, request: Request) -> Response:
        return Response({"items": selectors.menu_list(actor=self.actor(request))})

    @doc("Create a menu", ok=201, body=OBJECT, tags=TAGS)
    def post(self, request: Request) -> Response:
        a = body(request, {"name", "label"}, required=("name", "label"))
        menu = services.menu_create(actor=self.actor(request), name=a["name"], label=a["label"])
        return Response(selectors.menu_detail(menu), status=201)


class MenuDetailView(ApiView):
    rules = {"GET": rule(Perm.MENU_READ), "PUT": rule(Perm.MENU_MANAGE), "DELETE": rule(Perm.MENU_MANAGE)}

    @doc("Get a menu with its ordered items", tags=TAGS)
    def get(self, request: Request, name: str) -> Response:
        return Response(selectors.menu_get(actor=self.actor(request), name=name))

    @doc("Rename a menu's label (the name is immutable)", body=OBJECT, tags=TAGS)
    def put(self, request: Request, name: str) -> Response:
        a = body(request, {"label"}, required=("label",))
        return Response(
            selectors.menu_detail(services.menu_update(actor=self.actor(request), name=name, label=a["label"]))
        )

    @doc("Delete a menu and its items", tags=TAGS)
    def delete(self, request: Request, name: str) -> Response:
        services.menu_delete(actor=self.actor(request), name=name)
        return Response({"deleted": True})


class MenuItemsView(ApiView):
    rules = {"PUT": rule(Perm.MENU_MANAGE)}

    @doc("Replace a menu's items atomically ({items: [...]})", body=OBJECT, tags=TAGS)
    def put(self, request: Request, name: str) -> Response:
        a = body(request, {"items"}, required=("items",))
        count = services.menu_set_items(actor=self.actor(request), name=name, items=a["items"])
        return Response({"name": name, "itemCount": count})
