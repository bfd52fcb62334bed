"""Fetching a URL a caller named, without letting the caller reach our own network (SSRF guard).

Used by ``media_upload`` (:func:`fetch`) and webhook delivery (:func:`post`). Per hop: the host name is
resolved **once**, every address it resolves to must be public (no private, loopback, link-local,
multicast, reserved or unspecified address, IPv4 or IPv6; an IPv4 address inside an IPv6 one — mapped,
compatible, 6to4, NAT64 — is judged as that IPv4 address; Teredo is refused), and the connection goes
to that checked address — the name is only sent as ``Host`` and as the TLS server name, so a second DNS
answer cannot redirect us (no DNS-rebinding window). Redirects are followed by hand, at most
``max_redirects``, each re-checked. The body is streamed and abandoned past ``max_bytes``. One monotonic deadline
covers the whole fetch: every DNS lookup, connection, response head and body of every hop.

``EMDASH["FETCH_ALLOW_PRIVATE"]`` (env ``EMDASH_FETCH_ALLOW_PRIVATE=1``) lifts the address rule, for
development and tests only.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from emdash.conf import emdash_settings

REDIRECTS = {301, 302, 303, 307, 308}
# The resolver, one name: tests swap it so that no test ever resolves (or reaches) a real host.
getaddrinfo = socket.getaddrinfo
USER_AGENT = "EmDash-Fetch/1"


class FetchError(Exception):
    """A fetch refused or failed; ``message`` is safe to show the caller (no internals)."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.too_large = too_large


@dataclass(frozen=True)
class Fetched:
    content: bytes
    content_type: str  # the response's media type, lowercased, without parameters ("" if none)
    url: str  # the final URL, after redirects


def address_problem(address: str) -> str | None:
    """Why ``address`` (an IP literal) must not be contacted, or None when it is a public address."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.teredo is not None:  # a tunnel to whatever IPv4 host the relay reaches: never a fetch target
            return "is a Teredo tunnel address"
        embedded = embedded_ipv4(ip)
        if embedded is not None:
            ip = embedded  # ::ffff:127.0.0.1, 2002:7f00:1::, 64:ff9b::7f00:1 all reach 127.0.0.1
    if ip.is_loopback:
        return "is a loopback address"
    if ip.is_link_local:
        return "is a link-local address"
    if ip.is_multicast:
        return "is a multicast address"
    if ip.is_private or ip.is_reserved or ip.is_unspecified or not ip.is_global:
        return "is a private or reserved address"
    return None


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052's well-known prefix
_COMPATIBLE = ipaddress.IPv6Network("::/96")  # deprecated IPv4-compatible addresses (RFC 4291 2.5.5.1)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 transition address carries (mapped, 6to4, NAT64, compatible), else None."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64 or (ip in _COMPATIBLE and int(ip) > 1):  # :: and ::1 are themselves
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


class FetchTimeout(FetchError):
    """The fetch's deadline passed (a retry may succeed, unlike a refusal)."""

    def __init__(self, message: str = "the server took too long to answer") -> None:
        super().__init__(message)


class Deadline:
    """The one clock of a fetch. Every step takes what is left of it and none starts once it has passed; at
    the deadline a timer shuts the open sockets down, so no read (a slow head, a trickled body) outlasts it.
    Per-read timeouts alone let a server that answers a little at a time hold a worker for a multiple."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._expired = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def __enter__(self) -> Deadline:
        return self

    def __exit__(self, *_: object) -> None:
        self._timer.cancel()

    @property
    def expired(self) -> bool:
        return self._expired or time.monotonic() >= self.end

    def left(self) -> float:
        remaining = self.end - time.monotonic()
        if remaining <= 0:
            raise FetchTimeout()
        return remaining

    def timeout(self) -> httpx.Timeout:
        return httpx.Timeout(self.left())

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """httpcore's trace hook (the ``trace`` request extension): remember each socket as it connects."""
        if event == "connection.connect_tcp.complete" and info.get("return_value") is not None:
            sock = info["return_value"].get_extra_info("socket")
            if sock is not None:
                with self._lock:
                    self._sockets.append(sock)
                if self._expired:
                    self._expire()

    def _expire(self) -> None:
        self._expired = True
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            with suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)  # a blocked recv() returns at once; the client then fails


def _allow_private() -> bool:
    return bool(emdash_settings.FETCH_ALLOW_PRIVATE)


def _lookup(host: str, port: int, deadline: Deadline | None) -> list[Any]:
    """getaddrinfo, given up on at the deadline (the resolver itself has no timeout to pass)."""
    if deadline is None:
        return getaddrinfo(host, port, type=socket.SOCK_STREAM)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="emdash-dns")
    try:
        return pool.submit(getaddrinfo, host, port, type=socket.SOCK_STREAM).result(timeout=deadline.left())
    except FutureTimeout:
        raise FetchTimeout(f"the host '{host}' took too long to resolve") from None
    finally:
        pool.shutdown(wait=False)  # a stuck lookup ends on its own; nobody waits for it


def _resolve(host: str, port: int, allow_private: bool, deadline: Deadline | None = None) -> str:
    """The one address this hop connects to: every address the name resolves to must be allowed."""
    try:
        infos = _lookup(host, port, deadline)
    except (socket.gaierror, UnicodeError, OSError):
        raise FetchError(f"the host '{host}' could not be resolved") from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise FetchError(f"the host '{host}' could not be resolved")
    if not allow_private:
        for address in addresses:
            if (problem := address_problem(address)) is not None:
                raise FetchError(f"the host '{host}' resolves to an address that is not allowed ({problem})")
    return addresses[0]


@dataclass(frozen=True)
class Target:
    url: str  # as named (host name), for redirects and messages
    connect_url: str  # the same URL with the checked address in place of the host
    host_header: str
    server_name: str


def check(url: str, *, allow_private: bool, deadline: Deadline | None = None) -> Target:
    """The checked target of ``url``: http(s), no credentials, every address of its host allowed."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError:
        raise FetchError("the URL is not valid") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise FetchError("only http:// or https:// URLs with a host are accepted")
    if parts.username or parts.password:
        raise FetchError("URLs with credentials are not fetched")
    host = parts.hostname
    address = _resolve(host, port, allow_private, deadline)
    literal = f"[{address}]" if ":" in address else address
    connect = parts._replace(netloc=f"{literal}:{port}", fragment="").geturl()
    default_port = port == (443 if parts.scheme.lower() == "https" else 80)
    host_header = (f"[{host}]" if ":" in host else host) + ("" if default_port else f":{port}")
    return Target(url, connect, host_header, host)


def fetch(url: str, *, max_bytes: int, timeout: float = 10.0, max_redirects: int = 3) -> Fetched:
    """GET ``url`` under the rules above; raises :class:`FetchError` with a caller-safe message."""
    with Deadline(timeout) as deadline, httpx.Client(follow_redirects=False, trust_env=False) as client:
        for _hop in range(max_redirects + 1):
            target = check(url, allow_private=_allow_private(), deadline=deadline)
            location = _get(client, target, max_bytes, deadline)
            if isinstance(location, Fetched):
                return location
            url = location
        raise FetchError(f"too many redirects (at most {max_redirects} are followed)")


def post(url: str, *, content: bytes, headers: dict[str, str], timeout: float, allow_private: bool) -> httpx.Response:
    """POST ``content`` to the checked address of ``url`` within ``timeout`` (lookup included); redirects are
    answered, never followed.

    Raises :class:`FetchError` when the target is refused, httpx errors when the request fails
    (``httpx.TimeoutException`` past the deadline, so a delivery is retried rather than given up).
    """
    with Deadline(timeout) as deadline:
        try:
            target = check(url, allow_private=allow_private, deadline=deadline)
        except FetchTimeout as exc:
            raise httpx.ConnectTimeout(exc.message) from None
        sent = {**headers, "Host": target.host_header}
        with httpx.Client(follow_redirects=False, trust_env=False) as client:
            request = client.build_request(
                "POST", target.connect_url, content=content, headers=sent, timeout=deadline.timeout(),
                extensions={"sni_hostname": target.server_name, "trace": deadline.trace},
            )  # fmt: skip
            try:
                return client.send(request)
            except httpx.HTTPError:
                if deadline.expired:
                    raise httpx.ReadTimeout("the deadline passed", request=request) from None
                raise


def _get(client: httpx.Client, target: Target, max_bytes: int, deadline: Deadline) -> Fetched | str:
    """One hop: the body, or the next URL when the answer is a redirect."""
    headers = {"Host": target.host_header, "User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    request = client.build_request(
        "GET", target.connect_url, headers=headers, timeout=deadline.timeout(),
        extensions={"sni_hostname": target.server_name, "trace": deadline.trace},
    )  # fmt: skip
    try:
        with _streamed(client, request) as response:
            if response.status_code in REDIRECTS and "location" in response.headers:
                return urljoin(target.url, response.headers["location"])
            if response.status_code != 200:
                raise FetchError(f"the server answered HTTP {response.status_code}")
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > max_bytes:
                raise FetchError(f"the file is larger than {max_bytes} bytes", too_large=True)
            body = _read(response, max_bytes, deadline)
            media_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
            return Fetched(body, media_type, target.url)
    except httpx.HTTPError as exc:
        if isinstance(exc, httpx.TimeoutException) or deadline.expired:
            raise FetchTimeout() from None
        raise FetchError("the URL could not be fetched (connection failed)") from None


@contextmanager
def _streamed(client: httpx.Client, request: httpx.Request) -> Iterator[httpx.Response]:
    response = client.send(request, stream=True)
    try:
        yield response
    finally:
        response.close()


def _read(response: httpx.Response, max_bytes: int, deadline: Deadline) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_raw():
        size += len(chunk)
        if size > max_bytes:
            raise FetchError(f"the file is larger than {max_bytes} bytes", too_large=True)
        deadline.left()  # a server trickling bytes stays under the read timeout
        chunks.append(chunk)
    return b"".join(chunks)
