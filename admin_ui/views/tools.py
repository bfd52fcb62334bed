"""The Tools page (admins only, SPEC 12): download an export of the whole site, import an export archive into an
empty site, import a WordPress export (WXR). Imports run in the background (the worker) and their page shows
progress, then the report: what was created, and what was skipped and why."""

from __future__ import annotations

import time
from typing import cast

from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from admin_ui import audit
from admin_ui.base import actor_for, admin_page, attempt
from emdash.permissions import Perm
from transfer import jobs
from transfer.models import ImportJob
from transfer.restore import site_contents

RECENT = 10


@admin_page(Perm.SITE_IMPORT, "GET")
def tools(request: HttpRequest) -> HttpResponse:
    context = {
        "jobs": ImportJob.objects.order_by("-created_at")[:RECENT],
        "occupied": site_contents(),
        "nav_key": "tools",
    }
    return render(request, "admin_ui/tools.html", context)


@admin_page(Perm.SITE_IMPORT, "POST")
def export(request: HttpRequest) -> HttpResponse:
    """The archive is written to a temporary file first (bounded memory, and a failure is an error page, not a
    truncated download), then streamed."""
    started = time.perf_counter()
    outcome = attempt(request, "emdash_export", jobs.export_to_temporary, audited=False)
    if not outcome.ok:
        return redirect("admin_ui:tools")
    audit.record(request, "emdash_export", "ok", started, "site")
    name = f"emdash-export-{timezone.now():%Y%m%d-%H%M%S}.tar.gz"
    download = FileResponse(outcome.result, as_attachment=True, filename=name, content_type="application/gzip")
    return cast(HttpResponse, download)  # a streamed response; the admin's views are typed as HttpResponse


def _start(request: HttpRequest, kind: str, success: str) -> HttpResponse:
    upload = request.FILES.get("file")
    name = upload.name if upload is not None else ""
    outcome = attempt(
        request,
        f"import_{kind}",
        lambda: jobs.start(actor=actor_for(request), kind=kind, upload=upload, filename=name or ""),
        success,
        target=name or "",
    )
    if outcome.ok:
        return redirect("admin_ui:tools_job", job_id=outcome.result.pk)
    return redirect("admin_ui:tools")


@admin_page(Perm.SITE_IMPORT, "POST")
def import_wordpress(request: HttpRequest) -> HttpResponse:
    return _start(request, ImportJob.WORDPRESS, "WordPress import queued.")


@admin_page(Perm.SITE_IMPORT, "POST")
def import_archive(request: HttpRequest) -> HttpResponse:
    return _start(request, ImportJob.ARCHIVE, "Import queued.")


@admin_page(Perm.SITE_IMPORT, "GET")
def job(request: HttpRequest, job_id: int) -> HttpResponse:
    found = get_object_or_404(ImportJob, pk=job_id)
    progress = found.progress if isinstance(found.progress, dict) else {}
    total = progress.get("total") or 0
    percent = min(100, int(100 * (progress.get("done") or 0) / total)) if total else None
    context = {"job": found, "progress": progress, "percent": percent, "nav_key": "tools"}
    return render(request, "admin_ui/tools_job.html", context)
