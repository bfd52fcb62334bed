"""References to media library items: ``{"id": "<media id>", ...}`` (extra keys such as ``alt`` are kept).

Reads show each reference with its item's url, size, placeholders, renditions and srcset; writes drop those
again (content.media_values).
"""

from __future__ import annotations

from typing import Any

from django.db import models

from content.field_types.base import FieldRules, FieldType, Filters, json_problem, stripped
from content.field_types.registry import register
from content.field_types.rich_text import text_properties
from content.media_values import Details, shown, stored


class MediaReference(FieldType):
    widget = "media"
    images_only = False  # the admin picker lists images only

    def column(self, **extra: Any) -> models.Field:
        return models.JSONField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not value["id"]:
            return 'must be a media reference object like {"id": "<media id>"}'
        return json_problem(value)

    def normalize(self, value: Any) -> Any:
        return stored(value)  # a value read back and written again must not store its details

    def media_links(self, value: Any) -> list[tuple[str, str]]:
        return [("", value["id"])] if isinstance(value, dict) and isinstance(value.get("id"), str) else []

    def with_media(self, value: Any, found: Details) -> Any:
        return shown(value, found)

    def drop_media(self, value: Any, ids: set[str]) -> Any:
        return None if any(media_id in ids for _, media_id in self.media_links(value)) else value

    def display(self, value: Any) -> str:
        return super().display(stored(value) if isinstance(value, dict) else value)

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {}  # not filterable

    def search_text(self, value: Any) -> str:
        return "\n".join(text_properties(value)) if isinstance(value, dict) else ""

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"id": {"type": "string", "minLength": 1, "description": "Media item id"}},
            "required": ["id"],
        }

    def to_form(self, value: Any) -> Any:
        return value.get("id", "") if isinstance(value, dict) else ""

    def from_form(self, raw: str, previous: Any) -> Any:
        if (media_id := stripped(raw)) is None:
            return None
        # Keep extra keys (alt, ...) of an unchanged reference.
        return previous if isinstance(previous, dict) and previous.get("id") == media_id else {"id": media_id}


@register
class ImageType(MediaReference):
    name = "image"
    label = "Image"
    help = "A picture from the media library."
    example = {"id": "01JD0000000000000000000000", "alt": "A view of the sea"}
    images_only = True


@register
class FileType(MediaReference):
    name = "file"
    label = "File"
    help = "A document or download from the media library."
    example = {"id": "01JD0000000000000000000000"}
