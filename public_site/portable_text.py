"""Portable Text to HTML for the public site: every text is escaped, only safe link schemes survive.

Supported: blocks (normal, h1-h6, blockquote) with spans and the marks strong, em, code, underline,
strike-through and link annotations; bullet and number lists (nested by ``level``); images that
reference media items; code blocks. Unknown block types render nothing (never raw data).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from content.portable_text import safe_href as safe_href  # the one rule, kept where content validates
from media import responsive

STYLES = {
    "normal": "p",
    "h1": "h1",
    "h2": "h2",
    "h3": "h3",
    "h4": "h4",
    "h5": "h5",
    "h6": "h6",
    "blockquote": "blockquote",
}
DECORATORS = {"strong": "strong", "em": "em", "code": "code", "underline": "u", "strike-through": "s"}
LISTS = {"bullet": "ul", "number": "ol"}
MAX_BLOCKS = 5000
ImageResolver = Callable[[Any], Mapping[str, Any] | None]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _span(span: Any, mark_defs: dict[str, dict[str, Any]]) -> str:
    if not isinstance(span, dict):
        return ""
    text = escape(span.get("text") if isinstance(span.get("text"), str) else "").replace("\n", "<br>")
    for mark in reversed(_list(span.get("marks"))):
        if not isinstance(mark, str):
            continue
        if mark in DECORATORS:
            tag = DECORATORS[mark]
            text = f"<{tag}>{text}</{tag}>"
        elif mark in mark_defs:
            href = safe_href(mark_defs[mark].get("href"))
            if href is not None:
                external = href.startswith(("http://", "https://"))
                rel = ' rel="noopener noreferrer"' if external else ""
                text = f'<a href="{escape(href)}"{rel}>{text}</a>'
    return text


def _inline(block: dict[str, Any]) -> str:
    defs = _list(block.get("markDefs"))
    mark_defs = {d["_key"]: d for d in defs if isinstance(d, dict) and isinstance(d.get("_key"), str)}
    return "".join(_span(child, mark_defs) for child in _list(block.get("children")))


def _image(block: dict[str, Any], resolve: ImageResolver | None) -> str:
    asset = _dict(block.get("asset")) or block
    media_id = asset.get("id") or asset.get("_ref") or asset.get("mediaId")
    media: Mapping[str, Any] | None = None
    if "mimeType" in asset:  # the read showed it with its media's details (content.media_values): no lookup
        media = asset if asset.get("url") else None
    else:
        media = resolve(media_id) if resolve is not None and media_id else None
    if media is None:
        return ""
    alt = block.get("alt") or media.get("alt") or ""
    caption = block.get("caption") or media.get("caption") or ""
    img = responsive.img(media, alt=alt)
    figcaption = format_html("<figcaption>{}</figcaption>", caption) if caption else ""
    return f'<figure class="pt-image">{img}{figcaption}</figure>'


def _block(block: dict[str, Any], resolve: ImageResolver | None) -> str:
    kind = block.get("_type")
    if kind == "block":
        tag = STYLES.get(_text(block.get("style")) or "normal", "p")
        return f"<{tag}>{_inline(block)}</{tag}>"
    if kind == "image":
        return _image(block, resolve)
    if kind == "code" and isinstance(block.get("code"), str):
        return format_html("<pre><code>{}</code></pre>", block["code"])
    return ""


def render(blocks: Any, *, resolve_image: ImageResolver | None = None) -> SafeString:
    """Portable Text (a list of blocks) as safe HTML; anything that is not a list renders as nothing."""
    if not isinstance(blocks, list):
        return mark_safe("")
    out: list[str] = []
    open_lists: list[str] = []  # tags of the lists currently open, outermost first
    for block in blocks[:MAX_BLOCKS]:
        if not isinstance(block, dict):
            continue
        list_kind = LISTS.get(_text(block.get("listItem"))) if block.get("_type") == "block" else None
        level = block.get("level")
        depth = (level if isinstance(level, int) and 0 < level <= 10 else 1) if list_kind else 0
        while len(open_lists) > depth or (
            open_lists and list_kind and len(open_lists) == depth and open_lists[-1] != list_kind
        ):
            out.append(f"</li></{open_lists.pop()}>")
        if list_kind:
            if len(open_lists) == depth:
                out.append("</li><li>")
            while len(open_lists) < depth:
                open_lists.append(list_kind)
                out.append(f"<{list_kind}><li>")
            out.append(_inline(block))
        else:
            out.append(_block(block, resolve_image))
    while open_lists:
        out.append(f"</li></{open_lists.pop()}>")
    return mark_safe("".join(out))  # every piece above escapes its text
