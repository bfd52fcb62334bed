"""Per-item SEO: title, description, image (media reference), canonical URL, noindex.

The live values sit in :class:`content.models.EntrySeo` (one row per entry, any collection); an edit of an
item that has a live version waits in its draft revision under ``_seo`` and goes live on publish, like the
field values (content.pending).
"""

from __future__ import annotations

from typing import Any

from content.hooks import existing_media_ids
from content.models import EntrySeo
from emdash.errors import ValidationError
from emdash.safe_urls import url_problem

KEYS = ("title", "description", "image", "canonical", "noindex")


def _canonical_problem(value: Any) -> str | None:
    if isinstance(value, str) and value.startswith("#"):
        return "must be an http(s) URL or a site-relative path (/posts/hello/)"
    return url_problem(value)


def merge(current: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``current`` with ``changes`` applied after checking them: a key set to None is removed. Media must exist,
    the canonical URL must be http(s) or site-relative (no javascript:, data:, //host)."""
    problems: dict[str, str] = {}
    canonical = changes.get("canonical")
    if canonical is not None and (problem := _canonical_problem(canonical)):
        problems["seo.canonical"] = problem
    image = changes.get("image")
    if image is not None and image.get("id") not in existing_media_ids({image.get("id")}):
        problems["seo.image.id"] = f"no media item '{image.get('id')}'"
    if problems:
        raise ValidationError.for_fields(problems)
    merged = {**current, **changes}
    # Unset, empty and false (noindex's default) values are left out: {} means "no SEO of its own".
    return {key: merged[key] for key in KEYS if merged.get(key) not in (None, "", False)}


def live(collection: str, entry_id: str) -> dict[str, Any]:
    found = EntrySeo.objects.filter(collection=collection, entry_id=entry_id).values_list("data", flat=True).first()
    return dict(found) if isinstance(found, dict) else {}


def store(collection: str, entry_id: str, value: dict[str, Any]) -> None:
    """Make ``value`` the entry's live SEO (an empty value removes the row)."""
    if not value:
        EntrySeo.objects.filter(collection=collection, entry_id=entry_id).delete()
        return
    EntrySeo.objects.update_or_create(
        collection=collection, entry_id=entry_id, defaults={"data": value, "noindex": bool(value.get("noindex"))}
    )


def forget(collection: str, entry_ids: list[str] | None = None) -> None:
    """Drop the SEO of deleted entries (all of a collection's when ``entry_ids`` is None)."""
    qs = EntrySeo.objects.filter(collection=collection)
    if entry_ids is not None:
        qs = qs.filter(entry_id__in=entry_ids)
    qs.delete()


def noindex_ids(collection: str) -> set[str]:
    """Entries kept out of search engines (and so out of sitemap.xml)."""
    return set(EntrySeo.objects.filter(collection=collection, noindex=True).values_list("entry_id", flat=True))
