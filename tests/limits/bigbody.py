"""A client that sends a huge request body to a real server while watching the server's memory.

It writes the body in 64 KiB pieces and stops as soon as the server answers (or closes), so a server that
refuses early costs little; one that buffers the whole body shows it in its RSS. Used by the real-server
tests (tests/limits/test_server_limits.py) and by ``bench/body_limits.py`` for the numbers in the README.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

PIECE = b"\0" * 65536


def rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` and its children (daphne and gunicorn fork or thread; granian forks)."""
    total = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for one in pids:
        try:
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except FileNotFoundError:
            continue
    return total


@dataclass
class RssWatch:
    """Samples the server's RSS every 20 ms in a thread; ``peak - before`` is the growth a request caused."""

    pid: int
    before: int = 0
    peak: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)

    def __enter__(self) -> RssWatch:
        self.before = self.peak = rss_bytes(self.pid)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_bytes(self.pid))

    def __exit__(self, *exc: object) -> None:
        time.sleep(0.3)  # a server still digesting the body shows it a moment later
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_bytes(self.pid))

    @property
    def growth(self) -> int:
        return self.peak - self.before


@dataclass
class Outcome:
    status: int | None
    head: bytes
    body: bytes
    sent: int
    seconds: float


def send_big(
    host: str,
    port: int,
    path: str,
    size: int,
    *,
    chunked: bool = False,
    content_type: str = "application/json",
    headers: dict[str, str] | None = None,
    timeout: float = 60.0,
) -> Outcome:
    """POST ``size`` bytes (Content-Length, or chunked) and return the server's answer and how long it took."""
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {host}:{port}",
        f"Content-Type: {content_type}",
        "Accept: application/json",
    ]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    lines.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}")
    start = time.monotonic()
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.setblocking(False)
    pending = ("\r\n".join(lines) + "\r\n\r\n").encode()
    sent = 0
    answer = b""
    done_sending = False
    try:
        while time.monotonic() - start < timeout:
            if not pending and not done_sending:
                if sent >= size:
                    pending, done_sending = (b"0\r\n\r\n" if chunked else b""), True
                else:
                    piece = PIECE[: min(len(PIECE), size - sent)]
                    sent += len(piece)
                    pending = (f"{len(piece):x}\r\n".encode() + piece + b"\r\n") if chunked else piece
            readable, writable, _ = select.select([sock], [sock] if pending else [], [], 1.0)
            if readable:
                try:
                    data = sock.recv(65536)
                except ConnectionResetError:
                    break
                if not data:
                    break
                answer += data
                if _complete(answer):
                    break
            elif writable:
                try:
                    pending = pending[sock.send(pending) :]
                except (BrokenPipeError, ConnectionResetError):
                    pending, done_sending = b"", True  # the server stopped listening; read what it said
    finally:
        seconds = time.monotonic() - start
        sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else None
    return Outcome(status, head, body, sent, seconds)


def _complete(answer: bytes) -> bool:
    head, sep, body = answer.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip())
    return False
