"""Public URLs of entries, in one place (menus, settings, search and the site templates agree on them)."""

from __future__ import annotations


def entry_path(collection: str, slug: str) -> str:
    return f"/{collection}/{slug}/"
