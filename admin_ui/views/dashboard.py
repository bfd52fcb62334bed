"""The dashboard: counts per collection, recent edits, scheduled items and drafts."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from admin_ui.base import actor_for, admin_page
from content.entries import selectors
from content.schema import specs as schema
from emdash.permissions import Perm, can


def _title(item: dict[str, Any]) -> str:
    data = item.get("data") or {}
    return str(data.get("title") or data.get("name") or item["slug"])


def _recent(actor: Any, specs: list[Any], status: str | None, order_by: str) -> list[dict[str, Any]]:
    items = []
    for spec in specs:
        page = selectors.entry_list(actor=actor, collection=spec.slug, status=status, order_by=order_by, limit=5)
        items += [{**i, "title": _title(i), "collection_label": spec.label_singular} for i in page.items]
    reverse = order_by != "scheduled_at"
    return sorted(items, key=lambda i: i.get(_KEYS[order_by]) or "", reverse=reverse)[:8]


_KEYS = {"updated_at": "updatedAt", "scheduled_at": "scheduledAt"}


@admin_page()
def dashboard(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    context: dict[str, Any] = {"can_read": can(actor, Perm.CONTENT_READ_UNPUBLISHED)}
    if context["can_read"]:
        specs = sorted(schema.current().collections.values(), key=lambda s: s.label.lower())
        context["counts"] = [
            {"spec": spec, **selectors.entry_status_counts(actor=actor, collection=spec.slug)} for spec in specs
        ]
        context["recent"] = _recent(actor, specs, None, "updated_at")
        context["scheduled"] = _recent(actor, specs, "scheduled", "scheduled_at")
        context["drafts"] = _recent(actor, specs, "draft", "updated_at")
    return render(request, "admin_ui/dashboard.html", context)
