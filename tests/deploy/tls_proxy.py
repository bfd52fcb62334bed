"""A test-only TLS-terminating reverse proxy, the way nginx sits in front of daphne in production.

It accepts HTTPS with a self-signed certificate made at test time, forwards each request over plain HTTP to
the backend and adds ``X-Forwarded-Proto: https``, ``X-Forwarded-Host`` and ``X-Forwarded-For`` (overwriting
whatever the client sent, as docs/production.md tells nginx to). Responses, redirects and cookies pass through.
"""

from __future__ import annotations

import http.client
import shutil
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"}


def self_signed_cert(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 and localhost (openssl CLI)."""
    if shutil.which("openssl") is None:
        raise RuntimeError("the TLS proxy test needs the openssl command")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: TLSProxy

    def _forward(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {
            k: v
            for k, v in self.headers.items()
            if k.lower() not in HOP_BY_HOP and not k.lower().startswith("x-forwarded-")
        }
        headers["X-Forwarded-Proto"] = "https"
        headers["X-Forwarded-Host"] = self.headers.get("Host", "")
        headers["X-Forwarded-For"] = self.client_address[0]
        self.server.seen.append({"path": self.path, "method": self.command})
        upstream = http.client.HTTPConnection(*self.server.backend, timeout=30)
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            response = upstream.getresponse()
            payload = response.read()
            self.send_response(response.status, response.reason)
            for name, value in response.getheaders():
                if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)
        finally:
            upstream.close()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _forward

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


class TLSProxy(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, cert: Path, key: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.socket = context.wrap_socket(self.socket, server_side=True)
        self.backend: tuple[str, int] = ("127.0.0.1", 0)
        self.seen: list[dict[str, str]] = []

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.server_address[1]}"

    def start(self, backend_port: int) -> None:
        self.backend = ("127.0.0.1", backend_port)
        threading.Thread(target=self.serve_forever, daemon=True).start()
