"""A WSGI application that does nothing: what the server alone costs per request (issue 27 goal 3's floor).

A 304 can cost no less than the server's own work (parsing the request, the socket, the worker's thread hand-off);
``bench/goal_delivery.py`` serves this under the same gunicorn settings as ours and reports its CPU per 304 beside
ours, so what our code adds to a 304 is the difference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if "HTTP_IF_NONE_MATCH" in environ:
        start_response("304 Not Modified", [("ETag", '"bare"'), ("Cache-Control", "public, max-age=60")])
        return [b""]
    body = b'{"ok":true}'
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
