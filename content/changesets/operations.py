"""The change set operations (SPEC 9.2): nine MCP tools, each also a REST route under /_emdash/api/changesets."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from content.changesets import publishing, selectors, services
from content.changesets.presenters import changeset_dict
from content.changesets.publishing import Outcome
from emdash.operations import READ, Cursor, Endpoint, Input, WholeNumber, audit_as, family, limit, reference
from emdash.operations.shapes import BOOLEAN, INTEGER, STRING, array, obj, page_of, shared
from emdash.permissions import Perm

API = "_emdash/api/changesets"
SetId = Annotated[str, reference("Change set id", 26)]
Collection = Annotated[str, reference("Collection slug", 63)]
Item = Annotated[str, reference("Item id or slug", 200)]

PERSON = obj({"id": STRING, "email": STRING, "name": STRING})
CHANGESET = obj(
    {
        "id": STRING,
        "title": STRING,
        "description": STRING,
        "state": STRING,
        "comment": STRING,
        "entryCount": INTEGER,
        "creator": PERSON,
        "reviewer": PERSON,
        "scheduledAt": STRING,
        "submittedAt": STRING,
        "reviewedAt": STRING,
        "publishedAt": STRING,
        "revertedAt": STRING,
        "failure": {"type": "object", "description": "Why a scheduled publish failed"},
        "createdAt": STRING,
        "updatedAt": STRING,
    },
    ["id", "title", "state"],
    "A change set: open, submitted, approved, published, rejected or cancelled",
)
ENTRY = obj(
    {
        "collection": STRING,
        "id": STRING,
        "action": STRING,
        "item": obj({"id": STRING, "slug": STRING, "title": STRING, "status": STRING}),
        "pinnedRevisionId": STRING,
        "changedSincePinned": BOOLEAN,
        "diff": array(
            obj(
                {
                    "field": STRING,
                    "live": {"description": "The live value (any JSON; null when not live)"},
                    "draft": {"description": "The proposed value (any JSON)"},
                },
                ["field"],
            )
        ),
        "problems": {"type": "object", "additionalProperties": STRING},
        "urls": array(STRING),
    },
    ["collection", "id", "action"],
)
# Listed in full by changeset_list; every other tool's result points to it (tools/list stays small).
SET = shared(CHANGESET, "changeset_list", "items")
ONE = obj({"changeset": SET}, ["changeset"])
DETAIL = obj({"changeset": SET, "entries": array(ENTRY)}, ["changeset", "entries"])
SKIPPED = array(obj({"item": STRING, "reason": STRING}, ["item", "reason"]))
PUBLISHED = obj({"changeset": CHANGESET, "published": array(STRING), "scheduled": BOOLEAN}, ["changeset", "published"])
REVERTED = obj({"changeset": SET, "reverted": array(STRING), "skipped": SKIPPED}, ["changeset", "reverted"])


class CreateInput(Input):
    title: str = Field(description="What the changes are for", min_length=1, max_length=200)
    description: str | None = Field(None, description="Notes for the reviewer", max_length=5000)


class ListInput(Input):
    state: Literal["open", "submitted", "approved", "published", "rejected", "cancelled"] | None = Field(
        None, description="Only sets in this state (submitted: the review queue)"
    )
    limit: WholeNumber = limit(50, 100)
    cursor: Cursor | None = None


class IdInput(Input):
    id: SetId


class AddInput(IdInput):
    collection: Collection
    item: Item
    action: Literal["publish", "unpublish", "delete"] | None = Field(
        None, description="publish (the current draft, pinned now; default), unpublish or delete (to trash)"
    )


class RemoveInput(IdInput):
    collection: Collection
    item: Item


class ReviewInput(IdInput):
    decision: Literal["approve", "reject"] = Field(description="approve or reject")
    comment: str | None = Field(None, description="Why (shown to the author)", max_length=5000)


class PublishInput(IdInput):
    scheduled_at: str | None = Field(
        None, description="Publish at this ISO 8601 time instead of now (the worker does it)", max_length=64
    )


class RevertInput(IdInput):
    force: bool | None = Field(None, description="Also revert items edited since the set was published")


def _one(result: Any, args: Any) -> dict[str, Any]:
    return {"changeset": changeset_dict(result)}


def _detail(result: dict[str, Any], args: Any) -> dict[str, Any]:
    return {"changeset": {k: v for k, v in result.items() if k != "entries"}, "entries": result["entries"]}


def _published(result: Outcome, args: Any) -> dict[str, Any]:
    return {"changeset": changeset_dict(result.changeset), "published": result.items, "scheduled": result.scheduled}


def _reverted(result: Outcome, args: Any) -> dict[str, Any]:
    return {"changeset": changeset_dict(result.changeset), "reverted": result.items, "skipped": result.skipped}


def _items(args: Any, payload: dict[str, Any]) -> list[str]:
    return list(payload.get("published") or payload.get("reverted") or [])


def _created_target(args: Any, payload: dict[str, Any]) -> str:
    return f"changesets/{payload['changeset']['id']}"


SETS = Endpoint(API, "api-changesets")
ONE_SET = Endpoint(f"{API}/<str:id>", "api-changeset")
ENTRIES = Endpoint(f"{API}/<str:id>/entries", "api-changeset-entries")
ONE_ENTRY = Endpoint(f"{API}/<str:id>/entries/<str:collection>/<str:item>", "api-changeset-entry")


def _action(verb: str) -> Any:
    """``POST .../{id}/<verb>``; the rest of the input (if any) in the JSON body."""
    return Endpoint(f"{API}/<str:id>/{verb}", f"api-changeset-{verb}").post("path" if verb == "submit" else "body")


read = family("content", Perm.CHANGESET_READ, **READ)
propose = family("content", Perm.CHANGESET_PROPOSE, present=_one, output=ONE, target=audit_as("changesets/{id}"))

read(
    "changeset_list",
    "List change sets",
    ListInput,
    selectors.changeset_list,
    SETS.get("query"),
    output=page_of(shared(CHANGESET, "changeset_list", "items")),
).describe("List change sets, newest first; state=submitted is the review queue.")
read(
    "changeset_get",
    "Get change set",
    IdInput,
    selectors.changeset_get,
    ONE_SET.get(),
    present=_detail,
    output=DETAIL,
).describe(
    "A change set with each entry's action, field diff of draft vs live, problems that block it and public URLs."
)
propose(
    "changeset_create",
    "Create change set",
    CreateInput,
    services.changeset_create,
    SETS.post(status=201),
    target=_created_target,
).describe(
    "Start a change set: changes proposed together, reviewed by an editor, then published at once. "
    "Add items with changeset_add."
)
propose(
    "changeset_add", "Add item to change set", AddInput, services.changeset_add, ENTRIES.post(), idempotent=True
).describe("Add an item you may edit to an open set; publish pins its current draft (adding again re-pins).")
propose(
    "changeset_remove",
    "Remove item from change set",
    RemoveInput,
    services.changeset_remove,
    ONE_ENTRY.delete(),
    idempotent=True,
).describe("Take an item out of an open set.")
propose("changeset_submit", "Submit change set", IdInput, services.changeset_submit, _action("submit")).describe(
    "Ask for review (drafts are pinned again). Items with problems (required, broken references) block it."
)
propose(
    "changeset_review",
    "Review change set",
    ReviewInput,
    services.changeset_review,
    _action("review"),
    perm=Perm.CHANGESET_REVIEW,
).describe("Approve or reject a submitted set with a comment; editor+, never your own set.")
propose(
    "changeset_publish",
    "Publish change set",
    PublishInput,
    publishing.changeset_publish,
    _action("publish"),
    perm=Perm.CHANGESET_PUBLISH,
    present=_published,
    output=PUBLISHED,
    item_targets=_items,
).describe(
    "Publish an approved set: every entry in one transaction, all or none; CONFLICT names items changed "
    "since. scheduledAt publishes it later."
)
propose(
    "changeset_revert",
    "Revert change set",
    RevertInput,
    publishing.changeset_revert,
    _action("revert"),
    perm=Perm.CHANGESET_PUBLISH,
    present=_reverted,
    output=REVERTED,
    item_targets=_items,
    destructive=True,
).describe("Undo a published set in one transaction; items edited since are skipped and listed unless force.")
