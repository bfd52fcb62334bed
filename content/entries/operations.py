"""The content operations (16 content + 2 revision): one record each, served by MCP, REST and the admin."""

from __future__ import annotations

from typing import Any, Literal

from content.entries import item_cache, markdown_output, outputs, projection, selectors, services
from content.entries import rows as entry_rows
from content.entries.entry import Entry, EntryRows
from content.entries.inputs import (
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
from content.hooks import row_terms, rows_credits
from content.schema import specs as schema
from emdash.operations import READ, Endpoint, Route, audit_as, family
from emdash.operations.shapes import page_of
from emdash.permissions import Perm

C = "_emdash/api/content/<str:collection>"
ITEM_PATH = f"{C}/<str:id>"

# --- presenters and audit targets ---------------------------------------------------------------------------


def _with_terms(entry: Entry) -> dict[str, Any]:
    """The item plus its taxonomy terms and credits (read with the row by content_get, else a query each)."""
    return {**entry.to_dict(), "terms": row_terms(entry.spec.slug, entry.row), **_credits(entry)}


def _credited(entry: Entry) -> dict[str, Any]:
    """The item with its credits, as every answer carrying an item shows it (SPEC 10)."""
    return {**entry.to_dict(), **_credits(entry)}


def _credits(entry: Entry) -> dict[str, Any]:
    """``{bylines, byline}`` when a bylines app is installed, else nothing."""
    entry_rows.read_credits(entry.spec, entry.row)
    found = rows_credits(entry.spec.slug, [entry.row])
    return dict(found[0]) if found else {}


def item_and_rev(entry: Entry, args: Any) -> dict[str, Any]:
    """``{item, _rev}``; the item carries its terms when the caller set some, and always its credits."""
    item = _with_terms(entry) if args.given("terms") else _credited(entry)
    return {"item": item, "_rev": entry.rev}


def _item_only(entry: Entry, args: Any) -> dict[str, Any]:
    """A lifecycle action's item (publish, unpublish, schedule, duplicate...), with its credits as every item has."""
    return {"item": _credited(entry)}


def _list(*, markdown: bool = False, fields: list[str] | None = None, **kwargs: Any) -> EntryRows:
    """content_list; with ``markdown`` the summaries carry the long fields (made Markdown by the presenter), as
    they do when ``fields`` names some (checked first: an unknown name reads nothing)."""
    if fields is not None:
        projection.check(schema.get_collection(kwargs["collection"]), fields)
    if kwargs.get("filter") is not None:
        kwargs["filter"] = kwargs["filter"].model_dump(by_alias=True, exclude_none=True)
    return selectors.entry_list(**kwargs, full=markdown or fields is not None)


def _present_list(found: EntryRows, args: Any) -> dict[str, Any]:
    page = found.present()
    projection.project(page.items, projection.check(found.spec, args.fields))
    if args.markdown:
        markdown_output.convert(found.spec.slug, page.items)
    return page.to_dict()


def _get(
    *, actor: Any, collection: str, id: str, locale: str | None = None, markdown: bool = False, fields: Any = None
) -> item_cache.Presented | dict[str, Any]:
    """content_get, presented here: the answer is kept per process behind the change stamps (item_cache)."""
    if fields is not None:
        projection.check(schema.get_collection(collection), fields)

    def build() -> dict[str, Any]:
        entry = selectors.entry_get(actor=actor, collection=collection, id=id, locale=locale)
        return _present_entry(entry, fields, markdown)

    variant = (tuple(fields) if fields is not None else None, markdown)
    return item_cache.get(actor, collection, id, locale, variant, build)


def _present_entry(entry: Entry, fields: Any, markdown: bool) -> dict[str, Any]:
    item = _with_terms(entry)
    projection.project([item], projection.check(entry.spec, fields))
    if markdown:
        markdown_output.convert(entry.spec.slug, [item])
    return {"item": item, "_rev": entry.rev}


def _present_get(found: Any, args: Any) -> dict[str, Any]:
    if isinstance(found, item_cache.Presented):
        return found.payload()
    if isinstance(found, Entry):  # a service swapped in (tests) hands over the entry itself
        return _present_entry(found, args.fields, args.markdown)
    return dict(found)


def _item_target(args: Any, payload: dict[str, Any]) -> str:
    item = payload.get("item") or {}
    return f"{item.get('collection', getattr(args, 'collection', ''))}/{item.get('id', getattr(args, 'id', ''))}"


def _restored(entry: Entry, args: Any) -> dict[str, Any]:
    return {"restored": True, "item": _credited(entry)}


def _item_with_rev(entry: Entry, args: Any) -> dict[str, Any]:
    """A restored item with its credits (the revision's, when it kept them), and the media it left out."""
    out: dict[str, Any] = {"item": _credited(entry), "_rev": entry.rev}
    if entry.dropped_media:
        named = ", ".join(f"{d['field']} ({d['mediaId']})" for d in entry.dropped_media)
        out["droppedMedia"] = entry.dropped_media
        out["note"] = f"Restored without media deleted since the revision was saved: {named}."
    return out


LIST = Endpoint(C, "api-content-list")
ITEM = Endpoint(ITEM_PATH, "api-content-detail")


def _at(path: str, args: Literal["query", "path"] = "path") -> Route:
    """GET .../<id>/<path> (URL name api-content-<path>)."""
    return Endpoint(f"{ITEM_PATH}/{path}", f"api-content-{path}").get(args)


def _action(path: str, args: Literal["body", "path"] = "path", status: int = 200) -> Route:
    """POST .../<id>/<path>: an action on one item (URL name api-content-<path>)."""
    return Endpoint(f"{ITEM_PATH}/{path}", f"api-content-{path}").post(args, status)


read = family("content", Perm.CONTENT_READ, **READ)
unpublished = read.but(perm=Perm.CONTENT_READ_UNPUBLISHED)
edit = family("content", Perm.CONTENT_EDIT_OWN, present=item_and_rev, output=outputs.ITEM_WITH_REV, target=_item_target)
# Actions on one item (collection + id) answer {item}.
act = edit.but(present=_item_only, output=outputs.ITEM_ONLY, target=audit_as("{collection}/{id}"))
# Actions the public sees (SPEC 9.1): content:write only, never content:draft.
go_live = act.but(perm=Perm.CONTENT_GO_LIVE)

# --- reads ----------------------------------------------------------------------------------------------------

read(
    "content_list",
    "List content",
    ListInput,
    _list,
    LIST.get("query"),
    present=_present_list,
    output=page_of(outputs.SUMMARY),
).describe(
    "List a collection's items, newest first by default, as summaries without long text and rich-text fields "
    "(markdown: true adds them). content_get gives one in full; search finds items by words."
)
read(
    "content_get",
    "Get content item",
    GetInput,
    _get,
    ITEM.get("query"),
    present=_present_get,
    output=outputs.ITEM_WITH_REV,
).describe(
    "Get one item in full: every field value, metadata, liveData when a draft is pending, and _rev for content_update."
)
unpublished(
    "content_compare", "Compare draft and live", Target, selectors.entry_compare, _at("compare"), output=outputs.COMPARE
).describe("Show an item's live (published) values next to its pending draft: {hasChanges, live, draft}.")
unpublished(
    "content_list_trashed",
    "List trash",
    TrashListInput,
    selectors.entry_list_trashed,
    Endpoint(f"{C}/trash", "api-content-trash").get("query"),
    output=page_of(outputs.SUMMARY),
).describe("List a collection's trashed items, most recently deleted first (content_restore brings one back).")
read(
    "content_translations",
    "List translations",
    Target,
    selectors.entry_translations,
    _at("translations"),
    output=outputs.TRANSLATIONS,
).describe("List an item's locale variants (its translation group): id, locale, slug and status of each.")

# --- writes ---------------------------------------------------------------------------------------------------

edit(
    "content_create",
    "Create content item",
    CreateInput,
    services.entry_create,
    LIST.post(status=201),
    perm=Perm.CONTENT_CREATE,
).describe(
    "Create an item. data keys are the collection's field slugs "
    "(schema_get_collection); rich-text fields accept Markdown; images must be this site's media (media_upload "
    "first). slug defaults to one made from the title."
)
edit("content_update", "Update content item", UpdateInput, services.entry_update, ITEM.put()).describe(
    "Change an item; send only what changes (rich-text fields accept Markdown). Editing a published "
    "item makes a draft that goes live on content_publish."
)
go_live.gone("content_delete", "Move content to trash", Target, services.entry_trash, ITEM.delete()).describe(
    "Move an item to the trash; content_restore undoes it, content_permanent_delete makes it final."
)
act.gone(
    "content_permanent_delete",
    "Delete permanently",
    Target,
    services.entry_delete_permanently,
    Endpoint(f"{ITEM_PATH}/permanent", "api-content-permanent").delete(),
    perm=Perm.CONTENT_DELETE_PERMANENT,
).describe("Irreversibly delete a trashed item (content_delete first) and its revisions.")
go_live(
    "content_publish",
    "Publish content",
    PublishInput,
    services.entry_publish,
    _action("publish", "body"),
    idempotent=True,
).describe(
    "Publish an item: the current draft (values, slug, SEO) goes live; a moved URL redirects. "
    "publishedAt sets the shown date (migrations)."
)
go_live(
    "content_unpublish", "Unpublish content", Target, services.entry_unpublish, _action("unpublish"), idempotent=True
).describe("Take a published item off the site; it becomes a draft and keeps its content.")
go_live(
    "content_unschedule",
    "Cancel scheduled publishing",
    Target,
    services.entry_unschedule,
    _action("unschedule"),
    idempotent=True,
).describe("Cancel an item's scheduled publish (an item with none is returned unchanged).")
act(
    "content_discard_draft",
    "Discard draft",
    Target,
    services.entry_discard_draft,
    _action("discard-draft"),
    destructive=True,
    idempotent=True,
).describe("Drop an item's pending draft and go back to its live version (items published before).")
go_live(
    "content_restore",
    "Restore from trash",
    Target,
    services.entry_restore,
    _action("restore"),
    present=_restored,
    output=outputs.RESTORED,
).describe("Bring a trashed item back (see content_list_trashed).")
act(
    "content_duplicate",
    "Duplicate content",
    Target,
    services.entry_duplicate,
    _action("duplicate", status=201),
    perm=Perm.CONTENT_CREATE,
    target=_item_target,  # the copy it made (changes_revert trashes it), not the source
).describe(
    "Copy an item as a new draft with its terms and credits (not its SEO); the title gets ' (Copy)', the slug is new."
)
go_live(
    "content_schedule", "Schedule publishing", ScheduleInput, services.entry_schedule, _action("schedule", "body")
).describe(
    "Publish an item automatically at scheduledAt (content_unschedule cancels). A published item "
    "keeps its live version until then, when its draft goes live."
)

# --- revisions ------------------------------------------------------------------------------------------------

unpublished(
    "revision_list",
    "List revisions",
    RevisionListInput,
    selectors.revision_list,
    _at("revisions", "query"),
    category="revision",
    output=outputs.REVISIONS,
).describe(
    "List an item's saved revisions, newest first, with the values each held (revision_restore brings one back)."
)
edit(
    "revision_restore",
    "Restore revision",
    RevisionRestoreInput,
    services.revision_restore,
    Endpoint("_emdash/api/revisions/<str:revision_id>/restore", "api-revision-restore").post("path"),
    category="revision",
    present=_item_with_rev,
    output=outputs.REVISION_RESTORED,
).describe("Make a revision's values the item's new draft; content_publish makes it live.")
