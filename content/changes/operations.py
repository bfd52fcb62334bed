"""``changes_revert`` (SPEC 9.3): one operation, served as an MCP tool and ``POST /_emdash/api/changes/revert``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, WithJsonSchema

from content.changes.services import changes_revert
from emdash.operations import Endpoint, Input, family
from emdash.operations.shapes import BOOLEAN, INTEGER, NULLABLE_STRING, STRING, array, obj
from emdash.permissions import Perm


class By(Input):
    """Exactly one of token, client or user."""

    # The token list shows a personal access token's id as a number: 7, "7" and "pat:7" all name it.
    token: (
        Annotated[
            str | int,
            WithJsonSchema({"type": ["string", "integer"], "description": "Token id, e.g. pat:7"}),
            Field(union_mode="left_to_right"),
        ]
        | None
    ) = None
    client: Annotated[str, Field(description="OAuth client_id", max_length=200)] | None = None
    # Items show a user's id as a number (``authorId``): 7, "7" and the email all name the user.
    user: (
        Annotated[
            Annotated[str, Field(max_length=254)] | int,
            WithJsonSchema({"type": ["string", "integer"], "description": "Email or user id"}),
            Field(union_mode="left_to_right"),
        ]
        | None
    ) = None


class RevertInput(Input):
    by: By
    since: Annotated[str, Field(description="ISO 8601; undo changes from then on", max_length=64)]
    dry_run: bool = Field(True, description="Only list the plan (default)")
    force: bool = Field(False, description="Also revert items others changed since")


PLANNED = obj(
    {
        "collection": STRING,
        "id": STRING,
        "title": NULLABLE_STRING,
        "action": {"type": "string", "enum": ["trash", "untrash", "restore"]},
        "changes": INTEGER,
        "firstChangeAt": STRING,
        "revisionId": STRING,
        "steps": array(STRING),
    },
    ["collection", "id", "action"],
)
SKIPPED = obj({"collection": STRING, "id": STRING, "title": NULLABLE_STRING, "reason": STRING}, ["collection", "id"])
OUTPUT = obj(
    {
        "dryRun": BOOLEAN,
        "by": STRING,
        "since": STRING,
        "items": array(PLANNED),
        "skipped": array(SKIPPED),
        "applied": INTEGER,
    },
    ["dryRun", "items", "skipped", "applied"],
)

family("content", Perm.CONTENT_REVERT_CHANGES, destructive=True)(
    "changes_revert",
    "Undo changes",
    RevertInput,
    changes_revert,
    Endpoint("_emdash/api/changes/revert", "api-changes-revert").post(),
    output=OUTPUT,
    target=lambda args, payload: "" if payload.get("dryRun") else payload.get("by", ""),
    # One audit row per item it changed, as a change set's publish writes: a later undo sees the item moved on.
    item_targets=lambda args, payload: (
        [] if payload.get("dryRun") else [f"{i['collection']}/{i['id']}" for i in payload.get("items", [])]
    ),
).describe(
    "Undo what a token, OAuth client or user did to content since a time (trash what it created, untrash what it "
    "trashed, restore earlier revisions). Dry run by default; dryRun false applies all in one transaction."
)
