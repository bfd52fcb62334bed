"""Portable Text: rich text as blocks, written as blocks or Markdown, read as blocks or Markdown.

Its strict checks live in content/portable_text.py and the Markdown conversions in content/markdown.py; this
type wires them into the field parts: input (a Markdown string is converted first), inline images (media
links), search text, a plain-text view for comparisons and the admin editor's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db import models

from content import hooks, markdown
from content.field_types.base import FieldRules, FieldType, Filters, Problems, json_problem
from content.field_types.registry import register
from content.media_values import Details, shown
from content.portable_text import MAX_BLOCKS, PortableTextError, image_ids, normalize
from emdash import json_input
from emdash.text import PROBLEM as BAD_TEXT
from emdash.text import find_bad_text

# Keys of non-text blocks and media references whose strings are worth finding.
TEXT_KEYS = ("text", "title", "alt", "caption", "description", "code", "content")
_NESTED_KEYS = ("children", "content", "blocks", "items", "rows", "cells")


def plain_text(blocks: Any) -> Iterator[str]:
    """The words of Portable Text: span text of each block (one line per block), plus the text-like
    properties of custom blocks (image alt and caption, code, ...)."""
    for block in blocks if isinstance(blocks, list) else []:
        if not isinstance(block, dict):
            continue
        children = block.get("children")
        if isinstance(children, list) and block.get("_type") == "block":
            line = "".join(c["text"] for c in children if isinstance(c, dict) and isinstance(c.get("text"), str))
            if line.strip():
                yield line
            continue
        yield from text_properties(block)


def text_properties(node: dict[str, Any], depth: int = 0) -> Iterator[str]:
    """The text-like strings of an object (a custom block, a media reference), nested ones included."""
    if depth > 20:
        return
    for key in TEXT_KEYS:
        value = node.get(key)
        if isinstance(value, str) and value.strip():
            yield value
    for key in _NESTED_KEYS:
        value = node.get(key)
        if isinstance(value, list):
            for child in value:
                if isinstance(child, dict):
                    if child.get("_type") == "block":
                        yield from plain_text([child])
                    else:
                        yield from text_properties(child, depth + 1)


def _line(block: dict[str, Any]) -> str:
    if block.get("_type") == "image":
        asset = block.get("asset")
        asset = asset if isinstance(asset, dict) else {}
        return f"[image {asset.get('id', '?')}{': ' + block['alt'] if block.get('alt') else ''}]"
    if block.get("_type") == "code":
        return f"```{block.get('language') or ''}\n{block.get('code', '')}\n```"
    if block.get("_type") != "block":
        return json.dumps(block, ensure_ascii=False, sort_keys=True)
    hrefs = {d.get("_key"): d.get("href") for d in block.get("markDefs") or [] if isinstance(d, dict)}
    text = ""
    for span in block.get("children") or []:
        piece = str(span.get("text", "")) if isinstance(span, dict) else ""
        links = [hrefs[m] for m in (span.get("marks") or []) if m in hrefs] if isinstance(span, dict) else []
        text += f"{piece} <{links[0]}>" if links else piece
    style = block.get("style") or "normal"
    if block.get("listItem"):
        bullet = "-" if block["listItem"] == "bullet" else "1."
        return "  " * (int(block.get("level") or 1) - 1) + f"{bullet} {text}"
    prefix = {"blockquote": "> "}.get(
        style, "#" * int(style[1]) + " " if style[:1] == "h" and style[1:].isdigit() else ""
    )
    return prefix + text


def readable(blocks: Any) -> str:
    """A plain-text view of the blocks for side-by-side comparisons (one line or paragraph per block)."""
    if not isinstance(blocks, list):
        return ""
    return "\n\n".join(_line(b) for b in blocks if isinstance(b, dict))


@register
class PortableTextType(FieldType):
    name = "portableText"
    label = "Rich text"
    help = "Formatted text with headings, lists, links and images: an article's body."
    example = [
        {
            "_type": "block",
            "_key": "a1",
            "style": "normal",
            "markDefs": [],
            "children": [{"_type": "span", "_key": "a2", "text": "Hello", "marks": []}],
        }
    ]
    in_summary = False
    multiline = True
    widget = "portable_text"
    has_markdown = True

    def column(self, **extra: Any) -> models.Field:
        return models.JSONField(null=True, **extra)

    def check(self, value: Any, rules: FieldRules) -> str | None:
        if problem := json_problem(value):
            return problem
        try:
            normalize(value)
        except PortableTextError as exc:
            return str(exc)
        return None

    def prepare(self, value: Any, path: str, problems: Problems) -> Any:
        """Markdown converted, then checked strictly here so problems name the inner path (``[2].children``)."""
        if isinstance(value, str):
            if find_bad_text(value) is not None:
                problems[path] = BAD_TEXT
                return None
            try:
                value = markdown.to_portable_text(value, hooks.media_ids_by_url(markdown.image_urls(value)))
            except markdown.ImageNotFound as exc:
                problems[path] = str(exc)
                return None
            if not value:
                return None
        elif problem := json_problem(value):  # before normalize copies it: bounds the nesting depth
            problems[path] = problem
            return None
        try:
            return normalize(value)
        except PortableTextError as exc:
            problems[path + exc.path] = exc.message
            return None

    def media_links(self, value: Any) -> list[tuple[str, str]]:
        if not isinstance(value, list):
            return []
        return [
            (f"[{index}].asset.id", block["asset"]["id"])
            for index, block in enumerate(value)
            if block.get("_type") == "image"
        ]

    def drop_media(self, value: Any, ids: set[str]) -> Any:
        """The text without the image blocks showing those items (the rest of the text stays)."""
        if not isinstance(value, list):
            return value
        # media_links names each image block by its index: "[3].asset.id"
        drop = {int(suffix[1 : suffix.index("]")]) for suffix, media_id in self.media_links(value) if media_id in ids}
        return [block for index, block in enumerate(value) if index not in drop]

    def with_media(self, value: Any, found: Details) -> Any:
        """Inline images with their media's details in ``asset`` (the stored blocks are not changed)."""
        if not isinstance(value, list):
            return value
        return [
            {**block, "asset": shown(block.get("asset"), found)}
            if isinstance(block, dict) and block.get("_type") == "image"
            else block
            for block in value
        ]

    def filters(self, name: str, column: str, rules: FieldRules) -> Filters:
        return {}  # not filterable

    def search_text(self, value: Any) -> str:
        return "\n".join(plain_text(value))

    def display(self, value: Any) -> str:
        return readable(value)

    def to_markdown(self, value: Any, media_urls: dict[str, str]) -> Any:
        return markdown.from_portable_text(value, media_urls) if isinstance(value, list) else value

    def markdown_media(self, value: Any) -> list[str]:
        return image_ids(value) if isinstance(value, list) else []

    def json_schema(self, rules: FieldRules, options: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": ["array", "string"],
            "items": {"type": "object", "properties": {"_type": {"type": "string"}}, "required": ["_type"]},
            "description": "Portable Text blocks, or a Markdown string",
        }

    def to_form(self, value: Any) -> Any:
        """The editor's textarea: the blocks as JSON (the editor bundle converts them in the browser)."""
        if value is None:
            return ""
        return json.dumps(value if isinstance(value, list) else [], ensure_ascii=False)

    def from_form(self, raw: str, previous: Any) -> Any:
        """Posted JSON -> checked blocks (None when empty), with the same strict checks as every other door."""
        if not raw.strip():
            return None
        try:
            blocks = json_input.loads(raw)
        except ValueError:
            raise ValueError("could not be read (the rich text was not valid Portable Text JSON)") from None
        if isinstance(blocks, list) and len(blocks) > MAX_BLOCKS:
            raise ValueError(f"has more than {MAX_BLOCKS} blocks")
        try:
            return normalize(blocks) or None
        except PortableTextError as exc:
            raise ValueError(str(exc)) from None
