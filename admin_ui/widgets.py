"""Form widgets generated from a collection's fields: stored value -> form value -> stored value.

Each field type names its widget and converts its values to and from the form (``content.field_types``);
this module adds what needs the request: the choices a picker offers (media, entries of the target) and how a
widget's value is read from the POST. :func:`bind` prepares what the template renders; :func:`parse` turns the
posted form back into the values the content services expect (problems are reported per field).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.urls import reverse

from content.entries import linked, selectors
from content.portable_text import image_ids
from content.schema.specs import CollectionSpec, FieldSpec, current
from content.schema.validation import find_entries
from emdash import json_input
from emdash.actor import Actor
from emdash.errors import EmDashError
from emdash.permissions import Perm, can
from media import selectors as media_selectors
from media.storage import url_for

PREFIX = "f_"


@dataclass
class Widget:
    spec: FieldSpec
    kind: str  # the template partial: input, textarea, checkbox, select, checkboxes, portable_text, media, json
    value: Any
    choices: list[tuple[str, str]] = field(default_factory=list)
    problem: str = ""
    input_type: str = "text"
    previews: dict[str, str] = field(default_factory=dict)  # media id -> url, for image pickers and inline images
    can_upload: bool = False  # rich text: the image dialog offers an upload
    targets: list[dict[str, Any]] = field(default_factory=list)  # references: the linked items, in order
    search_url: str = ""  # references: where the picker searches

    @property
    def name(self) -> str:
        return PREFIX + self.spec.slug

    @property
    def id(self) -> str:
        return "id_" + self.name

    @property
    def media_script_id(self) -> str:
        return self.id + "-media"


def _media_choices(actor: Actor, spec: FieldSpec) -> tuple[list[tuple[str, str]], dict[str, str]]:
    return media_choices(actor, images=getattr(spec.kind, "images_only", False))


def media_choices(actor: Actor, *, images: bool) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The newest 100 media items for a picker, as (id, filename) choices, with preview URLs for images."""
    mime = "image/" if images else None
    try:
        page = media_selectors.media_list(actor=actor, mime_type=mime, limit=100)
    except EmDashError:
        return [], {}
    items = page.items if hasattr(page, "items") else []
    choices, previews = [], {}
    for row in items:
        row_id, name = (row["id"], row["filename"]) if isinstance(row, dict) else (row.id, row.filename)
        choices.append((row_id, name))
        if images:
            previews[row_id] = row["url"] if isinstance(row, dict) else url_for(row.storage_key)
    return choices, previews


def _inline_image_urls(actor: Actor, form_value: Any) -> dict[str, str]:
    """Preview URLs of the images inside a rich-text value (the form's JSON), for the editor."""
    try:
        blocks = json_input.loads(form_value) if isinstance(form_value, str) and form_value.strip() else []
    except ValueError:
        return {}
    urls = {}
    for media_id in image_ids(blocks)[:200]:
        try:
            urls[media_id] = url_for(media_selectors.media_get(actor=actor, id=media_id).storage_key)
        except EmDashError:
            continue  # deleted or not visible: the editor shows the block without a picture
    return urls


def _reference_choices(actor: Actor, spec: FieldSpec) -> list[tuple[str, str]]:
    target = str(spec.options.get("collection") or "")
    try:
        page = selectors.entry_list(actor=actor, collection=target, limit=100, order_by="updated_at").present()
    except EmDashError:
        return []
    out = []
    for item in page.items:
        data = item.get("data") or {}
        title = data.get("title") or data.get("name") or item["slug"]
        out.append((item["id"], f"{title} ({item['status']})"))
    return out


def _options(actor: Actor, w: Widget) -> None:
    w.choices = [(o, o) for o in w.spec.rules.options]


def _rich_text(actor: Actor, w: Widget) -> None:
    w.previews, w.can_upload = _inline_image_urls(actor, w.value), can(actor, Perm.MEDIA_CREATE)


def _media(actor: Actor, w: Widget) -> None:
    w.choices, w.previews = _media_choices(actor, w.spec)


def _entries(actor: Actor, w: Widget) -> None:
    w.choices = _reference_choices(actor, w.spec)


def _linked(actor: Actor, w: Widget) -> None:
    """A references field: its current targets (titles shown in the sortable list) and the search address."""
    collections = [c for c in w.spec.options.get("collections") or [] if isinstance(c, str)]
    idents = [part for part in str(w.value or "").replace(",", " ").split() if part]
    pairs = [hit for hit in find_entries(collections, [(ident, None) for ident in idents[:100]]) if hit is not None]
    wanted: dict[str, set[str]] = {}
    for collection, entry_id in pairs:
        wanted.setdefault(collection, set()).add(entry_id)
    found = linked.details(wanted, published_only=False)
    labels = {slug: spec.label for slug, spec in current().collections.items() if slug in wanted}
    w.targets = [{**found[pair], "collectionLabel": labels.get(pair[0], pair[0])} for pair in pairs if pair in found]
    w.search_url = f"{reverse('admin_ui:entry_search')}?collections={','.join(collections)}"


# What a widget needs besides the value: its template partial (when not its own name) and its choices.
PARTIALS = {"entry_picker": "select"}
EXTRAS = {
    "select": _options,
    "checkboxes": _options,
    "portable_text": _rich_text,
    "media": _media,
    "entry_picker": _entries,
    "references": _linked,
}


def bind(spec: CollectionSpec, values: dict[str, Any], actor: Actor, problems: dict[str, str]) -> list[Widget]:
    """One widget per field with its current form value (``values`` may be raw form data after an error)."""
    widgets = []
    for f in spec.fields:
        kind = f.kind
        w = Widget(f, PARTIALS.get(kind.widget, kind.widget), values.get(f.slug), problem=problems.get(f.slug, ""))
        w.input_type = kind.input_type
        if extra := EXTRAS.get(kind.widget):
            extra(actor, w)
        widgets.append(w)
    return widgets


def initial(spec: CollectionSpec, data: dict[str, Any]) -> dict[str, Any]:
    """Form values for stored values."""
    return {f.slug: f.kind.to_form(data.get(f.slug)) for f in spec.fields}


def _raw(f: FieldSpec, post: QueryDict) -> Any:
    """What the form posted for a field: checkboxes post every ticked value, a checkbox only when ticked."""
    name = PREFIX + f.slug
    if f.kind.widget == "checkboxes":
        return post.getlist(name)
    if f.kind.widget == "checkbox":
        return name in post
    return post.get(name, "")


def posted(spec: CollectionSpec, post: QueryDict) -> dict[str, Any]:
    """The raw form values, to re-render a form after an error without losing the user's input."""
    return {f.slug: _raw(f, post) for f in spec.fields}


def parse(spec: CollectionSpec, post: QueryDict, previous: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """``(values, problems)`` for a posted form; ``problems`` maps field slugs to messages."""
    values: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for f in spec.fields:
        try:
            values[f.slug] = f.kind.from_form(_raw(f, post), previous.get(f.slug))
        except ValueError as exc:
            problems[f.slug] = str(exc)
    return values, problems


def field_problems(problems: dict[str, str]) -> dict[str, str]:
    """Service problems are keyed ``data.<slug>``; widgets are keyed by slug."""
    return {key.removeprefix("data."): message for key, message in problems.items()}
