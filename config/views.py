"""Project-level views: the health check and the 500 page (the public site lives in public_site)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader

from emdash.tracing import current_trace_id


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the trace id and nothing else (Django has already logged the error with the same id).

    The page renders without the request's context processors: they may need the database that just failed."""
    trace_id = current_trace_id()
    if request.path.startswith("/_emdash/api/"):
        body = {"error": {"code": "INTERNAL_ERROR", "message": "Internal error", "traceId": trace_id}}
        return JsonResponse(body, status=500)
    return HttpResponse(loader.render_to_string("500.html", {"trace_id": trace_id}), status=500)
