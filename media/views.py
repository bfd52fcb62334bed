"""The signed upload target: clients PUT bytes here (the REST routes live in api.media)."""

from __future__ import annotations

import logging
import time

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from accounts.auth import BadToken, request_actor
from emdash.errors import EmDashError, InsufficientPermissions
from emdash.http import error_response, json_response
from emdash.operations.pipeline import Call, action_row
from emdash.operations.tracing import current_trace_id
from emdash.tracing import log_exception
from media import uploads

log = logging.getLogger("emdash.api")


def _not_allowed(*methods: str) -> HttpResponse:
    response = json_response({"error": {"code": "METHOD_NOT_ALLOWED", "message": "Method not allowed"}}, 405)
    response["Allow"] = ", ".join(methods)
    return response


@csrf_exempt
def upload(request: HttpRequest, token: str) -> HttpResponse:
    """``PUT`` the bytes to a signed URL. No cookie or token: the signature is the credential."""
    if request.method != "PUT":
        return _not_allowed("PUT")
    try:
        caller = request_actor(request)  # usually anonymous: the URL is the credential
    except BadToken:
        return error_response(InsufficientPermissions("the bearer token sent with this upload is not valid"))
    started = time.perf_counter()
    try:
        body = uploads.receive(token=token, stream=request, length=request.META.get("CONTENT_LENGTH"), caller=caller)
        # The file is in storage (no row yet: the confirm registers it); record who put it there.
        call = Call(caller, "rest", current_trace_id(), request.META.get("HTTP_USER_AGENT", ""))
        action_row("media_upload_put", call, "ok", started, f"media/{body['storageKey']}").save()
    except EmDashError as exc:
        return error_response(exc)
    except Exception:
        trace_id = log_exception(log, "PUT %s failed", request.path)
        return json_response(
            {"error": {"code": "INTERNAL_ERROR", "message": "Internal error", "traceId": trace_id}}, 500
        )
    return json_response(body)
