"""An entry read's credits in its own statement: two correlated subqueries (the explicit credits as one JSON
array, the author's own byline as one JSON array) that the entry query selects, and their presentation.

content_get and content_list are two queries when warm (tests/mcp/test_read_path.py); credits read apart would
add two more to every read, so they ride along as terms do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from django.db.models import Aggregate, JSONField, OuterRef, Subquery
from django.db.models.functions import Coalesce, JSONArray

from bylines.models import Byline, ContentByline
from content.entries.outputs import BylineCredit, BylineSummary, Credits
from emdash.dates import iso

_FIELDS = (
    "id",
    "slug",
    "display_name",
    "bio",
    "avatar_media_id",
    "website_url",
    "user_id",
    "is_guest",
    "locale",
    "translation_group",
    "created_at",
    "updated_at",
)


class _JSONList(Aggregate):
    """The group's values as one JSON array: json_group_array, or jsonb_agg on PostgreSQL."""

    function = "JSON_GROUP_ARRAY"
    output_field = JSONField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_AGG", **extra)


def columns(collection: str) -> dict[str, Any]:
    """``credits_live`` (``[[position, roleLabel, *byline], ...]`` or NULL) and ``byline_live`` (the author's
    byline, the one in the entry's locale first, or NULL) for the entry of the outer query."""
    credits = ContentByline.objects.filter(collection=collection, entry_id=OuterRef("id")).order_by()
    row = JSONArray("position", "role_label", *(f"byline__{name}" for name in _FIELDS))
    per_entry = credits.values("entry_id").annotate(credits=_JSONList(row)).values("credits")
    # The author's byline in the entry's locale, else their first one. Two subqueries under COALESCE rather
    # than one ordered by locale: SQLite cannot read an outer column in a scalar subquery's ORDER BY.
    own = Byline.objects.filter(user_id=OuterRef("author_id")).annotate(own=JSONArray(*_FIELDS))
    here = own.filter(locale=OuterRef("locale")).order_by("created_at", "id").values("own")
    anywhere = own.order_by("created_at", "id").values("own")
    return {
        "credits_live": Subquery(per_entry[:1], output_field=JSONField()),
        "byline_live": Coalesce(
            Subquery(here[:1], output_field=JSONField()),
            Subquery(anywhere[:1], output_field=JSONField()),
            output_field=JSONField(),
        ),
    }


def _instant(value: Any) -> str:
    """A timestamp out of JSON: SQLite writes ``2026-01-02 03:04:05.678``, PostgreSQL ISO 8601 with an offset."""
    if isinstance(value, str):
        parsed = datetime.fromisoformat(value)
        return str(iso(parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)))
    return str(value)


def _summary(values: list[Any]) -> BylineSummary:
    found = dict(zip(_FIELDS, values, strict=True))
    return {
        "id": found["id"],
        "slug": found["slug"],
        "displayName": found["display_name"],
        "bio": found["bio"] or None,
        "avatarMediaId": found["avatar_media_id"] or None,
        "websiteUrl": found["website_url"] or None,
        "userId": found["user_id"],
        "isGuest": bool(found["is_guest"]),
        "locale": found["locale"],
        "translationGroup": found["translation_group"],
        "createdAt": _instant(found["created_at"]),
        "updatedAt": _instant(found["updated_at"]),
    }


def of_columns(credits: Any, own: Any, summary_of: Callable[[list[Any]], BylineSummary] = _summary) -> Credits:
    """The credits of an entry out of its two columns (explicit credits win over the author's byline)."""
    if credits:
        ordered = sorted(credits, key=lambda entry: entry[0])
        made: list[BylineCredit] = [
            {"byline": summary_of(c[2:]), "sortOrder": c[0], "roleLabel": c[1] or None, "source": "explicit"}
            for c in ordered
        ]
        return {"bylines": made, "byline": made[0]["byline"]}
    if own:
        summary = summary_of(own)
        return {
            "bylines": [{"byline": summary, "sortOrder": 0, "roleLabel": None, "source": "inferred"}],
            "byline": summary,
        }
    return {"bylines": [], "byline": None}


def of_page(columns: Iterable[tuple[Any, Any]]) -> list[Credits]:
    """The credits of a page of entries out of their two columns each. A byline credited on several of them (the
    author's, on most items of a list) is presented once and its summary shared: these are answers, never
    changed after."""
    shown: dict[tuple[Any, ...], BylineSummary] = {}

    def summary_of(values: list[Any]) -> BylineSummary:
        key = tuple(values)
        found = shown.get(key)
        if found is None:
            found = shown[key] = _summary(values)
        return found

    return [of_columns(credits, own, summary_of) for credits, own in columns]
