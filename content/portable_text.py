"""Strict Portable Text: the one checker every door uses (MCP, REST, admin editor, Markdown conversion).

A value is a list of blocks. Text blocks (``_type: "block"``) need ``children`` of spans with a string ``text``;
every mark must name a ``markDefs`` key or a known decorator; styles and list items come from fixed sets. Image
blocks need ``asset.id`` (whether the media item exists is checked with the other media references of the write),
code blocks need ``code`` as text. Other ``_type``s are custom blocks (Portable Text is extensible) and need only
``_type`` and ``_key``.

Missing ``_key``s are filled in (MCP clients and hand-written JSON often omit them), as are the defaults a renderer
relies on (``style: "normal"``, ``markDefs: []``, span ``_type`` and ``marks``). Anything else wrong raises
:class:`PortableTextError` naming the path inside the value (``[0].children[1].marks``).
"""

from __future__ import annotations

import copy
import secrets
from typing import Any

from content.media_values import stored
from emdash.safe_urls import url_problem

STYLES = ("normal", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote")
DECORATORS = ("strong", "em", "code", "underline", "strike-through")
LIST_ITEMS = ("bullet", "number")
MAX_BLOCKS = 5000
MAX_LEVEL = 10


class PortableTextError(ValueError):
    """A malformed value; ``path`` is relative to the value (``[2].children``), ``message`` says what is wrong."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def _key(value: Any, used: set[str]) -> str:
    """The given key when it is a fresh non-empty string; otherwise a new one (duplicates would break editors)."""
    key = value if isinstance(value, str) and value and value not in used else secrets.token_hex(6)
    used.add(key)
    return key


def safe_href(href: Any) -> str | None:
    """The link target if it is http(s), site-relative, an anchor, or mailto:/tel:; otherwise None."""
    if not isinstance(href, str):
        return None
    scheme, colon, rest = href.partition(":")
    if colon and scheme.lower() in ("mailto", "tel"):
        return href if rest and url_problem("/" + rest) is None else None
    return href if url_problem(href) is None else None


def _check_mark_def(defn: Any, path: str) -> str:
    if not isinstance(defn, dict) or not isinstance(defn.get("_key"), str) or not defn["_key"]:
        raise PortableTextError(path, "a mark definition needs a string _key")
    if not isinstance(defn.get("_type"), str) or not defn["_type"]:
        raise PortableTextError(path, "a mark definition needs a string _type")
    if defn["_type"] == "link" and safe_href(defn.get("href")) is None:
        shown = str(defn.get("href"))[:80]
        raise PortableTextError(f"{path}.href", f"the link “{shown}” is not allowed (use https://, mailto:, / or #)")
    return str(defn["_key"])


def _check_span(span: Any, path: str, names: set[str], used: set[str]) -> None:
    if not isinstance(span, dict):
        raise PortableTextError(path, "must be a span object")
    if span.setdefault("_type", "span") != "span":
        raise PortableTextError(f"{path}._type", 'children must be spans (_type "span")')
    if not isinstance(span.get("text"), str):
        raise PortableTextError(f"{path}.text", "a span needs its text as a string")
    marks = span.setdefault("marks", [])
    if not isinstance(marks, list) or not all(isinstance(m, str) for m in marks):
        raise PortableTextError(f"{path}.marks", "must be a list of mark names")
    unknown = [m for m in marks if m not in names]
    if unknown:
        raise PortableTextError(
            f"{path}.marks", f"'{unknown[0][:80]}' is neither a markDefs key nor a decorator ({', '.join(DECORATORS)})"
        )
    span["_key"] = _key(span.get("_key"), used)


def _check_list_item(block: dict[str, Any], path: str) -> None:
    if block["listItem"] not in LIST_ITEMS:
        raise PortableTextError(f"{path}.listItem", f"must be one of: {', '.join(LIST_ITEMS)}")
    level = block.setdefault("level", 1)
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= MAX_LEVEL:
        raise PortableTextError(f"{path}.level", f"must be a whole number from 1 to {MAX_LEVEL}")


def _check_text_block(block: dict[str, Any], path: str) -> None:
    if block.setdefault("style", "normal") not in STYLES:
        raise PortableTextError(f"{path}.style", f"unknown style; use one of: {', '.join(STYLES)}")
    if "listItem" in block:
        _check_list_item(block, path)
    defs = block.setdefault("markDefs", [])
    if not isinstance(defs, list):
        raise PortableTextError(f"{path}.markDefs", "must be a list")
    names = {_check_mark_def(d, f"{path}.markDefs[{i}]") for i, d in enumerate(defs)} | set(DECORATORS)
    children = block.get("children")
    if not isinstance(children, list) or not children:
        raise PortableTextError(f"{path}.children", 'a text block needs a non-empty list of spans {"text": "..."}')
    used: set[str] = set()
    for index, span in enumerate(children):
        _check_span(span, f"{path}.children[{index}]", names, used)


def _check_block(block: Any, path: str, used: set[str]) -> None:
    if not isinstance(block, dict):
        raise PortableTextError(path, "must be a block object")
    if not isinstance(block.get("_type"), str) or not block["_type"]:
        raise PortableTextError(f"{path}._type", "a block needs a string _type (block, image, code, ...)")
    block["_key"] = _key(block.get("_key"), used)
    kind = block["_type"]
    if kind == "block":
        _check_text_block(block, path)
    elif kind == "image":
        asset = block.get("asset")
        if not isinstance(asset, dict) or not isinstance(asset.get("id"), str) or not asset["id"]:
            raise PortableTextError(f"{path}.asset", 'an image needs {"id": "<media id>"}; upload with media_upload')
        block["asset"] = stored(asset)  # blocks read back and written again keep no media details
    elif kind == "code" and not isinstance(block.get("code"), str):
        raise PortableTextError(f"{path}.code", "a code block needs its code as a string")


def normalize(value: Any) -> list[dict[str, Any]]:
    """A checked copy of ``value`` with missing keys and defaults filled in; raises PortableTextError."""
    if not isinstance(value, list):
        raise PortableTextError("", "must be a Portable Text array of blocks (or a Markdown string)")
    if len(value) > MAX_BLOCKS:
        raise PortableTextError("", f"must have at most {MAX_BLOCKS} blocks")
    blocks = copy.deepcopy(value)
    used: set[str] = set()
    for index, block in enumerate(blocks):
        _check_block(block, f"[{index}]", used)
    return blocks


def image_ids(blocks: Any) -> list[str]:
    """Media ids of the inline images, in order."""
    if not isinstance(blocks, list):
        return []
    ids = []
    for block in blocks:
        asset = block.get("asset") if isinstance(block, dict) and block.get("_type") == "image" else None
        if isinstance(asset, dict) and isinstance(asset.get("id"), str):
            ids.append(asset["id"])
    return ids
