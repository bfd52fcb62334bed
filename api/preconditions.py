"""Conditional writes (RFC 9110 13.1): a PUT, PATCH, DELETE or POST on a path whose GET has validators (an item, a
menu, a term...) with ``If-Match``, ``If-Unmodified-Since`` or ``If-None-Match`` is checked against what this
caller would read there now, before the operation runs; a failed condition is ``412 PRECONDITION_FAILED`` and
nothing is written. This is the HTTP form of the ``_rev`` check, for clients and proxies that guard a write with
the ETag they read (a lost update otherwise went through silently).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request

from content import caching
from emdash import http_cache
from emdash.actor import Actor
from emdash.errors import EmDashError, PreconditionFailed
from emdash.operations import TABLE, Operation, Route
from emdash.permissions import require

GUARDS = ("HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE", "HTTP_IF_NONE_MATCH")


def check_write(
    write: Operation,
    bound: dict[str, tuple[Operation, Route]],
    actor: Actor,
    request: Request,
    params: dict[str, str],
) -> None:
    """Raise PreconditionFailed when the write's conditional headers fail against the path's current read."""
    meta = request.META
    if not any(name in meta for name in GUARDS) or "GET" not in bound:
        return
    require(actor, write.perm)  # a caller who may not write learns that first, as without the headers (RFC 9110 13.2.1)
    read = TABLE[bound["GET"][0].name]
    if read.name not in caching.VALIDATORS:
        return
    raw: dict[str, Any] = {(read.input.model_fields[name].alias or name): value for name, value in params.items()}
    try:
        found = caching.validators(read.name, actor, raw, "")
    except EmDashError:
        return  # the thing cannot be read (unknown, not visible): the operation gives its own answer
    if found is None or not found.exists:
        return
    answer = http_cache.conditional_answer(request._request, found)
    if answer is not None and answer.status_code == 412:
        raise PreconditionFailed(
            "The resource changed since the If-Match / If-Unmodified-Since given: read it again; nothing was written",
            details={"etag": found.etag},
        )
