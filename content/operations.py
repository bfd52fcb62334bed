"""The content operations (16 content + 2 revision): one record each, served by MCP, REST and the admin."""

from __future__ import annotations

from typing import Any

from content import markdown_output, outputs, selectors, services
from content.entry import Entry
from content.hooks import assigned_terms
from content.inputs import (
    CreateInput,
    GetInput,
    ListInput,
    PublishInput,
    RevisionListInput,
    RevisionRestoreInput,
    ScheduleInput,
    Target,
    TrashListInput,
    UpdateInput,
)
from emdash.operations import Route, declare
from emdash.permissions import Perm

C = "_emdash/api/content/<str:collection>"
ITEM_PATH = f"{C}/<str:id>"

# --- presenters and audit targets ---------------------------------------------------------------------------


def _with_terms(entry: Entry) -> dict[str, Any]:
    """The item plus its taxonomy terms (one query)."""
    return {**entry.to_dict(), "terms": assigned_terms(collection=entry.spec.slug, entry_id=entry.id)}


def item_and_rev(entry: Entry, args: Any) -> dict[str, Any]:
    """``{item, _rev}``; the item carries its terms when the caller set some."""
    return {"item": _with_terms(entry) if args.given("terms") else entry.to_dict(), "_rev": entry.rev}


def _item_only(entry: Entry, args: Any) -> dict[str, Any]:
    return {"item": entry.to_dict()}


def _deleted(result: None, args: Any) -> dict[str, Any]:
    return {"deleted": True}


def _as_dict(result: Any, args: Any) -> dict[str, Any]:
    return result.to_dict() if hasattr(result, "to_dict") else dict(result)


def _list(*, markdown: bool = False, **kwargs: Any) -> Any:
    """content_list; with ``markdown`` the summaries carry the long fields, rich text as Markdown."""
    if kwargs.get("filter") is not None:
        kwargs["filter"] = kwargs["filter"].model_dump(by_alias=True, exclude_none=True)
    page = selectors.entry_list(**kwargs, full=markdown)
    if markdown:
        markdown_output.convert(kwargs["collection"], page.items)
    return page


def _get(*, markdown: bool = False, **kwargs: Any) -> Entry:
    return selectors.entry_get(**kwargs)


def _present_get(entry: Entry, args: Any) -> dict[str, Any]:
    item = _with_terms(entry)
    if args.markdown:
        markdown_output.convert(entry.spec.slug, [item])
    return {"item": item, "_rev": entry.rev}


def _item_target(args: Any, payload: dict[str, Any]) -> str:
    item = payload.get("item") or {}
    return f"{item.get('collection', getattr(args, 'collection', ''))}/{item.get('id', getattr(args, 'id', ''))}"


def _args_target(args: Any, payload: dict[str, Any]) -> str:
    return f"{args.collection}/{args.id}"


def _content(name: str, **fields: Any) -> None:
    declare(name=name, category=fields.pop("category", "content"), **fields)


def _item_action(name: str, service: Any, *, path: str, description: str, **fields: Any) -> None:
    """A write on one item (``collection`` + ``id``) answered with ``{item}``."""
    body = fields.pop("input", None)
    _content(
        name,
        perm=fields.pop("perm", Perm.CONTENT_EDIT_OWN),
        description=description,
        input=body or Target,
        service=service,
        present=fields.pop("present", _item_only),
        output_schema=fields.pop("output_schema", outputs.ITEM_ONLY),
        target=_args_target,
        routes=(
            Route(
                "POST",
                f"{ITEM_PATH}/{path}",
                args="body" if body else "path",
                status=fields.pop("status", 200),
                name=f"api-content-{path}",
            ),
        ),
        **fields,
    )


# --- reads ----------------------------------------------------------------------------------------------------

_content(
    "content_list",
    title="List content",
    perm=Perm.CONTENT_READ,
    read_only=True,
    idempotent=True,
    description="List a collection's items, newest first by default, as summaries without long text and "
    "rich-text fields (markdown: true adds them). content_get gives one in full; search finds items by words.",
    input=ListInput,
    service=_list,
    present=_as_dict,
    output_schema=outputs.page_of(outputs.SUMMARY),
    routes=(Route("GET", C, args="query", name="api-content-list"),),
)
_content(
    "content_get",
    title="Get content item",
    perm=Perm.CONTENT_READ,
    read_only=True,
    idempotent=True,
    description="Get one item in full: every field value, metadata, liveData when a draft is pending, and _rev "
    "for content_update.",
    input=GetInput,
    service=_get,
    present=_present_get,
    output_schema=outputs.ITEM_WITH_REV,
    routes=(Route("GET", ITEM_PATH, args="query", name="api-content-detail"),),
)
_content(
    "content_compare",
    title="Compare draft and live",
    perm=Perm.CONTENT_READ_UNPUBLISHED,
    read_only=True,
    idempotent=True,
    description="Show an item's live (published) values next to its pending draft: {hasChanges, live, draft}.",
    input=Target,
    service=selectors.entry_compare,
    present=_as_dict,
    output_schema=outputs.COMPARE,
    routes=(Route("GET", f"{ITEM_PATH}/compare", name="api-content-compare"),),
)
_content(
    "content_list_trashed",
    title="List trash",
    perm=Perm.CONTENT_READ_UNPUBLISHED,
    read_only=True,
    idempotent=True,
    description="List a collection's trashed items, most recently deleted first (content_restore brings one back).",
    input=TrashListInput,
    service=selectors.entry_list_trashed,
    present=_as_dict,
    output_schema=outputs.page_of(outputs.SUMMARY),
    routes=(Route("GET", f"{C}/trash", args="query", name="api-content-trash"),),
)
_content(
    "content_translations",
    title="List translations",
    perm=Perm.CONTENT_READ,
    read_only=True,
    idempotent=True,
    description="List an item's locale variants (its translation group): id, locale, slug and status of each.",
    input=Target,
    service=selectors.entry_translations,
    present=_as_dict,
    output_schema=outputs.TRANSLATIONS,
    routes=(Route("GET", f"{ITEM_PATH}/translations", name="api-content-translations"),),
)

# --- writes ---------------------------------------------------------------------------------------------------

_content(
    "content_create",
    title="Create content item",
    perm=Perm.CONTENT_CREATE,
    description="Create an item. data keys are the collection's field slugs (schema_get_collection); rich-text "
    "fields accept Markdown; images must be this site's media (media_upload first). slug defaults to one made "
    "from the title.",
    input=CreateInput,
    service=services.entry_create,
    present=item_and_rev,
    output_schema=outputs.ITEM_WITH_REV,
    target=_item_target,
    routes=(Route("POST", C, args="body", status=201, name="api-content-list"),),
)
_content(
    "content_update",
    title="Update content item",
    perm=Perm.CONTENT_EDIT_OWN,
    description="Change an item; send only what changes (rich-text fields accept Markdown). Editing a published "
    "item makes a draft that goes live on content_publish.",
    input=UpdateInput,
    service=services.entry_update,
    present=item_and_rev,
    output_schema=outputs.ITEM_WITH_REV,
    target=_item_target,
    routes=(Route("PUT", ITEM_PATH, args="body", name="api-content-detail"),),
)
_content(
    "content_delete",
    title="Move content to trash",
    perm=Perm.CONTENT_EDIT_OWN,
    destructive=True,
    description="Move an item to the trash; content_restore undoes it, content_permanent_delete makes it final.",
    input=Target,
    service=services.entry_trash,
    present=_deleted,
    output_schema=outputs.DELETED,
    target=_args_target,
    routes=(Route("DELETE", ITEM_PATH, name="api-content-detail"),),
)
_content(
    "content_permanent_delete",
    title="Delete permanently",
    perm=Perm.CONTENT_DELETE_PERMANENT,
    destructive=True,
    description="Irreversibly delete a trashed item (content_delete first) and its revisions.",
    input=Target,
    service=services.entry_delete_permanently,
    present=_deleted,
    output_schema=outputs.DELETED,
    target=_args_target,
    routes=(Route("DELETE", f"{ITEM_PATH}/permanent", name="api-content-permanent"),),
)
_item_action(
    "content_publish",
    services.entry_publish,
    path="publish",
    title="Publish content",
    description="Publish an item: the current draft (values, slug, SEO) goes live; a moved URL redirects. "
    "publishedAt sets the shown date (migrations).",
    input=PublishInput,
    idempotent=True,
)
_item_action(
    "content_unpublish",
    services.entry_unpublish,
    path="unpublish",
    title="Unpublish content",
    description="Take a published item off the site; it becomes a draft and keeps its content.",
    idempotent=True,
)
_item_action(
    "content_unschedule",
    services.entry_unschedule,
    path="unschedule",
    title="Cancel scheduled publishing",
    description="Cancel an item's scheduled publish (an item with none is returned unchanged).",
    idempotent=True,
)
_item_action(
    "content_discard_draft",
    services.entry_discard_draft,
    path="discard-draft",
    title="Discard draft",
    description="Drop an item's pending draft and go back to its live version (items published before).",
    destructive=True,
    idempotent=True,
)
_item_action(
    "content_restore",
    services.entry_restore,
    path="restore",
    title="Restore from trash",
    description="Bring a trashed item back (see content_list_trashed).",
    present=lambda entry, args: {"restored": True, "item": entry.to_dict()},
    output_schema=outputs.RESTORED,
)
_item_action(
    "content_duplicate",
    services.entry_duplicate,
    path="duplicate",
    title="Duplicate content",
    description="Copy an item as a new draft; the title gets ' (Copy)' and the slug is new.",
    perm=Perm.CONTENT_CREATE,
    status=201,
)
_content(
    "content_schedule",
    title="Schedule publishing",
    perm=Perm.CONTENT_EDIT_OWN,
    description="Publish an item automatically at scheduledAt (content_unschedule cancels). A published item "
    "keeps its live version until then, when its draft goes live.",
    input=ScheduleInput,
    service=services.entry_schedule,
    present=_item_only,
    output_schema=outputs.ITEM_ONLY,
    target=_args_target,
    routes=(Route("POST", f"{ITEM_PATH}/schedule", args="body", name="api-content-schedule"),),
)

# --- revisions ------------------------------------------------------------------------------------------------

_content(
    "revision_list",
    category="revision",
    title="List revisions",
    perm=Perm.CONTENT_READ_UNPUBLISHED,
    read_only=True,
    idempotent=True,
    description="List an item's saved revisions, newest first, with the values each held (revision_restore "
    "brings one back).",
    input=RevisionListInput,
    service=selectors.revision_list,
    present=_as_dict,
    output_schema=outputs.REVISIONS,
    routes=(Route("GET", f"{ITEM_PATH}/revisions", args="query", name="api-content-revisions"),),
)
_content(
    "revision_restore",
    category="revision",
    title="Restore revision",
    perm=Perm.CONTENT_EDIT_OWN,
    description="Make a revision's values the item's new draft; content_publish makes it live.",
    input=RevisionRestoreInput,
    service=services.revision_restore,
    present=lambda entry, args: {"item": entry.to_dict(), "_rev": entry.rev},
    output_schema=outputs.ITEM_WITH_REV,
    target=_item_target,
    routes=(Route("POST", "_emdash/api/revisions/<str:revision_id>/restore", name="api-revision-restore"),),
)
