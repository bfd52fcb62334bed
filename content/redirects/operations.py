"""The redirect operations: list, create and delete the public site's 301s (MCP, REST, admin)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from content.redirects import services as redirects
from emdash.operations import READ, Cursor, Endpoint, Input, WholeNumber, audit_as, family, limit, reference
from emdash.operations.shapes import NULLABLE_STRING, STRING, obj, page_of, shared
from emdash.permissions import Perm

PATH = "_emdash/api/redirects"
# Listed in full by redirect_list (its items), pointed to by redirect_create.
REDIRECT = shared(
    obj(
        {
            "id": STRING,
            "source": STRING,
            "target": STRING,
            "kind": {"type": "string", "enum": ["auto", "manual"]},
            "collection": NULLABLE_STRING,
            "entryId": NULLABLE_STRING,
            "createdAt": NULLABLE_STRING,
        },
        ["id", "source", "target", "kind"],
    ),
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


REDIRECTS = Endpoint(PATH, "api-redirects")
ONE = Endpoint(f"{PATH}/<str:redirect_id>", "api-redirect")
manage = family("content", Perm.REDIRECTS_MANAGE)

family("content", Perm.REDIRECTS_READ, **READ)(
    "redirect_list",
    "List redirects",
    ListInput,
    redirects.redirect_list,
    REDIRECTS.get("query"),
    output=page_of(REDIRECT),
).describe("List the site's 301 redirects (old path to new), by source path.")
manage(
    "redirect_create",
    "Create redirect",
    CreateInput,
    redirects.redirect_create,
    REDIRECTS.post(status=201),
    output=REDIRECT,
    target=audit_as("redirects/{payload[id]}"),
).describe("Redirect an old local path to another local path (301).")
manage.gone(
    "redirect_delete",
    "Delete redirect",
    IdInput,
    redirects.redirect_delete,
    ONE.delete(),
    target=audit_as("redirects/{redirect_id}"),
).describe("Delete a redirect; its old path answers 404 again.")
