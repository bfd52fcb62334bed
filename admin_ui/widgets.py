"""Form widgets generated from a collection's fields: stored value -> form value -> stored value.

Each field type has one widget. :func:`bind` prepares what the template renders; :func:`parse` turns the
posted form back into the values the content services expect (problems are reported per field).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from admin_ui import portable_text
from content.entries import selectors
from content.schema.specs import CollectionSpec, FieldSpec
from emdash.actor import Actor
from emdash.dates import iso
from emdash.errors import EmDashError
from emdash.permissions import Perm, can
from media import selectors as media_selectors
from media.storage import url_for
from settings_app import localtime

INPUT_TYPES = {"string": "text", "slug": "text", "number": "number", "integer": "number"}
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
    return media_choices(actor, images=spec.type == "image")


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
        blocks = json.loads(form_value) if isinstance(form_value, str) and form_value.strip() else []
    except ValueError:
        return {}
    urls = {}
    for media_id in portable_text.image_ids(blocks)[:200]:
        try:
            urls[media_id] = url_for(media_selectors.media_get(actor=actor, id=media_id).storage_key)
        except EmDashError:
            continue  # deleted or not visible: the editor shows the block without a picture
    return urls


def _reference_choices(actor: Actor, spec: FieldSpec) -> list[tuple[str, str]]:
    target = str(spec.options.get("collection") or "")
    try:
        page = selectors.entry_list(actor=actor, collection=target, limit=100, order_by="updated_at")
    except EmDashError:
        return []
    out = []
    for item in page.items:
        data = item.get("data") or {}
        title = data.get("title") or data.get("name") or item["slug"]
        out.append((item["id"], f"{title} ({item['status']})"))
    return out


def _form_value(spec: FieldSpec, value: Any) -> Any:
    if value is None:
        return [] if spec.type == "multiSelect" else ""
    if spec.type == "portableText":
        return portable_text.to_form(value)
    if spec.type == "json":
        return json.dumps(value, indent=2, ensure_ascii=False)
    if spec.type in ("image", "file"):
        return value.get("id", "") if isinstance(value, dict) else ""
    if spec.type == "datetime":  # typed and shown in the site's zone (settings ``timezone``), stored in UTC
        return localtime.to_input(value)
    if spec.type == "number" and isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value


def bind(spec: CollectionSpec, values: dict[str, Any], actor: Actor, problems: dict[str, str]) -> list[Widget]:
    """One widget per field with its current form value (``values`` may be raw form data after an error)."""
    widgets = []
    for f in spec.fields:
        value = values.get(f.slug)
        w = Widget(f, "input", value, problem=problems.get(f.slug, ""), input_type=INPUT_TYPES.get(f.type, "text"))
        if f.type == "text":
            w.kind = "textarea"
        elif f.type == "boolean":
            w.kind = "checkbox"
        elif f.type == "datetime":
            w.input_type = "datetime-local"
        elif f.type == "select":
            w.kind, w.choices = "select", [(o, o) for o in f.rules.options]
        elif f.type == "multiSelect":
            w.kind, w.choices = "checkboxes", [(o, o) for o in f.rules.options]
        elif f.type == "portableText":
            w.kind, w.previews = "portable_text", _inline_image_urls(actor, value)
            w.can_upload = can(actor, Perm.MEDIA_CREATE)
        elif f.type in ("image", "file"):
            w.kind = "media"
            w.choices, w.previews = _media_choices(actor, f)
        elif f.type == "reference":
            w.kind, w.choices = "select", _reference_choices(actor, f)
        elif f.type == "json":
            w.kind = "json"
        widgets.append(w)
    return widgets


def initial(spec: CollectionSpec, data: dict[str, Any]) -> dict[str, Any]:
    """Form values for stored values."""
    return {f.slug: _form_value(f, data.get(f.slug)) for f in spec.fields}


def posted(spec: CollectionSpec, post: QueryDict) -> dict[str, Any]:
    """The raw form values, to re-render a form after an error without losing the user's input."""
    out: dict[str, Any] = {}
    for f in spec.fields:
        if f.type == "multiSelect":
            out[f.slug] = post.getlist(PREFIX + f.slug)
        elif f.type == "boolean":
            out[f.slug] = PREFIX + f.slug in post
        else:
            out[f.slug] = post.get(PREFIX + f.slug, "")
    return out


def _parse_one(f: FieldSpec, post: QueryDict, previous: Any) -> Any:
    """The stored value for one field; raises ValueError with a message for input that cannot be read."""
    name = PREFIX + f.slug
    if f.type == "multiSelect":
        return post.getlist(name) or None
    if f.type == "boolean":
        return name in post
    raw = post.get(name, "")
    if f.type in ("string", "slug", "text", "select", "reference"):
        return raw if raw != "" else None
    if not raw.strip():
        return None
    raw = raw.strip()
    if f.type == "number":
        try:
            number = float(raw)
        except ValueError:
            raise ValueError("must be a number") from None
        return int(number) if number.is_integer() and abs(number) < 2**53 and "." not in raw else number
    if f.type == "integer":
        try:
            return int(raw)
        except ValueError:
            raise ValueError("must be a whole number") from None
    if f.type == "datetime":
        try:
            return iso(localtime.from_input(raw))
        except EmDashError as exc:  # not a date and time, or a wall-clock time the DST change skips
            fields = (exc.details or {}).get("fields") or {}
            raise ValueError(next(iter(fields.values()), exc.message)) from None
    if f.type == "portableText":
        return portable_text.parse(raw)
    if f.type in ("image", "file"):
        # Keep extra keys (alt, ...) of an unchanged reference.
        return previous if isinstance(previous, dict) and previous.get("id") == raw else {"id": raw}
    if f.type == "json":
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise ValueError(f"is not valid JSON ({exc.args[0] if exc.args else 'parse error'})") from None
    return raw


def parse(spec: CollectionSpec, post: QueryDict, previous: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """``(values, problems)`` for a posted form; ``problems`` maps field slugs to messages."""
    values: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for f in spec.fields:
        try:
            values[f.slug] = _parse_one(f, post, previous.get(f.slug))
        except ValueError as exc:
            problems[f.slug] = str(exc)
    return values, problems


def field_problems(problems: dict[str, str]) -> dict[str, str]:
    """Service problems are keyed ``data.<slug>``; widgets are keyed by slug."""
    return {key.removeprefix("data."): message for key, message in problems.items()}
