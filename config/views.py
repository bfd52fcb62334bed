"""Project-level views: the 500 page (the health probe is answered at the edge, emdash.edge.health)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader

from emdash.doors import door_for
from emdash.http import internal_error
from emdash.tracing import current_trace_id


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the trace id and nothing else (Django has already logged the error with the same id).

    The page renders without the request's context processors: they may need the database that just failed."""
    trace_id = current_trace_id()
    if not door_for(request.path).pages:  # an API door: JSON, never a page
        return JsonResponse(internal_error(trace_id), status=500)
    return HttpResponse(loader.render_to_string("500.html", {"trace_id": trace_id}), status=500)
