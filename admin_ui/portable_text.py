"""The admin's Portable Text editor format: a small Markdown dialect that converts to and from blocks.

Blocks: paragraphs (separated by a blank line), ``#``..``####`` headings, ``> `` quotes, ``- `` bullets and
``1. `` numbered items (two spaces of indent per nesting level). Inline: ``**strong**``, ``*em*``,
`` `code` `` and ``[text](https://link)``. A backslash keeps the next character literal. Blocks this
dialect cannot express (images, embeds, custom types) appear as one line of JSON and come back unchanged.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

HEADING_RE = re.compile(r"^(#{1,4}) (.*)$")
LIST_RE = re.compile(r"^((?:  )*)(- |\d+\. )(.*)$")
QUOTE_RE = re.compile(r"^> ?(.*)$")
LINK_RE = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(([^()\s]+)\)")
DECORATORS = ("strong", "em", "code")
LINE_START_SPECIALS = ("#", ">", "-", "{")


def _key() -> str:
    return secrets.token_hex(6)


def _span(text: str, marks: list[str]) -> dict[str, Any]:
    return {"_type": "span", "_key": _key(), "text": text, "marks": list(marks)}


def _inline(text: str, active: list[str], spans: list[dict[str, Any]], defs: list[dict[str, Any]]) -> None:
    """Parse inline marks of ``text`` into ``spans``; ``active`` holds the marks open at this point."""
    buf: list[str] = []

    def flush() -> None:
        if buf:
            spans.append(_span("".join(buf), active))
            buf.clear()

    def toggle(mark: str) -> None:
        flush()
        if mark in active:
            active.remove(mark)
        else:
            active.append(mark)

    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            buf.append(text[i + 1])
            i += 2
        elif text.startswith("**", i):
            toggle("strong")
            i += 2
        elif char == "*":
            toggle("em")
            i += 1
        elif char == "`" and (end := text.find("`", i + 1)) > i:
            flush()
            spans.append(_span(text[i + 1 : end], [*active, "code"]))
            i = end + 1
        elif char == "[" and (match := LINK_RE.match(text, i)):
            flush()
            key = _key()
            defs.append({"_type": "link", "_key": key, "href": match.group(2)})
            active.append(key)
            _inline(match.group(1), active, spans, defs)
            active.remove(key)
            i = match.end()
        else:
            buf.append(char)
            i += 1
    flush()


def _merge(spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    merged: list[dict[str, Any]] = []
    for span in spans:
        if merged and sorted(merged[-1]["marks"]) == sorted(span["marks"]):
            merged[-1]["text"] += span["text"]
        elif span["text"]:
            merged.append(span)
    return merged or [_span("", [])]


def _block(text: str, style: str = "normal", **extra: Any) -> dict[str, Any]:
    spans: list[dict[str, Any]] = []
    defs: list[dict[str, Any]] = []
    _inline(text, [], spans, defs)
    return {"_type": "block", "_key": _key(), "style": style, "markDefs": defs, "children": _merge(spans), **extra}


def _raw_block(line: str) -> dict[str, Any] | None:
    if not line.startswith("{"):
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("_type"), str) and value["_type"] else None


def from_markdown(source: str) -> list[dict[str, Any]]:
    """Portable Text blocks from the editor's text."""
    blocks: list[dict[str, Any]] = []
    paragraph: list[str] = []

    def end_paragraph() -> None:
        if paragraph:
            blocks.append(_block("\n".join(paragraph)))
            paragraph.clear()

    for line in source.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not line.strip():
            end_paragraph()
        elif raw := _raw_block(line):
            end_paragraph()
            blocks.append(raw)
        elif heading := HEADING_RE.match(line):
            end_paragraph()
            blocks.append(_block(heading.group(2), f"h{len(heading.group(1))}"))
        elif item := LIST_RE.match(line):
            end_paragraph()
            kind = "bullet" if item.group(2) == "- " else "number"
            blocks.append(_block(item.group(3), listItem=kind, level=len(item.group(1)) // 2 + 1))
        elif quote := QUOTE_RE.match(line):
            end_paragraph()
            blocks.append(_block(quote.group(1), "blockquote"))
        else:
            paragraph.append(line)
    end_paragraph()
    return blocks


def _escape(text: str) -> str:
    text = re.sub(r"([\\*`\[])", r"\\\1", text)
    lines = []
    for line in text.split("\n"):
        if line.startswith(LINE_START_SPECIALS) or re.match(r"^\d+\. ", line):
            line = "\\" + line
        lines.append(line)
    return "\n".join(lines)


def _decorate(span: dict[str, Any]) -> str:
    marks = [m for m in span.get("marks") or [] if m in DECORATORS]
    text = str(span.get("text", ""))
    out = f"`{text}`" if "code" in marks else _escape(text)
    if "em" in marks:
        out = f"*{out}*"
    if "strong" in marks:
        out = f"**{out}**"
    return out


def _children(block: dict[str, Any]) -> str:
    hrefs = {d.get("_key"): d.get("href", "") for d in block.get("markDefs") or [] if d.get("_type") == "link"}
    out: list[str] = []
    group_key: str | None = None
    group: list[str] = []
    for span in block.get("children") or []:
        key = next((m for m in span.get("marks") or [] if m in hrefs), None)
        if key != group_key and group:
            out.append(f"[{''.join(group)}]({hrefs[group_key]})" if group_key else "".join(group))
            group = []
        group_key = key
        group.append(_decorate(span))
    if group:
        out.append(f"[{''.join(group)}]({hrefs[group_key]})" if group_key else "".join(group))
    return "".join(out)


def _expressible(block: Any) -> bool:
    if not isinstance(block, dict) or block.get("_type") != "block":
        return False
    children = block.get("children") or []
    return all(isinstance(c, dict) and c.get("_type") == "span" for c in children)


def to_markdown(blocks: Any) -> str:
    """The editor's text for stored blocks."""
    if not isinstance(blocks, list):
        return ""
    parts: list[str] = []
    previous_list = False
    for block in blocks:
        if not _expressible(block):
            line, is_list = json.dumps(block, ensure_ascii=False, separators=(",", ":")), False
        else:
            text, style, kind = _children(block), block.get("style") or "normal", block.get("listItem")
            is_list = kind in ("bullet", "number")
            if is_list:
                level = block.get("level") if isinstance(block.get("level"), int) else 1
                line = "  " * max(level - 1, 0) + ("- " if kind == "bullet" else "1. ") + text
            elif style in ("h1", "h2", "h3", "h4"):
                line = "#" * int(style[1]) + " " + text
            elif style == "blockquote":
                line = "> " + text
            else:
                line = text
        if parts:
            parts.append("\n" if is_list and previous_list else "\n\n")
        parts.append(line)
        previous_list = is_list
    return "".join(parts)
