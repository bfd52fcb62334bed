"""Preview from the edit page: the editor's own signed preview, and share links for reviewers without an account."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from admin_ui.base import actor_for, admin_page, attempt
from admin_ui.views.entries import collection_or_404, entry_or_404, title_of
from content.entries import preview, shares
from emdash.permissions import Perm


@admin_page(Perm.CONTENT_READ_UNPUBLISHED)
def entry_preview(request: HttpRequest, collection: str, id: str) -> HttpResponse:
    """Mint a fresh signed link and go there: the Preview button opens this in a new tab."""
    spec, entry = entry_or_404(actor_for(request), collection, id)
    outcome = attempt(
        request,
        "content.entries.preview",
        lambda: preview.preview_link(actor=actor_for(request), collection=spec.slug, id=entry.id),
        target=f"{spec.slug}/{entry.id}",
    )
    if not outcome.ok:
        return redirect("admin_ui:entry_edit", spec.slug, id)
    return redirect(outcome.result.path)


@admin_page(Perm.CONTENT_EDIT_OWN, "POST")
def share_create(request: HttpRequest, collection: str, id: str) -> HttpResponse:
    """Create a share link and show it once (only its hash is stored)."""
    actor = actor_for(request)
    spec, entry = entry_or_404(actor, collection, id)
    lifetime = request.POST.get("lifetime", "")
    outcome = attempt(
        request,
        "content.share_preview",
        lambda: shares.share_create(actor=actor, collection=spec.slug, id=entry.id, lifetime=lifetime),
        target=f"{spec.slug}/{entry.id}",
    )
    if not outcome.ok:
        return redirect("admin_ui:entry_edit", spec.slug, id)
    share, path = outcome.result
    context = {
        "spec": spec,
        "item": entry.to_dict(),
        "title": title_of(entry.to_dict()),
        "share": share,
        "url": request.build_absolute_uri(path),
        "lifetime": shares.SHARE_LIFETIMES[lifetime][1],
        "nav_key": f"c:{spec.slug}",
    }
    return render(request, "admin_ui/entries/share_created.html", context)


@admin_page(Perm.CONTENT_EDIT_OWN, "POST")
def share_revoke(request: HttpRequest, collection: str, id: str, share_id: str) -> HttpResponse:
    spec = collection_or_404(collection)
    actor = actor_for(request)
    attempt(
        request,
        "content.revoke_share",
        lambda: shares.share_revoke(actor=actor, share_id=share_id),
        "Share link switched off: it no longer opens the draft.",
        target=f"{spec.slug}/{id}",
    )
    return redirect("admin_ui:entry_edit", spec.slug, id)
