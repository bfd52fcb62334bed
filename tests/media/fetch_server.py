"""A small HTTP server on 127.0.0.1 for the URL-fetch tests: files, redirects, oversize and slow answers."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.media.helpers import image_bytes

PNG = image_bytes("PNG", size=(30, 12))


class Handler(BaseHTTPRequestHandler):
    server: Any

    def log_message(self, *args: Any) -> None:  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes = b"", content_type: str = "image/png", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.server.hits.append(self.path)
        path, _, query = self.path.partition("?")
        if path == "/img.png":
            self._send(200, PNG)
        elif path == "/page.html":
            self._send(200, b"<!doctype html><html><script>alert(1)</script></html>", "text/html")
        elif path == "/drawing.svg":
            self._send(200, b'<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>', "image/svg+xml")
        elif path == "/redirect":
            self._send(302, Location=query)  # /redirect?<absolute URL>
        elif path.startswith("/hop/"):
            left = int(path.rsplit("/", 1)[1])
            self._send(302, Location="/img.png" if left == 0 else f"/hop/{left - 1}")
        elif path.startswith("/slow-hop/"):  # /slow-hop/<redirects left>?<seconds to wait before each answer>
            left = int(path.rsplit("/", 1)[1])
            time.sleep(float(query))
            self._send(302, Location="/img.png" if left == 0 else f"/slow-hop/{left - 1}?{query}")
        elif path == "/slow-head":  # the head a line at a time, <query> seconds apart: each read is quick
            for line in (b"HTTP/1.1 200 OK", b"Content-Type: image/png", b"X-A: 1", b"X-B: 2", b"X-C: 3"):
                self.wfile.write(line + b"\r\n")
                self.wfile.flush()
                time.sleep(float(query))
            self.wfile.write(f"Content-Length: {len(PNG)}\r\n\r\n".encode() + PNG)
        elif path == "/big-declared":
            self._send(200, b"x" * 5000, "application/octet-stream")
        elif path == "/big-chunked":
            self._chunked(b"y" * 1000, 10)
        elif path == "/slow":
            time.sleep(2)
            self._send(200, PNG)
        elif path == "/trickle":
            self._chunked(b"z", 40, pause=0.05)
        else:
            self._send(404, b"no", "text/plain")

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.do_GET()

    def _chunked(self, chunk: bytes, count: int, pause: float = 0.0) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for _ in range(count):
                self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                self.wfile.flush()
                time.sleep(pause)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading, as it should


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.hits: list[str] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
