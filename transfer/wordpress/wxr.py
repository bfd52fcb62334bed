"""Reading a WordPress export (WXR 1.1/1.2, what Tools → Export writes) into plain records.

The XML is parsed with defusedxml and DTDs are refused outright: a WXR file never has one, and every XXE or
entity-expansion attack needs one. Items are cleared from the tree as they are read, so memory follows one item,
not the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from emdash.numbers import plain_int


class WxrError(Exception):
    """The file is not a WordPress export we can read safely; nothing was imported."""


@dataclass
class Term:
    taxonomy: str  # category, post_tag, nav_menu, or a custom taxonomy
    slug: str
    name: str
    parent: str = ""  # the parent's slug
    description: str = ""
    term_id: str = ""


@dataclass
class Item:
    post_id: int
    post_type: str
    title: str = ""
    link: str = ""
    slug: str = ""
    status: str = ""
    date_gmt: datetime | None = None
    parent: int = 0
    menu_order: int = 0
    password: str = ""
    sticky: bool = False
    content: str = ""
    excerpt: str = ""
    creator: str = ""
    attachment_url: str = ""
    terms: list[tuple[str, str]] = field(default_factory=list)  # (taxonomy, slug)
    meta: dict[str, str] = field(default_factory=dict)


@dataclass
class Author:
    login: str
    email: str = ""
    display_name: str = ""


@dataclass
class Site:
    title: str = ""
    link: str = ""
    version: str = ""
    authors: list[Author] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)


def _name(tag: str) -> str:
    """``{uri}local`` as ``prefix:local`` whatever the export's namespace version (1.0-1.2, http or https)."""
    if not tag.startswith("{"):
        return tag
    uri, _, local = tag[1:].partition("}")
    if "wordpress.org/export" in uri:
        return ("excerpt:" if uri.rstrip("/").endswith("excerpt") else "wp:") + local
    if "purl.org/rss/1.0/modules/content" in uri:
        return "content:" + local
    if "purl.org/dc/elements" in uri:
        return "dc:" + local
    return local


def _texts(element: Element) -> dict[str, str]:
    return {_name(child.tag): (child.text or "").strip() for child in element}


def _gmt(value: str) -> datetime | None:
    if not value or value.startswith("0000"):
        return None  # drafts never published carry 0000-00-00 00:00:00
    try:
        return datetime.strptime(value, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _int(value: str) -> int:
    return plain_int(value.strip()) or 0


def _item(element: Element) -> Item:
    values = _texts(element)
    item = Item(
        post_id=_int(values.get("wp:post_id", "")),
        post_type=values.get("wp:post_type", ""),
        title=values.get("title", ""),
        link=values.get("link", ""),
        slug=values.get("wp:post_name", ""),
        status=values.get("wp:status", ""),
        date_gmt=_gmt(values.get("wp:post_date_gmt", "")),
        parent=_int(values.get("wp:post_parent", "")),
        menu_order=_int(values.get("wp:menu_order", "")),
        password=values.get("wp:post_password", ""),
        sticky=values.get("wp:is_sticky", "") == "1",
        creator=values.get("dc:creator", ""),
        attachment_url=values.get("wp:attachment_url", ""),
    )
    for child in element:  # content keeps its whitespace: classic posts separate paragraphs with blank lines
        name = _name(child.tag)
        if name == "content:encoded":
            item.content = child.text or ""
        elif name == "excerpt:encoded":
            item.excerpt = (child.text or "").strip()
        elif name == "category" and child.get("nicename"):
            item.terms.append((child.get("domain", ""), child.get("nicename", "")))
        elif name == "wp:postmeta":
            meta = _texts(child)
            item.meta[meta.get("wp:meta_key", "")] = meta.get("wp:meta_value", "")
    return item


def _term(name: str, values: dict[str, str]) -> Term:
    term = _term_fields(name, values)
    term.term_id = values.get("wp:term_id", "")
    return term


def _term_fields(name: str, values: dict[str, str]) -> Term:
    if name == "wp:category":
        return Term(
            "category",
            values.get("wp:category_nicename", ""),
            values.get("wp:cat_name", ""),
            values.get("wp:category_parent", ""),
            values.get("wp:category_description", ""),
        )
    if name == "wp:tag":
        return Term(
            "post_tag",
            values.get("wp:tag_slug", ""),
            values.get("wp:tag_name", ""),
            description=values.get("wp:tag_description", ""),
        )
    return Term(
        values.get("wp:term_taxonomy", ""),
        values.get("wp:term_slug", ""),
        values.get("wp:term_name", ""),
        values.get("wp:term_parent", ""),
        values.get("wp:term_description", ""),
    )


# The parser is fed this much at a time. Expat before 2.6 rescans an unfinished token (a tag with its attributes)
# from its start on every feed, so a 30 MB attribute fed in ElementTree's 16 KiB reads costs ~2,000 rescans (a
# minute of CPU); in 4 MiB reads it costs a handful. Text and CDATA are not tokens: they stream either way.
FEED = 4 << 20


class LargeReads:
    """A binary file whose ``read(n)`` returns at least ``FEED`` bytes (iterparse asks for 16 KiB)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def read(self, size: int = -1) -> bytes:
        return bytes(self.handle.read(max(size, FEED)))


def _events(path: str) -> Iterator[tuple[str, Element]]:
    try:
        with open(path, "rb") as handle:
            yield from iterparse(LargeReads(handle), events=("start", "end"), forbid_dtd=True)
    except DefusedXmlException as exc:
        raise WxrError(f"refused: the file declares a DTD or entities ({type(exc).__name__}); WXR never does") from None
    except ParseError as exc:
        raise WxrError(f"not well-formed XML ({exc})") from None


def read(path: str) -> Site:
    """The whole export as records. Raises WxrError before the caller has written anything."""
    site, depth, channel = Site(), 0, None
    for event, element in _events(path):
        name = _name(element.tag)
        if event == "start":
            depth += 1
            channel = element if name == "channel" else channel
            continue
        depth -= 1
        if name == "item":
            site.items.append(_item(element))
        elif name == "wp:author":
            values = _texts(element)
            site.authors.append(
                Author(
                    values.get("wp:author_login", ""),
                    values.get("wp:author_email", ""),
                    values.get("wp:author_display_name", ""),
                )
            )
        elif name in ("wp:category", "wp:tag", "wp:term") and depth == 2:
            site.terms.append(_term(name, _texts(element)))
        elif depth == 2 and name in ("title", "link", "wp:wxr_version"):
            setattr(site, {"title": "title", "link": "link", "wp:wxr_version": "version"}[name], element.text or "")
        else:
            continue
        if channel is not None and depth == 2:
            channel.remove(element)  # keep memory to one item
    if not site.version:
        raise WxrError("this is not a WordPress export (no wp:wxr_version)")
    return site


def value(meta: dict[str, Any], *keys: str) -> str:
    """The first non-empty post meta among ``keys``."""
    return next((str(meta[k]).strip() for k in keys if str(meta.get(k) or "").strip()), "")
