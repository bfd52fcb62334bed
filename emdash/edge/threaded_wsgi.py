"""HTTP under an ASGI server at WSGI cost: Django's WSGI handler on a fixed pool of persistent threads.

Django's own ASGI handler runs every sync view in a fresh thread (one ``ThreadSensitiveContext`` per request), so
under ASGI each request opened a new database connection (the thread's, ~1 ms with SQLite's PRAGMAs or a
PostgreSQL handshake), started a thread and crossed the event loop three times: MCP ``content_get`` cost 3-4x its
CPU under gunicorn. ``ThreadedWSGI`` instead hands each HTTP request to a ``ThreadPoolExecutor`` whose threads
live as long as the process, exactly as gunicorn's gthread worker does: a thread's database connection is kept
between requests (``CONN_MAX_AGE``, or psycopg's pool where configured), the middleware, ``request.user`` and the
request signals are Django's WSGI path unchanged, and the loop is crossed once each way. The hand-off is a plain
queue to the threads and one ``call_soon_threadsafe`` back: ``loop.run_in_executor`` cost ~80 µs more CPU per
request (two chained futures, the executor's locks and semaphore, their done-callbacks; issue 27 goal 2).
Websockets and lifespan stay on the event loop (channels, ``config.lifespan``), so one process still serves
everything.

The body is read on the loop first (small bodies stay in memory, large ones spool to a file), so the thread never
waits on the network to read. A buffered response returns to the loop in one piece and is closed (Django's
``request_finished``) after it is handed back, as a WSGI server closes it after writing it; a streaming one (media, SSE)
is iterated in the thread, which hands each chunk to the loop's ``send`` and waits for it (back-pressure, as a WSGI
server writing to its socket), and stops when the client has gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from io import BytesIO
from queue import SimpleQueue
from typing import IO, Any

from emdash.numbers import plain_int

log = logging.getLogger("emdash.edge.threaded_wsgi")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
# What a request hands to a thread: its environ, the loop and ``send`` (for a streaming answer), the loop's future.
_Job = tuple[dict[str, Any], asyncio.AbstractEventLoop, Send, "asyncio.Future[Any]"]

DEFAULT_THREADS = 8
MEMORY_BODY = 1024 * 1024  # bodies up to this stay in memory; larger ones spool to a temporary file
STREAM_CHUNK = 64 * 1024  # a streaming response's small pieces (FileResponse reads 4 KiB) are sent in batches


_serving = threading.local()


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this pool thread serves, else None: sync code here that must reach async services of the
    server (the channel layer's listeners live on its loop) schedules them there."""
    return getattr(_serving, "loop", None)


class ClientGone(Exception):
    """The client disconnected while a streaming response was being sent."""


def threads_from_env() -> int:
    """``EMDASH_HTTP_THREADS`` (default 8): requests served at once per process, and the database connections each
    process keeps. Keep it at or below ``EMDASH_DB_POOL_MAX`` on PostgreSQL, so no thread waits for a connection."""
    raw = os.environ.get("EMDASH_HTTP_THREADS", "").strip()
    if not raw:
        return DEFAULT_THREADS
    count = plain_int(raw)
    if count is None or count < 1:
        raise ValueError(f"EMDASH_HTTP_THREADS must be a whole number of at least 1, not {raw!r}")
    return count


def batch_scheduling() -> bool:
    """Put the calling thread, and every thread it starts later, on Linux's SCHED_BATCH policy; True if done.

    Each request crosses threads four times (the server's I/O thread, its event loop, an HTTP thread, back), and
    only one of them can hold the GIL. Under the normal policy a woken thread preempts the one that woke it, finds
    the GIL still held and switches back: granian made 24 context switches per ``content_get``. A SCHED_BATCH
    thread is not run ahead of the one that woke it, so it finds the GIL free: 13 switches, +12% req/s at one
    connection and at eight, no change under gunicorn (docs/benchmarks.md). Called by ``config.asgi`` on the
    server's main thread before the server starts its own threads, so they inherit it. Unprivileged, and only a
    hint to the scheduler; ``EMDASH_SCHED_BATCH=0`` keeps the normal policy."""
    raw = os.environ.get("EMDASH_SCHED_BATCH", "1").strip().lower()
    if raw not in _SWITCH:
        raise ValueError(f"EMDASH_SCHED_BATCH must be 1 or 0 (on or off), not {raw!r}")
    if not _SWITCH[raw] or not hasattr(os, "sched_setscheduler"):  # off, or not Linux
        return False
    try:
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    except OSError as exc:  # a sandbox that forbids it: the normal policy serves, a little slower
        log.warning("SCHED_BATCH was refused (%s); the HTTP threads keep the normal scheduling policy", exc)
        return False
    return True


_SWITCH = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


class ThreadedWSGI:
    """An ASGI app for ``http`` scopes that runs the WSGI ``app`` on ``threads`` persistent threads."""

    def __init__(self, app: WSGIApp, threads: int | None = None) -> None:
        self.app = app
        self.threads = threads or threads_from_env()
        self._jobs: SimpleQueue[_Job | None] = SimpleQueue()
        self._workers: list[threading.Thread] = []
        self._idle = 0  # threads waiting for a job; a new one starts only when none waits (as ThreadPoolExecutor)
        self._closed = False
        self._lock = threading.Lock()

    def _submit(self, job: _Job) -> None:
        # Threads start on demand, in the serving process: a pool made before a server forks its workers would
        # have no threads in the children.
        with self._lock:
            if self._closed:
                raise RuntimeError("the HTTP threads have been shut down")
            if self._idle:
                self._idle -= 1
            elif len(self._workers) < self.threads:
                worker = threading.Thread(target=self._work, name=f"emdash-http_{len(self._workers)}", daemon=True)
                self._workers.append(worker)
                worker.start()
            self._jobs.put(job)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            self._serve(*job)
            job = None  # nothing of a finished request outlives it in this thread

    def _serve(self, environ: dict[str, Any], loop: asyncio.AbstractEventLoop, send: Send, future: Any) -> None:
        answer: Any
        finish: Callable[[], None] | None = None
        try:
            answer, finish = self._run(environ, loop, send)
            failed = False
        except BaseException as exc:  # handed to the awaiting task, as an executor would
            answer, failed = exc, True
        with self._lock:
            self._idle += 1  # before the answer is handed back, so the next request finds this thread idle
        with contextlib.suppress(RuntimeError):  # the loop has closed (server shutdown): nobody waits any more
            loop.call_soon_threadsafe(_settle, future, answer, failed)
        if finish is not None:
            # As a WSGI server closes the response after writing it: request_finished (Django keeps or returns
            # this thread's connection) runs while the answer is on its way, off the client's wait.
            try:
                finish()
            except Exception:
                log.exception("closing a response after it was sent failed")

    def shutdown(self) -> None:
        """Let running and queued requests finish, then stop the threads (lifespan shutdown)."""
        with self._lock:
            self._closed = True
            workers = list(self._workers)
        for _ in workers:
            self._jobs.put(None)  # after every queued request
        for worker in workers:
            worker.join()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"ThreadedWSGI serves http scopes only, not {scope['type']!r}")
        # An HTTP/1 request without Content-Length or Transfer-Encoding has no body (RFC 9112 6.3): a GET need not
        # wait for the server to say so (under granian, a round trip through its I/O thread). HTTP/2 frames a body
        # without either header, so it is read.
        read = (BytesIO(b""), 0) if _bodiless(scope) else await _read_body(receive)
        if read is None:
            return  # the client left before its request was complete: nothing to answer
        loop = asyncio.get_running_loop()
        environ = build_environ(scope, *read)
        # The thread's own context (not a copy of this task's) is what keeps its database connection between
        # requests: Django keeps connections in context-local storage.
        future: asyncio.Future[Any] = loop.create_future()
        self._submit((environ, loop, send, future))
        answer = await future
        if answer is not None:
            status, headers, content = answer
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})

    def _run(
        self, environ: dict[str, Any], loop: asyncio.AbstractEventLoop, send: Send
    ) -> tuple[tuple[int, list[tuple[bytes, bytes]], bytes] | None, Callable[[], None] | None]:
        """In a pool thread: call the app. A buffered answer is returned whole, with what closes it once it is
        handed back; a streaming one is sent (and closed) from here."""
        _serving.loop = loop
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[..., None]:
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [
                int(status.split(" ", 1)[0]),
                [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
            ]
            return _no_write

        result = self.app(environ, start_response)
        body = environ["wsgi.input"]

        def finish() -> None:
            try:
                close = getattr(result, "close", None)
                if close is not None:
                    close()  # request_finished: Django returns or keeps this thread's connection here
            finally:
                body.close()

        try:
            if not getattr(result, "streaming", False):
                content = b"".join(result)  # Django's HttpResponse: one piece, already built
                status, headers = started
                return (status, headers, content), finish
            self._stream(result, started, loop, send)
        except BaseException:
            finish()
            raise
        finish()
        return None, None

    def _stream(self, result: Iterable[bytes], started: list[Any], loop: asyncio.AbstractEventLoop, send: Send) -> None:
        def deliver(message: Message) -> None:
            try:
                asyncio.run_coroutine_threadsafe(_sent(send, message), loop).result()
            except Exception as exc:  # the server's send fails once the client has gone
                raise ClientGone from exc

        pending: list[bytes] = []
        size = 0
        try:
            for chunk in result:
                if not started:
                    raise RuntimeError("the WSGI application yielded a body before start_response")
                if len(started) == 2:
                    status, headers = started
                    deliver({"type": "http.response.start", "status": status, "headers": headers})
                    started.append(True)
                if not chunk:
                    continue
                pending.append(chunk)
                size += len(chunk)
                # Server-sent events must go out at once; bulk bytes (files) are batched to spare hand-offs.
                if size >= STREAM_CHUNK or not _bulk(started[1]):
                    deliver({"type": "http.response.body", "body": b"".join(pending), "more_body": True})
                    pending, size = [], 0
            if len(started) == 2:
                status, headers = started
                deliver({"type": "http.response.start", "status": status, "headers": headers})
            deliver({"type": "http.response.body", "body": b"".join(pending), "more_body": False})
        except ClientGone:
            log.debug("the client disconnected during a streaming response; stopped sending")


async def _sent(send: Send, message: Message) -> None:
    await send(message)


def _settle(future: asyncio.Future[Any], answer: Any, failed: bool) -> None:
    """On the loop: the thread's answer (or its exception) to the awaiting request."""
    if future.done():  # the awaiting task was cancelled (the server gave up on the request)
        return
    if failed:
        future.set_exception(answer)
    else:
        future.set_result(answer)


def _bulk(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether a streamed body may be batched: anything but ``text/event-stream``."""
    for name, value in headers:
        if name == b"content-type":
            return not value.startswith(b"text/event-stream")
    return True


def _no_write(data: bytes) -> None:
    raise RuntimeError("the WSGI write() callable is not supported; return an iterable")


def _bodiless(scope: Scope) -> bool:
    if not scope.get("http_version", "1.1").startswith("1"):
        return False
    for name, value in scope.get("headers", ()):
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0"):
            return False
    return True


async def _read_body(receive: Receive) -> tuple[IO[bytes], int] | None:
    """The whole request body as a file positioned at 0 and its size, or None if the client disconnected first."""
    chunks: list[bytes] = []
    size = 0
    spooled: IO[bytes] | None = None
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            if spooled is not None:
                spooled.close()
            return None
        data = message.get("body", b"")
        if data:
            size += len(data)
            if spooled is None and size > MEMORY_BODY:
                spooled = tempfile.SpooledTemporaryFile(max_size=MEMORY_BODY)  # noqa: SIM115 (closed by _run)
                spooled.write(b"".join(chunks))
                chunks = []
            if spooled is not None:
                spooled.write(data)
            else:
                chunks.append(data)
        if not message.get("more_body", False):
            break
    if spooled is not None:
        spooled.seek(0)
        return spooled, size
    return BytesIO(b"".join(chunks) if len(chunks) != 1 else chunks[0]), size


_KEYS: dict[bytes, str] = {}  # header name -> environ key, for the names this process has seen (bounded)
MAX_KEYS = 512


def _key(raw_name: bytes) -> str:
    """The environ key of a header, or "" for a name with an underscore: ``X_Forwarded_Proto`` and the proxy's
    ``X-Forwarded-Proto`` would share a key, so such names are dropped, as gunicorn and Django's runserver do."""
    text = raw_name.decode("latin-1")
    name = "" if "_" in text else text.upper().replace("-", "_")
    key = name if not name or name == "CONTENT_LENGTH" or name == "CONTENT_TYPE" else "HTTP_" + name
    if len(_KEYS) < MAX_KEYS:  # clients choose header names: past the bound, new ones are converted each time
        _KEYS[raw_name] = key
    return key


def build_environ(scope: Scope, body: IO[bytes], size: int) -> dict[str, Any]:
    """The PEP 3333 environ for an ASGI http ``scope``: strings are latin-1 views of the raw bytes, as a WSGI
    server makes them (Django decodes the path from there). A chunked body (no Content-Length) gets its size."""
    path = scope["path"]
    root = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    server = scope.get("server") or ("localhost", 80)
    environ["SERVER_NAME"] = str(server[0])
    environ["SERVER_PORT"] = str(server[1] if server[1] is not None else 80)
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"] = str(client[0])
        environ["REMOTE_PORT"] = str(client[1])
    for raw_name, raw_value in scope.get("headers", ()):
        key = _KEYS.get(raw_name)
        if key is None:
            key = _key(raw_name)
        if not key:
            continue
        value = raw_value.decode("latin-1")
        if key in environ and key.startswith("HTTP_"):
            # Repeated headers join with a comma (RFC 9110 5.3); cookies with "; " (RFC 6265 5.4).
            environ[key] += ("; " if key == "HTTP_COOKIE" else ",") + value
        else:
            environ[key] = value
    if size and "CONTENT_LENGTH" not in environ:
        environ["CONTENT_LENGTH"] = str(size)
    return environ
