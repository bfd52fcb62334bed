"""Portable Text as the admin's rich-text editor posts it: read, checked and shown in comparisons.

The editor (admin_ui/editor/, a Tiptap bundle) converts its document to Portable Text in the browser and posts
it as JSON in the field's textarea (the same textarea is the no-JavaScript fallback). The server does not trust
it: :func:`parse` accepts only well-formed blocks and safe link targets, and fills in missing ``_key``s.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from public_site.portable_text import safe_href

STYLES = {"normal", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"}
DECORATORS = {"strong", "em", "code", "underline", "strike-through"}
LIST_ITEMS = {"bullet", "number"}
MAX_BLOCKS = 5000
MAX_LEVEL = 10


def to_form(blocks: Any) -> str:
    """The textarea's value for stored blocks."""
    return json.dumps(blocks if isinstance(blocks, list) else [], ensure_ascii=False)


def _key(value: Any, used: set[str]) -> str:
    key = value if isinstance(value, str) and value and value not in used else secrets.token_hex(6)
    used.add(key)
    return key


def _check_link(defn: Any, where: str) -> dict[str, Any]:
    if not isinstance(defn, dict) or not isinstance(defn.get("_key"), str) or not isinstance(defn.get("_type"), str):
        raise ValueError(f"{where}: a mark definition needs a _key and a _type")
    if defn["_type"] == "link" and safe_href(defn.get("href")) is None:
        raise ValueError(
            f"{where}: the link “{str(defn.get('href'))[:80]}” is not allowed (use https://, mailto:, / or #)"
        )
    return defn


def _check_text_block(block: dict[str, Any], where: str) -> None:
    style = block.setdefault("style", "normal")
    if style not in STYLES:
        raise ValueError(f"{where}: unknown style “{style}”")
    if "listItem" in block:
        if block["listItem"] not in LIST_ITEMS:
            raise ValueError(f"{where}: listItem must be bullet or number")
        level = block.setdefault("level", 1)
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= MAX_LEVEL:
            raise ValueError(f"{where}: level must be a whole number from 1 to {MAX_LEVEL}")
    defs = block.setdefault("markDefs", [])
    if not isinstance(defs, list):
        raise ValueError(f"{where}: markDefs must be a list")
    names = {_check_link(d, where)["_key"] for d in defs} | DECORATORS
    children = block.get("children")
    if not isinstance(children, list):
        raise ValueError(f"{where}: children must be a list of spans")
    used: set[str] = set()
    for span in children:
        if not isinstance(span, dict) or not isinstance(span.get("text", ""), str):
            raise ValueError(f"{where}: every child needs a text")
        marks = span.setdefault("marks", [])
        if not isinstance(marks, list) or any(m not in names for m in marks):
            raise ValueError(f"{where}: a span uses a mark that is not defined")
        span.setdefault("_type", "span")
        span["_key"] = _key(span.get("_key"), used)


def _check_block(block: Any, index: int, used: set[str]) -> dict[str, Any]:
    where = f"block {index + 1}"
    if not isinstance(block, dict) or not isinstance(block.get("_type"), str) or not block["_type"]:
        raise ValueError(f"{where} must be an object with a _type")
    block["_key"] = _key(block.get("_key"), used)
    kind = block["_type"]
    if kind == "block":
        _check_text_block(block, where)
    elif kind == "image":
        asset = block.get("asset")
        if not isinstance(asset, dict) or not isinstance(asset.get("id"), str) or not asset["id"]:
            raise ValueError(f"{where}: an image needs asset.id (a media item)")
    elif kind == "code" and not isinstance(block.get("code"), str):
        raise ValueError(f"{where}: a code block needs its code as text")
    return block


def parse(raw: str) -> list[dict[str, Any]] | None:
    """Posted JSON -> checked Portable Text blocks (None when empty); ValueError says what is wrong."""
    if not raw.strip():
        return None
    try:
        blocks = json.loads(raw)
    except ValueError:
        raise ValueError("could not be read (the rich text was not valid Portable Text JSON)") from None
    if not isinstance(blocks, list):
        raise ValueError("must be a list of Portable Text blocks")
    if len(blocks) > MAX_BLOCKS:
        raise ValueError(f"has more than {MAX_BLOCKS} blocks")
    used: set[str] = set()
    return [_check_block(block, index, used) for index, block in enumerate(blocks)] or None


def image_ids(blocks: Any) -> list[str]:
    """Media ids of the inline images, for the editor's previews."""
    if not isinstance(blocks, list):
        return []
    ids = []
    for block in blocks:
        asset = block.get("asset") if isinstance(block, dict) and block.get("_type") == "image" else None
        if isinstance(asset, dict) and isinstance(asset.get("id"), str):
            ids.append(asset["id"])
    return ids


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
