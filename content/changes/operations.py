"""``changes_revert`` (SPEC 9.3): one operation, served as an MCP tool and ``POST /_emdash/api/changes/revert``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from content.changes.services import changes_revert
from emdash.operations import Endpoint, Input, family
from emdash.operations.shapes import BOOLEAN, INTEGER, NULLABLE_STRING, STRING, array, obj
from emdash.permissions import Perm


class By(Input):
    """Whose changes: exactly one of the three."""

    token: (
        Annotated[str, Field(description="Token id as the token list shows it, e.g. pat:7", max_length=64)] | None
    ) = None
    client: Annotated[str, Field(description="OAuth client_id", max_length=200)] | None = None
    user: Annotated[str, Field(description="User email or id", max_length=254)] | None = None


class RevertInput(Input):
    by: By
    since: Annotated[str, Field(description="ISO 8601 time; changes at or after it are undone", max_length=64)]
    dry_run: bool = Field(True, description="true (default): only list what would happen")
    force: bool = Field(False, description="Also revert items someone else changed afterwards")


ITEM = obj(
    {
        "collection": STRING,
        "id": STRING,
        "title": NULLABLE_STRING,
        "action": {"type": "string", "enum": ["trash", "untrash", "restore", "skip"]},
        "changes": INTEGER,
        "firstChangeAt": STRING,
        "revisionId": STRING,
        "steps": array(STRING),
        "reason": STRING,
    },
    ["collection", "id", "action", "changes", "firstChangeAt"],
)
OUTPUT = obj(
    {
        "dryRun": BOOLEAN,
        "by": STRING,
        "since": STRING,
        "items": array(ITEM),
        "skipped": array(ITEM),
        "applied": INTEGER,
    },
    ["dryRun", "by", "since", "items", "skipped", "applied"],
)

family("content", Perm.CONTENT_REVERT_CHANGES, destructive=True)(
    "changes_revert",
    "Undo changes",
    RevertInput,
    changes_revert,
    Endpoint("_emdash/api/changes/revert", "api-changes-revert").post(),
    output=OUTPUT,
    target=lambda args, payload: "" if payload.get("dryRun") else payload.get("by", ""),
).describe(
    "Undo what one token, OAuth client or user did to content since a time: trash items it created, restore "
    "items it trashed, restore the revision before its first change. dryRun (default true) lists each item's "
    "plan; false applies all in one transaction. Items others changed since are skipped unless force."
)
