"""Markdown in and out of Portable Text (SPEC 6.4c), parsed with markdown-it-py.

Supported both ways: paragraphs, headings 1-6, emphasis, strong, strike-through, inline code, links, fenced and
indented code blocks (as ``code`` blocks), bulleted and numbered lists (nested, as ``listItem``/``level``), block
quotes (as ``style: "blockquote"``), hard line breaks, and images (as ``image`` blocks referencing media items).

Decisions: an image's URL must be one of this site's media URLs — it becomes ``{"_type": "image", "asset":
{"id": ...}}``; any other image URL is refused (``ImageNotFound``: upload it with media_upload first and use the
returned url), so content never hot-links foreign files. Raw HTML is not interpreted (it stays text). Going out,
``underline`` has no Markdown form and is dropped; custom block types are left out; horizontal rules are dropped
going in. Media lookups are done by the caller-supplied resolvers so this module stays free of database access.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

_PARSER = MarkdownIt("commonmark", {"html": False}).enable("strikethrough")
_INLINE_MARKS = {"em_open": "em", "strong_open": "strong", "s_open": "strike-through"}
_CLOSERS = {"em_close", "strong_close", "s_close", "link_close"}
_DELIMS = {"strong": "**", "em": "*", "strike-through": "~~"}


class ImageNotFound(ValueError):
    """An image URL that is not one of this site's media items."""

    def __init__(self, url: str) -> None:
        super().__init__(
            f"the image {url[:200]} is not a media item of this site; upload it with media_upload "
            "(it accepts a url) and use the returned url"
        )
        self.url = url


def _key() -> str:
    return secrets.token_hex(6)


class _Inline:
    """Spans and link definitions of one text block, built from an inline token's children."""

    def __init__(self) -> None:
        self.children: list[dict[str, Any]] = []
        self.mark_defs: list[dict[str, Any]] = []

    def add(self, text: str, marks: list[str]) -> None:
        last = self.children[-1] if self.children else None
        if last is not None and last["marks"] == marks:
            last["text"] += text  # adjacent text with the same marks is one span
        elif text:
            self.children.append({"_type": "span", "_key": _key(), "text": text, "marks": list(marks)})

    def link(self, href: str) -> str:
        key = _key()
        self.mark_defs.append({"_type": "link", "_key": key, "href": href})
        return key


class _Builder:
    """Walks markdown-it's block tokens and emits Portable Text blocks."""

    def __init__(self, image_ids: dict[str, str]) -> None:
        self.blocks: list[dict[str, Any]] = []
        self.lists: list[str] = []  # the open lists, innermost last: bullet / number
        self.quote = 0
        self.heading: str | None = None
        self.image_ids = image_ids

    def token(self, tok: Token) -> None:
        kind = tok.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            self.lists.append("bullet" if kind == "bullet_list_open" else "number")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
        elif kind == "blockquote_open":
            self.quote += 1
        elif kind == "blockquote_close":
            self.quote -= 1
        elif kind == "heading_open":
            self.heading = tok.tag
        elif kind == "heading_close":
            self.heading = None
        elif kind in ("fence", "code_block"):
            language = (tok.info or "").strip().split(" ")[0]
            block = {"_type": "code", "_key": _key(), "code": tok.content.removesuffix("\n")}
            self.blocks.append({**block, "language": language} if language else block)
        elif kind == "inline":
            self.inline(tok.children or [])

    def _text_block(self, inline: _Inline) -> None:
        if not inline.children:
            return
        block: dict[str, Any] = {"_type": "block", "_key": _key(), "style": self.heading or "normal"}
        if self.lists and not self.heading:
            block.update(listItem=self.lists[-1], level=len(self.lists))
        elif self.quote and not self.heading:
            block["style"] = "blockquote"
        block.update(markDefs=inline.mark_defs, children=inline.children)
        self.blocks.append(block)

    def inline(self, tokens: list[Token]) -> None:
        current, marks = _Inline(), list[str]()
        for tok in tokens:
            if tok.type == "text":
                current.add(tok.content, marks)
            elif tok.type == "code_inline":
                current.add(tok.content, [*marks, "code"])
            elif tok.type in ("softbreak", "hardbreak"):
                current.add(" " if tok.type == "softbreak" else "\n", marks)
            elif tok.type in _INLINE_MARKS:
                marks = [*marks, _INLINE_MARKS[tok.type]]
            elif tok.type == "link_open":
                marks = [*marks, current.link(str(tok.attrGet("href") or ""))]
            elif tok.type in _CLOSERS:
                marks = marks[:-1]
            elif tok.type == "image":
                self._text_block(current)  # an image splits the paragraph: it is a block of its own
                current = _Inline()
                self.blocks.append(self._image(tok))
        self._text_block(current)

    def _image(self, tok: Token) -> dict[str, Any]:
        url = str(tok.attrGet("src") or "")
        media_id = self.image_ids.get(url)
        if media_id is None:
            raise ImageNotFound(url)
        block: dict[str, Any] = {"_type": "image", "_key": _key(), "asset": {"id": media_id}}
        alt = "".join(child.content for child in tok.children or [])
        return {**block, "alt": alt} if alt else block


def image_urls(markdown: str) -> set[str]:
    """The image URLs of a Markdown text (resolved by the caller in one query before :func:`to_portable_text`)."""
    urls = set()
    for tok in _PARSER.parse(markdown):
        for child in tok.children or []:
            if child.type == "image":
                urls.add(str(child.attrGet("src") or ""))
    return urls


def to_portable_text(markdown: str, image_ids: dict[str, str]) -> list[dict[str, Any]]:
    """Markdown -> Portable Text blocks; ``image_ids`` maps this site's media URLs to their ids."""
    builder = _Builder(image_ids)
    for tok in _PARSER.parse(markdown):
        builder.token(tok)
    return builder.blocks


# --- Portable Text -> Markdown -------------------------------------------------------------------------------

_ESCAPE_ANYWHERE = re.compile(r"([\\`*_\[\]<>~|!&])")
_LINE_START = re.compile(r"^(\s*)([#+\-=>]|\d+[.)])", re.MULTILINE)


def _escape(text: str) -> str:
    text = _ESCAPE_ANYWHERE.sub(r"\\\1", text)
    text = _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2) if m.group(2)[0] in "#+-=>" else m.group(0), text)
    # A number followed by "." or ")" at a line start would open a numbered list.
    return re.sub(r"^(\s*\d+)([.)])", r"\1\\\2", text, flags=re.MULTILINE)


def _code_span(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _core(text: str, code: bool) -> str:
    if code:
        return _code_span(text)
    return _escape(text).replace("\n", "\\\n")  # a newline inside a span is a hard break


class _SpanWriter:
    """Writes spans with marks that may cover several spans; whitespace is kept outside the delimiters."""

    def __init__(self, links: dict[str, str]) -> None:
        self.links = links
        self.open: list[str] = []
        self.out: list[str] = []

    def _close_until(self, keep: set[str]) -> None:
        while self.open and not set(self.open) <= keep:
            mark = self.open.pop()
            self.out.append(f"]({self.links[mark]})" if mark in self.links else _DELIMS[mark])

    def _open(self, marks: Iterable[str]) -> None:
        for mark in marks:
            if mark not in self.open:
                self.open.append(mark)
                self.out.append("[" if mark in self.links else _DELIMS[mark])

    def write(self, spans: list[tuple[list[str], str]]) -> str:
        pending = ""
        for marks, text in spans:
            core = text.strip(" ")
            if not core:
                pending += text
                continue
            wanted = [m for m in marks if m in self.links or m in _DELIMS]
            self._close_until(set(wanted))
            self.out.append(pending + text[: len(text) - len(text.lstrip(" "))])
            self._open(sorted(wanted, key=lambda m: (m not in self.links, m)))  # links outermost
            self.out.append(_core(core, "code" in marks))
            pending = text[len(text.rstrip(" ")) :]
        self._close_until(set())
        return "".join(self.out) + pending


def _inline(block: dict[str, Any]) -> str:
    links = {d["_key"]: d.get("href", "") for d in block.get("markDefs") or [] if d.get("_type") == "link"}
    spans = [(list(s.get("marks") or []), str(s.get("text", ""))) for s in block.get("children") or []]
    return _SpanWriter(links).write(spans)


def _block_markdown(block: dict[str, Any], image_url: Callable[[str], str | None]) -> str | None:
    kind = block.get("_type")
    if kind == "code":
        code = str(block.get("code", ""))
        fence = "`" * max(3, max((len(r) + 1 for r in re.findall(r"`{3,}", code)), default=3))
        return f"{fence}{block.get('language') or ''}\n{code}\n{fence}"
    if kind == "image":
        url = image_url(str((block.get("asset") or {}).get("id", "")))
        return f"![{_escape(str(block.get('alt') or ''))}](<{url}>)" if url else None
    if kind != "block":
        return None  # custom block types have no Markdown form
    text = _inline(block)
    style = block.get("style") or "normal"
    if block.get("listItem"):
        marker = "-" if block["listItem"] == "bullet" else "1."
        return "    " * (int(block.get("level") or 1) - 1) + f"{marker} {text}"
    if style == "blockquote":
        return "\n".join(f"> {line}" for line in text.split("\n"))
    if style[:1] == "h" and style[1:].isdigit():
        return "#" * int(style[1:]) + " " + text.replace("\\\n", " ")
    return text


def from_portable_text(blocks: Any, image_urls_by_id: dict[str, str]) -> str:
    """Portable Text blocks -> Markdown; ``image_urls_by_id`` maps media ids to their public URLs."""
    if not isinstance(blocks, list):
        return ""
    parts: list[str] = []
    previous_list = False
    for block in blocks:
        if not isinstance(block, dict):
            continue
        text = _block_markdown(block, lambda media_id: image_urls_by_id.get(media_id.upper()))
        if text is None:
            continue
        is_list = bool(block.get("_type") == "block" and block.get("listItem"))
        separator = "\n" if is_list and previous_list else "\n\n"
        parts.append((separator if parts else "") + text)
        previous_list = is_list
    return "".join(parts) + ("\n" if parts else "")
