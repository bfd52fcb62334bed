"""Anonymous conditional GETs answered in front of Django's handler: a 304 that costs its validators and little else.

Issue 27 goal 3: a 304 should cost at most 0.3x its 200. Inside Django's handler even the first middleware comes
after the request object, the signals and the URL walk, and the bare-Django floor alone is about 1 ms of CPU, so
the answer is given here, by a thin WSGI layer that both servers' applications put in front of Django's handler
(``config.wsgi`` for gunicorn and runserver, ``config.asgi``'s persistent-thread WSGI for granian, uvicorn and
daphne). It answers only what :func:`emdash.http_cache.early_answer` answers: a GET or HEAD with
``If-None-Match`` or ``If-Modified-Since``, without credentials (no ``Authorization``, no session cookie), for a
URL registered in ``http_cache.EARLY`` whose public validators still match. Everything else, and anything that
fails here, goes on to Django untouched, which then answers as it always did.

Before answering it does what the site's chain does to every response of these paths: the host is checked against
ALLOWED_HOSTS (else Django's HostMiddleware refuses it), the input guard's NUL and surrogate check (else its 400),
the SecurityMiddleware's HTTPS redirect (given here, as the chain would) and headers, the CORS middleware's
headers (``Vary: Origin``, and an allowed origin's grant), and a trace id. Django's ``request_finished`` signal
is sent as after any request, so a thread's database connection is kept or closed as usual. Rate limits are not
counted for these answers: a 304 costs less than the limiter's own bookkeeping.

A 304 computed here is kept (emdash/edge/kept.py) and given again for the same request inputs while the database's
change token stands (SQLite): no query, no request object, no header building, only the comparison of the
client's validators, a fresh trace id and, when the connection is due to close, ``request_finished``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core import signals
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest, get_script_name
from django.core.signals import setting_changed
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpRequest, HttpResponseBase
from django.urls import set_script_prefix

from emdash import http_cache, tracing
from emdash.edge import kept

log = logging.getLogger("emdash.edge.conditional")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


_hooks: list[tuple[Any, Any]] = []  # the SecurityMiddleware and CorsMiddleware whose hooks dress a 304


def _forget(**_: Any) -> None:
    _hooks.clear()


setting_changed.connect(_forget, dispatch_uid="emdash.edge.conditional")


def _passthrough(request: HttpRequest) -> HttpResponseBase:
    raise AssertionError("the edge calls its middleware's hooks, never their chain")


class ConditionalWSGI:
    """WSGI wrapper: answers anonymous conditional GETs that are still current with their 304 (module docstring)."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    @property
    def hooks(self) -> tuple[Any, Any]:
        # Built on first use, after Django is set up (the CORS rules read the accounts app), and again when a
        # setting changes (tests): the same classes as in settings.MIDDLEWARE, so the 304 carries the headers the
        # site's chain gives its 200.
        if _hooks:
            return _hooks[0]
        from django.middleware.security import SecurityMiddleware

        from emdash.edge.cors import CorsMiddleware

        _hooks.append((SecurityMiddleware(_passthrough), CorsMiddleware(_passthrough)))
        return _hooks[0]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if (
            environ.get("REQUEST_METHOD") in ("GET", "HEAD")
            and ("HTTP_IF_NONE_MATCH" in environ or "HTTP_IF_MODIFIED_SINCE" in environ)
            and "HTTP_AUTHORIZATION" not in environ
        ):
            environ[http_cache.EDGE_LOOKED] = True
            found = self._kept(environ)
            if found is not None:
                if found:
                    start_response("304 Not Modified", found)
                    return [b""]
                return self.app(environ, start_response)  # the client's copy is stale: Django gives the 200
            answer = self._answer(environ)
            if answer is not None:
                start_response(f"{answer.status_code} {answer.reason_phrase}", list(answer.items()))
                return [b""]
        return self.app(environ, start_response)

    def _kept(self, environ: dict[str, Any]) -> list[tuple[str, str]] | None:
        """A kept 304's headers (emdash/edge/kept.py), [] when the kept validators say the copy is stale, None
        when nothing current is kept (or Django's rules must decide)."""
        try:
            found = kept.find(environ)
            current = kept.verdict(environ, found) if found is not None else None
        except Exception:  # a broken connection: the full path finds out, and Django after it
            log.debug("the edge's kept answers failed", exc_info=True)
            return None
        if current is None or found is None:
            return None
        if not current:
            return []
        self._finished()
        return kept.headers(found)

    def _finished(self) -> None:
        # request_finished closes a connection that failed or outlived CONN_MAX_AGE (and returns a pooled one):
        # sent as after any request, unless this thread's connection is neither (a kept 304 touched nothing else).
        wrapper = connections[DEFAULT_DB_ALIAS]
        if wrapper.errors_occurred or (wrapper.close_at is not None and time.monotonic() >= wrapper.close_at):
            signals.request_finished.send(sender=self.__class__)

    def _answer(self, environ: dict[str, Any]) -> HttpResponseBase | None:
        with tracing.trace() as trace_id:
            set_script_prefix(get_script_name(environ))
            # No request_started: its one job here (closing a connection that failed or outlived CONN_MAX_AGE
            # before use) is done by request_finished below, or by Django's handler when a failed query sends
            # the request on. Half the signals' cost of a 304.
            try:
                since = kept.token()  # before the validators: a write in between moves it, so nothing stale is kept
                answer = self._not_modified(WSGIRequest(environ))
            except Exception:  # Django answers instead, and logs what it meets with its trace id
                log.debug("the edge left a conditional GET to Django", exc_info=True)
                return None
            if answer is not None:
                kept.keep(environ, since, answer)
                answer[tracing.HEADER] = trace_id
                signals.request_finished.send(sender=self.__class__)
            return answer

    def _not_modified(self, request: WSGIRequest) -> HttpResponseBase | None:
        from emdash.edge.input_guard import problem  # after setup, as the hooks

        try:
            request.get_host()
        except DisallowedHost:
            return None  # HostMiddleware refuses it, with its log line
        security, cors = self.hooks
        redirect = security.process_request(request)
        if redirect is not None:  # plain HTTP where HTTPS is required: the redirect the site's chain gives
            return security.process_response(request, redirect)  # type: ignore[no-any-return]
        if problem(request) is not None:
            return None  # the input guard's 400, in the door's shape, down Django's chain
        answer = http_cache.early_answer(request)
        if answer is None:
            return None
        cors.check_preflight(request)  # not a preflight (GET): notes whether CORS applies, as the chain does
        cors.add_response_headers(request, answer)
        security.process_response(request, answer)
        return answer
