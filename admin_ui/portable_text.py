"""Portable Text as the admin's rich-text editor posts it: read, checked and shown in comparisons.

The editor (admin_ui/editor/, a Tiptap bundle) converts its document to Portable Text in the browser and posts
it as JSON in the field's textarea (the same textarea is the no-JavaScript fallback). The server does not trust
it: :func:`parse` runs the shared strict checker (content/portable_text.py), which also fills in missing ``_key``s.
"""

from __future__ import annotations

import json
from typing import Any

from content.portable_text import MAX_BLOCKS, PortableTextError, normalize
from content.portable_text import image_ids as image_ids
from emdash import json_input


def to_form(blocks: Any) -> str:
    """The textarea's value for stored blocks."""
    return json.dumps(blocks if isinstance(blocks, list) else [], ensure_ascii=False)


def parse(raw: str) -> list[dict[str, Any]] | None:
    """Posted JSON -> checked Portable Text blocks (None when empty); ValueError says what is wrong.

    The checks are content.portable_text's, the same as every other door's.
    """
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
