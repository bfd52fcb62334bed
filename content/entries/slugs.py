"""Content slugs: generated from titles, checked when given, unique per locale."""

from __future__ import annotations

import re
import unicodedata

from content.field_types import CONTENT_SLUG_RE
from emdash.errors import InvalidSlug, ReservedSlug

GENERATED_MAX_LENGTH = 80
FALLBACK = "untitled"
# Item slugs that a literal route segment after ``<collection>/`` would shadow (admin ``new/``, ``rows/``,
# ``trash/``; REST ``trash``): such an item could never be opened by slug. A test walks the URL confs.
RESERVED_ENTRY_SLUGS = frozenset({"new", "rows", "trash"})


def slugify(text: str) -> str:
    """Lowercase ASCII with accents stripped, other characters folded to single hyphens, ≤ 80 chars."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    slug = slug[:GENERATED_MAX_LENGTH].rstrip("-")
    return slug or FALLBACK


def check_slug(value: object) -> str:
    if not isinstance(value, str) or not CONTENT_SLUG_RE.match(value):
        raise InvalidSlug(
            "Invalid slug: use 1-200 lowercase letters, digits, '-' or '_', starting and ending with a letter or digit"
        )
    return value


def check_entry_slug(value: object) -> str:
    """A content item's explicit slug: well-formed and not one the routes keep for themselves."""
    slug = check_slug(value)
    if slug in RESERVED_ENTRY_SLUGS:
        reserved = ", ".join(sorted(RESERVED_ENTRY_SLUGS))
        raise ReservedSlug(f"Slug '{slug}' is reserved (reserved item slugs: {reserved}); choose another")
    return slug


def next_free(base: str, taken: set[str]) -> str:
    """``base``, else ``base-2``, ``base-3``, ... whichever is free (suffix kept within the length cap).
    Reserved item slugs count as taken, so a title "New" becomes ``new-2``."""
    taken = taken | RESERVED_ENTRY_SLUGS
    if base not in taken:
        return base
    n = 2
    while True:
        suffix = f"-{n}"
        candidate = base[: GENERATED_MAX_LENGTH - len(suffix)].rstrip("-") + suffix
        if candidate not in taken:
            return candidate
        n += 1
