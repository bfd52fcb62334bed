"""The operation table: one record per operation, declared next to its service, checked at start-up.

Every door (MCP tools, REST routes, admin views, task execution, commands) reads the same record, so
an operation's name, permission, input, output and audit action are written once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Literal

from jsonschema import Draft202012Validator

from emdash.operations import shapes
from emdash.operations.schema import Input, check_portable, input_schema
from emdash.operations.single_type import single_type, type_arrays
from emdash.permissions import Perm

# The MCP categories (SPEC 5.5), then the REST-only ones.
CATEGORIES = (
    "content",
    "schema",
    "media",
    "search",
    "taxonomy",
    "menu",
    "byline",
    "revision",
    "settings",
    "audit",
    "account",
    "webhook",
)
# The modules that declare operations; importing one fills TABLE. Add an area's module here.
MODULES = (
    "content.entries.operations",
    "content.changes.operations",
    "content.redirects.operations",
    "content.schema.operations",
    "content.search.operations",
    "media.operations",
    "settings_app.operations",
    "audit.operations",
    "taxonomy.operations",
    "menus.operations",
    "bylines.operations",
    "accounts.token_operations",
    "webhooks.operations",
    "transfer.operations",
    "content.changesets.operations",
)

Payload = dict[str, Any]
# service(actor, input) -> result; present(result, input) -> the payload every door returns.
Service = Callable[..., Any]
Presenter = Callable[[Any, Any], Payload]
Target = Callable[[Any, Any], str]


def itself(result: Any, args: Any) -> Payload:
    """The default presenter: the service's result as it serializes itself (a page, an item) or as a dict."""
    return result.to_dict() if hasattr(result, "to_dict") else dict(result)


@dataclass(frozen=True)
class Route:
    """One REST route of an operation.

    ``path`` is a Django path under the site root whose ``<str:param>`` names are the input's attribute
    names (``revision_id`` fills ``revisionId``). ``args`` says where the rest of the input comes from:
    the query string (``query``), the JSON body (``body``) or nowhere (``path``: the body is ignored).
    """

    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
    path: str
    args: Literal["query", "body", "path"] = "path"
    status: int = 200
    name: str = ""  # the URL name (reverse()); defaults to api-<operation name>


@dataclass(frozen=True)
class Operation:
    name: str
    title: str
    description: str
    category: str
    perm: Perm
    input: type[Input]
    service: Service
    present: Presenter = itself
    output_schema: dict[str, Any] | None = None
    target: Target | None = None  # "posts/01J..." for the audit row
    # More audit rows of the same write, one per target (a change set's publish: one per item it changed).
    item_targets: Callable[[Any, Any], list[str]] | None = None
    routes: tuple[Route, ...] = ()
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    # The service opens its own transactions and must not run inside ours (schema changes on SQLite):
    # the audit row is then written right after it returns instead of in the same transaction.
    atomic: bool = True
    mcp: bool = True  # listed as an MCP tool
    schema: dict[str, Any] = field(init=False, repr=False, compare=False)
    # The output schema as tools/list shows it: shared shapes (emdash.operations.shapes) point to their home.
    listed_output: dict[str, Any] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # One type per schema (SPEC 10, portable schemas): type arrays become anyOf branches here, once.
        object.__setattr__(self, "schema", single_type(input_schema(self.input)))
        marked = None if self.output_schema is None else single_type(self.output_schema)
        object.__setattr__(self, "listed_output", None if marked is None else shapes.listed(marked, self.name))
        object.__setattr__(self, "output_schema", None if marked is None else shapes.full(marked))

    @property
    def is_write(self) -> bool:
        """Writes are audited in their own transaction, under the operation's name as the action."""
        return not self.read_only


TABLE: dict[str, Operation] = {}
# Drafts of the compact form (emdash.operations.forms) not yet described: an unfinished declaration.
PENDING: set[Any] = set()
_HOMES: dict[str, set[str]] = {}  # operation -> the home tools of the shared shapes its output holds
_IN_FULL: dict[str, set[str]] = {}  # the same, only the shapes it holds in full (copies left out)


def _check(op: Operation) -> None:
    if op.name in TABLE:
        raise ValueError(f"Duplicate operation name: {op.name}")
    if op.category not in CATEGORIES:
        raise ValueError(f"Operation {op.name}: unknown category {op.category!r}")
    Draft202012Validator.check_schema(op.schema)
    if op.schema.get("type") != "object" or op.schema.get("additionalProperties") is not False:
        raise ValueError(f"Operation {op.name}: input must be an object schema with additionalProperties false")
    check_portable(op.schema, op.name)
    for schema in (op.schema, op.output_schema):
        if arrays := type_arrays(schema):
            raise ValueError(f"Operation {op.name}: type arrays left at {', '.join(arrays)} (use one type per schema)")
    if op.output_schema is not None:
        Draft202012Validator.check_schema(op.output_schema)
        if op.output_schema.get("type") != "object":
            raise ValueError(f"Operation {op.name}: output schema must describe an object")
    if op.routes and op.output_schema is None:
        raise ValueError(f"Operation {op.name}: a REST route needs an output schema (its OpenAPI response)")
    fields = set(op.input.model_fields)
    for route in op.routes:
        for param in _path_params(route.path):
            if param not in fields:
                raise ValueError(f"Operation {op.name}: path parameter {param!r} is not an input field")


def _path_params(path: str) -> list[str]:
    import re

    return re.findall(r"<(?:\w+:)?(\w+)>", path)


def declare(**fields: Any) -> Operation:
    """Add one operation to the table (checked now, so a bad record fails at import/start-up)."""
    op = Operation(**fields)
    _check(op)
    TABLE[op.name] = op
    _HOMES[op.name] = shapes.homes(fields.get("output_schema"))
    _IN_FULL[op.name] = shapes.homes(fields.get("output_schema"), in_full=True)
    return op


_loaded = False


def _check_homes() -> None:
    """A shared output shape must live in full in an MCP tool, or the pointers to it lead nowhere."""
    for name, pointed in _HOMES.items():
        for home in pointed:
            if home not in TABLE or not TABLE[home].mcp or home not in _IN_FULL[home]:
                raise ValueError(f"Operation {name}: shared output shape's home {home!r} does not list it")


def load() -> dict[str, Operation]:
    """Import every declaring module once; the table is complete afterwards."""
    global _loaded
    if not _loaded:
        for module in MODULES:
            import_module(module)
        _check_homes()
        if PENDING:
            raise ValueError(f"{len(PENDING)} operation draft(s) never described: add .describe(...)")
        _loaded = True
    return TABLE


def operations() -> Iterator[Operation]:
    yield from load().values()


def get(name: str) -> Operation | None:
    return load().get(name)


def path_params(route: Route) -> list[str]:
    return _path_params(route.path)
