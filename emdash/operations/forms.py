"""The compact declaration form: an operation in a few lines of its area's ``operations.py``.

``family(category, perm, **shared)`` binds what a group of operations shares (flag presets such as ``READ``,
a presenter, an output schema, an audit target); calling it with the facts every operation has —
name, title, input model, service, then its REST routes — gives a ``Draft``, and ``.describe(text)``
declares it::

    read = family("menu", Perm.MENU_READ, **READ)
    read("menu_get", "Get menu", NameInput, selectors.menu_get, ONE.get(), output=MENU).describe(
        "Get a menu with its items in order ..."
    )

Routes come from an ``Endpoint``: one URL path with its one URL name (``reverse()``), so the name is
written once per path rather than once per method.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from emdash.operations.record import PENDING, Operation, Presenter, Route, Service, Target, declare
from emdash.operations.schema import Input
from emdash.operations.shapes import BOOLEAN, obj
from emdash.permissions import Perm

# Flag presets: a read changes nothing and may be repeated; a delete cannot be undone.
READ: dict[str, Any] = {"read_only": True, "idempotent": True}
DELETED = obj({"deleted": BOOLEAN}, ["deleted"])


def deleted(result: Any, args: Any) -> dict[str, Any]:
    return {"deleted": True}


def under(key: str) -> Presenter:
    """A presenter answering ``{key: result}`` (``under("items")`` for a list)."""

    def present(result: Any, args: Any) -> dict[str, Any]:
        return {key: result}

    return present


def audit_as(template: str) -> Target:
    """An audit target made from the input's attributes and the answer: ``audit_as("menus/{name}")``,
    ``audit_as("tokens/{payload[token][id]}")``."""

    def target(args: Any, payload: Any) -> str:
        return template.format(payload=payload, **{name: getattr(args, name) for name in type(args).model_fields})

    return target


@dataclass(frozen=True)
class Endpoint:
    """One REST path and its URL name; its methods make the operations' routes on it."""

    path: str
    name: str

    def _route(self, method: Any, args: Any, status: int = 200) -> Route:
        return Route(method, self.path, args=args, status=status, name=self.name)

    def get(self, args: Literal["query", "path"] = "path") -> Route:
        return self._route("GET", args)

    def post(self, args: Literal["body", "path"] = "body", status: int = 200) -> Route:
        return self._route("POST", args, status)

    def put(self) -> Route:
        return self._route("PUT", "body")

    def patch(self) -> Route:
        return self._route("PATCH", "body")

    def delete(self, args: Literal["query", "path"] = "path") -> Route:
        return self._route("DELETE", args)


@dataclass(frozen=True, eq=False)
class Draft:
    """An operation missing only its description."""

    fields: dict[str, Any]

    def __post_init__(self) -> None:
        PENDING.add(self)

    def describe(self, description: str) -> Operation:
        """Declare the operation; ``description`` is what MCP clients and the OpenAPI document show."""
        PENDING.discard(self)
        return declare(description=description, **self.fields)


class Family:
    """Operations of one area sharing a category, a permission and any other keyword of ``Operation``."""

    def __init__(self, shared: dict[str, Any]) -> None:
        self.shared = shared

    def __call__(
        self, name: str, title: str, input: type[Input], service: Service, *routes: Route, **own: Any
    ) -> Draft:
        """A draft of operation ``name``; its own keywords override the family's (``output`` is ``output_schema``)."""
        facts = {"name": name, "title": title, "input": input, "service": service, "routes": routes}
        return Draft({**self.shared, **facts, **_named(own)})

    def but(self, **fields: Any) -> Family:
        """This family with some keywords changed (``own = write.but(perm=Perm.MEDIA_EDIT_OWN)``)."""
        return Family({**self.shared, **_named(fields)})

    def gone(self, name: str, title: str, input: type[Input], service: Service, *routes: Route, **own: Any) -> Draft:
        """A delete: destructive, answered with ``{"deleted": true}``."""
        return self(name, title, input, service, *routes, destructive=True, present=deleted, output=DELETED, **own)


def family(category: str, perm: Perm | None = None, **shared: Any) -> Family:
    """The keywords a group of operations shares, bound once (``output`` is ``output_schema``)."""
    return Family({"category": category, **({"perm": perm} if perm is not None else {}), **_named(shared)})


def _named(fields: dict[str, Any]) -> dict[str, Any]:
    return {("output_schema" if key == "output" else key): value for key, value in fields.items()}
