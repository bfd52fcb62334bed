"""HTML → Portable Text with the standard library's HTML parser (a real tokenizer: entities, attributes, broken
markup), in the project's conventions (content.portable_text): text blocks with ``style``/``listItem``/``level``,
decorators ``strong em code underline strike-through``, ``link`` mark definitions, ``code`` and ``image`` blocks.

Elements with no Portable Text equivalent (tables, iframes, audio, video, forms, scripts...) are kept as their
HTML in a ``code`` block (``language: "html"``) rather than dropped: an editor can still see and rebuild them.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from html import escape
from html.parser import HTMLParser
from typing import Any

from content.portable_text import safe_href
from emdash.numbers import plain_int

MARKS = {
    "strong": "strong",
    "b": "strong",
    "em": "em",
    "i": "em",
    "code": "code",
    "u": "underline",
    "s": "strike-through",
    "del": "strike-through",
    "strike": "strike-through",
}
CONTAINERS = {
    "p",
    "div",
    "section",
    "article",
    "figure",
    "figcaption",
    "header",
    "footer",
    "main",
    "aside",
    "center",
    "nav",
    "dd",
    "dt",
    "dl",
    "details",
    "summary",
    "hgroup",
}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
KEPT_AS_HTML = {
    "table",
    "iframe",
    "video",
    "audio",
    "object",
    "embed",
    "form",
    "script",
    "style",
    "svg",
    "select",
    "canvas",
    "math",
    "noscript",
    "template",
}
VOID = {"br", "img", "hr", "input", "source", "track", "wbr", "meta", "link", "param", "area", "col"}
# (src, attachment id) -> media id, or None when the image is not in the site
Images = Callable[[str, int | None], str | None]


def _key() -> str:
    return secrets.token_hex(6)


class _Converter(HTMLParser):
    def __init__(self, images: Images, classic: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.images, self.classic = images, classic
        self.blocks: list[dict[str, Any]] = []
        self.missing: list[str] = []
        self.block: dict[str, Any] | None = None
        self.marks: list[str] = []
        self.lists: list[str] = []
        self.style = "normal"
        self.quotes = 0
        self.code: list[str] | None = None  # inside <pre>
        self.raw: list[str] | None = None  # inside an element kept as HTML
        self.raw_tag, self.raw_depth = "", 0

    # -- text blocks
    def flush(self) -> None:
        block, self.block = self.block, None
        if block is None:
            return
        spans = block["children"]
        while spans and not spans[-1]["text"].strip(" \n"):
            spans.pop()
        if not spans:
            return
        spans[0]["text"] = spans[0]["text"].lstrip(" \n")
        spans[-1]["text"] = spans[-1]["text"].rstrip(" \n")
        used = {m for s in spans for m in s["marks"]}
        block["markDefs"] = [d for d in block["markDefs"] if d["_key"] in used]
        self.blocks.append(block)

    def _open_block(self) -> dict[str, Any]:
        if self.block is None:
            style = self.style if self.style != "normal" else ("blockquote" if self.quotes else "normal")
            self.block = {"_type": "block", "_key": _key(), "style": style, "markDefs": [], "children": []}
            if self.lists:
                self.block.update(listItem=self.lists[-1], level=min(len(self.lists), 10))
        return self.block

    def text(self, text: str) -> None:
        if not text:
            return
        block = self.block
        if block is None:
            if not text.strip():
                return
            block = self._open_block()
        spans = block["children"]
        if spans and spans[-1]["text"].endswith((" ", "\n")) and text.startswith(" "):
            text = text.lstrip(" ")
        marks = [m for m in self.marks if m]  # "" stands for a link whose address was refused
        if spans and spans[-1]["marks"] == marks:
            spans[-1]["text"] += text
        elif text:
            spans.append({"_type": "span", "_key": _key(), "text": text, "marks": marks})

    # -- the parser's callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.raw is not None:
            self.raw.append(self.get_starttag_text() or "")
            self.raw_depth += tag == self.raw_tag
            return
        if self.code is not None:
            return
        values = {k: v or "" for k, v in attrs}
        if tag in KEPT_AS_HTML:
            self.flush()
            self.raw, self.raw_tag, self.raw_depth = [self.get_starttag_text() or ""], tag, 1
        elif tag in MARKS:
            self.marks.append(MARKS[tag])
        elif tag == "a":
            href = safe_href(values.get("href", ""))
            self.marks.append(self._link(href) if href else "")
        elif tag == "br":
            self.text("\n")
        elif tag == "img":
            self.image(values)
        elif tag == "pre":
            self.flush()
            self.code = []
        else:
            self.block_start(tag)

    def _link(self, href: str) -> str:
        key = _key()
        self._open_block()["markDefs"].append({"_type": "link", "_key": key, "href": href})
        return key

    def block_start(self, tag: str) -> None:
        if tag in HEADINGS:
            self.flush()
            self.style = tag
        elif tag == "blockquote":
            self.flush()
            self.quotes += 1
        elif tag in ("ul", "ol"):
            self.flush()
            self.lists.append("number" if tag == "ol" else "bullet")
        elif tag == "li" or tag in CONTAINERS or tag == "hr":
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if self.raw is not None:
            self.raw.append(f"</{tag}>")
            self.raw_depth -= tag == self.raw_tag
            if self.raw_depth <= 0:
                self.blocks.append({"_type": "code", "_key": _key(), "language": "html", "code": "".join(self.raw)})
                self.raw = None
            return
        if tag == "pre" and self.code is not None:
            code, self.code = "".join(self.code).strip("\n"), None
            if code.strip():
                self.blocks.append({"_type": "code", "_key": _key(), "code": code})
        elif self.code is not None:
            return
        elif tag in MARKS or tag == "a":
            if self.marks:
                self.marks.pop()
        elif tag in HEADINGS:
            self.flush()
            self.style = "normal"
        elif tag == "blockquote":
            self.flush()
            self.quotes = max(0, self.quotes - 1)
        elif tag in ("ul", "ol"):
            self.flush()
            if self.lists:
                self.lists.pop()
        elif tag == "li" or tag in CONTAINERS:
            self.flush()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self.raw is not None:
            self.raw.append(escape(data, quote=False))
        elif self.code is not None:
            self.code.append(data)
        elif self.classic and "\n\n" in data:
            for index, part in enumerate(data.split("\n\n")):
                if index:
                    self.flush()
                self.classic_text(part)
        else:
            self.classic_text(data) if self.classic else self.text(_collapse(data))

    def classic_text(self, data: str) -> None:
        """wpautop's rules: a single newline is a line break."""
        lines = [_collapse(line) for line in data.strip("\n").split("\n")] if data.strip() else [_collapse(data)]
        self.text("\n".join(lines))

    def image(self, values: dict[str, str]) -> None:
        src = values.get("src", "")
        classes = values.get("class", "")
        wp_id = next((plain_int(c[9:]) for c in classes.split() if c.startswith("wp-image-")), None)
        media_id = self.images(src, wp_id)
        if media_id is None:
            self.missing.append(src)
            return
        self.flush()
        block: dict[str, Any] = {"_type": "image", "_key": _key(), "asset": {"id": media_id}}
        if values.get("alt"):
            block["alt"] = values["alt"]
        self.blocks.append(block)


def _collapse(text: str) -> str:
    """HTML's whitespace rule: any run of spaces, tabs and newlines is one space."""
    if not text:
        return ""
    inner = " ".join(text.split())
    return (" " if text[0].isspace() else "") + inner + (" " if text[-1].isspace() and inner else "")


def to_portable_text(html: str, images: Images, *, classic: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """Blocks for ``html``, and the image sources that were not in the site (reported, not fetched here)."""
    converter = _Converter(images, classic)
    converter.feed(html)
    converter.close()
    if converter.raw is not None:  # an element never closed: keep what there was
        converter.blocks.append({"_type": "code", "_key": _key(), "language": "html", "code": "".join(converter.raw)})
    converter.flush()
    return converter.blocks, converter.missing
