"""Public URLs of taxonomy archives, in one place (menus and the site templates agree on them)."""

from __future__ import annotations


def term_path(taxonomy: str, slug: str) -> str:
    return f"/{taxonomy}/{slug}/"
