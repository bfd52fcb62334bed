"""Request-body limits: how large a body each route takes, and the 413 each door answers with.

One decision (``limit_for``) and one answer (``refusal``) serve every layer that enforces them, so they
never disagree:

- ``config.serve`` (daphne with a request hook): refuses while Twisted receives the body, before buffering;
- ``BodyLimitASGI`` / ``BodyLimitWSGI``: the same for other ASGI/WSGI servers, from Content-Length and
  while the body streams in;
- ``BodyLimitMiddleware``: Content-Length for the Django layer itself (the test client, any server), and
  ``DATA_UPLOAD_MAX_MEMORY_SIZE`` equals ``MAX_BODY`` so Django's own check agrees.

Each door's limit is its ``body_setting`` (``emdash.doors``); within it, routes: the two upload routes (multipart
``POST /_emdash/api/media`` and the signed ``PUT``) take ``MAX_UPLOAD`` (plus multipart framing); the JSON ``POST
/_emdash/api/media/upload`` (media_upload) the base64 text of ``MAX_UPLOAD``; the MCP endpoint ``MCP_MAX_BODY``
(default ``MAX_BODY``: large files reach MCP's media_upload by ``url``); everything else ``MAX_BODY``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import unquote

import orjson
from django.http import HttpRequest, HttpResponse

from emdash import doors
from emdash.conf import emdash_settings
from emdash.doors import MCP_PATH, SIGNED_UPLOAD_PREFIX

MULTIPART_OVERHEAD = 64 * 1024  # form fields and boundaries around an uploaded file
MEDIA_UPLOAD_PATH = "/_emdash/api/media"
ADMIN_UPLOAD_PATH = "/_emdash/admin/media/upload"
# The admin's Tools page takes a WordPress export or an export archive (SPEC 12), up to the upload limit too.
ADMIN_IMPORT_PATHS = ("/_emdash/admin/tools/import-wordpress", "/_emdash/admin/tools/import-archive")
JSON_UPLOAD_PATH = "/_emdash/api/media/upload"  # media_upload over REST: base64 in a JSON body
LARGE_JSON_PATHS = frozenset({JSON_UPLOAD_PATH})  # JSON routes allowed more than MAX_BODY
__all__ = ["MCP_PATH", "SIGNED_UPLOAD_PREFIX"]

Headers = list[tuple[bytes, bytes]]


def max_body() -> int:
    return int(emdash_settings.MAX_BODY)


def max_upload() -> int:
    """The largest uploaded file (``MEDIA_MAX_UPLOAD_SIZE`` overrides ``MAX_UPLOAD`` when set)."""
    return int(emdash_settings.MEDIA_MAX_UPLOAD_SIZE or emdash_settings.MAX_UPLOAD)


def door_max_body(door: doors.Door) -> int:
    """The door's limit for an ordinary body: its own setting, else ``MAX_BODY``."""
    return int(getattr(emdash_settings, door.body_setting) or emdash_settings.MAX_BODY)


def mcp_max_body() -> int:
    return door_max_body(doors.MCP)


def is_upload(path: str) -> bool:
    """The routes that take files (up to EMDASH_MAX_UPLOAD): REST multipart, the signed PUT, the admin's upload."""
    bare = path.rstrip("/")
    return bare in (MEDIA_UPLOAD_PATH, ADMIN_UPLOAD_PATH, *ADMIN_IMPORT_PATHS) or path.startswith(SIGNED_UPLOAD_PREFIX)


def limit_for(path: str) -> int:
    """The largest body, in bytes, the route at ``path`` accepts."""
    if is_upload(path):
        return max_upload() + MULTIPART_OVERHEAD
    if path.rstrip("/") == JSON_UPLOAD_PATH:
        return max(max_body(), base64_size(max_upload()) + MULTIPART_OVERHEAD)
    return door_max_body(doors.door_for(path))


def base64_size(size: int) -> int:
    """Characters of base64 text for ``size`` bytes."""
    return (size + 2) // 3 * 4


def refusal(path: str, limit: int) -> tuple[int, Headers, bytes]:
    """The 413 for ``path`` in its door's shape: (status, headers, body)."""
    message = f"Request body too large (limit {limit} bytes)"
    headers: Headers = []
    answers = doors.door_for(path).answers
    if answers == "jsonrpc":
        # Same shape as the MCP view's own 413: a JSON-RPC error without an id (the body was never parsed).
        body: Any = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}
    elif answers == "oauth":
        body = {"error": "invalid_request", "error_description": message}
        headers = [(b"cache-control", b"no-store")]
    elif is_upload(path):
        upload = max_upload()
        text = f"The file is larger than the upload limit of {upload} bytes"
        body = {"error": {"code": "FILE_TOO_LARGE", "message": text, "details": {"maxSize": upload}}}
    elif answers == "rest":
        body = {"error": {"code": "PAYLOAD_TOO_LARGE", "message": message, "details": {"maxSize": limit}}}
    else:
        raw = message.encode()
        return 413, [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(raw)).encode())], raw
    raw = orjson.dumps(body)
    headers += [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    return 413, headers, raw


def too_large(request: HttpRequest) -> HttpResponse:
    """The 413 as a Django response (for views that meet ``RequestDataTooBig``)."""
    return _django_response(request.path_info, limit_for(request.path_info))


def _django_response(path: str, limit: int) -> HttpResponse:
    status, headers, body = refusal(path, limit)
    response = HttpResponse(body, status=status)
    for name, value in headers:
        if name != b"content-length":
            response[name.decode()] = value.decode()
    return response


def declared_length(value: Any) -> int | None:
    """A Content-Length header's value, or None when absent or not a number (the server rejects those)."""
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


class BodyLimitMiddleware:
    """Refuse a declared Content-Length over the route's limit before any view reads the body. The MCP view
    checks its own (same limit, same answer) after the transport checks, and drains the body for keep-alive."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        declared = declared_length(request.META.get("CONTENT_LENGTH"))
        if declared is not None and doors.door_for(path) is not doors.MCP and declared > (limit := limit_for(path)):
            return _django_response(path, limit)
        return self.get_response(request)


Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyLimitASGI:
    """ASGI wrapper: 413 from the Content-Length, or as soon as the streamed body passes the limit (the
    application then sees a disconnect and its answer is dropped)."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = unquote(scope.get("path", ""))
        limit = limit_for(path)
        headers = dict(scope.get("headers") or [])
        declared = declared_length(headers.get(b"content-length"))
        if declared is not None and declared > limit:
            await _send_refusal(send, path, limit)
            return
        if declared is not None and b"transfer-encoding" not in headers:
            # The server frames the body by its Content-Length, so it cannot grow past the limit: no counting.
            await self.app(scope, receive, send)
            return
        state = {"received": 0, "refused": False, "started": False}

        async def limited_receive() -> Message:
            if state["refused"]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                state["received"] += len(message.get("body", b""))
                if state["received"] > limit:
                    state["refused"] = True
                    if not state["started"]:
                        await _send_refusal(send, path, limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if state["refused"]:
                return  # we answered already
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        await self.app(scope, limited_receive, guarded_send)


async def _send_refusal(send: Send, path: str, limit: int) -> None:
    status, headers, body = refusal(path, limit)
    await send({"type": "http.response.start", "status": status, "headers": [*headers, (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class _CountingInput:
    """``wsgi.input`` that stops at the limit: past it, reads return EOF and ``overflow`` is set."""

    def __init__(self, stream: Any, limit: int) -> None:
        self.stream, self.limit, self.seen, self.overflow = stream, limit, 0, False

    def read(self, size: int = -1) -> bytes:
        if self.overflow:
            return b""
        room = self.limit + 1 - self.seen
        data = self.stream.read(room if size is None or size < 0 else min(size, room))
        return self._count(data)

    def readline(self, size: int = -1) -> bytes:
        if self.overflow:
            return b""
        room = self.limit + 1 - self.seen
        return self._count(self.stream.readline(room if size is None or size < 0 else min(size, room)))

    def _count(self, data: bytes) -> bytes:
        self.seen += len(data)
        if self.seen > self.limit:
            self.overflow = True
            return b""
        return data

    def __iter__(self) -> Any:
        return iter(self.readline, b"")


class BodyLimitWSGI:
    """WSGI wrapper: 413 from the Content-Length, or when the application read past the limit of a body
    without one (chunked); the application's own answer is then discarded."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        limit = limit_for(path)
        declared = declared_length(environ.get("CONTENT_LENGTH"))
        if declared is not None and declared > limit:
            return _wsgi_refusal(start_response, path, limit)
        stream = _CountingInput(environ["wsgi.input"], limit)
        environ["wsgi.input"] = stream
        captured: list[Any] = []
        result = self.app(environ, lambda status, headers, exc_info=None: captured.append((status, headers, exc_info)))
        if stream.overflow:
            if hasattr(result, "close"):
                result.close()
            return _wsgi_refusal(start_response, path, limit)
        start_response(*captured[-1])
        return result


def _wsgi_refusal(start_response: Callable[..., Any], path: str, limit: int) -> list[bytes]:
    status, headers, body = refusal(path, limit)
    pairs = [(name.decode(), value.decode()) for name, value in headers]  # no Connection: hop-by-hop (PEP 3333)
    start_response(f"{status} Request Entity Too Large", pairs)
    return [body]
