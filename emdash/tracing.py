"""One trace id per request (or worker pass): minted here, carried in a context variable, shown in every log line.

The id is 24 hex characters: the Unix time in seconds (8), then 64 random bits (16). The time prefix keeps the audit
log's trace index appending at its end (random ids scattered each insert across an index larger than SQLite's page
cache: 30 us of a read call's audit row); the random part is as unique as a whole random id. Trace ids are labels,
not secrets, so ``random`` (reseeded in a forked child) serves, without a system call. Error bodies, audit rows and
log records all read ``current_trace_id()``, so the id a user reports finds the log entry and the audit row.
Every door's unexpected error goes through ``unexpected(exc, where)``; the middleware then tells Django not to
log the same 500 again, and logs the 500s nobody logged, so each one appears exactly once.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.utils.log import log_response

from emdash.hybrid import HybridMiddleware

log = logging.getLogger("emdash.request")
unexpected_log = logging.getLogger("emdash.unexpected")

HEADER = "X-Trace-Id"


@dataclass
class _Trace:
    trace_id: str
    error_logged: bool = False


_current: ContextVar[_Trace | None] = ContextVar("emdash_trace", default=None)


def new_trace_id() -> str:
    return f"{int(time.time()) & 0xFFFFFFFF:08x}{random.getrandbits(64):016x}"


def current_trace_id() -> str:
    """The id of the running request or job; outside one (a shell, a test) a fresh id that sticks."""
    trace = _current.get()
    if trace is None:
        trace = _Trace(new_trace_id())
        _current.set(trace)
    return trace.trace_id


@contextmanager
def trace() -> Iterator[str]:
    """Run a unit of work (a request, a worker pass) under a new trace id."""
    token = _current.set(_Trace(new_trace_id()))
    try:
        yield current_trace_id()
    finally:
        _current.reset(token)


def unexpected(exc: BaseException, where: str) -> str:
    """An unexpected error at ``where`` (``"tool content_get"``, ``"POST /_emdash/api/..."``): one log line with
    its traceback and the trace id; returns the id for the door's generic answer, which shows nothing else."""
    trace_id = current_trace_id()
    unexpected_log.error("%s failed (trace %s)", where, trace_id, exc_info=(type(exc), exc, exc.__traceback__))
    trace = _current.get()
    if trace is not None:
        trace.error_logged = True
    return trace_id


class TraceIdFilter(logging.Filter):
    """Give every record a ``trace_id`` attribute ("-" outside a request) for the formatter."""

    def filter(self, record: logging.LogRecord) -> bool:
        trace = _current.get()
        record.trace_id = trace.trace_id if trace is not None else "-"
        return True


def _finish(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    trace = _current.get() or _Trace(current_trace_id())
    response[HEADER] = trace.trace_id
    if response.status_code >= 500 and not getattr(response, "_has_been_logged", False):
        if not trace.error_logged:  # a 500 no code logged: still one line, with the id
            log.error(
                "%s %s answered %s (trace %s)", request.method, request.path, response.status_code, trace.trace_id
            )
        # Django's own "Internal Server Error" line would be a second record for the same failure.
        response._has_been_logged = True  # type: ignore[attr-defined]
    elif response.status_code >= 400 and not getattr(response, "_has_been_logged", False):
        # Django's own 4xx warning, written here while the trace is still current (Django writes it after the
        # middleware chain has returned, where every line read "[trace -]"); it then skips its copy.
        log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request)
    return response


class TraceMiddleware(HybridMiddleware):
    """First middleware: every request runs under its own trace id (sync and async, without a thread hop)."""

    def sync(self, request: HttpRequest) -> HttpResponse:
        with trace():
            return _finish(request, self.get_response(request))

    async def async_(self, request: HttpRequest) -> HttpResponse:
        with trace():
            return _finish(request, await self.get_response(request))
