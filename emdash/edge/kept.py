"""The edge's 304s kept per thread and given again, without a query, while the database has not changed.

A conditional GET the edge answered 304 (emdash/edge/conditional.py) is kept with everything that went into it:
the request's own inputs (:func:`key`: method, path, query, host, scheme, origin), the validators it matched and
the headers it carried, and the database's change token as read *before* the validators were computed. The next
conditional GET with the same inputs on the same thread (one database connection per thread) is answered from
there if the token is unchanged: on SQLite, ``PRAGMA data_version`` and the connection's own ``total_changes``
(``emdash.sqlite3``), a few microseconds instead of the validators' two queries, the request object and the
header building. Any write anywhere, by this process or another, moves the token, so the first request after it
computes everything again; it is deliberately coarser than the change stamps (a write the stamps do not see still
moves it). Backends without a token (PostgreSQL: telling a connection about other processes' commits would need a
listener) keep nothing and pay the validators' query on every 304.

What a kept answer depends on besides the database is in its key, or is a setting (a changed setting forgets
them all). An ``http_cache.EARLY`` function must therefore read nothing of the request but its path and query
string (and the host, scheme and origin the key holds), which is what they do.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import HttpResponseBase
from django.utils.http import parse_etags, parse_http_date_safe

from emdash import tracing

KEPT_PER_THREAD = 1024  # distinct requests; past it the least recently given one goes
# The request's inputs to a 304 besides its conditional headers: what the host check, the HTTPS redirect, the input
# guard, the URL match, the validators and the CORS and security headers read. The proxy headers of the
# HTTPS and host settings are added below.
FIELDS = (
    "REQUEST_METHOD",
    "SCRIPT_NAME",
    "PATH_INFO",
    "QUERY_STRING",
    "HTTP_HOST",
    "SERVER_NAME",
    "SERVER_PORT",
    "wsgi.url_scheme",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_ORIGIN",
)


@dataclass(frozen=True, slots=True)
class Kept:
    token: tuple[int, Any]  # (settings generation, the connection's change token)
    etag: str
    last_modified: int | None  # as Django compares it with If-Modified-Since
    headers: tuple[tuple[str, str], ...]  # all but the trace id


_local = threading.local()
_state: dict[str, Any] = {"generation": 0, "fields": None}


def _forget(**_: Any) -> None:
    # Settings decide the hosts, the redirect, CORS, the security headers and the validators' inputs.
    _state["generation"] += 1
    _state["fields"] = None


setting_changed.connect(_forget, dispatch_uid="emdash.edge.kept")


def _fields() -> tuple[str, ...]:
    fields: tuple[str, ...] | None = _state["fields"]
    if fields is None:
        proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
        fields = FIELDS + ((str(proxy[0]),) if proxy else ())
        _state["fields"] = fields
    return fields


def key(environ: dict[str, Any]) -> tuple[Any, ...]:
    return tuple([environ.get(name) for name in _fields()])


def token() -> tuple[int, Any] | None:
    """The database's change token on this thread's connection (None: nothing may be kept or trusted)."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    read: Callable[[], Any] | None = getattr(wrapper, "change_token", None)
    found = read() if read is not None else None
    return None if found is None else (_state["generation"], found)


def find(environ: dict[str, Any]) -> Kept | None:
    """The kept 304 of this request's inputs, if the database has not changed since it was given."""
    table: OrderedDict[tuple[Any, ...], Kept] | None = getattr(_local, "table", None)
    if not table:
        return None
    cookie = environ.get("HTTP_COOKIE")
    if cookie and settings.SESSION_COOKIE_NAME in cookie:
        return None  # a session may make the answer private: the full path leaves it to Django
    inputs = key(environ)
    kept = table.get(inputs)
    if kept is None or kept.token != token():
        return None
    table.move_to_end(inputs)  # one table per thread: no lock
    return kept


def verdict(environ: dict[str, Any], kept: Kept) -> bool | None:
    """True: the client's copy is current (304); False: it is not (Django gives the 200); None: a case Django's
    ``get_conditional_response`` decides (If-Match, If-Unmodified-Since, ``*``, an unreadable date). The same
    rules as Django's: If-None-Match compared weakly, If-Modified-Since only without If-None-Match."""
    if "HTTP_IF_MATCH" in environ or "HTTP_IF_UNMODIFIED_SINCE" in environ:
        return None
    sent = environ.get("HTTP_IF_NONE_MATCH")
    if sent is not None:
        if sent == kept.etag:
            return True
        etags = parse_etags(sent)
        if not etags or "*" in etags:
            return None
        return kept.etag in (e.strip("W/") for e in etags)
    since = parse_http_date_safe(environ.get("HTTP_IF_MODIFIED_SINCE", ""))
    if since is None or kept.last_modified is None:
        return None
    return kept.last_modified <= since


def headers(kept: Kept) -> list[tuple[str, str]]:
    return [*kept.headers, (tracing.HEADER, tracing.new_trace_id())]


def keep(environ: dict[str, Any], since: tuple[int, Any] | None, answer: HttpResponseBase) -> None:
    """Keep a 304 the edge computed, with the change token read before its validators were."""
    if since is None or answer.status_code != 304 or "ETag" not in answer:
        return
    table: OrderedDict[tuple[Any, ...], Kept] | None = getattr(_local, "table", None)
    if table is None:
        table = _local.table = OrderedDict()
    modified = answer.get("Last-Modified")
    inputs = key(environ)
    table.pop(inputs, None)  # kept again: now the most recent
    table[inputs] = Kept(
        token=since,
        etag=answer["ETag"],
        last_modified=parse_http_date_safe(modified) if modified else None,
        headers=tuple((name, value) for name, value in answer.items() if name != tracing.HEADER),
    )
    while len(table) > KEPT_PER_THREAD:
        table.popitem(last=False)
