"""The starters a fresh site can begin with (SPEC 13): the one table the command, the dashboard and the demo use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

POSTS: dict[str, Any] = {
    "slug": "posts",
    "label": "Posts",
    "label_singular": "Post",
    "icon": "file-text",
    "description": "Blog posts",
    "supports": ["drafts", "revisions", "preview", "scheduling", "search"],
    "fields": [
        {"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True},
        {"slug": "excerpt", "label": "Excerpt", "type": "text", "searchable": True, "options": {"rows": 3}},
        {"slug": "body", "label": "Body", "type": "portableText", "searchable": True},
        {"slug": "cover", "label": "Cover image", "type": "image"},
    ],
}
PAGES: dict[str, Any] = {
    "slug": "pages",
    "label": "Pages",
    "label_singular": "Page",
    "icon": "file",
    "description": "Standalone pages",
    "supports": ["drafts", "revisions", "preview", "search"],
    "fields": [
        {"slug": "title", "label": "Title", "type": "string", "required": True, "searchable": True},
        {"slug": "body", "label": "Body", "type": "portableText", "searchable": True},
    ],
}
HOME_LINK: dict[str, Any] = {"label": "Home", "type": "custom", "customUrl": "/"}
Items = tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Starter:
    """What a starter creates; anything already there is left as it is, so applying one twice changes nothing."""

    name: str
    label: str
    description: str  # one line on the dashboard's choice and in the command's --help
    collections: tuple[dict[str, Any], ...] = ()
    taxonomies: dict[str, tuple[str, ...]] = field(default_factory=dict)  # taxonomy -> collections it attaches to
    menus: dict[str, tuple[str, Items]] = field(default_factory=dict)  # name -> (label, items)


PRIMARY_MENU: dict[str, tuple[str, Items]] = {"primary": ("Primary", (HOME_LINK,))}

STARTERS: dict[str, Starter] = {
    s.name: s
    for s in (
        Starter(
            "blog",
            "Blog",
            "Posts with categories and tags, plus pages, and a header menu with a Home link.",
            collections=(POSTS, PAGES),
            taxonomies={"category": ("posts",), "tag": ("posts",)},
            menus=PRIMARY_MENU,
        ),
        Starter(
            "pages",
            "Pages",
            "Standalone pages and a header menu with a Home link, for a brochure site.",
            collections=(PAGES,),
            menus=PRIMARY_MENU,
        ),
        Starter("empty", "Empty", "Nothing: design your own collections in the schema builder."),
    )
}
