"""emdash.edge.threaded_wsgi: the ASGI-to-WSGI bridge on persistent threads (no server; a fake WSGI app)."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import MutableMapping
from typing import Any

import pytest

from emdash.edge import threaded_wsgi
from emdash.edge.threaded_wsgi import ThreadedWSGI, build_environ


def _scope(**extra: Any) -> dict[str, Any]:
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/caf\u00e9/x",
        "root_path": "",
        "query_string": b"a=1&b=%C3%A9",
        "headers": [
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),  # the bodies below come in pieces
            (b"cookie", b"a=1"),
            (b"cookie", b"b=2"),
            (b"accept", b"text/html"),
            (b"accept", b"application/json"),
        ],
        "server": ("127.0.0.1", 8000),
        "client": ("10.0.0.1", 5555),
        "scheme": "http",
        "http_version": "1.1",
    }
    scope.update(extra)
    return scope


def _run(app: ThreadedWSGI, scope: dict[str, Any], chunks: list[bytes]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    asyncio.run(app(scope, receive, send))
    return sent


def test_the_environ_is_what_a_wsgi_server_builds():
    import io

    environ = build_environ(_scope(), io.BytesIO(b"{}"), 2)
    assert environ["PATH_INFO"] == "/caf\u00e9/x".encode().decode("latin-1")  # PEP 3333: bytes as latin-1
    assert environ["QUERY_STRING"] == "a=1&b=%C3%A9"
    assert environ["CONTENT_TYPE"] == "application/json"
    assert environ["CONTENT_LENGTH"] == "2"  # a chunked body gets its size
    assert environ["HTTP_COOKIE"] == "a=1; b=2"
    assert environ["HTTP_ACCEPT"] == "text/html,application/json"
    assert (environ["REMOTE_ADDR"], environ["SERVER_NAME"], environ["SERVER_PORT"]) == ("10.0.0.1", "127.0.0.1", "8000")


def test_header_names_with_underscores_are_dropped_as_wsgi_servers_do():
    """``X_Forwarded_Proto`` would land on the same environ key as the proxy's ``X-Forwarded-Proto`` (and join it:
    ``http,https``): gunicorn and Django's runserver drop such names, so the bridge does too."""
    import io

    headers = [(b"x_forwarded_proto", b"https"), (b"x-forwarded-proto", b"http"), (b"x_custom", b"1")]
    environ = build_environ(_scope(headers=headers), io.BytesIO(b""), 0)
    assert environ["HTTP_X_FORWARDED_PROTO"] == "http"
    assert "HTTP_X_CUSTOM" not in environ
    again = build_environ(_scope(headers=headers), io.BytesIO(b""), 0)  # the remembered names behave the same
    assert again["HTTP_X_FORWARDED_PROTO"] == "http" and "HTTP_X_CUSTOM" not in again


def test_a_buffered_answer_is_sent_whole_and_requests_share_threads():
    threads: set[int] = set()

    def app(environ, start_response):
        threads.add(threading.get_ident())
        body = environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
        start_response("201 Created", [("Content-Type", "text/plain")])
        return [b"got ", body]

    bridge = ThreadedWSGI(app, threads=2)
    for _ in range(20):
        sent = _run(bridge, _scope(), [b"he", b"llo"])
        assert sent == [
            {"type": "http.response.start", "status": 201, "headers": [(b"content-type", b"text/plain")]},
            {"type": "http.response.body", "body": b"got hello"},
        ]
    bridge.shutdown()
    assert len(threads) <= 2  # persistent threads, not one per request


def test_a_large_body_is_spooled_and_read_whole(monkeypatch):
    monkeypatch.setattr(threaded_wsgi, "MEMORY_BODY", 10)

    def app(environ, start_response):
        start_response("200 OK", [])
        return [str(len(environ["wsgi.input"].read())).encode()]

    sent = _run(ThreadedWSGI(app, threads=1), _scope(), [b"x" * 8, b"y" * 8, b"z" * 8])
    assert sent[-1]["body"] == b"24"


class _Streaming:
    streaming = True

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.closed = False

    def __iter__(self):
        return iter(self.chunks)

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize(
    ("content_type", "expected"),
    [(b"image/jpeg", [b"abcdef"]), (b"text/event-stream", [b"ab", b"cd", b"ef", b""])],
)
def test_streams_batch_files_and_send_events_at_once(monkeypatch, content_type, expected):
    monkeypatch.setattr(threaded_wsgi, "STREAM_CHUNK", 1024)
    response = _Streaming([b"ab", b"cd", b"ef"])

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", content_type.decode())])
        return response

    sent = _run(ThreadedWSGI(app, threads=1), _scope(method="GET"), [b""])
    assert sent[0]["type"] == "http.response.start"
    assert [m["body"] for m in sent[1:]] == expected
    assert sent[-1]["more_body"] is False
    assert response.closed  # request_finished runs in the thread: Django keeps or returns its connection there


def test_a_stream_stops_when_the_client_is_gone():
    response = _Streaming([b"data: 1\n\n"] * 5)

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return response

    sends = 0

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        nonlocal sends
        sends += 1
        if sends > 2:
            raise OSError("connection closed")

    asyncio.run(ThreadedWSGI(app, threads=1)(_scope(method="GET"), receive, send))
    assert sends == 3 and response.closed


def test_a_client_gone_before_its_body_arrived_gets_no_answer():
    def app(environ, start_response):  # pragma: no cover - never called
        raise AssertionError("the app must not run")

    async def receive():
        return {"type": "http.disconnect"}

    async def send(message):  # pragma: no cover
        raise AssertionError("nothing to send")

    asyncio.run(ThreadedWSGI(app, threads=1)(_scope(), receive, send))


@pytest.mark.parametrize(
    ("version", "headers", "reads"),
    [
        ("1.1", [], False),  # HTTP/1: no Content-Length, no Transfer-Encoding, no body (RFC 9112 6.3)
        ("1.1", [(b"content-length", b"0")], False),
        ("1.0", [], False),
        ("1.1", [(b"content-length", b"2")], True),
        ("1.1", [(b"transfer-encoding", b"chunked")], True),
        ("2", [], True),  # HTTP/2 frames a body without either header
    ],
)
def test_the_body_is_awaited_only_when_the_request_can_have_one(version, headers, reads):
    received: list[bool] = []

    def app(environ, start_response):
        start_response("200 OK", [])
        return [environ["wsgi.input"].read() or b"-"]

    async def receive() -> dict[str, Any]:
        received.append(True)
        return {"type": "http.request", "body": b"{}", "more_body": False}

    sent: list[MutableMapping[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = _scope(method="GET", http_version=version, headers=headers)
    asyncio.run(ThreadedWSGI(app, threads=1)(scope, receive, send))
    assert received == ([True] if reads else [])
    assert sent[-1]["body"] == (b"{}" if reads else b"-")


def test_the_thread_count_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("EMDASH_HTTP_THREADS", "3")
    assert threaded_wsgi.threads_from_env() == 3
    monkeypatch.setenv("EMDASH_HTTP_THREADS", "zero")
    with pytest.raises(ValueError, match="EMDASH_HTTP_THREADS must be a whole number of at least 1, not 'zero'"):
        threaded_wsgi.threads_from_env()
    monkeypatch.setenv("EMDASH_HTTP_THREADS", "\u00b2")  # passes str.isdigit(), not int()
    with pytest.raises(ValueError, match="EMDASH_HTTP_THREADS must be a whole number of at least 1"):
        threaded_wsgi.threads_from_env()


def test_one_client_at_a_time_is_served_by_one_thread():
    # A thread that finished counts as idle before its answer is handed back, so a sequential client never makes
    # the bridge start another thread (each thread keeps its own database connection).
    threads: set[int] = set()

    def app(environ, start_response):
        threads.add(threading.get_ident())
        start_response("200 OK", [])
        return [b"ok"]

    bridge = ThreadedWSGI(app, threads=4)
    for _ in range(50):
        assert _run(bridge, _scope(method="GET"), [b""])[-1]["body"] == b"ok"
    bridge.shutdown()
    assert len(threads) == 1


def test_concurrent_requests_use_at_most_the_threads_and_all_finish():
    threads: set[int] = set()
    gate = threading.Barrier(3, timeout=10)

    def app(environ, start_response):
        threads.add(threading.get_ident())
        if environ["PATH_INFO"] == "/wait":
            gate.wait()  # three requests in flight at once: three threads
        start_response("200 OK", [])
        return [environ["PATH_INFO"].encode()]

    bridge = ThreadedWSGI(app, threads=3)

    async def many() -> list[bytes]:
        async def one(path: str) -> bytes:
            sent: list[dict[str, Any]] = []

            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message: MutableMapping[str, Any]) -> None:
                sent.append(dict(message))

            await bridge(_scope(method="GET", path=path), receive, send)
            return sent[-1]["body"]

        return list(await asyncio.gather(*(one(p) for p in ["/wait"] * 3 + [f"/{n}" for n in range(20)])))

    got = asyncio.run(many())
    bridge.shutdown()
    assert got == [b"/wait"] * 3 + [f"/{n}".encode() for n in range(20)]
    assert len(threads) == 3


def test_an_error_in_the_app_reaches_the_server_and_the_thread_serves_on():
    calls = 0

    def app(environ, start_response):
        nonlocal calls
        calls += 1
        if calls == 1:
            raise KeyError("boom")
        start_response("200 OK", [])
        return [b"fine"]

    bridge = ThreadedWSGI(app, threads=1)
    with pytest.raises(KeyError, match="boom"):  # the ASGI server answers 500, as for any failing app
        _run(bridge, _scope(method="GET"), [b""])
    assert _run(bridge, _scope(method="GET"), [b""])[-1]["body"] == b"fine"
    bridge.shutdown()


def test_shutdown_finishes_queued_requests_then_refuses_new_ones():
    started = threading.Event()
    release = threading.Event()

    def app(environ, start_response):
        started.set()
        release.wait(10)
        start_response("200 OK", [])
        return [environ["PATH_INFO"].encode()]

    bridge = ThreadedWSGI(app, threads=1)

    async def scenario() -> list[bytes]:
        async def one(path: str) -> bytes:
            sent: list[dict[str, Any]] = []

            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message: MutableMapping[str, Any]) -> None:
                sent.append(dict(message))

            await bridge(_scope(method="GET", path=path), receive, send)
            return sent[-1]["body"]

        tasks = [asyncio.ensure_future(one(p)) for p in ("/a", "/b")]
        await asyncio.sleep(0)
        await asyncio.to_thread(started.wait, 10)
        stopping = asyncio.ensure_future(asyncio.to_thread(bridge.shutdown))
        await asyncio.sleep(0.05)
        release.set()
        await stopping
        return list(await asyncio.gather(*tasks))

    assert asyncio.run(scenario()) == [b"/a", b"/b"]  # the queued one ran too
    with pytest.raises(RuntimeError, match="shut down"):
        _run(bridge, _scope(method="GET"), [b""])


def test_a_buffered_answer_is_handed_back_before_the_response_is_closed():
    # A WSGI server writes the answer, then closes the response (Django's request_finished): the client does not
    # wait for the connection bookkeeping. Here close() waits for the body to have been sent.
    body_sent = threading.Event()
    seen: list[bool] = []

    class Answer(list):
        def close(self) -> None:
            seen.append(body_sent.wait(5))

    def app(environ, start_response):
        start_response("200 OK", [])
        return Answer([b"ok"])

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.body":
            body_sent.set()

    bridge = ThreadedWSGI(app, threads=1)
    asyncio.run(bridge(_scope(method="GET"), receive, send))
    bridge.shutdown()  # after the thread's close()
    assert seen == [True]


def test_a_failing_close_after_the_answer_is_logged_and_the_thread_serves_on(caplog):
    class Answer(list):
        def close(self) -> None:
            raise RuntimeError("closing failed")

    def app(environ, start_response):
        start_response("200 OK", [])
        return Answer([environ["PATH_INFO"].encode()])

    bridge = ThreadedWSGI(app, threads=1)
    assert _run(bridge, _scope(method="GET", path="/a"), [b""])[-1]["body"] == b"/a"
    assert _run(bridge, _scope(method="GET", path="/b"), [b""])[-1]["body"] == b"/b"
    bridge.shutdown()
    assert "closing a response after it was sent failed" in caplog.text


def _policies(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """batch_scheduling() called on a fresh thread: its answer, that thread's policy before and after, and the
    policy of a thread it starts afterwards."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    seen: dict[str, Any] = {}

    def run() -> None:
        seen["before"] = os.sched_getscheduler(0)
        try:
            seen["done"] = threaded_wsgi.batch_scheduling()
        except ValueError as exc:
            seen["error"] = str(exc)
        seen["after"] = os.sched_getscheduler(0)
        child = threading.Thread(target=lambda: seen.__setitem__("child", os.sched_getscheduler(0)))
        child.start()
        child.join()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return seen


linux_only = pytest.mark.skipif(not hasattr(os, "sched_setscheduler"), reason="scheduling policies are Linux's")


@linux_only
def test_batch_scheduling_covers_the_calling_thread_and_the_threads_it_starts(monkeypatch):
    monkeypatch.delenv("EMDASH_SCHED_BATCH", raising=False)
    seen = _policies({}, monkeypatch)
    assert (seen["done"], seen["after"], seen["child"]) == (True, os.SCHED_BATCH, os.SCHED_BATCH)


@linux_only
@pytest.mark.parametrize("value", ["0", "off", " False "])
def test_batch_scheduling_can_be_turned_off(monkeypatch, value):
    seen = _policies({"EMDASH_SCHED_BATCH": value}, monkeypatch)
    assert seen["done"] is False and seen["after"] == seen["before"] == seen["child"]


@linux_only
def test_a_bad_batch_scheduling_value_is_refused_and_changes_nothing(monkeypatch):
    seen = _policies({"EMDASH_SCHED_BATCH": "maybe"}, monkeypatch)
    assert seen["error"] == "EMDASH_SCHED_BATCH must be 1 or 0 (on or off), not 'maybe'"
    assert seen["after"] == seen["before"]


@linux_only
def test_a_refused_policy_is_logged_and_the_normal_one_serves(monkeypatch, caplog):
    def refuse(*args: Any) -> None:
        raise PermissionError("Operation not permitted")

    monkeypatch.setattr(threaded_wsgi.os, "sched_setscheduler", refuse)
    seen = _policies({"EMDASH_SCHED_BATCH": "1"}, monkeypatch)
    assert seen["done"] is False and seen["after"] == seen["before"]
    assert "SCHED_BATCH was refused (Operation not permitted)" in caplog.text
