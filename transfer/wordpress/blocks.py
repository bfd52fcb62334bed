"""Gutenberg content → Portable Text: the block delimiters (``<!-- wp:name {attrs} -->`` comments, WordPress's
block grammar) are split here, each block's HTML goes through transfer.wordpress.html_text.

Layout containers (columns, group, cover...) are unwrapped into their inner blocks. Blocks with no Portable Text
meaning and no content of their own (separators, spacers, "more") are left out; every other unknown block is kept
as its HTML in a ``code`` block, so nothing an author wrote is lost.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from transfer.wordpress import html_text
from transfer.wordpress.html_text import Images

TEXT_BLOCKS = {
    "paragraph",
    "heading",
    "list",
    "list-item",
    "quote",
    "pullquote",
    "code",
    "preformatted",
    "verse",
    "image",
    "gallery",
    "media-text",
    "freeform",
    "details",
}
CONTAINERS = {"columns", "column", "group", "cover", "row", "stack"}
LAYOUT_ONLY = {"separator", "spacer", "more", "nextpage"}


@dataclass
class Block:
    name: str  # "paragraph" for core blocks, "namespace/name" for others; "" for HTML outside any block
    attrs: dict[str, Any]
    inner: str
    raw: str
    children: list[Block] = field(default_factory=list)


def _delimiter(comment: str) -> tuple[str, str, dict[str, Any], bool] | None:
    """("open"|"close", name, attrs, self_closing) for a block comment's text, None for any other comment."""
    text = comment.strip()
    closing = text.startswith("/wp:")
    if not (closing or text.startswith("wp:")):
        return None
    body = text[4:] if closing else text[3:]
    self_closing = body.endswith("/")
    body = body.removesuffix("/").strip()
    name, _, rest = body.partition(" ")
    name = name.removeprefix("core/")
    try:
        attrs = json.loads(rest) if rest.strip() else {}
    except (ValueError, RecursionError):  # broken, or nested deeper than Python recurses: a block without attrs
        attrs = {}
    return ("close" if closing else "open"), name, attrs if isinstance(attrs, dict) else {}, self_closing


def parse(html: str) -> list[Block]:
    """Top-level blocks with their nested ones; HTML between blocks becomes a block named ""."""
    root: list[Block] = []
    stack: list[tuple[Block, int]] = []  # open block, where its inner HTML starts
    pos = text_from = 0
    while (start := html.find("<!--", pos)) != -1:
        end = html.find("-->", start + 4)
        if end == -1:
            break
        found = _delimiter(html[start + 4 : end])
        pos = end + 3
        if found is None:
            continue
        kind, name, attrs, self_closing = found
        siblings = stack[-1][0].children if stack else root
        if not stack and html[text_from:start].strip():
            root.append(Block("", {}, html[text_from:start], html[text_from:start]))
        if kind == "open":
            block = Block(name, attrs, "", html[start:pos])
            siblings.append(block)
            if not self_closing:
                stack.append((block, pos))
        elif stack:
            block, inner_from = stack.pop()
            block.inner, block.raw = html[inner_from:start], html[html.rfind("<!--", 0, inner_from) : pos]
        text_from = pos if not stack else text_from
    if html[text_from:].strip():
        root.append(Block("", {}, html[text_from:], html[text_from:]))
    return root


def is_gutenberg(html: str) -> bool:
    return "<!-- wp:" in html


@dataclass
class Converted:
    blocks: list[dict[str, Any]] = field(default_factory=list)
    missing_images: list[str] = field(default_factory=list)
    kept_as_html: list[str] = field(default_factory=list)  # names of the blocks kept as HTML


def _kept(block: Block, out: Converted) -> None:
    out.kept_as_html.append(block.name)
    out.blocks.append({"_type": "code", "_key": secrets.token_hex(6), "language": "html", "code": block.raw.strip()})


def _with_id(images: Images, wp_id: int | None) -> Images:
    """An image block's media id (its ``id`` attribute) stands in for the one its <img> lacks."""
    return lambda src, found: images(src, found or wp_id)


def _convert(top: Block, images: Images, out: Converted) -> None:
    # A loop over a stack, not recursion: containers nest as deep as the file says (thousands of unclosed
    # <!-- wp:group --> in a hostile or broken export), past Python's recursion limit.
    pending = [top]
    while pending:
        block = pending.pop()
        if block.name in CONTAINERS or (block.name == "list" and block.children and not block.inner.strip("\n ")):
            pending.extend(reversed(block.children))  # the first child next: document order
            continue
        if block.name in LAYOUT_ONLY:
            continue
        if block.name == "embed" or block.name.startswith("core-embed/"):
            url = str(block.attrs.get("url") or "")
            html = f'<p><a href="{url}">{url}</a></p>' if url else block.inner
            block = Block("paragraph", {}, html, block.raw)
        if block.name == "html" or (block.name not in TEXT_BLOCKS and block.name):
            _kept(block, out)
            continue
        wp_id = block.attrs.get("id") if block.name == "image" and isinstance(block.attrs.get("id"), int) else None
        converted, missing = html_text.to_portable_text(
            block.inner, _with_id(images, wp_id), classic=block.name in ("", "freeform")
        )
        out.blocks.extend(converted)
        out.missing_images.extend(missing)


def content_to_portable_text(html: str, images: Images) -> Converted:
    """A post's content (Gutenberg or classic) as Portable Text, with what could not be carried over."""
    out = Converted()
    if not is_gutenberg(html):
        out.blocks, out.missing_images = html_text.to_portable_text(html, images, classic=True)
        return out
    for block in parse(html):
        _convert(block, images, out)
    return out
