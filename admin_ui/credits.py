"""Bylines on the entry form: rows of (byline, role) in order, the first row the primary credit.

The form shows the item's credits plus two empty rows; a row left on "—" is dropped. The list of bylines comes
from the bylines app's selector (the admin sits above it); when it shows no rows, the item's credits stay. A site
with more bylines than one list holds gets a search: the script asks :data:`SEARCH_URL` as the editor types, and
without it the "Find" button posts the form back (nothing saved) to show the matches (``SEARCH_KEY``)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from bylines import selectors
from content.hooks import rows_credits
from emdash.actor import Actor

SHOWN_KEY = "credits_shown"
SEARCH_KEY = "byline_q"  # the picker's search text; the "Find" button posts the form back with it
FIND_KEY = "byline_find"
SPARE_ROWS = 2
MAX_CHOICES = 100
SEARCH_MAX = 200  # characters of a search looked at (the field's maxlength)


def clean_search(text: str) -> str:
    """What the editor typed, as searched and shown: trimmed once here, where it comes in (the script's JSON
    request or the form's "Find"), and capped."""
    return text.strip()[:SEARCH_MAX]


def posted(post: QueryDict) -> list[dict[str, Any]] | None:
    """``[{bylineId, roleLabel?}]`` in row order, or None when the form showed no byline rows."""
    if post.get(SHOWN_KEY) != "1":
        return None
    credits = []
    for byline_id, role in zip(post.getlist("credit_byline"), post.getlist("credit_role"), strict=False):
        if byline_id:
            credits.append({"bylineId": byline_id, **({"roleLabel": role.strip()} if role.strip() else {})})
    return credits


def of_entry(entry: Any) -> list[dict[str, Any]]:
    """The entry's credits (``bylines`` as items show them; the inferred one included)."""
    found = rows_credits(entry.spec.slug, [entry.row]) if entry is not None else None
    return [dict(credit) for credit in found[0]["bylines"]] if found else []


def explicit(entry: Any) -> list[dict[str, Any]]:
    """The entry's assigned credits as content_update's ``bylines`` takes them."""
    return [
        {"bylineId": c["byline"]["id"], **({"roleLabel": c["roleLabel"]} if c.get("roleLabel") else {})}
        for c in of_entry(entry)
        if c.get("source") == "explicit"
    ]


def described(credits: list[dict[str, Any]]) -> str:
    """Credits as one line for a comparison: "Ann (Photos), Bob"; a byline deleted since shows as such."""
    names = selectors.display_names([c.get("bylineId", "") for c in credits])
    shown = [
        names.get(c.get("bylineId", ""), "(deleted byline)") + (f" ({c['roleLabel']})" if c.get("roleLabel") else "")
        for c in credits
    ]
    return ", ".join(shown)


def searching(post: QueryDict) -> bool:
    """The form was posted by the picker's "Find" button (no script): show the matches, save nothing."""
    return FIND_KEY in post


def choices(actor: Actor, search: str = "") -> tuple[list[dict[str, Any]], bool]:
    """Up to MAX_CHOICES bylines (those matching ``search``, a :func:`clean_search`, when given) and whether more
    exist."""
    page = selectors.byline_list(actor=actor, search=search or None, limit=MAX_CHOICES)
    return [dict(b) for b in page.items], page.next_cursor is not None


def rows(actor: Actor, entry: Any, chosen: list[dict[str, Any]] | None = None, search: str = "") -> dict[str, Any]:
    """The picker's context: the bylines to choose from (the chosen ones always among them) and one row per credit
    (``chosen`` after an error, else the entry's assigned credits) plus spare empty rows."""
    found, more = choices(actor, search)
    if chosen is None:
        chosen = explicit(entry)
    filled = [{"bylineId": c.get("bylineId", ""), "roleLabel": c.get("roleLabel") or ""} for c in chosen]
    listed = {b["id"] for b in found}
    missing = [c["bylineId"] for c in filled if c["bylineId"] and c["bylineId"] not in listed]
    names = selectors.display_names(missing) if missing else {}
    kept = [{"id": i, "displayName": names[i]} for i in dict.fromkeys(missing) if i in names]
    inferred = [c for c in of_entry(entry) if c.get("source") == "inferred"]
    return {
        "choices": kept + found,
        "shown": bool(found or kept or search),
        "search": search,
        "searchable": more or bool(search),
        "matches": len(found),
        "rows": filled + [{"bylineId": "", "roleLabel": ""}] * SPARE_ROWS,
        "inferred": inferred[0]["byline"]["displayName"] if inferred else "",
    }
