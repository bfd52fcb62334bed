"""The content list's filter bar and sortable headers: URL parameters in, the FilterSet's ``filter`` out.

The admin keeps short names in its URL (``author=3``, ``terms.category=news``, ``date=published&from=...&to=...``)
and hands the same ``filter`` object as MCP and REST to ``selectors.entry_list``, so the collection's
FilterSet (content/entries/filters.py) validates and applies them.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, QueryDict

from accounts.models import User
from admin_ui import terms as entry_terms
from content.entries import rows
from content.schema.specs import CollectionSpec
from emdash.actor import Actor
from taxonomy import selectors as taxonomy_selectors

DATES = [("updated", "Updated"), ("created", "Created"), ("published", "Published")]
# Sortable columns: (sort key, header label, first direction on click).
COLUMNS = [("title", "Title", "asc"), ("status", "Status", "asc"), ("updated_at", "Updated", "desc")]
TERM_PREFIX = "terms."


def filter_object(query: QueryDict) -> dict[str, Any]:
    """The ``filter`` argument of content_list from the list's URL parameters (empty ones left out)."""
    given: dict[str, Any] = {}
    if author := query.get("author", "").strip():
        given["author"] = author
    terms = {k.removeprefix(TERM_PREFIX): v for k, v in query.items() if k.startswith(TERM_PREFIX) and v}
    if terms:
        given["terms"] = terms
    date = query.get("date") or "updated"
    if date in dict(DATES):
        for name, edge in (("from", "After"), ("to", "Before")):
            if value := query.get(name, "").strip():
                given[f"{date}{edge}"] = value
    return given


def labels(exc: Any) -> dict[str, str]:
    """Plain names for the filter problems an error names (``filter.author`` -> "Author")."""
    names = {"filter.author": "Author", "locale": "Locale", "status": "Status"}
    for date, label in DATES:
        names |= {f"filter.{date}After": f"{label} from", f"filter.{date}Before": f"{label} to"}
    for key in (exc.details or {}).get("fields") or {}:
        if key.startswith(f"filter.{TERM_PREFIX}"):
            names[key] = key.removeprefix(f"filter.{TERM_PREFIX}").replace("_", " ").capitalize()
    return names


def bar(actor: Actor, spec: CollectionSpec, query: QueryDict) -> dict[str, Any]:
    """What the filter bar offers: the collection's authors and each attached taxonomy's terms."""
    author_ids = rows.live_rows(spec).exclude(author_id=None).values_list("author_id", flat=True).distinct()
    authors = User.objects.filter(pk__in=author_ids).order_by("name", "email").only("pk", "name", "email")
    taxonomies = [
        {
            "name": t["name"],
            "label": t.get("labelSingular") or t["label"],
            "param": f"{TERM_PREFIX}{t['name']}",
            "chosen": query.get(f"{TERM_PREFIX}{t['name']}", ""),
            "terms": [
                {"slug": term["slug"], "option": "— " * term["depth"] + term["label"]}  # children indented
                for term in entry_terms.flatten(taxonomy_selectors.term_tree(actor=actor, taxonomy=t["name"]))
            ],
        }
        for t in taxonomy_selectors.taxonomy_list(actor=actor)
        if spec.slug in t["collections"]
    ]
    return {
        "authors": [{"id": str(u.pk), "name": u.name or u.email} for u in authors],
        "chosen_author": query.get("author", ""),
        "taxonomies": taxonomies,
        "dates": DATES,
        "chosen_date": query.get("date") or "updated",
        "date_from": query.get("from", ""),
        "date_to": query.get("to", ""),
    }


def headers(request: HttpRequest, order_by: str, order: str) -> list[dict[str, Any]]:
    """The sortable column headers: a link each (first page, filters kept) and the column's aria-sort."""
    result = []
    for key, label, first in COLUMNS:
        current = key == order_by
        query = request.GET.copy()
        query.pop("cursor", None)
        query["sort"] = key
        query["order"] = ("asc" if order == "desc" else "desc") if current else first
        result.append(
            {
                "label": label,
                "href": f"?{query.urlencode()}",
                "aria_sort": ("ascending" if order == "asc" else "descending") if current else "none",
                "arrow": ("▲" if order == "asc" else "▼") if current else "",
            }
        )
    return result
