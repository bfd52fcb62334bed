"""The redirect operations: list, create and delete the public site's 301s (MCP, REST, admin)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from content import redirects
from emdash.operations import Cursor, Input, Route, WholeNumber, family, limit, reference
from emdash.operations.shapes import shared
from emdash.permissions import Perm

PATH = "_emdash/api/redirects"
# Listed in full by redirect_list (its items), pointed to by redirect_create.
REDIRECT = shared(
    {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "source": {"type": "string"},
            "target": {"type": "string"},
            "kind": {"type": "string", "enum": ["auto", "manual"]},
            "collection": {"type": ["string", "null"]},
            "entryId": {"type": ["string", "null"]},
            "createdAt": {"type": ["string", "null"]},
        },
        "required": ["id", "source", "target", "kind"],
    },
    "redirect_list",
    "items[]",
)


class ListInput(Input):
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None


class CreateInput(Input):
    source: str = Field(description="Old local path, e.g. /posts/old-slug/", min_length=1, max_length=500)
    target: str = Field(description="Local path to send visitors to", min_length=1, max_length=2048)


class IdInput(Input):
    redirect_id: Annotated[str, reference("Redirect ID (redirect_list)", 26)]


_redirect = family(category="content")
_redirect(
    name="redirect_list",
    title="List redirects",
    description="List the site's 301 redirects (old path to new), by source path.",
    perm=Perm.REDIRECTS_READ,
    input=ListInput,
    service=redirects.redirect_list,
    output_schema={
        "type": "object",
        "properties": {"items": {"type": "array", "items": REDIRECT}, "nextCursor": {"type": "string"}},
        "required": ["items"],
    },
    read_only=True,
    idempotent=True,
    routes=(Route("GET", PATH, args="query", name="api-redirects"),),
)
_redirect(
    name="redirect_create",
    title="Create redirect",
    description="Redirect an old local path to another local path (301).",
    perm=Perm.REDIRECTS_MANAGE,
    input=CreateInput,
    service=redirects.redirect_create,
    output_schema=REDIRECT,
    target=lambda args, payload: f"redirects/{payload.get('id', '')}",
    routes=(Route("POST", PATH, args="body", status=201, name="api-redirects"),),
)


def _deleted(result: Any, args: Any) -> dict[str, Any]:
    return {"deleted": True}


_redirect(
    name="redirect_delete",
    title="Delete redirect",
    description="Delete a redirect; its old path answers 404 again.",
    perm=Perm.REDIRECTS_MANAGE,
    input=IdInput,
    service=redirects.redirect_delete,
    present=_deleted,
    output_schema={"type": "object", "properties": {"deleted": {"type": "boolean"}}, "required": ["deleted"]},
    target=lambda args, payload: f"redirects/{args.redirect_id}",
    destructive=True,
    routes=(Route("DELETE", f"{PATH}/<str:redirect_id>", name="api-redirect"),),
)
