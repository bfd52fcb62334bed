"""Project-level views: the 404 and 500 answers (the health probe is answered at the edge, emdash.edge.health)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader

from emdash.doors import door_for
from emdash.errors import NotFound
from emdash.http import error_response, internal_error
from emdash.tracing import current_trace_id
from public_site.views import not_found as site_not_found


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the trace id and nothing else (Django has already logged the error with the same id).

    The page renders without the request's context processors: they may need the database that just failed."""
    trace_id = current_trace_id()
    if not door_for(request.path).pages:  # an API door: JSON, never a page
        return JsonResponse(internal_error(trace_id), status=500)
    return HttpResponse(loader.render_to_string("500.html", {"trace_id": trace_id}), status=500)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: an API door's unknown path gets the JSON error every API answer has (NOT_FOUND), not the public
    site's page; a path that serves people gets the page."""
    if not door_for(request.path).pages:
        return error_response(NotFound("No API endpoint at this path; /_emdash/api/openapi.json lists them"))
    return site_not_found(request, exception)
