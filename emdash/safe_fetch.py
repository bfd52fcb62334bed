"""Fetching a URL a caller named, without letting the caller reach our own network (SSRF guard).

Used by ``media_upload`` (:func:`fetch`) and webhook delivery (:func:`post`). Per hop: the host name is
resolved **once**, every address it resolves to must be public (no private, loopback, link-local,
multicast, reserved or unspecified address, IPv4 or IPv6, IPv4-mapped included), and the connection goes
to that checked address — the name is only sent as ``Host`` and as the TLS server name, so a second DNS
answer cannot redirect us (no DNS-rebinding window). Redirects are followed by hand, at most
``max_redirects``, each re-checked. The body is streamed and abandoned past ``max_bytes``; the whole fetch has
a deadline.

``EMDASH["FETCH_ALLOW_PRIVATE"]`` (env ``EMDASH_FETCH_ALLOW_PRIVATE=1``) lifts the address rule, for
development and tests only.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass
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
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    if ip.is_loopback:
        return "is a loopback address"
    if ip.is_link_local:
        return "is a link-local address"
    if ip.is_multicast:
        return "is a multicast address"
    if ip.is_private or ip.is_reserved or ip.is_unspecified or not ip.is_global:
        return "is a private or reserved address"
    return None


def _allow_private() -> bool:
    return bool(emdash_settings.FETCH_ALLOW_PRIVATE)


def _resolve(host: str, port: int, allow_private: bool) -> str:
    """The one address this hop connects to: every address the name resolves to must be allowed."""
    try:
        infos = getaddrinfo(host, port, type=socket.SOCK_STREAM)
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


def check(url: str, *, allow_private: bool) -> Target:
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
    address = _resolve(host, port, allow_private)
    literal = f"[{address}]" if ":" in address else address
    connect = parts._replace(netloc=f"{literal}:{port}", fragment="").geturl()
    default_port = port == (443 if parts.scheme.lower() == "https" else 80)
    host_header = (f"[{host}]" if ":" in host else host) + ("" if default_port else f":{port}")
    return Target(url, connect, host_header, host)


def fetch(url: str, *, max_bytes: int, timeout: float = 10.0, max_redirects: int = 3) -> Fetched:
    """GET ``url`` under the rules above; raises :class:`FetchError` with a caller-safe message."""
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=httpx.Timeout(timeout), follow_redirects=False, trust_env=False) as client:
        for _hop in range(max_redirects + 1):
            target = check(url, allow_private=_allow_private())
            location = _get(client, target, max_bytes, deadline)
            if isinstance(location, Fetched):
                return location
            url = location
        raise FetchError(f"too many redirects (at most {max_redirects} are followed)")


def post(url: str, *, content: bytes, headers: dict[str, str], timeout: float, allow_private: bool) -> httpx.Response:
    """POST ``content`` to the checked address of ``url``; redirects are answered, never followed.

    Raises :class:`FetchError` when the target is refused, httpx errors when the request fails.
    """
    target = check(url, allow_private=allow_private)
    sent = {**headers, "Host": target.host_header}
    with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        return client.post(
            target.connect_url, content=content, headers=sent, extensions={"sni_hostname": target.server_name}
        )


def _get(client: httpx.Client, target: Target, max_bytes: int, deadline: float) -> Fetched | str:
    """One hop: the body, or the next URL when the answer is a redirect."""
    headers = {"Host": target.host_header, "User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    extensions = {"sni_hostname": target.server_name}
    try:
        with client.stream("GET", target.connect_url, headers=headers, extensions=extensions) as response:
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
    except httpx.TimeoutException:
        raise FetchError("the server took too long to answer") from None
    except httpx.HTTPError:
        raise FetchError("the URL could not be fetched (connection failed)") from None


def _read(response: httpx.Response, max_bytes: int, deadline: float) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_raw():
        size += len(chunk)
        if size > max_bytes:
            raise FetchError(f"the file is larger than {max_bytes} bytes", too_large=True)
        if time.monotonic() > deadline:  # a server trickling bytes stays under the read timeout
            raise FetchError("the server took too long to answer")
        chunks.append(chunk)
    return b"".join(chunks)
