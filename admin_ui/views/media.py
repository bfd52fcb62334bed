"""The media library: a grid, uploads (drag and drop or the file picker), alt text/caption, delete."""

from __future__ import annotations

import time

from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render

from admin_ui import audit
from admin_ui.base import actor_for, admin_page, attempt, run
from audit.record import record
from emdash.actor import Actor
from emdash.call import Call
from emdash.errors import EmDashError
from emdash.permissions import Perm, can
from media import presenters, selectors, services, usage
from media.models import MediaItem


@admin_page(Perm.MEDIA_READ)
def library(request: HttpRequest) -> HttpResponse:
    actor = actor_for(request)
    kind = request.GET.get("type", "")
    cursor = request.GET.get("cursor") or None
    outcome = attempt(
        request,
        "media.list",
        lambda: selectors.media_list(actor=actor, mime_type=kind or None, limit=60, cursor=cursor),
    )
    page = outcome.result if outcome.ok else selectors.media_list(actor=actor, limit=60)
    uses = usage.usage_by_media(i["id"] for i in page.items)
    context = {
        "items": [{**i, "uses": uses.get(i["id"], [])} for i in page.items],
        "next_cursor": page.next_cursor,
        "type": kind,
        "can_upload": can(actor, Perm.MEDIA_CREATE),
        "can_edit_any": can(actor, Perm.MEDIA_EDIT_ANY),
        "user_id": actor.user_id,
        "nav_key": "media",
    }
    return render(request, "admin_ui/media/library.html", context)


@admin_page(Perm.MEDIA_CREATE, "POST")
def upload(request: HttpRequest) -> HttpResponse:
    """Multipart upload of one or more files. Answers JSON to the drag-and-drop script, else redirects."""
    actor = actor_for(request)
    results = []
    files = request.FILES.getlist("file")
    # A script's request (the library's drop zone, the editor's image dialog) reads the JSON answer: a flashed
    # message would wait in the session and surface on whatever page the user opens next.
    wants_json = request.headers.get("Accept", "").startswith("application/json")
    for upload_file in files:
        outcome = attempt(
            request,
            "media_upload",
            lambda f=upload_file: _store(request, actor, f),  # type: ignore[misc]
            f"Uploaded {upload_file.name}.",
            audited=False,
            notify=not wants_json,
        )
        results.append(
            {"ok": outcome.ok, "code": outcome.code, "item": presenters.item(outcome.result) if outcome.ok else None}
        )
    if not files:
        attempt(request, "media_upload", _no_file, notify=not wants_json)
    if wants_json:
        return JsonResponse({"results": results}, status=200 if results and all(r["ok"] for r in results) else 400)
    return redirect("admin_ui:media")


def _store(request: HttpRequest, actor: Actor, upload_file: UploadedFile) -> MediaItem:
    """One file, and its audit row in the same transaction (failures are recorded on their own)."""
    started = time.perf_counter()
    try:
        with transaction.atomic():
            item = services.media_upload(
                actor=actor,
                file=upload_file,
                filename=upload_file.name,
                content_type=upload_file.content_type,
                alt=request.POST.get("alt") or None,
            )
            record(Call.at("admin", actor), "media_upload", "ok", f"media/{item.id}", started=started)
    except EmDashError as exc:
        audit.record(request, "media_upload", exc.code, started)
        raise
    return item


def _no_file() -> None:
    from emdash.errors import ValidationError

    raise ValidationError.for_fields({"file": "choose a file to upload"})


@admin_page(Perm.MEDIA_EDIT_OWN, "POST")
def edit(request: HttpRequest, id: str) -> HttpResponse:
    raw: dict[str, object] = {"id": id, "alt": request.POST.get("alt", ""), "caption": request.POST.get("caption", "")}
    if "focal_x" in request.POST or "focal_y" in request.POST:
        raw["focalPoint"] = {"x": _number(request.POST.get("focal_x")), "y": _number(request.POST.get("focal_y"))}
    run(request, "media_update", raw, "Media details saved.")
    return redirect(f"{request.build_absolute_uri('/_emdash/admin/media/')}#m-{id}")


def _number(text: str | None) -> object:
    """A form number as a float; anything else is passed on as is, so validation names the field."""
    try:
        return float(text or "")
    except ValueError:
        return text


@admin_page(Perm.MEDIA_EDIT_OWN, "POST")
def delete(request: HttpRequest, id: str) -> HttpResponse:
    # The library lists an item's uses and asks "delete anyway?" before sending force; without it a used
    # item is refused (MEDIA_IN_USE) and the message says where it is used.
    run(request, "media_delete", {"id": id, "force": request.POST.get("force") == "1"}, "Media deleted.")
    return redirect("admin_ui:media")
