"""``python -m config.serve [daphne options]``: daphne, with request bodies limited while they arrive.

Plain daphne (Twisted) receives the whole body before the application is called, and then queues all of
it in memory: a 256 MiB POST grew the process by ~260 MiB before the app could answer 413. Here the
request class checks the Content-Length as soon as the headers are in, and counts the body as it streams
(chunked too); past the route's limit (``emdash.edge.limits.limit_for``) it answers the door's 413 at once,
drops the rest of the body unread-into-memory, and closes the connection. The application never runs.

All daphne options work; the application defaults to ``config.asgi:application``. Its log lines take the one
format of ``config/logging.json`` (the settings load it when the application is imported; daphne needs no
``--log-config``, which granian and uvicorn take for their own lines before that).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any
from urllib.parse import unquote

from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory, WebRequest
from daphne.server import Server
from twisted.internet import reactor

# Seconds we keep reading (and discarding) a refused body before closing, so the client, still sending,
# reads our 413 instead of a connection reset.
LINGER = 2.0
APPLICATION = "config.asgi:application"
_APP_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


class LimitedRequest(WebRequest):
    """daphne's request with the body limit applied in Twisted's callbacks, before anything is stored."""

    refused = False
    body_limit = 0
    body_seen = 0

    def gotLength(self, length: int | None) -> None:
        from emdash.edge import limits

        self.limit_path = unquote(self.channel._path.split(b"?", 1)[0].decode("latin-1"))
        self.body_limit = limits.limit_for(self.limit_path)
        if length is not None and length > self.body_limit:
            super().gotLength(0)  # a tiny in-memory buffer that will stay empty
            self._refuse()
            return
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.refused:
            return
        self.body_seen += len(data)
        if self.body_seen > self.body_limit:
            self._refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        if self.refused:
            return  # answered already; the application never sees this request
        super().requestReceived(command, path, version)

    def _refuse(self) -> None:
        from emdash.edge import limits

        self.refused = True
        self.content.close()
        self.requestHeaders.removeHeader(b"expect")  # no "100 Continue" after our answer
        status, headers, body = limits.refusal(self.limit_path, self.body_limit)
        head = [f"HTTP/1.1 {status} Request Entity Too Large".encode()]
        head += [name + b": " + value for name, value in headers] + [b"connection: close"]
        transport = self.channel.transport
        transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        if hasattr(transport, "loseWriteConnection"):
            transport.loseWriteConnection()  # FIN after the answer; keep draining the client's bytes a moment
            reactor.callLater(LINGER, self.channel.loseConnection)  # type: ignore[attr-defined,arg-type]
        else:
            self.channel.loseConnection()


class LimitedHTTPFactory(HTTPFactory):
    def buildProtocol(self, addr: Any) -> Any:
        protocol = super().buildProtocol(addr)
        if protocol is not None:
            protocol.requestFactory = LimitedRequest
        return protocol


class LimitedServer(Server):
    """daphne's server whose HTTP factory builds ``LimitedRequest``s (``Server.run`` assigns the factory)."""

    @property
    def http_factory(self) -> HTTPFactory:
        return self._limited_factory

    @http_factory.setter
    def http_factory(self, factory: HTTPFactory) -> None:
        self._limited_factory = factory if isinstance(factory, LimitedHTTPFactory) else LimitedHTTPFactory(self)


class LimitedCLI(CommandLineInterface):
    server_class = LimitedServer


def arguments(argv: list[str]) -> list[str]:
    """daphne's arguments, with ``config.asgi:application`` appended unless the last one names an app."""
    args = list(argv)
    named = args and _APP_PATH.fullmatch(args[-1]) and not (len(args) > 1 and args[-2].startswith("-"))
    return args if named else [*args, APPLICATION]


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    LimitedCLI().run(arguments(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
